// Node conditions reach clients as -32050 (retryable), bad params stay -32602: against a real node in this
// process (real LMDB, real HTTP on loopback). A standalone MAIN node does not produce blocks; a node whose
// ledger has begun closing is stopping. Either way the write itself is fine and nothing changes.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { keyPairFromSeed } from "../../../src/protocol/address.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { buildEntryCommit } from "../../../src/protocol/commit.js";
import { marshalEntry } from "../../../src/protocol/entry.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { RpcCode } from "../../../src/rpc/errors.js";
import { type CallResult, startTestNode, type TestNode } from "./nodeHarness.js";

const ecKey = keyPairFromSeed("EC", sha256(new TextEncoder().encode("ledgerd node-conditions test EC key")));

/** A well-formed, correctly signed entry commit (the node's condition, not the commit, decides the answer). */
function commitMessage(): string {
  const entryRaw = marshalEntry({
    version: 0,
    chainId: sha256(new TextEncoder().encode("node conditions")),
    extIds: [],
    content: new TextEncoder().encode(`${process.pid}`),
  });
  return toHex(buildEntryCommit({ entryRaw, milliTime: Date.now(), ecSeed: ecKey.seed }).raw);
}

function refusedAsNodeCondition(r: CallResult, message: string, data: RegExp): void {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.error?.code, RpcCode.NodeUnavailable, r.text);
  assert.equal(r.error?.code, -32050, "the documented number (docs/api.md §errors)");
  assert.equal(r.error?.message, message, r.text);
  assert.match(String(r.error?.data), data, r.text);
}

describe("a standalone MAIN node (not producing)", () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode({ flags: ["-network=MAIN"] });
  });
  after(async () => {
    await t?.stop();
  });

  it("answers a valid write -32050 Not accepting submissions, and it changes nothing", async () => {
    const before = (await t.call("heights")).result;
    const r = await t.call("commit-entry", { message: commitMessage() });
    refusedAsNodeCondition(r, "Not accepting submissions", /standalone node cannot produce blocks on MAIN/);
    assert.deepEqual((await t.call("heights")).result, before);
  });

  it("still answers a malformed write -32602 Invalid params (bad params are checked first, not retryable)", async () => {
    const r = await t.call("commit-entry", { message: "00" });
    assert.equal(r.error?.code, RpcCode.InvalidParams, r.text);
    assert.equal(r.error?.message, "Invalid params", r.text);
  });
});

describe("a LOCAL node whose ledger is closing (the node is stopping)", () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode({ blockTimeSeconds: 3600 });
  });
  after(async () => {
    await t?.stop();
  });

  it("accepts a write before, and answers the same kind of write -32050 Node unavailable once closing", async () => {
    const first = await t.call("commit-entry", { message: commitMessage() });
    // the key is unfunded: a rule of the ledger refuses it, a -32602 naming the balance (not a node condition)
    assert.equal(first.error?.code, RpcCode.InvalidParams, first.text);
    assert.match(String(first.error?.data), /entry credit balance/);
    // the node's stop() closes the ledger after the HTTP server; here the ledger closes first, so a request
    // meets the window a client meets when its write races the node's shutdown
    await t.node.ledger.close();
    const r = await t.call("commit-entry", { message: commitMessage() });
    refusedAsNodeCondition(r, "Node unavailable", /^the node is stopping$/);
  });
});
