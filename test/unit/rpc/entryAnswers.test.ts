// Kept answers of saved entries (rpc/answerCache.ts): the same bytes as the answer built per call, only entries
// in a committed block kept, malformed hashes still refused, and the byte budget holding.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { AnswerCache } from "../../../src/rpc/answerCache.js";
import { JsonText } from "../../../src/rpc/jsonrpc.js";
import { addEntry, createChain, type RpcCall } from "../../support/ledgerWrites.js";
import { rawRequest } from "./httpClient.js";
import { fundedEcKey, nodeForSuite, type TestNode, waitFor } from "./nodeHarness.js";

describe("AnswerCache", () => {
  const view = (n: number) => JsonText.remembered({ content: "a".repeat(n) });

  it("keeps answers within its byte budget, oldest first out, and never one over a sixteenth of it", () => {
    const cache = new AnswerCache(16_000);
    for (let i = 0; i < 40; i++) cache.set(`k${i}`, view(100));
    const { answers, bytes } = cache.size;
    assert.ok(bytes <= 16_000 && answers < 40 && answers > 10, `${answers} answers, ${bytes} bytes`);
    assert.equal(cache.get("k0"), undefined, "the oldest went first");
    assert.ok(cache.get("k39") !== undefined, "the newest is kept");
    cache.set("big", view(2000));
    assert.equal(cache.get("big"), undefined, "an answer over a sixteenth of the budget is not kept");
    const first = cache.get("k39");
    cache.set("k39", view(5));
    assert.equal(cache.get("k39"), first, "a key is kept once");
  });
});

describe("entry answers over HTTP", () => {
  let t: TestNode;
  let call: RpcCall;
  nodeForSuite((node, caller) => {
    t = node;
    call = caller;
  });

  const body = (id: unknown, hash: string) => JSON.stringify({ jsonrpc: "2.0", id, method: "entry", params: { hash } });
  const kept = () => t.node.server.context.entryAnswers!.size.answers;

  it("answers a pending entry per call, a saved one from the cache with the same bytes for every id", async () => {
    const ec = await fundedEcKey(call, "ledgerd entry answers test EC key", 100);
    const { chainId } = await createChain(call, ec, `entry answers ${Date.now()}`);
    const { entryHash } = await addEntry(call, ec, chainId, "kept answer ✓", { extIds: ["x", "y"] });

    // pending (acknowledged, not in a saved block): answered, not kept
    const pending = await rawRequest(t.base, { body: body(1, entryHash) });
    assert.equal(pending.status, 200);
    const result = pending.text.slice('{"jsonrpc":"2.0","id":1,"result":'.length, -1);
    assert.deepEqual(JSON.parse(result), {
      chainid: chainId,
      content: Buffer.from("kept answer ✓").toString("hex"),
      extids: ["78", "79"],
    });
    const before = kept();
    await rawRequest(t.base, { body: body(1, entryHash) });
    // `committed` only ever turns true: still false now, it was false for the read, which must not have kept it
    const committed = t.node.server.context.ledger.entry(Buffer.from(entryHash, "hex"))?.committed;
    assert.ok(committed === true || kept() === before, "a pending entry's answer is not kept");

    // saved, and its block's save committed: read once more, it is kept
    await waitFor("the entry's answer kept", async () => {
      const a = await rawRequest(t.base, { body: body(1, entryHash) });
      assert.equal(a.text, pending.text, "the same answer pending, saved or kept");
      return kept() === before + 1 ? true : undefined;
    });

    for (const id of [2, "a string id", null, 9_007_199_254_740_991, "z".repeat(40), 2]) {
      const a = await rawRequest(t.base, { body: body(id, entryHash) });
      assert.equal(a.status, 200);
      assert.equal(a.text, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`, `id ${id}`);
    }
    assert.equal(kept(), before + 1, "kept once");
    const upper = await rawRequest(t.base, { body: body(3, entryHash.toUpperCase()) });
    assert.equal(upper.text, `{"jsonrpc":"2.0","id":3,"result":${result}}`);
    const batch = await rawRequest(t.base, { body: `[${body(4, entryHash)},${body(5, entryHash)}]` });
    assert.equal(
      batch.text,
      `[{"jsonrpc":"2.0","id":4,"result":${result}},{"jsonrpc":"2.0","id":5,"result":${result}}]`,
    );
  });

  it("still refuses malformed and unknown hashes with their own errors", async () => {
    const short = JSON.parse((await rawRequest(t.base, { body: body(1, "ab") })).text);
    assert.equal(short.error.code, -32602);
    assert.equal(short.error.data, "hash: expected 64 hex characters, got 2");
    const unknown = JSON.parse((await rawRequest(t.base, { body: body(1, "cd".repeat(32)) })).text);
    assert.equal(unknown.error.code, -32008);
  });
});
