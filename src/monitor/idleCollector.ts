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
 *
 * The young generation: V8 shrinks it (32 MiB after a load, 1 MiB at rest) only in a collection that finds the
 * allocation rate of its recent collections low (< 1 MB/s), and it keeps the rates of its last ~10 collections.
 * After a load those include the load's own, so the full collections alone shrank it only at the third or
 * fourth round, 6–8 s into the quiet: later than the 10 quiet seconds in 3 of 13 loadgen runs (at rest
 * 202–204 MB, the young generation's 32 MiB still there). So each round is followed by YOUNG_SETTLE_SCAVENGES
 * minor collections YOUNG_SETTLE_SPACING_MS apart (`settleYoung`): each costs ~0.1 ms on an idle heap, and
 * together they fill V8's record with the quiet rate, so the young generation shrinks within the first round.
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
/**
 * Minor collections after each round (`settleYoung`). V8 (11.3, Node 20) judges the rate over its last 10
 * recorded collections: 12 or more spaced ones shrank the young generation in every trial, 10–11 in some.
 */
export const YOUNG_SETTLE_SCAVENGES = 16;
/** Between two of them, ms: 16 × 50 ms, the young generation settled ~0.8 s after the round. */
export const YOUNG_SETTLE_SPACING_MS = 50;

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
  /**
   * right after each collection: minor collections that let V8 see the quiet rate (see the module's comment);
   * settles when the last ran (true) or a busy step stopped them (false)
   */
  settleYoung(): Promise<boolean>;
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
    void this.deps.settleYoung();
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
  const gc = runInNewContext("gc") as (options?: { type: "minor" | "major" }) => void;
  const settleYoung = async (): Promise<boolean> => {
    let mark = performance.eventLoopUtilization();
    for (let i = 0; i < YOUNG_SETTLE_SCAVENGES; i++) {
      await new Promise<void>((resolve) => setTimeout(resolve, YOUNG_SETTLE_SPACING_MS).unref());
      const now = performance.eventLoopUtilization();
      // a load began: its scavenges come by themselves, and its rate would keep the young generation anyway
      if (performance.eventLoopUtilization(now, mark).utilization >= BUSY_UTILIZATION) return false;
      gc({ type: "minor" });
      // marked after the collection: its own time (~0.1 ms, more on a loaded machine) is not a load's
      mark = performance.eventLoopUtilization();
    }
    return true;
  };
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
    collect: () => gc(),
    settleYoung,
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
