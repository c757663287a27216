/**
 * The journal replay at start, exactly (replay.ts; docs/testing.md §Mutation testing): what is replayed,
 * counted and logged; a damaged record skipped with the rest replayed; records beyond the open height
 * removed; records below it sorted into held reveals restored (with their record) and stale ones removed,
 * at the one-hour edge; a height closed but not saved closed again and saved. Real ledger over LMDB in a
 * temp directory; journal records a crash or damage would leave are written with the store's own append.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HOLD_EXPIRY_MS } from "../../../src/ledger/constants.js";
import { encodeMessage, type LogMessage } from "../../../src/ledger/messages.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { entryHash } from "../../../src/protocol/entry.js";
import {
  assetKey,
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  endMinutes,
  finishBlock,
  firstEntry,
  ManualClock,
  openNode,
  payment,
  type TestNode,
  tempDir,
  UNIT,
} from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
const REPLAY_LOGS = new Set([
  "replayed the journal",
  "journal message not replayed",
  "journal records after the close of their height, ignored",
  "removed journal records beyond the open height",
  "removed journal records of saved heights",
  "restored held reveals from the journal",
]);

/** The replay's log lines of `n` (level, message, fields). */
function replayLog(n: TestNode): { level: string; msg: string; fields?: Record<string, unknown> }[] {
  return n.log.lines.filter((l) => REPLAY_LOGS.has(l.msg));
}

/** Reopen the ledger over the same store, at the same clock time. */
async function reopen(n: TestNode): Promise<TestNode> {
  await n.ledger.flush();
  await closeNode(n);
  return openNode(n.dir, { clock: new ManualClock(n.clock.ms) });
}

async function append(n: TestNode, height: number, seq: number, m: LogMessage | Uint8Array): Promise<void> {
  await n.store.appendJournal(height, seq, m instanceof Uint8Array ? m : encodeMessage(m));
}

let unique = 0;
function newEntry(): Uint8Array {
  return firstEntry(["replay edges", String(unique++)], "content").raw;
}

describe("journal replay", () => {
  test("a restart replays the open height's records: the same open block, counted, logged once", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      await n.ledger.submitTransaction(
        payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(1), amount: UNIT }] }),
      );
      await endMinutes(n, 2);
      const h = n.ledger.openBlock().height;
      const count = n.store.journalRecords(h).length;
      assert.equal(count, 3);
      const open = n.ledger.openBlock();
      n = await reopen(n);
      assert.deepEqual(n.ledger.openBlock(), open);
      assert.equal(n.ledger.openBlockSizes().transactions, 1);
      assert.equal(n.ledger.stats().replayedMessages, 3);
      assert.deepEqual(replayLog(n), [
        { level: "info", msg: "replayed the journal", fields: { height: h, messages: 3, minute: 2 } },
      ]);
      // the next record goes after the replayed ones
      await endMinutes(n, 1);
      assert.deepEqual(
        n.store.journalRecords(h).map((r) => r.seq),
        [0, 1, 2, 3],
      );
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a fresh store replays nothing and logs nothing", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      assert.deepEqual(replayLog(n), []);
      n = await reopen(n);
      assert.deepEqual(replayLog(n), []);
      assert.equal(n.ledger.stats().replayedMessages, 0);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a damaged record is logged and skipped; the records after it replay, and new ones follow the last", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      await endMinutes(n, 1);
      const h = n.ledger.openBlock().height;
      assert.deepEqual(
        n.store.journalRecords(h).map((r) => r.seq),
        [0],
      );
      await append(n, h, 1, Uint8Array.of(9, 0, 0, 0, 0, 0, 0));
      await append(n, h, 2, { kind: "endOfMinute", timeMs: n.clock.advance(600), minute: 1 });
      n = await reopen(n);
      assert.equal(n.ledger.openBlock().minute, 2);
      assert.equal(n.ledger.stats().replayedMessages, 2);
      assert.deepEqual(replayLog(n), [
        {
          level: "error",
          msg: "journal message not replayed",
          fields: { height: h, seq: 1, error: "ProtocolError: journal message.kind: unknown kind 9" },
        },
        { level: "info", msg: "replayed the journal", fields: { height: h, messages: 2, minute: 2 } },
      ]);
      await endMinutes(n, 1);
      assert.deepEqual(
        n.store.journalRecords(h).map((r) => r.seq),
        [0, 1, 2, 3],
      );
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("records beyond the open height (never acknowledged) are removed at start, with a warning", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      await append(n, h + 1, 0, { kind: "endOfMinute", timeMs: T0, minute: 0 });
      await append(n, h + 3, 5, { kind: "endOfMinute", timeMs: T0, minute: 0 });
      n = await reopen(n);
      assert.deepEqual(replayLog(n), [
        { level: "warn", msg: "removed journal records beyond the open height", fields: { count: 2, open: h } },
      ]);
      assert.deepEqual(n.store.journalRecords(h + 1), []);
      assert.deepEqual(n.store.journalRecords(h + 3), []);
      assert.equal(n.ledger.openBlock().minute, 0);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("records below the open height: held reveals restored with their record, up to one hour old; the rest removed", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0 + 2 * HOLD_EXPIRY_MS) });
    try {
      await buyEC(n, ecKey, 100n);
      const paid = newEntry();
      await n.ledger.submitCommit(chainCommit(paid, n.clock.ms));
      await n.ledger.submitReveal(paid);
      await finishBlock(n);
      await n.ledger.flush();
      const saved = n.ledger.openBlock().height - 1;
      assert.deepEqual(n.store.journalRecords(saved), [], "the cleanup removed the saved height's records");
      const start = n.ledger.openBlock().startMs;
      const fresh = newEntry();
      const edge = newEntry();
      const expired = newEntry();
      // by hand, at the saved height: what a cut-short cleanup or a held reveal leaves there
      await append(n, saved, 0, { kind: "endOfMinute", timeMs: start, minute: 3 }); // not a reveal: removed
      await append(n, saved, 1, Uint8Array.of(2, 0, 0)); // damaged: logged, removed
      await append(n, saved, 2, { kind: "reveal", timeMs: start - 10, entryRaw: paid }); // in a saved block: removed
      await append(n, saved, 3, { kind: "reveal", timeMs: start - HOLD_EXPIRY_MS - 1, entryRaw: expired }); // swept: removed
      await append(n, saved, 4, { kind: "reveal", timeMs: start - HOLD_EXPIRY_MS, entryRaw: edge }); // exactly 1 h: kept
      await append(n, saved, 5, { kind: "reveal", timeMs: start - 5, entryRaw: fresh }); // kept
      await append(n, saved, 6, { kind: "reveal", timeMs: start - 5, entryRaw: Uint8Array.of(0, 1) }); // not an entry: logged, removed
      n = await reopen(n);
      const log = replayLog(n);
      assert.equal(log.length, 4);
      assert.deepEqual(log[0], {
        level: "error",
        msg: "journal message not replayed",
        fields: {
          height: saved,
          seq: 1,
          error: "ProtocolError: journal message.time: needs 4 byte(s) at offset 3, only 0 left",
        },
      });
      assert.deepEqual(log[1], {
        level: "error",
        msg: "journal message not replayed",
        fields: { height: saved, seq: 6, error: "LedgerError: INVALID" },
      });
      assert.deepEqual(log.slice(2), [
        { level: "info", msg: "removed journal records of saved heights", fields: { count: 5 } },
        { level: "info", msg: "restored held reveals from the journal", fields: { count: 2 } },
      ]);
      assert.deepEqual(
        n.store.journalRecordsBelow(saved + 1).map((r) => [r.height, r.seq]),
        [
          [saved, 4],
          [saved, 5],
        ],
      );
      assert.deepEqual(
        n.ledger.holdingQueue().map((m) => [m.kind, toHex(m.hash), m.receivedMs, m.expiresMs]),
        [
          ["reveal", toHex(entryHash(edge)), start - HOLD_EXPIRY_MS, start],
          ["reveal", toHex(entryHash(fresh)), start - 5, start - 5 + HOLD_EXPIRY_MS],
        ],
      );
      // restored with their record, which goes once the reveal leaves the queue: paid into a saved block
      // (fresh), expired at the next sweep (edge, exactly one hour old now)
      await n.ledger.submitCommit(chainCommit(fresh, n.clock.ms));
      await finishBlock(n);
      await n.ledger.flush();
      assert.deepEqual(n.ledger.holdingQueue(), []);
      assert.deepEqual(n.store.journalRecordsBelow(saved + 1), []);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a height closed but not saved is closed again and saved; records after its close are ignored", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      await n.ledger.submitTransaction(
        payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(2), amount: UNIT }] }),
      );
      // the whole block's end-of-minute records, as journaled before a crash that lost the block save
      let seq = n.store.journalRecords(h).length;
      for (let m = 0; m < 10; m++)
        await append(n, h, seq++, { kind: "endOfMinute", timeMs: n.clock.advance(600), minute: m });
      await append(n, h, seq, { kind: "endOfMinute", timeMs: n.clock.advance(1), minute: 0 }); // after the close
      // and the next height's first record
      await append(n, h + 1, 0, { kind: "endOfMinute", timeMs: n.clock.advance(600), minute: 0 });
      n = await reopen(n);
      assert.equal(n.ledger.heights().directoryBlockHeight, h);
      assert.equal(n.ledger.openBlock().height, h + 1);
      assert.equal(n.ledger.openBlock().minute, 1);
      assert.equal(n.ledger.assetBlockByHeight(h)!.block.periods.flat().length, 2, "the coinbase and the payment");
      assert.deepEqual(replayLog(n), [
        {
          level: "error",
          msg: "journal records after the close of their height, ignored",
          fields: { height: h, seq: 11 },
        },
        { level: "info", msg: "replayed the journal", fields: { height: h, messages: 11, minute: 0 } },
        { level: "info", msg: "replayed the journal", fields: { height: h + 1, messages: 1, minute: 1 } },
      ]);
      assert.equal(n.ledger.stats().replayedMessages, 12);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a reveal held in the open height keeps its own record across a restart and the close after it", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      const held = newEntry();
      await n.ledger.submitReveal(held);
      await endMinutes(n, 1);
      const heldSeq = 0;
      assert.deepEqual(
        n.store.journalRecords(h).map((r) => r.seq),
        [heldSeq, 1],
      );
      n = await reopen(n);
      assert.equal(n.ledger.holdingQueue().length, 1);
      await finishBlock(n);
      await n.ledger.flush();
      // the close wrote nothing for it (its record is located again by the replay) and kept its record
      assert.deepEqual(
        n.store.journalRecords(h).map((r) => r.seq),
        [heldSeq],
      );
      assert.deepEqual(n.store.journalRecords(h + 1), []);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a replayed close whose save fails stops the replay: writes refused, saying which block", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      for (let m = 0; m < 10; m++)
        await append(n, h, m, { kind: "endOfMinute", timeMs: n.clock.advance(600), minute: m });
      await append(n, h + 1, 0, { kind: "endOfMinute", timeMs: n.clock.advance(600), minute: 0 });
      await n.ledger.flush();
      await closeNode(n);
      // the disk below the store's free-space reserve: the replayed close cannot be saved
      n = openNode(n.dir, { clock: new ManualClock(n.clock.ms), reserveBytes: Number.MAX_SAFE_INTEGER });
      assert.equal(n.ledger.heights().directoryBlockHeight, h - 1, "not saved");
      const refusing = n.log.lines.filter((l) => l.msg === "refusing writes until the database takes writes again");
      assert.equal(refusing.length, 1);
      assert.match(
        String(refusing[0]!.fields?.reason),
        new RegExp(
          `^closing block ${h} failed: saving block ${h}, closed again from the journal, failed: .* below the reserve `,
        ),
      );
      assert.deepEqual(
        replayLog(n).filter((l) => l.msg !== "removed journal records beyond the open height"),
        [],
        "stopped at the failed save: nothing more replayed or logged as replayed",
      );
      await assert.rejects(n.ledger.endMinute(n.clock.advance(600)), /STORAGE_FULL/);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });
});
