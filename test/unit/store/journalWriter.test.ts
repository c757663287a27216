/**
 * The journal's appends through its writer thread (store/journal.ts, store/journalWriterTask.ts), against
 * real files in a temp directory: what an appender can observe once its promise resolves, the
 * order of the log, and the packed form the records travel in.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InvariantError } from "../../../src/errors.js";
import { GROUP_WINDOW_MS, Journal } from "../../../src/store/journal.js";
import { forEachPacked, packGroup } from "../../../src/store/journalWriterTask.js";
import { cleanup, tempDir } from "../ledger/harness.js";

/** Record `i`'s bytes: its length varies (0 … 2,999 bytes) and its content names it. */
function recordBytes(i: number): Uint8Array {
  const out = new Uint8Array((i * 37) % 3000);
  for (let k = 0; k < out.length; k++) out[k] = (i + k) & 0xff;
  return out;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("journal appends (writer thread)", () => {
  test("packed records come back whole and in order: empty, large, any height and sequence", () => {
    const heights = [0, 1, 0xffffffff, 7];
    const seqs = [0, 0xffffffff, 3, 4];
    const bytes = [new Uint8Array(0), recordBytes(80), Uint8Array.of(9), new Uint8Array(70_000).fill(5)];
    const seen: [number, number, number[]][] = [];
    forEachPacked(packGroup(heights, seqs, bytes), (h, s, b) => {
      seen.push([h, s, [...b]]);
    });
    assert.deepEqual(
      seen,
      heights.map((h, i) => [h, seqs[i]!, [...bytes[i]!]]),
    );
    assert.deepEqual(
      (() => {
        const none: number[] = [];
        forEachPacked(packGroup([], [], []), (h) => none.push(h));
        return none;
      })(),
      [],
    );
  });

  test("a resolved append is readable at once, in the same turn", async () => {
    const dir = tempDir();
    const j = Journal.open(dir, { verify: false });
    try {
      for (let i = 0; i < 20; i++) {
        await j.append(1, i, recordBytes(i));
        // no turn in between: the commit was another thread's, the read must still see it
        assert.deepEqual(
          j.records(1).map((r) => r.seq),
          Array.from({ length: i + 1 }, (_, k) => k),
          `after append ${i}`,
        );
      }
    } finally {
      await j.close();
      cleanup(dir);
    }
  });

  test("appends of many turns while commits are in flight: all durable, in log order, nothing lost", async () => {
    const dir = tempDir();
    let j = Journal.open(dir, { verify: false });
    try {
      const appends: Promise<void>[] = [];
      let seq = 0;
      // 40 turns of 1 … 40 records each, never waiting for a commit
      for (let t = 1; t <= 40; t++) {
        for (let k = 0; k < t; k++, seq++) appends.push(j.append(2, seq, recordBytes(seq)));
        await turn();
      }
      const outcomes = await Promise.allSettled(appends);
      assert.deepEqual(
        outcomes.filter((o) => o.status === "rejected"),
        [],
      );
      const expected = Array.from({ length: seq }, (_, i) => [i, [...recordBytes(i)]]);
      assert.deepEqual(
        j.records(2).map((r) => [r.seq, [...r.bytes]]),
        expected,
      );
      // on disk: a fresh open of the directory finds every acknowledged record
      await j.close();
      j = Journal.open(dir, { verify: false });
      assert.deepEqual(
        j.records(2).map((r) => [r.seq, [...r.bytes]]),
        expected,
      );
      assert.equal(j.count(), seq);
    } finally {
      await j.close();
      cleanup(dir);
    }
  });

  test("close waits for the appends not yet answered; they are all there after a reopen", async () => {
    const dir = tempDir();
    let j = Journal.open(dir, { verify: false });
    try {
      await j.append(3, 0, recordBytes(1)); // the writer thread is up
      const pending = Array.from({ length: 200 }, (_, i) => j.append(3, 1 + i, recordBytes(i)));
      await j.close();
      const outcomes = await Promise.allSettled(pending);
      assert.deepEqual(
        outcomes.map((o) => o.status),
        pending.map(() => "fulfilled"),
      );
      j = Journal.open(dir, { verify: false });
      assert.equal(j.records(3).length, 201);
    } finally {
      await j.close();
      cleanup(dir);
    }
  });

  test("journals of two directories open at once: each record lands in its own journal, none lost", async () => {
    const dirs = [tempDir(), tempDir()];
    const journals = dirs.map((d) => Journal.open(d, { verify: false }));
    try {
      const appends: Promise<void>[] = [];
      for (let t = 0; t < 10; t++) {
        for (let k = 0; k < 10; k++) {
          const seq = t * 10 + k;
          appends.push(journals[0]!.append(5, seq, Uint8Array.of(0, seq)));
          appends.push(journals[1]!.append(5, seq, Uint8Array.of(1, seq)));
        }
        await turn();
      }
      await Promise.all(appends);
      for (const [i, j] of journals.entries())
        assert.deepEqual(
          j.records(5).map((r) => [...r.bytes]),
          Array.from({ length: 100 }, (_, seq) => [i, seq]),
          `journal ${i}`,
        );
    } finally {
      for (const j of journals) await j.close();
      for (const d of dirs) cleanup(d);
    }
  });

  test("durable() waits for every record appended so far, those of the current turn included", async () => {
    const dir = tempDir();
    const j = Journal.open(dir, { verify: false });
    try {
      const order: string[] = [];
      const first = j.append(4, 0, recordBytes(3)).then(() => order.push("first"));
      await turn(); // the first group is posted
      const second = j.append(4, 1, recordBytes(4)).then(() => order.push("second"));
      await j.durable();
      order.push("durable");
      await Promise.all([first, second]);
      assert.deepEqual(order, ["first", "second", "durable"]);
    } finally {
      await j.close();
      cleanup(dir);
    }
  });
  test("the group window: turns within it share one group, the first record after it goes at its turn's end", async () => {
    assert.equal(GROUP_WINDOW_MS, 1);
    const dir = tempDir();
    assert.throws(() => Journal.open(dir, { verify: false, groupWindowMs: -1 }), InvariantError);
    assert.throws(() => Journal.open(dir, { verify: false, groupWindowMs: Number.NaN }), InvariantError);
    // a window far longer than a few turns take, even on a loaded machine
    const windowMs = 1000;
    const j = Journal.open(dir, { verify: false, groupWindowMs: windowMs });
    try {
      const before = performance.now();
      await j.append(1, 0, recordBytes(0)); // no group before: posted at its turn's end
      assert.equal(j.groupsPosted, 1);
      // three turns inside the window: one group, posted once the window has passed, not before
      const waits = [j.append(1, 1, recordBytes(1))];
      await turn();
      waits.push(j.append(1, 2, recordBytes(2)));
      await turn();
      waits.push(j.append(1, 3, recordBytes(3)));
      assert.equal(j.groupsPosted, 1, "nothing posted inside the window");
      await Promise.all(waits);
      // (libuv's timers count from its cached loop time: a few ms of slack)
      assert.ok(performance.now() - before >= windowMs - 20, "resolved only after the window");
      assert.equal(j.groupsPosted, 2, "the window's three records in one group");
      assert.deepEqual(
        j.records(1).map((r) => r.seq),
        [0, 1, 2, 3],
      );
    } finally {
      await j.close();
      cleanup(dir);
    }
    // window 0: every turn's records are a group of their own
    const dir0 = tempDir();
    const j0 = Journal.open(dir0, { verify: false, groupWindowMs: 0 });
    try {
      const waits = [j0.append(1, 0, recordBytes(0))];
      await turn();
      waits.push(j0.append(1, 1, recordBytes(1)));
      await Promise.all(waits);
      assert.equal(j0.groupsPosted, 2);
    } finally {
      await j0.close();
      cleanup(dir0);
    }
  });

  // The writer thread keeps each open file's end itself (no stat per commit): each change this thread makes
  // between its commits must reach it, or its next commit writes over records or into a removed file.
  test("appends after this thread appended, replaced or removed the open files: every record there, in order", async () => {
    const dir = tempDir();
    let j = Journal.open(dir, { verify: false });
    const seqsOf = (height: number): number[] => j.records(height).map((r) => r.seq);
    const bytesOf = (height: number): number[][] => j.records(height).map((r) => [...r.bytes]);
    try {
      // both heights' files open in the writer thread
      await Promise.all([j.append(5, 0, recordBytes(0)), j.append(6, 0, recordBytes(100))]);
      // a synchronous append after the writer's records: the writer's next record goes after it
      j.appendAllSync(5, [{ seq: 1, bytes: recordBytes(1) }]);
      await j.append(5, 2, recordBytes(2));
      assert.deepEqual(seqsOf(5), [0, 1, 2]);
      assert.deepEqual(
        bytesOf(5),
        [0, 1, 2].map((i) => [...recordBytes(i)]),
      );
      // a file replaced by one of fewer records (a saved height's cleanup keeping held reveals)
      await j.remove(5, [0, 2]);
      assert.deepEqual(seqsOf(5), [1]);
      await j.append(5, 3, recordBytes(3));
      assert.deepEqual(seqsOf(5), [1, 3]);
      // replaced synchronously, then removed whole, each time written to again
      j.removeSync([{ height: 5, seq: 1 }]);
      await j.append(5, 4, recordBytes(4));
      assert.deepEqual(seqsOf(5), [3, 4]);
      await j.remove(5, [3, 4]);
      assert.deepEqual(seqsOf(5), []);
      await j.append(5, 5, recordBytes(5));
      assert.deepEqual(seqsOf(5), [5]);
      // heights removed by the start's cleanups
      assert.equal(j.removeAbove(5), 1);
      await j.append(6, 1, recordBytes(101));
      assert.deepEqual(seqsOf(6), [1]);
      assert.equal(j.removeBelow(6), 1);
      await j.append(5, 6, recordBytes(6));
      assert.deepEqual(seqsOf(5), [6]);
      // what a reopen reads is the same
      await j.close();
      j = Journal.open(dir, { verify: false });
      assert.deepEqual(seqsOf(5), [6]);
      assert.deepEqual(bytesOf(5), [[...recordBytes(6)]]);
      assert.deepEqual(seqsOf(6), [1]);
    } finally {
      await j.close();
      cleanup(dir);
    }
  });

  // A file the writer thread opened existing has had its end read once; a change of that height by this thread makes
  // the writer read its end again through the same descriptor, which must read the file from its start, not from
  // where the first read left the descriptor (the file's end: the records would then be written over from byte 0).
  test("a file opened existing, its end read again after this thread appended to it: nothing written over", async () => {
    const dir = tempDir();
    let j = Journal.open(dir, { verify: false });
    const seqsOf = (height: number): number[] => j.records(height).map((r) => r.seq);
    try {
      await Promise.all([0, 1, 2].map((i) => j.append(7, i, recordBytes(i))));
      await j.close();
      j = Journal.open(dir, { verify: false });
      // the writer opens height 7's file as it finds it and reads its end
      await j.append(7, 3, recordBytes(3));
      // this thread appends to it: the writer reads its end again before its next commit
      j.appendAllSync(7, [{ seq: 4, bytes: recordBytes(4) }]);
      await j.append(7, 5, recordBytes(5));
      // a change of another height's file leaves height 7's as the writer knows it
      j.appendAllSync(8, [{ seq: 0, bytes: recordBytes(80) }]);
      assert.equal(j.removeAbove(7), 1);
      await j.append(7, 6, recordBytes(6));
      assert.deepEqual(seqsOf(7), [0, 1, 2, 3, 4, 5, 6]);
      await j.close();
      j = Journal.open(dir, { verify: false });
      assert.deepEqual(
        j.records(7).map((r) => [r.seq, [...r.bytes]]),
        [0, 1, 2, 3, 4, 5, 6].map((i) => [i, [...recordBytes(i)]]),
      );
    } finally {
      await j.close();
      cleanup(dir);
    }
  });
});
