/**
 * Gives the main isolate's heap back once the node goes quiet (issue 16: anonymous RSS ≤ 200 MB at rest).
 *
 * Why: V8 keeps the heap a load grew it to. After a write run it held 100–130 MB committed of which ~50 MB
 * was live, and the young generation stayed at its 32 MB maximum, for as long as we watched (30 s and more):
 * its own memory reducer did not act while the node's timers (block clock, health watch) kept running.
 * A full collection in a quiet second gives the free old-space pages back; a second or third one, once V8
 * has seen the low allocation rate, shrinks the young generation too (docs/performance.md §"Memory at rest").
 *
 * Rule, checked once a second: a second whose event-loop utilization is below BUSY_UTILIZATION is quiet.
 * After QUIET_SECONDS quiet seconds in a row, up to ROUNDS full collections run, ROUND_SPACING_SECONDS apart,
 * while the quiet lasts, each right after the caches registered with idleRelease.ts let go of what they
 * hold. Then none, until the committed heap has grown REGROW_BYTES above what the last collection left (a
 * new load), so an idle node is not collected every second. A collection costs the main thread ~30–150 ms
 * (50–130 MB of heap): only ever in a quiet second, where no request waits long. A load that began in the
 * last tenth of a quiet second barely moves that second's share, so the last RECENT_MS are checked on their
 * own as well (`busyNow`): a collection at the start of a load held every request of its first 30–150 ms.
 */
import { performance } from "node:perf_hooks";
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { releaseIdleCaches } from "../idleRelease.js";

/** A second with a larger share of event-loop time in callbacks is busy (10 %: ~100 ms of work). */
export const BUSY_UTILIZATION = 0.1;
/** Quiet seconds in a row before the first collection. */
export const QUIET_SECONDS = 2;
/**
 * Collections per quiet period: the first frees old space; V8 shrinks the young generation (32 MB under load)
 * only in a collection whose last ~5 s allocated little (< 1 MB/s), which one of the later rounds is.
 */
export const ROUNDS = 5;
/**
 * Seconds between two collections of one quiet period: rounds at 2, 4, 6, 8, 10 s of quiet. Measured: the young
 * generation shrank at the third round (2-s and 3-s spacing alike) in most runs, at none in one, so an idle node
 * is at its rest size ~6 s after a load ends; 2-s rounds rather than 3-s ones get it there sooner
 * (docs/performance.md §"Memory at rest").
 */
export const ROUND_SPACING_SECONDS = 2;
/** Growth of the committed heap over what the last collection left that re-arms the collector, bytes. */
export const REGROW_BYTES = 16 * 2 ** 20;
/** The window right before a tick that must be quiet too (busyNow), ms: a tenth of the second. */
export const RECENT_MS = 100;

/** What the collector reads and does; the node passes the real ones (idleCollectorDependencies). */
export interface IdleCollectorDependencies {
  /** share of the time since the previous call the event loop spent in callbacks, 0..1 */
  utilization(): number;
  /** true when the last RECENT_MS were busy (a share ≥ BUSY_UTILIZATION): a load may just have begun */
  busyNow(): boolean;
  /** the isolate's committed heap, bytes */
  committedHeapBytes(): number;
  /** one full garbage collection */
  collect(): void;
  /** let the registered caches drop what they hold (idleRelease.ts), right before each collection */
  release(): void;
}

export class IdleCollector {
  private quietSeconds = 0;
  private roundsLeft = 0;
  private nextRoundAt = QUIET_SECONDS;
  /** committed heap after the last collection (at start: the heap before any load) */
  private floorBytes: number;
  private collections = 0;

  constructor(private readonly deps: IdleCollectorDependencies) {
    this.floorBytes = deps.committedHeapBytes();
  }

  /** Full collections run so far. */
  get collected(): number {
    return this.collections;
  }

  /** One second passed: decide, and collect when the rule says so. */
  tick(): void {
    if (this.deps.utilization() >= BUSY_UTILIZATION) {
      this.quietSeconds = 0;
      this.nextRoundAt = QUIET_SECONDS;
      return;
    }
    this.quietSeconds++;
    if (this.roundsLeft === 0 && this.deps.committedHeapBytes() >= this.floorBytes + REGROW_BYTES) {
      this.roundsLeft = ROUNDS;
      this.nextRoundAt = Math.max(QUIET_SECONDS, this.quietSeconds);
    }
    if (this.roundsLeft === 0 || this.quietSeconds < this.nextRoundAt) return;
    if (this.deps.busyNow()) {
      // a load began at the end of the quiet second: it counts as busy
      this.quietSeconds = 0;
      this.nextRoundAt = QUIET_SECONDS;
      return;
    }
    // before every round, not only the first: reads between two quiet stretches refill the caches
    this.deps.release();
    this.deps.collect();
    this.collections++;
    this.roundsLeft--;
    this.nextRoundAt = this.quietSeconds + ROUND_SPACING_SECONDS;
    this.floorBytes = this.deps.committedHeapBytes();
  }
}

/**
 * The main isolate's real figures and V8's full collection (exposed at run time, as `--expose-gc` would).
 * `markRecent` must be called RECENT_MS before each `utilization`: `busyNow` is the share since that mark.
 */
export function idleCollectorDependencies(): IdleCollectorDependencies & { markRecent(): void } {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  let last = performance.eventLoopUtilization();
  let recent = last;
  return {
    utilization: () => {
      const now = performance.eventLoopUtilization();
      const share = performance.eventLoopUtilization(now, last).utilization;
      last = now;
      return share;
    },
    markRecent: () => {
      recent = performance.eventLoopUtilization();
    },
    busyNow: () =>
      performance.eventLoopUtilization(performance.eventLoopUtilization(), recent).utilization >= BUSY_UTILIZATION,
    committedHeapBytes: () => getHeapStatistics().total_heap_size,
    collect: gc,
    release: () => {
      releaseIdleCaches();
    },
  };
}

/**
 * Run an IdleCollector on the real isolate, ticking every second, with the recent window marked RECENT_MS
 * before each tick; the timers never keep the process alive.
 */
export function startIdleCollector(): { stop(): void } {
  const deps = idleCollectorDependencies();
  const collector = new IdleCollector(deps);
  const timer = setInterval(() => {
    deps.markRecent();
    setTimeout(() => collector.tick(), RECENT_MS).unref();
  }, 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
