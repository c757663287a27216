/**
 * The heap growth pacer (src/monitor/heapGrowth.ts): the percent for a live heap, set only when it changes; and
 * that V8 really reads `--heap-growing-percent` when it is set at run time (a child process grows its heap
 * with the flag set one way or the other and counts its full collections with --trace-gc).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import {
  GROWTH_CAP_BYTES,
  HeapGrowthPacer,
  heapGrowingPercent,
  MAX_GROWTH_PERCENT,
  MIN_GROWTH_PERCENT,
  startHeapGrowthPacer,
} from "../../../src/monitor/heapGrowth.js";

const MiB = 2 ** 20;

test("a small live heap may grow six-fold; a larger one grows to the cap; past it, by the launcher's 25 %", () => {
  assert.equal(heapGrowingPercent(0), MAX_GROWTH_PERCENT);
  assert.equal(MAX_GROWTH_PERCENT, 500);
  assert.equal(heapGrowingPercent(10 * MiB), 500); // six-fold: 60 MiB, under the cap
  assert.equal(heapGrowingPercent(18 * MiB), 500); // six-fold is 108 MiB, under the cap (112 / 6 = 18.7 MiB)
  assert.equal(heapGrowingPercent(20 * MiB), 460); // 112 MiB: the cap (a writing node's live heap, change 23)
  assert.equal(heapGrowingPercent(GROWTH_CAP_BYTES / 2), 100); // doubles exactly to the cap
  assert.equal(heapGrowingPercent(GROWTH_CAP_BYTES / 2 + MiB), 96); // whole percents, rounded down: under the cap
  assert.equal(heapGrowingPercent(GROWTH_CAP_BYTES / 1.25), 25); // a quarter more is the cap
  assert.equal(heapGrowingPercent(70 * MiB), 60); // 112 MiB: the cap
  assert.equal(heapGrowingPercent(GROWTH_CAP_BYTES), MIN_GROWTH_PERCENT);
  assert.equal(heapGrowingPercent(4096 * MiB), 25);
  // between the bounds the next limit is the cap, never above it
  for (let live = GROWTH_CAP_BYTES / 6 + MiB; live < GROWTH_CAP_BYTES / 1.25; live += 3 * MiB) {
    const limit = live * (1 + heapGrowingPercent(live) / 100);
    assert.ok(limit <= GROWTH_CAP_BYTES && limit > GROWTH_CAP_BYTES - live / 100 - 1, `${live}: ${limit}`);
  }
});

test("the pacer sets the flag at the first call and then only when the percent changes", () => {
  let used = 10 * MiB;
  const set: number[] = [];
  const pacer = new HeapGrowthPacer(
    () => used,
    (p) => set.push(p),
  );
  assert.equal(pacer.percent, undefined);
  pacer.collected();
  used = 12 * MiB;
  pacer.collected();
  assert.deepEqual(set, [500]);
  used = 70 * MiB;
  pacer.collected();
  used = GROWTH_CAP_BYTES * 2;
  pacer.collected();
  pacer.collected();
  used = 20 * MiB; // a block saved, its garbage collected
  pacer.collected();
  assert.deepEqual(set, [500, 60, 25, 460]);
  assert.equal(pacer.percent, 460);
});

test("the real pacer sets V8's flag, hears a full collection, and stops", async () => {
  const running = startHeapGrowthPacer();
  const { runInNewContext } = await import("node:vm");
  const { setFlagsFromString } = await import("node:v8");
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  // the gc entry is delivered in a later turn: wait for it (a collection per turn, however slow the machine)
  while (running.heard === 0) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.ok(running.heard >= 1);
  running.stop();
});

/** Full collections of a child that sets `percent` at run time, then keeps ~130 MB of arrays. */
function fullCollections(percent: number): number {
  const script = `
    require("node:v8").setFlagsFromString("--heap-growing-percent=${percent}");
    globalThis.gc(); // the next limit is set from a small live heap, with the flag as set
    const keep = [];
    for (let i = 0; i < 8000; i++) keep.push(new Array(2000).fill(i));
  `;
  const r = spawnSync(process.execPath, ["--expose-gc", "--trace-gc", "-e", script], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split("\n").filter((l) => l.includes("Mark-Compact")).length;
}

test("V8 reads --heap-growing-percent set at run time: a heap allowed to grow 300 % is collected fewer times", () => {
  // measured here: 5–6 full collections at 10 %, 3 at 300 % (the forced one included), idle or loaded
  const slow = fullCollections(10);
  const fast = fullCollections(300);
  assert.ok(fast < slow, `300 %: ${fast} full collections, 10 %: ${slow}`);
});
