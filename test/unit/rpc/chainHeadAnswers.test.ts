// Kept `chain-head` answers (rpc/v2/entries.ts, answerCache.ts): the same bytes as the answer built per call for
// every id, and never a stale head — every answer given after the block that extends the chain became visible
// names the new head, every answer given before it the old one; a chain ID asked in upper case answers as in lower
// case, the open block's entries included. A real node with 2-s blocks, over HTTP.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AnswerCache } from "../../../src/rpc/answerCache.js";
import { JsonText } from "../../../src/rpc/jsonrpc.js";
import { addEntry, createChain, type RpcCall } from "../../support/ledgerWrites.js";
import { rawRequest } from "./httpClient.js";
import { fundedEcKey, nodeForSuite, type TestNode, waitFor } from "./nodeHarness.js";

interface ChainHeadResult {
  chainhead: string;
  chaininprocesslist: boolean;
}

describe("AnswerCache.delete", () => {
  it("forgets a kept answer and its bytes, so a replacement is kept in its place", () => {
    const cache = new AnswerCache(16_000);
    const view = (n: number) => JsonText.remembered({ chainhead: "a".repeat(n), chaininprocesslist: false });
    cache.set("k", view(64));
    cache.set("other", view(64));
    const before = cache.size;
    cache.delete("k");
    assert.equal(cache.get("k"), undefined);
    assert.ok(cache.get("other") !== undefined, "only that key is forgotten");
    assert.equal(cache.size.answers, before.answers - 1);
    assert.ok(cache.size.bytes < before.bytes && cache.size.bytes > 0);
    const afterDelete = cache.size;
    cache.delete("k"); // nothing kept for it now: nothing changes
    assert.deepEqual(cache.size, afterDelete);
    const replacement = view(0);
    cache.set("k", replacement);
    assert.equal(cache.get("k"), replacement);
    assert.equal(cache.size.answers, 2);
  });
});

describe("chain-head answers over HTTP", () => {
  let t: TestNode;
  let call: RpcCall;
  nodeForSuite((node, caller) => {
    t = node;
    call = caller;
  });

  const body = (id: unknown, chainid: string) =>
    JSON.stringify({ jsonrpc: "2.0", id, method: "chain-head", params: { chainid } });
  const answer = (id: unknown, result: ChainHeadResult) =>
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(result)}}`;
  const head = async (chainid: string): Promise<ChainHeadResult> => {
    const a = await rawRequest(t.base, { body: body(1, chainid) });
    assert.equal(a.status, 200, a.text);
    return (JSON.parse(a.text) as { result: ChainHeadResult }).result;
  };
  /** the height of the saved block readers see now (the node runs in this process) */
  const visibleHeight = () => t.node.server.context.ledger.heights().directoryBlockHeight;
  /** the keyMR of `chainid`'s entry block at `height`, or undefined when that block does not hold the chain */
  const entryBlockAt = async (height: number, chainid: string): Promise<string | undefined> => {
    const d = (await call("dblock-by-height", { height })) as {
      dblock: { dbentries: { chainid: string; keymr: string }[] };
    };
    return d.dblock.dbentries.find((e) => e.chainid === chainid)?.keymr;
  };

  it("answers with the same bytes as the answer built per call, then moves with the chain, never stale", async () => {
    const ec = await fundedEcKey(call, "ledgerd chain-head answers test EC key", 100);
    const { chainId } = await createChain(call, ec, `chain-head answers ${Date.now()}`);
    const first = await waitFor("the chain saved", async () => {
      const r = await head(chainId);
      return r.chainhead !== "" && !r.chaininprocesslist ? r : undefined;
    });

    // kept now: the same bytes for every id (the long one takes the text path), either case, in a batch
    for (const id of [2, "a string id", null, 9_007_199_254_740_991, "z".repeat(40), 2]) {
      const a = await rawRequest(t.base, { body: body(id, chainId) });
      assert.equal(a.status, 200);
      assert.equal(a.text, answer(id, first), `id ${JSON.stringify(id)}`);
    }
    const upper = await rawRequest(t.base, { body: body(3, chainId.toUpperCase()) });
    assert.equal(upper.text, answer(3, first));
    const batch = await rawRequest(t.base, { body: `[${body(4, chainId)},${body(5, chainId)}]` });
    assert.equal(batch.text, `[${answer(4, first)},${answer(5, first)}]`);

    // an entry for the chain: every answer is checked against the height readers saw before and after it
    const from = visibleHeight();
    await addEntry(call, ec, chainId, "the next entry");
    const seen: { before: number; result: ChainHeadResult; after: number }[] = [];
    await waitFor("the chain's new head", async () => {
      const b = visibleHeight();
      const result = await head(chainId);
      const upperResult = await head(chainId.toUpperCase()); // kept by its own text, read with the chain's hex
      const a = visibleHeight();
      if (a === b) assert.deepEqual(upperResult, result, "the upper-case text answers as the lower-case one");
      seen.push({ before: b, result, after: a });
      return result.chainhead !== first.chainhead ? true : undefined;
    });
    let extended: number | undefined;
    for (let h = from; h <= visibleHeight() && extended === undefined; h++)
      if ((await entryBlockAt(h, chainId)) !== undefined && h > from) extended = h;
    assert.ok(extended !== undefined, "a block after the entry holds the chain");
    const next = await entryBlockAt(extended, chainId);
    for (const s of seen) {
      if (s.before >= extended) assert.deepEqual(s.result, { chainhead: next, chaininprocesslist: false });
      if (s.after < extended) assert.equal(s.result.chainhead, first.chainhead, "the old head until then");
    }
    for (const s of seen)
      if (s.result.chainhead === first.chainhead)
        assert.ok(s.result.chaininprocesslist, "the old head answered with the entry in the open block");
    const moved = await rawRequest(t.base, { body: body(6, chainId) });
    assert.equal(moved.text, answer(6, { chainhead: next!, chaininprocesslist: false }));
  });

  it("still refuses malformed and unknown chain IDs with their own errors", async () => {
    const short = JSON.parse((await rawRequest(t.base, { body: body(1, "ab") })).text);
    assert.equal(short.error.code, -32602);
    assert.equal(short.error.data, "chainid: expected 64 hex characters, got 2");
    const unknown = JSON.parse((await rawRequest(t.base, { body: body(1, "cd".repeat(32)) })).text);
    assert.equal(unknown.error.code, -32009);
    const unknownAgain = JSON.parse((await rawRequest(t.base, { body: body(1, "cd".repeat(32)) })).text);
    assert.equal(unknownAgain.error.code, -32009);
  });
});
