/**
 * A failed write that its caller was told about must not fail every later flush and close of the store.
 *
 * The case found: the journal cleanup after a block save (the removal of the saved height's records; here the
 * rewrite of its file around a held reveal's record, store/journal.ts) fails;
 * the ledger logs it, and the records are harmless (the next start's replay removes them). Until the next
 * journal write, `ledger.flush()` rejected and `LedgerStore.close()` threw the removal's error again
 * ("Commit failed"), before either LMDB environment was closed: a node shutting down right after a failed
 * cleanup left its environments open and exited with an error. The same held for the main environment
 * after a failed recovery probe (the disk still full when the node stops).
 *
 * The disk failures are real: this process's file-size limit (RLIMIT_FSIZE) is lowered with prlimit, as
 * journalFailure.test.ts does. Real ledger over LMDB in a temp directory.
 */
import assert from "node:assert/strict";
import { readdirSync, readlinkSync } from "node:fs";
import { after, describe, test } from "node:test";
import { AckStatus } from "../../../src/ledger/api.js";
import { transactionId } from "../../../src/protocol/transaction.js";
import { limitFileSize, NO_PRLIMIT } from "../../support/fileSizeLimit.js";
import { waitUntil } from "../../support/waitFor.js";
import {
  assetKey,
  cleanup,
  closeNode,
  endMinutes,
  firstEntry,
  ManualClock,
  openNode,
  payment,
  type TestNode,
  tempDir,
  UNIT,
} from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

const skip = NO_PRLIMIT;

/** Files under `dir` this process holds open (an LMDB environment holds its data.mdb and lock.mdb open). */
function openFilesUnder(dir: string): string[] {
  const open: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed meanwhile (the fd of readdirSync itself)
    }
    if (target.startsWith(`${dir}/`)) open.push(target);
  }
  return open;
}

function warnings(n: TestNode, msg: string) {
  return n.log.lines.filter((l) => l.msg === msg);
}

describe("a failed write already reported to its caller", { skip }, () => {
  after(() => {
    if (skip === false) limitFileSize("unlimited");
  });

  test("a failed journal cleanup is logged once; flush and close work at once, and the next start removes the records", async () => {
    const dir = tempDir();
    const n = openNode(dir, { clock: new ManualClock(T0) });
    let reopened: TestNode | undefined;
    try {
      const h = n.ledger.openBlock().height;
      const tx = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(3), amount: UNIT }] });
      await n.ledger.submitTransaction(tx);
      await endMinutes(n, 9);
      // a held reveal (no commit pays it) keeps its record past the close, so the cleanup replaces the height's
      // file with a file of that record alone: a write, which the limit below refuses (a cleanup that only
      // removes files is an unlink, which no file-size limit stops; store/journal.ts)
      await n.ledger.submitReveal(firstEntry(["cleanup failure", "held"], "kept").raw);
      const heldSeq = n.store.journalRecords(h).at(-1)!.seq;
      assert.notEqual(n.store.journalRecords(h).length, 0);
      // the block is saved; from then on no file of this process may grow past its first byte
      n.ledger.setObserver({ accepted: () => {}, blockSaved: () => limitFileSize(1) });
      try {
        await n.ledger.endMinute(n.clock.advance(600)); // resolves once the block is saved
        await waitUntil("the cleanup's failure", () => warnings(n, "journal cleanup failed").length > 0, 10_000, 10);
      } finally {
        limitFileSize("unlimited");
        n.ledger.setObserver(undefined);
      }
      assert.equal(n.store.savedHeight(), h);
      assert.notEqual(n.store.journalRecords(h).length, 0, "the cleanup did not fail");

      // no write in between: the failure was reported (logged) once and is not the flush's nor the close's
      await n.ledger.flush();
      assert.notDeepEqual(openFilesUnder(dir), [], "the store holds its files open while it is open");
      await closeNode(n);
      assert.deepEqual(openFilesUnder(dir), [], "the closed store still holds files of its directory open");
      assert.equal(warnings(n, "journal cleanup failed").length, 1);

      reopened = openNode(dir, { clock: n.clock });
      assert.deepEqual(
        reopened.store.journalRecords(h).map((r) => r.seq),
        [heldSeq],
        "the saved height's records are still in the journal",
      );
      assert.equal(warnings(reopened, "removed journal records of saved heights").length, 1);
      assert.equal(reopened.store.savedHeight(), h);
      assert.equal(reopened.ledger.transactionAck(transactionId(tx)).status, AckStatus.DBlockConfirmed);
    } finally {
      limitFileSize("unlimited");
      await closeNode(reopened ?? n).catch(() => {});
      cleanup(dir);
    }
  });

  test("a probe refused by the disk: flush and close work once the caller has seen the refusal", async () => {
    const dir = tempDir();
    const n = openNode(dir, { clock: new ManualClock(T0) });
    let reopened: TestNode | undefined;
    try {
      const tx = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(4), amount: UNIT }] });
      await n.ledger.submitTransaction(tx);
      limitFileSize(1);
      try {
        await assert.rejects(n.store.probeWrite(), "the disk refused nothing");
      } finally {
        limitFileSize("unlimited");
      }
      await n.store.flushed();
      await closeNode(n);
      assert.deepEqual(openFilesUnder(dir), [], "the closed store still holds files of its directory open");

      // the acknowledged write is kept
      reopened = openNode(dir, { clock: n.clock });
      assert.equal(reopened.ledger.transactionAck(transactionId(tx)).status, AckStatus.TransactionACK);
    } finally {
      limitFileSize("unlimited");
      await closeNode(reopened ?? n).catch(() => {});
      cleanup(dir);
    }
  });
});
