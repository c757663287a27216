/**
 * The ledger's rejections as a log or a console shows them (errors.ts; docs/testing.md §Mutation testing):
 * a LedgerError is named `LedgerError` and its message is its code, so `String(e)` and the logger's
 * `{name, message}` (log/logger.ts) say which rule refused. Real ledger over LMDB in a temp directory.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { LedgerError } from "../../../src/ledger/errors.js";
import { chainCommit, cleanup, closeNode, ecKeyN, firstEntry, ManualClock, openNode, tempDir } from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

test("a rejection reads 'LedgerError: <code>'", async () => {
  const dir = tempDir();
  const n = openNode(dir, { clock: new ManualClock(T0) });
  try {
    // an EC key that never bought credits pays for nothing
    const commit = chainCommit(firstEntry(["errors edges"], "x").raw, T0, ecKeyN(3));
    const e = await n.ledger.submitCommit(commit).then(
      () => assert.fail("a commit from an empty EC key was accepted"),
      (err: unknown) => err,
    );
    assert.ok(e instanceof LedgerError);
    assert.deepEqual([e.name, e.message, String(e)], ["LedgerError", "EC_BALANCE_LOW", "LedgerError: EC_BALANCE_LOW"]);
  } finally {
    await closeNode(n);
    cleanup(dir);
  }
});
