/**
 * The per-source share of the holding queue counts only reveals that would be held (rules.ts wouldHold, the
 * one survivor of the b824bc0 mutation run of ledger/rules.ts, docs/testing.md): a source at its share may
 * still reveal an entry whose commit is already paid, since that reveal is applied at once and never held.
 * Real LMDB, real keys and signatures.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HOLDING_SOURCE_SHARE } from "../../../src/ledger/holdingPolicy.js";
import { buyEC, chainCommit, cleanup, closeNode, ecKey, firstEntry, openNode, tempDir } from "./harness.js";
import { rejectsWith } from "./support.js";

describe("holding queue share", () => {
  test("a source at its share may reveal an entry whose commit is paid", async () => {
    const dir = tempDir();
    const n = openNode(dir, { holdingLimit: 3 * HOLDING_SOURCE_SHARE });
    try {
      const from = "203.0.113.9";
      for (let i = 0; i < 3; i++)
        await n.ledger.submitReveal(firstEntry(["share edge", `held ${i}`], "x").raw, { from });
      await rejectsWith(
        n.ledger.submitReveal(firstEntry(["share edge", "one more"], "x").raw, { from }),
        "HOLDING_QUEUE_FULL",
      );
      await buyEC(n, ecKey, 100n);
      const paid = firstEntry(["share edge", "paid"], "x");
      await n.ledger.submitCommit(chainCommit(paid.raw, n.clock.ms));
      const { chainId } = await n.ledger.submitReveal(paid.raw, { from });
      assert.deepEqual(chainId, paid.chainId);
      assert.equal(n.ledger.holdingQueue().length, 3, "the paid reveal was applied, not held");
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });
});
