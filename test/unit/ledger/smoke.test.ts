import assert from "node:assert/strict";
import { test } from "node:test";
import { cleanup, closeNode, finishBlock, openNode, tempDir, sand, rcdHashOf, buyEC, ecKey, firstEntry, chainCommit } from "./harness.js";

test("smoke", async () => {
  const dir = tempDir();
  try {
    const n = openNode(dir);
    console.log(n.ledger.heights(), n.ledger.assetBalance(rcdHashOf(sand)));
    await buyEC(n, ecKey, 100n);
    console.log(n.ledger.ecBalance(ecKey.publicKey));
    const fe = firstEntry(["a", "b"], "hello");
    const c = chainCommit(fe.raw, n.clock.ms);
    await n.ledger.submitCommit(c);
    await n.ledger.submitReveal(fe.raw);
    await finishBlock(n);
    console.log(n.ledger.heights(), n.ledger.ecBalance(ecKey.publicKey), n.ledger.chainHead(fe.chainId));
    await finishBlock(n);
    console.log(n.ledger.heights(), n.ledger.stats());
    await closeNode(n);
    assert.ok(true);
  } finally { cleanup(dir); }
});
