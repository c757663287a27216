/**
 * How far V8 lets the old generation grow past what its last full collection left (V8's
 * `--heap-growing-percent`), chosen from what that collection left (issue 35).
 *
 * Why: a full collection marks every live object and, after it, V8 compiles some closures again (below), so the
 * number of full collections is what they cost (before change 19 the open block, ~1.8 KB
 * per entry, was most of the live set; now it is bytes outside the heap). `bin/ledgerd` starts V8 at 25 %
 * (at ~7,300 entries/s V8's own factor let the peak reach 532 MiB, 25 % held it at 357; docs/performance.md
 * §Memory): a full collection every ~1–1.5 s at 2,500 entries/s, with 15–50 MB live. Letting such a small
 * heap double costs a few tens of MB and halves the collections: measured on a 2-core Xeon at ~2,500 entries/s,
 * V8's helper threads 74 → 51 µs per entry and the main thread's full-collection pauses and marking steps
 * ~16 → ~7 µs per entry (docs/performance.md §"Signature checks per entry", change 12).
 *
 * Rule: after each full collection the next one may wait until the old generation reaches GROWTH_CAP_BYTES, or
 * 25 % above what this one left when that is more (the launcher's setting: a large live heap is paced exactly
 * as before, and the peak stays under the 400 MB target). As a percent of the live size, held between 25 and 500.
 *
 * Why up to 500 % (change 23, was 100): V8 starts marking for the next full collection as soon as the room left
 * under the limit is less than about its young generation's room (a 20-MB live heap doubled to 40 MB started
 * it at once; "Start (task): 43MB / 107MB / 64MB" with --trace-incremental-marking). Since the open block left
 * the heap (change 19) the live heap during writes is ~15–25 MB, so doubling it kept marking running: a full
 * collection every ~0.8–1 s at ~8,000 entries/s, with the same closures compiled again after each (~280 TurboFan
 * compiles in 60 s; no deoptimization traced: most likely their optimized code, held by no live instance, is dropped
 * by the collection). Up to the cap: one every ~4–6 s.
 *
 * The flag is process-wide and read by V8 when a full collection sets the next limit. That happens before the
 * collection's `gc` performance entry reaches this module, so the percent set after collection N is the one V8
 * applies at N + 1, to what N + 1 leaves: a heap whose live size grew between the two overshoots the cap by that
 * growth times the factor, once (bounded by the 500 % ceiling); a live heap past the cap is paced at 25 %, as before.
 */
import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";

/**
 * Old-generation size, bytes, a full collection may let the heap grow to before the next one. 160 MiB at first
 * (chosen at ~2,500 entries/s); at ~7,300 entries/s on a faster machine the 60-s runs' RssAnon peaked at 404–422
 * MiB with it, 380–390 with 112, the CPU per entry the same (docs/performance.md §"Signature checks per entry", change 16).
 */
export const GROWTH_CAP_BYTES = 112 * 2 ** 20;
/** The least growth, percent: the launcher's `--heap-growing-percent=25`. */
export const MIN_GROWTH_PERCENT = 25;
/**
 * The most growth, percent: a heap at most grows six-fold between two full collections. Besides letting a small
 * live heap reach the cap, it bounds the overshoot of the one-collection lag (module comment): a live heap that grew by
 * G MB between two collections overshoots the cap by at most 6 × G.
 */
export const MAX_GROWTH_PERCENT = 500;

/** The growth, whole percent, after a full collection that left `liveBytes` in use. */
export function heapGrowingPercent(liveBytes: number): number {
  if (liveBytes <= 0) return MAX_GROWTH_PERCENT;
  const toCap = Math.floor((100 * (GROWTH_CAP_BYTES - liveBytes)) / liveBytes);
  return Math.min(MAX_GROWTH_PERCENT, Math.max(MIN_GROWTH_PERCENT, toCap));
}

/**
 * Sets the flag from the heap each time `collected` is called (after a full collection, and once at start),
 * only when the percent changes (a flag write takes V8's flag lock). `set` is V8's own in the node
 * (startHeapGrowthPacer); tests give theirs.
 */
export class HeapGrowthPacer {
  private current: number | undefined;

  constructor(
    private readonly usedBytes: () => number,
    private readonly set: (percent: number) => void,
  ) {}

  /** The percent now in force (undefined before the first call). */
  get percent(): number | undefined {
    return this.current;
  }

  collected(): void {
    const next = heapGrowingPercent(this.usedBytes());
    if (next === this.current) return;
    this.set(next);
    this.current = next;
  }
}

/**
 * Run a HeapGrowthPacer on the real isolate: at once, then after every full collection. `heard`: the full
 * collections it has reacted to so far.
 */
export function startHeapGrowthPacer(): { stop(): void; readonly heard: number } {
  const pacer = new HeapGrowthPacer(
    () => getHeapStatistics().used_heap_size,
    (percent) => setFlagsFromString(`--heap-growing-percent=${percent}`),
  );
  pacer.collected();
  let heard = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        heard++;
        pacer.collected();
        return;
      }
  });
  observer.observe({ entryTypes: ["gc"] });
  return {
    stop: () => observer.disconnect(),
    get heard() {
      return heard;
    },
  };
}
