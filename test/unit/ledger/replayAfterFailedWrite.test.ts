/**
 * The replay that rebuilds the state after a failed journal write (replay.ts with `cleanup: false`; ledger.ts
 * `rollBack`; docs/ledger.md §5 "Failed write"): the disk may still be full, so that rebuild reads only — the
 * stale records below the open height and the records beyond it stay where they are, and nothing says they
 * were removed — until the recovery, once the disk takes writes again, replays with cleanup and removes them.
 *
 * The failure is real, as in journalFailure.test.ts: this process's file-size limit (RLIMIT_FSIZE, prlimit on
 * its own pid) is lowered to the journal file's size, so the next group commit's page writes fail (EFBIG).
 * Real ledger over LMDB in a temp directory; the stale records are written with the store's own append.
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { encodeMessage } from "../../../src/ledger/messages.js";
import { limitFileSize, NO_PRLIMIT } from "../../support/fileSizeLimit.js";
import { waitFor } from "../../support/waitFor.js";
import {
  cleanup,
  closeNode,
  finishBlock,
  firstEntry,
  largestJournalFile,
  ManualClock,
  openNode,
  tempDir,
} from "./harness.js";
import { rejectsWith } from "./support.js";

const skip = NO_PRLIMIT;

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
/** The log lines of a replay that removed journal records. */
const REMOVALS = new Set([
  "removed journal records of saved heights",
  "removed journal records beyond the open height",
]);

describe("the rebuild after a failed journal write", { skip }, () => {
  after(() => {
    if (skip === false) limitFileSize("unlimited");
  });

  test("removes no journal record while the disk may be full; the recovery removes the stale ones", async () => {
    const n = openNode(tempDir("ledgerd-rollback-"), { clock: new ManualClock(T0) });
    try {
      await finishBlock(n);
      await n.ledger.flush();
      const open = n.ledger.openBlock().height;
      const saved = open - 1;
      // what a cut-short cleanup and an unacknowledged write leave: a record of a saved height (not a held
      // reveal) and one beyond the open height
      await n.store.appendJournal(saved, 0, encodeMessage({ kind: "endOfMinute", timeMs: T0, minute: 3 }));
      await n.store.appendJournal(open + 1, 0, encodeMessage({ kind: "endOfMinute", timeMs: T0, minute: 0 }));
      const stale = (): number[][] => [
        ...n.store.journalRecordsBelow(open).map((r) => [r.height, r.seq]),
        ...n.store.journalRecords(open + 1).map((r) => [r.height, r.seq]),
      ];
      assert.deepEqual(stale(), [
        [saved, 0],
        [open + 1, 0],
      ]);

      // one group commit of held reveals (first entries, no commit) larger than the journal file may grow
      const reveals = Array.from({ length: 40 }, (_, i) => firstEntry(["rollback", String(i)], "x".repeat(9000)).raw);
      limitFileSize(largestJournalFile(n.store.path));
      try {
        const outcomes = await Promise.allSettled(reveals.map((r) => n.ledger.submitReveal(r)));
        // every refusal is answered once the state is rebuilt from disk: look while the disk still refuses
        for (const o of outcomes) {
          assert.equal(o.status, "rejected", "a write of the failed group was acknowledged");
          await rejectsWith(Promise.reject((o as PromiseRejectedResult).reason), "STORAGE_FULL");
        }
        assert.ok(
          n.log.lines.some((l) => l.msg === "dropped the messages whose journal write failed"),
          "the state was rebuilt from disk",
        );
        assert.deepEqual(
          n.log.lines.filter((l) => l.msg === "rebuilding the state from disk failed" || REMOVALS.has(l.msg)),
          [],
        );
        assert.deepEqual(
          stale(),
          [
            [saved, 0],
            [open + 1, 0],
          ],
          "the rebuild removed journal records",
        );
        assert.deepEqual(n.ledger.holdingQueue(), [], "the refused reveals are not held");
      } finally {
        limitFileSize("unlimited");
      }

      // the recovery probe: once the disk takes writes, the state is rebuilt with cleanup
      await waitFor("writes resumed", () => (n.ledger.writeRefusal() === undefined ? true : undefined), 20_000);
      assert.deepEqual(stale(), []);
      assert.deepEqual(
        n.log.lines.filter((l) => REMOVALS.has(l.msg)).map((l) => [l.level, l.msg, l.fields]),
        [
          ["info", "removed journal records of saved heights", { count: 1 }],
          ["warn", "removed journal records beyond the open height", { count: 1, open }],
        ],
      );
    } finally {
      limitFileSize("unlimited");
      await closeNode(n).catch(() => {});
      cleanup(n.dir);
    }
  });
});
