/**
 * The block close around its durability (close.ts; docs/testing.md §Mutation testing, docs/ledger.md §5):
 * a single node shows a closed block only once its end of minute 10 is durable; a cluster node's close
 * (the replicated log is its journal) is shown at once, with the admin entries the log decided, and carries
 * its held reveals into the next height's journal; a save refused after the close stops writes with the
 * reason until the recovery closes the block again from its journal; a failed end of minute 10 leaves
 * readers on the rebuilt state; a failed journal cleanup is logged and redone at the next start. Real
 * ledger over LMDB in a temp directory; the disk failures are real (a free-space reserve, and this process's
 * file-size limit lowered with prlimit, as journalFailure.test.ts does).
 */
import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { publicKeyFromSeed, signEd25519 } from "../../../src/crypto/ed25519.js";
import { AckStatus } from "../../../src/ledger/api.js";
import { encodeMessage } from "../../../src/ledger/messages.js";
import type { AdminEntry } from "../../../src/protocol/ablock.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { entryHash } from "../../../src/protocol/entry.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { transactionId } from "../../../src/protocol/transaction.js";
import { limitFileSize, NO_PRLIMIT } from "../../support/fileSizeLimit.js";
import { waitUntil } from "../../support/waitFor.js";
import {
  assetKey,
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  endMinutes,
  firstEntry,
  largestJournalFile,
  ManualClock,
  openNode,
  payment,
  rcdHashOf,
  sand,
  type TestNode,
  tempDir,
  UNIT,
} from "./harness.js";
import { rejectsWith } from "./support.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
/** Directory block header, bytes (wire-format §5.2): what a directory block signature signs. */
const DIRECTORY_HEADER_SIZE = 113;
/** Long enough for the recovery probe (every second) to rebuild the state on a loaded machine, ms. */
const RECOVERY_WAIT_MS = 15_000;

const noPrlimit = NO_PRLIMIT;

function lines(n: TestNode, msg: string) {
  return n.log.lines.filter((l) => l.msg === msg);
}

async function writesResumed(n: TestNode): Promise<void> {
  await waitUntil(
    "writes resumed",
    () => n.ledger.writeRefusal() === undefined,
    RECOVERY_WAIT_MS,
    20,
    () => JSON.stringify(n.log.lines.slice(-5)),
  );
}

describe("a single node's close is shown once its end of minute 10 is durable", () => {
  test("until then readers see the open height; the writer is on the next one", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      const tx = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(5), amount: UNIT }] });
      await n.ledger.submitTransaction(tx);
      await endMinutes(n, 9);
      const closing = n.ledger.endMinute(n.clock.advance(600));
      // the close ran in this call (no earlier save to wait for): the writer is at h + 1 ...
      assert.equal(n.ledger.openBlock().height, h + 1);
      // ... while the marker's journal commit is in flight: a kill -9 now would close h again at another time
      assert.equal(n.ledger.heights().directoryBlockHeight, h - 1);
      assert.equal(n.ledger.directoryBlockByHeight(h), undefined);
      assert.equal(n.ledger.transactionAck(transactionId(tx)).status, AckStatus.TransactionACK);
      await closing;
      assert.equal(n.ledger.heights().directoryBlockHeight, h);
      assert.notEqual(n.ledger.directoryBlockByHeight(h), undefined);
      assert.equal(n.ledger.transactionAck(transactionId(tx)).status, AckStatus.DBlockConfirmed);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });
});

describe("a cluster node's close (applied from the replicated log)", () => {
  test("is shown at once, with the log's admin entries, and its held reveal is carried into the next height's journal", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    let reopened: TestNode | undefined;
    try {
      const h = n.ledger.openBlock().height;
      const header = n.ledger.directoryBlockByHeight(h - 1)!.raw.subarray(0, DIRECTORY_HEADER_SIZE);
      const seed = new Uint8Array(32).fill(0x51);
      const adminEntries: AdminEntry[] = [
        {
          type: 0x01,
          identityAdminChainId: sha256(Uint8Array.of(0x51)),
          publicKey: publicKeyFromSeed(seed),
          signature: signEd25519(seed, header),
        },
      ];
      // a reveal no commit pays: held past the close, with no record in this node's journal
      const held = firstEntry(["close durable edges", "held"], "carried").raw;
      const arrivalMs = n.clock.advance(100);
      n.ledger.applyFromLog({ kind: "reveal", timeMs: arrivalMs, entryRaw: held });
      for (let minute = 0; minute < 10; minute++)
        n.ledger.applyFromLog(
          { kind: "endOfMinute", timeMs: n.clock.advance(600), minute },
          minute === 9 ? { adminEntries, logSequence: 17 } : undefined,
        );
      // the log is this node's journal: nothing to wait for before it is shown
      assert.equal(n.ledger.heights().directoryBlockHeight, h);
      await n.ledger.flush();
      assert.deepEqual(
        n.ledger.adminEntries(h).map((e) => JSON.stringify(e, (_k, v) => (v instanceof Uint8Array ? toHex(v) : v))),
        adminEntries.map((e) => JSON.stringify(e, (_k, v) => (v instanceof Uint8Array ? toHex(v) : v))),
      );
      assert.deepEqual(
        n.store.journalRecords(h + 1).map((r) => ({ ...r, bytes: toHex(r.bytes) })),
        [{ height: h + 1, seq: 0, bytes: toHex(encodeMessage({ kind: "reveal", timeMs: arrivalMs, entryRaw: held })) }],
      );
      // the carried record is what a restart holds it from
      const clock = n.clock;
      await closeNode(n);
      reopened = openNode(n.dir, { clock });
      assert.deepEqual(
        reopened.ledger.holdingQueue().map((m) => toHex(m.hash)),
        [toHex(entryHash(held))],
      );
    } finally {
      if (reopened === undefined) await closeNode(n);
      else await closeNode(reopened);
      cleanup(n.dir);
    }
  });
});

describe("held reveals' journal records", () => {
  test("a reveal paid in a later block loses its record; the other one held from its height keeps its own", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    let reopened: TestNode | undefined;
    try {
      const h = n.ledger.openBlock().height;
      // the height's first two records (sequences 0 and 1): reveals no commit pays yet
      const kept = firstEntry(["close durable edges", "kept"], "a").raw;
      const paid = firstEntry(["close durable edges", "paid"], "b").raw;
      await n.ledger.submitReveal(kept);
      await n.ledger.submitReveal(paid);
      await buyEC(n, ecKey, 100n);
      assert.deepEqual(
        n.store.journalRecords(h).map((r) => r.seq),
        [0, 1, 2],
      );
      await endMinutes(n, 10);
      await n.ledger.flush();
      assert.deepEqual(
        n.store.journalRecords(h).map((r) => r.seq),
        [0, 1],
        "both held past the close: their records stay",
      );
      await n.ledger.submitCommit(chainCommit(paid, n.clock.ms));
      await endMinutes(n, 10);
      await n.ledger.flush();
      assert.equal(n.ledger.entryAck(entryHash(paid)).entry.status, AckStatus.DBlockConfirmed);
      assert.deepEqual(
        n.store.journalRecords(h).map((r) => ({ seq: r.seq, bytes: toHex(r.bytes) })),
        [{ seq: 0, bytes: toHex(encodeMessage({ kind: "reveal", timeMs: T0, entryRaw: kept })) }],
      );
      const clock = n.clock;
      await closeNode(n);
      reopened = openNode(n.dir, { clock });
      assert.deepEqual(
        reopened.ledger.holdingQueue().map((m) => toHex(m.hash)),
        [toHex(entryHash(kept))],
      );
    } finally {
      await closeNode(reopened ?? n);
      cleanup(n.dir);
    }
  });
});

describe("a block save refused after its close", () => {
  test("stops writes with the block's height and the store's reason; the recovery saves it from the journal", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      await endMinutes(n, 9);
      const closing = n.ledger.endMinute(n.clock.advance(600));
      // the disk fills up after the close was journaled: the end of minute 10 is durable, its save is refused
      n.store.setReserveBytes(Number.MAX_SAFE_INTEGER);
      const refused = await rejectsWith(closing, "STORAGE_FULL");
      assert.match(refused.info, new RegExp(`^saving block ${h} failed: .* free for .*below the reserve`));
      assert.equal(n.ledger.writeRefusal(), refused.info);
      assert.deepEqual(
        lines(n, "refusing writes until the database takes writes again").map((l) => l.fields),
        [{ reason: refused.info }],
      );
      assert.equal(n.store.savedHeight(), h - 1);

      n.store.setReserveBytes(0);
      await writesResumed(n);
      assert.equal(n.store.savedHeight(), h, "closed again from its journal");
      assert.deepEqual(
        lines(n, "block saved").map((l) => [l.fields?.height, l.fields?.replayed]),
        [[h, true]],
      );
      const tx = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(6), amount: UNIT }] });
      await n.ledger.submitTransaction(tx);
      assert.equal(n.ledger.transactionAck(transactionId(tx)).status, AckStatus.TransactionACK);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });
});

describe("disk failures around the close (this process's file-size limit)", { skip: noPrlimit }, () => {
  after(() => {
    if (noPrlimit === false) limitFileSize("unlimited");
  });

  test("an end of minute 10 whose journal commit fails: after the recovery readers see the writer's new messages", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      const h = n.ledger.openBlock().height;
      await endMinutes(n, 9);
      // in one group commit with the end of minute 10: held reveals far bigger than the journal file can grow
      const held = Array.from(
        { length: 20 },
        (_, i) => firstEntry(["close durable edges", `held ${i}`], "x".repeat(9000)).raw,
      );
      limitFileSize(largestJournalFile(n.store.path));
      let outcomes: PromiseSettledResult<unknown>[];
      try {
        outcomes = await Promise.allSettled([
          ...held.map((r) => n.ledger.submitReveal(r)),
          n.ledger.endMinute(n.clock.advance(600)),
        ]);
      } finally {
        limitFileSize("unlimited");
      }
      assert.deepEqual(
        outcomes.map((o) => o.status),
        outcomes.map(() => "rejected"),
      );
      assert.equal(n.ledger.heights().directoryBlockHeight, h - 1, "the failed close is never shown");
      await writesResumed(n);
      assert.equal(n.store.savedHeight(), h - 1);
      assert.deepEqual(n.ledger.openBlock(), {
        height: h,
        minute: 9,
        startMs: T0,
        minuteStartMs: T0 + 9 * 600,
      });
      // a message accepted after the recovery is seen by readers, and the height closes with it
      const tx = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(8), amount: UNIT }] });
      await n.ledger.submitTransaction(tx);
      assert.equal(n.ledger.transactionAck(transactionId(tx)).status, AckStatus.TransactionACK);
      assert.deepEqual(
        n.ledger.pendingTransactions(rcdHashOf(sand)).map((p) => toHex(p.txId)),
        [toHex(transactionId(tx))],
      );
      await n.ledger.endMinute(n.clock.advance(600));
      assert.equal(n.ledger.heights().directoryBlockHeight, h);
      assert.equal(n.ledger.transactionAck(transactionId(tx)).status, AckStatus.DBlockConfirmed);
    } finally {
      limitFileSize("unlimited");
      await closeNode(n).catch(() => {});
      cleanup(n.dir);
    }
  });

  test("a journal cleanup that fails is logged, and the saved height's records go at the next start", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    let reopened: TestNode | undefined;
    try {
      const h = n.ledger.openBlock().height;
      await endMinutes(n, 9);
      // a held reveal (no commit pays it) keeps its record past the close, so the cleanup replaces the height's
      // file with a file of that record alone: a write, which the limit below refuses (a cleanup that only
      // removes files is an unlink, which no file-size limit stops; store/journal.ts)
      await n.ledger.submitReveal(firstEntry(["cleanup failure", "held"], "kept").raw);
      const heldSeq = n.store.journalRecords(h).at(-1)!.seq;
      const before = n.store.journalRecords(h).length;
      // the block is saved; from then on no file of this process may grow past its first byte
      n.ledger.setObserver({ accepted: () => {}, blockSaved: () => limitFileSize(1) });
      try {
        await n.ledger.endMinute(n.clock.advance(600)); // resolves once the block is saved
        await waitUntil("the cleanup's failure", () => lines(n, "journal cleanup failed").length > 0, 10_000, 10);
      } finally {
        limitFileSize("unlimited");
        n.ledger.setObserver(undefined);
      }
      assert.equal(n.store.savedHeight(), h);
      const warned = lines(n, "journal cleanup failed");
      assert.equal(warned.length, 1, JSON.stringify(n.log.lines.slice(-5)));
      assert.equal(warned[0]!.level, "warn");
      assert.deepEqual(Object.keys(warned[0]!.fields ?? {}), ["error"]);
      assert.equal(typeof warned[0]!.fields!.error, "string");
      assert.notEqual(warned[0]!.fields!.error, "");
      assert.equal(n.store.journalRecords(h).length, before + 1, "the records of the saved height are still there");
      // writes go on (the journal's next commit; a close of the store right after the failed removal would
      // throw the removal's error: see the report of this test's commit)
      const tx = payment({ milliTime: n.clock.ms, outputs: [{ to: assetKey(9), amount: UNIT }] });
      await n.ledger.submitTransaction(tx);

      const clock = n.clock;
      await closeNode(n);
      reopened = openNode(n.dir, { clock });
      assert.deepEqual(
        reopened.store.journalRecords(h).map((r) => r.seq),
        [heldSeq],
      );
      assert.equal(lines(reopened, "removed journal records of saved heights").length, 1);
    } finally {
      limitFileSize("unlimited");
      await closeNode(reopened ?? n).catch(() => {});
      cleanup(n.dir);
    }
  });
});
