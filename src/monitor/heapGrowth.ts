/**
 * How far V8 lets the old generation grow past what its last full collection left (V8's
 * `--heap-growing-percent`), chosen from the main isolate's heap as it is now (issue 35).
 *
 * Why: a full collection marks every live object, and during writes the live set is mostly the open block
 * (~1.8 KB per entry), so the number of full collections is what they cost. `bin/ledgerd` starts V8 at 25 %
 * (at ~7,300 entries/s V8's own factor let the peak reach 532 MiB, 25 % held it at 357; docs/performance.md
 * §Memory): a full collection every ~1–1.5 s at 2,500 entries/s, with the heap at 25–70 MB. While the heap is
 * that small, letting it double costs ~40 MB and halves the collections: measured on a 2-core Xeon at ~2,500
 * entries/s, V8's helper threads 74 → 51 µs per entry and the main thread's full-collection pauses and marking
 * steps ~16 → ~7 µs per entry (docs/performance.md §"Signature checks per entry", change 12). A large heap
 * keeps the 25 % that holds the peak under the 400 MB target.
 *
 * The flag is process-wide and read by V8 each time a full collection sets the next limit, so setting it
 * between collections (setFlagsFromString) takes effect at the next one. Checked once a second.
 */
import { getHeapStatistics, setFlagsFromString } from "node:v8";

/** Used heap, bytes, below which the old generation may double between full collections. */
export const DOUBLING_BELOW_BYTES = 96 * 2 ** 20;
/** Used heap, bytes, below which it may grow by half (and from which on, by a quarter). */
export const HALF_BELOW_BYTES = 192 * 2 ** 20;

/** The growth, percent, for a main-isolate heap using `usedBytes`. */
export function heapGrowingPercent(usedBytes: number): number {
  if (usedBytes < DOUBLING_BELOW_BYTES) return 100;
  if (usedBytes < HALF_BELOW_BYTES) return 50;
  return 25;
}

/**
 * Sets the flag from the heap each time `tick` is called, and only when the percent changes (a flag write
 * takes V8's flag lock). `set` is V8's own in the node (startHeapGrowthPacer); tests give theirs.
 */
export class HeapGrowthPacer {
  private current: number | undefined;

  constructor(
    private readonly usedBytes: () => number,
    private readonly set: (percent: number) => void,
  ) {}

  /** The percent now in force (undefined before the first tick). */
  get percent(): number | undefined {
    return this.current;
  }

  tick(): void {
    const next = heapGrowingPercent(this.usedBytes());
    if (next === this.current) return;
    this.set(next);
    this.current = next;
  }
}

/** Run a HeapGrowthPacer on the real isolate: at once, then every second; the timer never holds up the exit. */
export function startHeapGrowthPacer(): { stop(): void } {
  const pacer = new HeapGrowthPacer(
    () => getHeapStatistics().used_heap_size,
    (percent) => setFlagsFromString(`--heap-growing-percent=${percent}`),
  );
  pacer.tick();
  const timer = setInterval(() => pacer.tick(), 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
