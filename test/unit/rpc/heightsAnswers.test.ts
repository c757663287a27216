// Kept `heights` answers (rpc/v2/node.ts, answerCache.ts `KeptHeights`): the same bytes as the answer built per call
// for every id (the long one takes the text path) and in a batch, and never stale — each answer names heights
// between those readers saw just before and just after it, across blocks. A real node with 1-s blocks, over HTTP.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { KeptHeights } from "../../../src/rpc/answerCache.js";
import { JsonText } from "../../../src/rpc/jsonrpc.js";
import { NODE_API_VERSION, NODE_VERSION } from "../../../src/version.js";
import { rawRequest } from "./httpClient.js";
import { startTestNode, type TestNode } from "./nodeHarness.js";

interface HeightsResult {
  directoryblockheight: number;
  leaderheight: number;
  entryblockheight: number;
  entryheight: number;
}

describe("KeptHeights", () => {
  it("gives the kept answer for exactly its four heights, nothing for any other", () => {
    const kept = new KeptHeights();
    assert.equal(kept.get(0, 1, 0, 0), undefined, "nothing kept yet");
    const answer = JsonText.remembered({ h: 1 });
    kept.set(5, 6, 5, 4, answer);
    assert.equal(kept.get(5, 6, 5, 4), answer);
    const others: [number, number, number, number][] = [
      [4, 6, 5, 4],
      [5, 7, 5, 4],
      [5, 6, 6, 4],
      [5, 6, 5, 5],
    ];
    for (const [d, l, eb, e] of others) assert.equal(kept.get(d, l, eb, e), undefined, `not for ${d},${l},${eb},${e}`);
    const next = JsonText.remembered({ h: 2 });
    kept.set(6, 7, 6, 6, next);
    assert.equal(kept.get(6, 7, 6, 6), next);
    assert.equal(kept.get(5, 6, 5, 4), undefined, "the older answer is dropped");
  });
});

describe("heights answers over HTTP", () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode({ blockTimeSeconds: 1 });
  });
  after(async () => {
    await t.stop();
  });

  const body = (id: unknown, method: string) => JSON.stringify({ jsonrpc: "2.0", id, method });
  const answer = (id: unknown, result: unknown) =>
    `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${JSON.stringify(result)}}`;
  /** the heights readers see now (the node runs in this process), as `heights` says them */
  const visible = (): HeightsResult => {
    const h = t.node.server.context.ledger.heights();
    return {
      directoryblockheight: h.directoryBlockHeight,
      leaderheight: h.leaderHeight,
      entryblockheight: h.entryBlockHeight,
      entryheight: h.entryHeight,
    };
  };
  const IDS = [2, "a string id", null, 9_007_199_254_740_991, "z".repeat(40), "y".repeat(200), 2];

  it("answers properties with the same bytes for every id, alone and in a batch", async () => {
    const result = { nodeversion: NODE_VERSION, nodeapiversion: NODE_API_VERSION };
    for (const id of IDS) {
      const a = await rawRequest(t.base, { body: body(id, "properties") });
      assert.equal(a.status, 200);
      assert.equal(a.text, answer(id, result), `id ${JSON.stringify(id)}`);
    }
    const batch = await rawRequest(t.base, { body: `[${body(4, "properties")},${body("x", "properties")}]` });
    assert.equal(batch.text, `[${answer(4, result)},${answer("x", result)}]`);
  });

  it("answers heights with the same bytes as built per call, and moves with every block, never stale", async () => {
    const start = visible().directoryblockheight;
    let last = -1;
    let answers = 0;
    const deadline = Date.now() + 30_000;
    while (last < start + 3) {
      assert.ok(Date.now() < deadline, "three blocks within 30 s");
      const id = IDS[answers % IDS.length];
      const seenBefore = visible();
      const a = await rawRequest(t.base, { body: body(id, "heights") });
      const seenAfter = visible();
      assert.equal(a.status, 200);
      const result = (JSON.parse(a.text) as { result: HeightsResult }).result;
      if (seenBefore.directoryblockheight === seenAfter.directoryblockheight)
        assert.equal(a.text, answer(id, seenBefore), "the heights of the moment, in the bytes built per call");
      else
        assert.ok(
          result.directoryblockheight >= seenBefore.directoryblockheight &&
            result.directoryblockheight <= seenAfter.directoryblockheight,
          "a height between the two seen around it",
        );
      assert.ok(result.directoryblockheight >= last, "never back");
      last = result.directoryblockheight;
      answers++;
      const batch = await rawRequest(t.base, { body: `[${body(1, "heights")},${body(2, "properties")}]` });
      const [h] = JSON.parse(batch.text) as [{ result: HeightsResult }];
      assert.ok(h.result.directoryblockheight >= last, "a batch answers the same heights");
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(answers >= 6, `answered ${answers} times across the blocks`);
  });
});
