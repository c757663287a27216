/**
 * The holding queue's bookkeeping, exactly (holdingQueue.ts; docs/testing.md §Mutation testing): what it
 * holds and in what order, the bytes and the per-source counts the holding policy reads, the journal records
 * of reveals that leave it, and the one-hour expiry at its edge. Real entries (real hashes); no ledger needed:
 * the queue is plain state the ledger's rules fill.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HOLD_EXPIRY_MS } from "../../../src/ledger/constants.js";
import { type HeldReveal, HoldingQueue } from "../../../src/ledger/holdingQueue.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { entryHash, unmarshalEntry } from "../../../src/protocol/entry.js";
import { firstEntry } from "./harness.js";

const T0 = Date.UTC(2024, 0, 1);

/** A held reveal of a real first entry whose content is `content`. */
function held(content: string, arrivalMs = T0, extra: Partial<HeldReveal> = {}): HeldReveal {
  const { raw } = firstEntry(["holding queue"], content);
  return { entryHash: entryHash(raw), raw, entry: unmarshalEntry(raw), arrivalMs, ...extra };
}

function queue(): HoldingQueue {
  return new HoldingQueue({ limits: { reveals: 10, bytes: 100_000 } });
}

describe("holding queue", () => {
  test("counts reveals and bytes; a reveal added again replaces the one held", () => {
    const q = queue();
    assert.deepEqual(q.limits, { reveals: 10, bytes: 100_000 });
    assert.equal(q.size, 0);
    assert.equal(q.bytes, 0);
    const a = held("a");
    const b = held("bb");
    q.add(a);
    q.add(b);
    assert.equal(q.size, 2);
    assert.equal(q.bytes, a.raw.length + b.raw.length);
    assert.equal(q.get(a.entryHash), a);
    assert.equal(q.get(held("c").entryHash), undefined);
    // the same entry again (a resubmission): held once, its bytes once, the newer arrival kept
    const a2 = held("a", T0 + 5);
    q.add(a2);
    assert.equal(q.size, 2);
    assert.equal(q.bytes, a.raw.length + b.raw.length);
    assert.equal(q.get(a.entryHash), a2);
    q.remove(a.entryHash);
    assert.equal(q.size, 1);
    assert.equal(q.bytes, b.raw.length);
    q.remove(a.entryHash); // not held: nothing changes
    assert.equal(q.size, 1);
    assert.equal(q.bytes, b.raw.length);
    q.clear();
    assert.equal(q.size, 0);
    assert.equal(q.bytes, 0);
  });

  test("counts reveals and bytes per source, and forgets a source holding nothing", () => {
    const q = queue();
    const a = held("a", T0, { source: "10.0.0.1" });
    const b = held("bb", T0, { source: "10.0.0.1" });
    const c = held("ccc", T0, { source: "10.0.0.2" });
    const d = held("dddd"); // no source (applied from a log): counted in the totals only
    for (const r of [a, b, c, d]) q.add(r);
    assert.deepEqual(q.heldBy("10.0.0.1"), { reveals: 2, bytes: a.raw.length + b.raw.length });
    assert.deepEqual(q.heldBy("10.0.0.2"), { reveals: 1, bytes: c.raw.length });
    assert.deepEqual(q.heldBy("10.0.0.3"), { reveals: 0, bytes: 0 });
    // the same reveal added again from the same source is counted once
    q.add(held("a", T0 + 1, { source: "10.0.0.1" }));
    assert.deepEqual(q.heldBy("10.0.0.1"), { reveals: 2, bytes: a.raw.length + b.raw.length });
    q.remove(a.entryHash);
    assert.deepEqual(q.heldBy("10.0.0.1"), { reveals: 1, bytes: b.raw.length });
    q.remove(b.entryHash);
    assert.deepEqual(q.heldBy("10.0.0.1"), { reveals: 0, bytes: 0 });
    // a source that got back to zero and holds again starts from zero (its count was forgotten, not kept at 0)
    q.add(held("e", T0, { source: "10.0.0.1" }));
    assert.deepEqual(q.heldBy("10.0.0.1"), { reveals: 1, bytes: held("e").raw.length });
    q.clear();
    assert.deepEqual(q.heldBy("10.0.0.2"), { reveals: 0, bytes: 0 });
  });

  test("attribute counts a source-less reveal once against the source the API learned afterwards", () => {
    const q = queue();
    const d = held("dddd");
    q.add(d);
    q.attribute(d.entryHash, "10.0.0.9");
    assert.equal(d.source, "10.0.0.9");
    assert.deepEqual(q.heldBy("10.0.0.9"), { reveals: 1, bytes: d.raw.length });
    q.attribute(d.entryHash, "10.0.0.9"); // already attributed: not counted twice
    q.attribute(d.entryHash, "10.0.0.8"); // nor moved to another source
    assert.deepEqual(q.heldBy("10.0.0.9"), { reveals: 1, bytes: d.raw.length });
    assert.deepEqual(q.heldBy("10.0.0.8"), { reveals: 0, bytes: 0 });
    q.attribute(held("zz").entryHash, "10.0.0.9"); // not held: nothing
    assert.deepEqual(q.heldBy("10.0.0.9"), { reveals: 1, bytes: d.raw.length });
    q.remove(d.entryHash);
    assert.deepEqual(q.heldBy("10.0.0.9"), { reveals: 0, bytes: 0 });
  });

  test("the journal record of a reveal: located once written, released when it leaves the queue", () => {
    const q = queue();
    const a = held("a");
    q.add(a);
    // the record of other bytes (another message journaled meanwhile) is not this reveal's
    q.located(held("x").raw, { height: 3, seq: 1 });
    assert.equal(a.record, undefined);
    q.located(Uint8Array.from(a.raw), { height: 3, seq: 1 }); // equal bytes, not the very array given: not it
    assert.equal(a.record, undefined);
    q.located(a.raw, { height: 3, seq: 2 });
    assert.deepEqual(a.record, { height: 3, seq: 2 });
    q.located(a.raw, { height: 3, seq: 9 }); // only the first record after the add
    assert.deepEqual(a.record, { height: 3, seq: 2 });
    const b = held("b", T0, { record: { height: 4, seq: 0 } }); // restored with its record (replay)
    q.add(b);
    q.located(b.raw, { height: 4, seq: 7 });
    assert.deepEqual(b.record, { height: 4, seq: 0 });
    const c = held("c");
    q.add(c);
    q.located(c.raw, { height: 4, seq: 3 });
    assert.deepEqual([...q.recordsAt(3)], [2]);
    assert.deepEqual(
      [...q.recordsAt(4)].sort((x, y) => x - y),
      [0, 3],
    );
    assert.deepEqual([...q.recordsAt(5)], []);
    assert.deepEqual(q.takeReleased(), []);
    q.remove(a.entryHash);
    q.remove(c.entryHash);
    assert.deepEqual(q.takeReleased(), [
      { height: 3, seq: 2 },
      { height: 4, seq: 3 },
    ]);
    assert.deepEqual(q.takeReleased(), [], "taken once");
    assert.deepEqual([...q.recordsAt(4)], [0]);
    // a reveal without a record leaves nothing to release
    const d = held("d");
    q.add(d);
    q.remove(d.entryHash);
    assert.deepEqual(q.takeReleased(), []);
  });

  test("another reveal leaving the queue before a reveal's record is known does not lose it", () => {
    const q = queue();
    const other = held("other");
    q.add(other);
    q.located(other.raw, { height: 1, seq: 0 });
    const a = held("a");
    q.add(a);
    // the sweep or a paying commit removes another reveal between a's add and its journal record
    q.remove(other.entryHash);
    q.located(a.raw, { height: 1, seq: 1 });
    assert.deepEqual(a.record, { height: 1, seq: 1 });
    // a held reveal without a record (a cluster node's) is in no height's records
    q.add(held("no record"));
    assert.deepEqual([...q.recordsAt(1)], [1]);
  });

  test("a reveal removed before its record is known is not located afterwards", () => {
    const q = queue();
    const a = held("a");
    q.add(a);
    q.remove(a.entryHash);
    q.located(a.raw, { height: 1, seq: 0 });
    assert.equal(a.record, undefined);
    // nor is a reveal replaced by a newer copy before its record came
    const b = held("b");
    q.add(b);
    const b2 = held("b", T0 + 1, { record: { height: 2, seq: 5 } });
    q.add(b2);
    q.located(b.raw, { height: 2, seq: 6 });
    assert.equal(b.record, undefined);
    assert.deepEqual(b2.record, { height: 2, seq: 5 });
    // a later add is located even after a clear
    q.clear();
    const c = held("c");
    q.add(c);
    q.located(c.raw, { height: 2, seq: 8 });
    assert.deepEqual(c.record, { height: 2, seq: 8 });
    q.clear();
    assert.deepEqual(q.takeReleased(), [], "clear releases nothing (the close that clears removes the journal)");
  });

  test("a reveal expires strictly after one hour; the sweep drops exactly those", () => {
    assert.equal(HOLD_EXPIRY_MS, 3_600_000);
    const r = held("a", T0);
    assert.equal(HoldingQueue.expired(r, T0), false);
    assert.equal(HoldingQueue.expired(r, T0 + HOLD_EXPIRY_MS), false);
    assert.equal(HoldingQueue.expired(r, T0 + HOLD_EXPIRY_MS + 1), true);
    const q = queue();
    const old = held("old", T0, { source: "s", record: { height: 1, seq: 4 } });
    const edge = held("edge", T0 + 1);
    const fresh = held("fresh", T0 + 10);
    for (const x of [old, edge, fresh]) q.add(x);
    assert.equal(q.sweep(T0 + HOLD_EXPIRY_MS), 0);
    assert.equal(q.sweep(T0 + HOLD_EXPIRY_MS + 1), 1);
    assert.equal(q.get(old.entryHash), undefined);
    assert.equal(q.size, 2);
    assert.equal(q.bytes, edge.raw.length + fresh.raw.length);
    assert.deepEqual(q.heldBy("s"), { reveals: 0, bytes: 0 });
    assert.deepEqual(q.takeReleased(), [{ height: 1, seq: 4 }]);
    assert.equal(q.sweep(T0 + HOLD_EXPIRY_MS + 11), 2);
    assert.equal(q.size, 0);
  });

  test("lists in arrival order, then by entry hash", () => {
    const q = queue();
    const late = held("late", T0 + 2);
    const x = held("x", T0 + 1);
    const y = held("y", T0 + 1);
    const early = held("early", T0);
    for (const r of [late, x, y, early]) q.add(r);
    const [first, second] = [x, y].sort((a, b) => Buffer.compare(a.entryHash, b.entryHash));
    assert.deepEqual(
      q.list().map((r) => toHex(r.entryHash)),
      [early, first!, second!, late].map((r) => toHex(r.entryHash)),
    );
  });
});
