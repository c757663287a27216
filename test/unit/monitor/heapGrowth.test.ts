/**
 * The heap growth pacer (src/monitor/heapGrowth.ts): the percent for a heap size, set only when it changes; and
 * that V8 really reads `--heap-growing-percent` when it is set at run time (a child process grows its heap
 * with the flag set one way or the other and counts its full collections with --trace-gc).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import {
  DOUBLING_BELOW_BYTES,
  HALF_BELOW_BYTES,
  HeapGrowthPacer,
  heapGrowingPercent,
  startHeapGrowthPacer,
} from "../../../src/monitor/heapGrowth.js";

const MiB = 2 ** 20;

test("a small heap may double, a middle one grow by half, a large one by a quarter (the bounds included above)", () => {
  assert.equal(heapGrowingPercent(0), 100);
  assert.equal(heapGrowingPercent(DOUBLING_BELOW_BYTES - 1), 100);
  assert.equal(heapGrowingPercent(DOUBLING_BELOW_BYTES), 50);
  assert.equal(heapGrowingPercent(HALF_BELOW_BYTES - 1), 50);
  assert.equal(heapGrowingPercent(HALF_BELOW_BYTES), 25);
  assert.equal(heapGrowingPercent(4096 * MiB), 25);
  // a heap that doubles from under the first bound ends at most at the second, where growth slows again
  assert.ok(2 * DOUBLING_BELOW_BYTES <= HALF_BELOW_BYTES);
});

test("the pacer sets the flag at the first tick and then only when the heap crosses a bound", () => {
  let used = 10 * MiB;
  const set: number[] = [];
  const pacer = new HeapGrowthPacer(
    () => used,
    (p) => set.push(p),
  );
  assert.equal(pacer.percent, undefined);
  pacer.tick();
  pacer.tick();
  assert.deepEqual(set, [100]);
  used = DOUBLING_BELOW_BYTES + MiB;
  pacer.tick();
  used = HALF_BELOW_BYTES + MiB;
  pacer.tick();
  pacer.tick();
  used = 20 * MiB; // a block saved, its garbage collected
  pacer.tick();
  assert.deepEqual(set, [100, 50, 25, 100]);
  assert.equal(pacer.percent, 100);
});

test("the real pacer sets V8's flag without throwing and stops", () => {
  const running = startHeapGrowthPacer();
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
