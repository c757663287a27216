// `entry-block` answers written from the saved block's bytes and kept (rpc/v2/blocks.ts, answerCache.ts): the
// result is the JSON of the decoded block for its keyMR and its full hash, the same bytes for every id, in a batch
// and after the answer is kept; a kept answer still refuses a bad `noraw`; malformed and unknown keys keep their
// errors.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { entryBlockHashes } from "../../../src/protocol/eblock.js";
import { entryBlockToJson } from "../../../src/protocol/json/entryBlockJson.js";
import { addEntry, createChain, type RpcCall } from "../../support/ledgerWrites.js";
import { rawRequest } from "./httpClient.js";
import { fundedEcKey, nodeForSuite, type TestNode, waitFor } from "./nodeHarness.js";

describe("entry-block answers over HTTP", () => {
  let t: TestNode;
  let call: RpcCall;
  nodeForSuite((node, caller) => {
    t = node;
    call = caller;
  });

  const body = (id: unknown, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method: "entry-block", params });
  const kept = () => t.node.server.context.entryBlockAnswers!.size.answers;

  it("answers the decoded block's JSON by keyMR and full hash, keeps it once, the same bytes for every id", async () => {
    const ec = await fundedEcKey(call, "ledgerd entry-block answers test EC key", 100);
    const { chainId } = await createChain(call, ec, `entry-block answers ${Date.now()}`);
    for (let i = 0; i < 3; i++) await addEntry(call, ec, chainId, `entry ${i}`, { extIds: [`e${i}`] });
    const keymr = await waitFor("the chain's first entry block saved", async () => {
      const h = (await call("chain-head", { chainid: chainId })) as { chainhead: string; chaininprocesslist: boolean };
      return h.chainhead !== "" && !h.chaininprocesslist ? h.chainhead : undefined;
    });

    const ledger = t.node.server.context.ledger;
    const stored = ledger.entryBlockByHash(fromHex(keymr))!;
    const dblock = ledger.directoryBlockByHeight(stored.block.dbHeight)!;
    const expected = JSON.stringify(entryBlockToJson(stored.block, dblock.block.timestamp));
    assert.ok(JSON.parse(expected).entrylist.length >= 1);
    const fullHash = toHex(entryBlockHashes(stored.block).fullHash);

    // the head shows while its block is being saved (answered, not kept); once the save commits, it is kept
    const before = kept();
    await waitFor("the block's answer kept", async () => {
      const a = await rawRequest(t.base, { body: body(1, { keymr }) });
      assert.equal(a.text, `{"jsonrpc":"2.0","id":1,"result":${expected}}`, "the same answer being saved or kept");
      return kept() === before + 1 ? true : undefined;
    });
    for (const [id, params] of [
      [2, { keymr }],
      ["a string id", { keymr, noraw: true }],
      [null, { keymr: keymr.toUpperCase() }],
      [9_007_199_254_740_991, { keymr: fullHash }],
      ["z".repeat(40), { keymr }],
    ] as const) {
      const a = await rawRequest(t.base, { body: body(id, params) });
      assert.equal(a.text, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${expected}}`, `id ${id}`);
    }
    assert.equal(kept(), before + 3, "one answer per hash text asked: the keyMR, its upper case, the full hash");
    const batch = await rawRequest(t.base, { body: `[${body(4, { keymr })},${body(5, { keymr: fullHash })}]` });
    assert.equal(
      batch.text,
      `[{"jsonrpc":"2.0","id":4,"result":${expected}},{"jsonrpc":"2.0","id":5,"result":${expected}}]`,
    );

    // a kept answer does not skip the params' checks
    const badNoraw = JSON.parse((await rawRequest(t.base, { body: body(6, { keymr, noraw: "yes" }) })).text);
    assert.equal(badNoraw.error.code, -32602);
  });

  it("still refuses malformed and unknown keys with their own errors", async () => {
    const short = JSON.parse((await rawRequest(t.base, { body: body(1, { keymr: "ab" }) })).text);
    assert.equal(short.error.code, -32602);
    assert.equal(short.error.data, "keymr: expected 64 hex characters, got 2");
    const unknown = JSON.parse((await rawRequest(t.base, { body: body(1, { keymr: "cd".repeat(32) }) })).text);
    assert.equal(unknown.error.code, -32008);
    // another kind of block's key: not an entry block
    const dblockKey = (await call("heights")) as { directoryblockheight: number };
    const d = (await call("dblock-by-height", { height: dblockKey.directoryblockheight })) as {
      dblock: { keymr: string };
    };
    const other = JSON.parse((await rawRequest(t.base, { body: body(1, { keymr: d.dblock.keymr }) })).text);
    assert.equal(other.error.code, -32008);
  });
});
