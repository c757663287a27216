/**
 * Held reveals and the journal (holdingQueue.ts, close.ts, replay.ts; issue 19 item 7): a block close writes
 * nothing for a held reveal — its own record stays where it was written — and the record goes once the reveal
 * leaves the queue (paid into a saved block, or expired). A restart restores the queue from those records.
 * Real ledger over LMDB in a temp directory.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { AckStatus } from "../../../src/ledger/api.js";
import { HOLD_EXPIRY_MS } from "../../../src/ledger/constants.js";
import { entryHash } from "../../../src/protocol/entry.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  endMinutes,
  finishBlock,
  firstEntry,
  openNode,
  type TestNode,
  tempDir,
} from "./harness.js";

let seq = 0;
function reveal(): Uint8Array {
  return firstEntry(["holding journal", String(seq++)], "held").raw;
}

/** Every journal record, all heights up to the open one: [height, seq] pairs. */
function records(n: TestNode): [number, number][] {
  const open = n.ledger.openBlock().height;
  return [...n.store.journalRecordsBelow(open), ...n.store.journalRecords(open)].map((r) => [r.height, r.seq]);
}

describe("held reveals in the journal", () => {
  test("a close writes nothing for a held reveal; its record stays until a commit pays it into a saved block", async () => {
    const dir = tempDir();
    let n = openNode(dir);
    try {
      await buyEC(n, ecKey, 100n);
      await finishBlock(n);
      const raw = reveal();
      const h = n.ledger.openBlock().height;
      await n.ledger.submitReveal(raw);
      const held = n.store.journalRecords(h).find((r) => r.bytes.length > raw.length);
      assert.ok(held, "the reveal's record");
      for (let i = 0; i < 3; i++) await finishBlock(n);
      await n.ledger.flush();
      // the three closes carried nothing: the later heights hold no copy, the first still holds the reveal
      for (let k = h + 1; k <= h + 3; k++)
        assert.ok(
          n.store.journalRecords(k).every((r) => r.bytes.length < raw.length),
          `height ${k} holds a copy of the held reveal`,
        );
      assert.deepEqual(
        records(n).filter(([height]) => height < n.ledger.openBlock().height),
        [[h, held.seq]],
        "only the held reveal's record is left below the open height",
      );
      // a restart restores it from that record
      await closeNode(n);
      n = openNode(dir);
      assert.equal(n.ledger.entryAck(entryHash(raw)).entry.status, AckStatus.NotConfirmed);
      assert.equal(n.ledger.holdingQueue().length, 1);
      // paid and saved: its record goes
      await n.ledger.submitCommit(chainCommit(raw, n.clock.ms));
      await finishBlock(n);
      await n.ledger.flush();
      assert.equal(n.ledger.entryAck(entryHash(raw)).entry.status, AckStatus.DBlockConfirmed);
      assert.deepEqual(
        records(n).filter(([height]) => height < n.ledger.openBlock().height),
        [],
      );
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });

  test("an expired reveal's record goes at the close after the sweep; a restart does not bring it back", async () => {
    const dir = tempDir();
    let n = openNode(dir);
    try {
      const raw = reveal();
      const h = n.ledger.openBlock().height;
      await n.ledger.submitReveal(raw);
      const record = n.store.journalRecords(h).find((r) => r.bytes.length > raw.length)!;
      await finishBlock(n);
      n.clock.advance(HOLD_EXPIRY_MS);
      await endMinutes(n, 1, 1);
      assert.equal(n.ledger.holdingQueue().length, 0);
      await finishBlock(n);
      await n.ledger.flush();
      assert.deepEqual(
        records(n).filter(([height]) => height < n.ledger.openBlock().height),
        [],
      );
      // as if a crash had cut that removal short: the record is back, but the reveal was swept before the
      // last saved block ended, so a restart removes it instead of holding it again
      await n.store.appendJournal(h, record.seq, record.bytes);
      await n.ledger.flush();
      await closeNode(n);
      n = openNode(dir);
      assert.equal(n.ledger.holdingQueue().length, 0);
      assert.deepEqual(
        records(n).filter(([height]) => height < n.ledger.openBlock().height),
        [],
      );
      assert.equal(n.ledger.entryAck(entryHash(raw)).entry.status, AckStatus.Unknown);
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });

  test("records of saved blocks left by a cut-short cleanup are removed at start; held ones restored", async () => {
    const dir = tempDir();
    let n = openNode(dir);
    try {
      await buyEC(n, ecKey, 100n);
      const paid = reveal();
      const held = reveal();
      await n.ledger.submitCommit(chainCommit(paid, n.clock.ms));
      await n.ledger.submitReveal(paid);
      await n.ledger.submitReveal(held);
      const h = n.ledger.openBlock().height;
      const before = n.store.journalRecords(h);
      await finishBlock(n);
      await n.ledger.flush();
      const heldRecord = n.store.journalRecords(h);
      assert.equal(heldRecord.length, 1, "only the held reveal's record is left");
      // put back what the cleanup removed, as if a crash had cut it short
      for (const r of before) if (r.seq !== heldRecord[0]!.seq) await n.store.appendJournal(h, r.seq, r.bytes);
      await n.ledger.flush();
      assert.equal(n.store.journalRecords(h).length, before.length);
      await closeNode(n);
      n = openNode(dir);
      assert.deepEqual(
        records(n).filter(([height]) => height < n.ledger.openBlock().height),
        [[h, heldRecord[0]!.seq]],
      );
      assert.equal(n.ledger.entryAck(entryHash(held)).entry.status, AckStatus.NotConfirmed);
      assert.equal(n.ledger.entryAck(entryHash(paid)).entry.status, AckStatus.DBlockConfirmed);
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  });
});
