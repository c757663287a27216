/**
 * The piscina worker pool (DESIGN §1) and the signature verifier that runs on it.
 *
 * Checks submitted are gathered and sent at the end of the turn (setImmediate), or, when the last batch
 * went less than VERIFY_BATCH_WINDOW_MS ago, once that window has passed; they are cut into batches, each
 * sent to a worker as one packed buffer (signatureBatch.ts). Every caller gets its own results, in its own
 * order, as soon as the batches holding its checks are back.
 */
import { Piscina } from "piscina";
import { InvariantError } from "../errors.js";
import { WorkerPoolError } from "./errors.js";
import { isPackable, packChecks } from "./signatureBatch.js";
import type { SignatureCheck, Verifier } from "./verifier.js";

/**
 * Most signatures per worker task (default of `maxBatch`). One trip to a worker costs the main thread
 * ~24 µs and the worker about one verify, so one signature per task wastes most of the pool.
 * Measured by `node dist/bench/calibrate.js` (2 threads on 2 shared cores, 512 checks per call, calls
 * pipelined, one run; sig/s and main-thread µs per signature): 1 → 8.7 k / 24.4 µs, 4 → 22.5 k / 6.7,
 * 16 → 26.8 k / 1.65, 64 → 26.9 k / 1.1, 256 → 30.0 k / 0.45 (1-core ceiling ~15 k/s).
 * Over four runs 64 was 3–10 % below the best size (128 or 256). It is kept because a tick larger than
 * threads × VERIFY_BATCH is answered task by task: at 64 its first callers have their results after
 * ~4 ms (64 × ~65 µs) instead of ~17 ms at 256, and a Merkle task queued in a shared pool waits as little.
 */
export const VERIFY_BATCH = 64;

/**
 * Fewest signatures per task when a tick's work is split to occupy every thread: below this the
 * round trip (~45–113 µs) outweighs the parallelism, so a small tick goes to one worker whole.
 */
export const MIN_TASK_BATCH = 16;

/**
 * Tasks a worker thread holds at once: the one it runs and those posted to it behind that one. With one
 * (piscina's default) a task queued for a busy thread waits on the MAIN thread until the running one's
 * result has been handled there, and only then is posted: the worker idles for that round trip and every
 * queued check waits for the event loop (at 64 writes in flight a commit's signature check waited longer
 * than it took; docs/history/performance-history.md §"Writes: what a request waits on at 64 in flight (2026-11-28, branch perf-writes)"). Posted at once, tasks run back to
 * back in the worker. A sync task cannot interleave with another, so this changes only where the queue is.
 */
export const TASKS_PER_THREAD = 4;

/**
 * Least time between two sends of gathered checks to the pool, ms (performance.now()): a check that comes
 * within this window of the last send waits for the window's end, so under load the pool gets one larger
 * batch per window instead of one per event-loop turn; a check after a quiet spell goes at the end of its
 * turn, as before. Each send costs this thread the tasks' posts and the worker thread a wake, whatever the
 * batch's size. Measured end to end with the journal's GROUP_WINDOW_MS (store/journal.ts), both 1 against
 * none (docs/performance.md §"Signature checks per entry", change 15): at ~7,300 entries/s, tasks per second
 * ~1,300 (~6 checks each) → ~520 (~14 each), node CPU per entry −7 %, p99 unchanged. 2 ms gave no more.
 */
export const VERIFY_BATCH_WINDOW_MS = 1;

/**
 * The process's own setTimeout, taken when this module loads: the window is measured on the real clock
 * (performance.now()), so its timer must be the real one too. A test that mocks the timers (node:test's
 * `mock.timers`, test/unit/ledger/clockSchedule.test.ts) would otherwise hold every check back until it moved
 * its fake clock, as setImmediate, used for the end of a turn, never did.
 */
const realSetTimeout = globalThis.setTimeout;

/** The shared pool. Tasks name their file per run, so one pool serves verification and Merkle work. */
export type WorkerPool = Piscina;

/** Options of a worker pool. */
export interface WorkerPoolOptions {
  /** Worker threads, ≥ 1; kept alive for the life of the pool (no idle shrink: a cold start costs ~30 ms). */
  threads: number;
}

/** Start a pool of `threads` long-lived worker threads. Destroy it with `pool.destroy()`. */
export function createWorkerPool(options: WorkerPoolOptions): WorkerPool {
  const { threads } = options;
  if (!Number.isInteger(threads) || threads < 1)
    throw new RangeError(`threads: expected an integer ≥ 1, got ${threads}`);
  const pool = new Piscina({
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    concurrentTasksPerWorker: TASKS_PER_THREAD,
    // Piscina loads a task file with require() first; on Node 20.19+ that is require(esm), which aborted
    // the whole process once in CI (V8 FATAL "IsGraphAsync must be used on an instantiated module" in a
    // worker). Without it piscina falls back to import(), the path Node < 20.19 always took.
    execArgv: ["--no-experimental-require-module"],
  });
  // A worker that dies with no task in flight is replaced by piscina; without this listener the
  // 'error' event would crash the process. A failure during a task is reported to that task's caller.
  pool.on("error", () => {});
  return pool;
}

/** Options of PoolVerifier. */
export interface PoolVerifierOptions {
  /** Worker threads of the pool it creates (ignored when a pool is given). */
  threads: number;
  /** Most signatures per worker task, ≥ 1 (default VERIFY_BATCH; 1 = one signature per task). */
  maxBatch?: number;
  /** Least time between two sends to the pool, ms, ≥ 0 (default VERIFY_BATCH_WINDOW_MS; 0: every turn's checks at its end). */
  batchWindowMs?: number;
}

/** Optional dependencies: a pool shared with other workers/ services. It is not destroyed by close(). */
export interface PoolVerifierDependencies {
  pool?: WorkerPool;
}

/** One verify() call waiting for its results. */
interface Waiter {
  checks: readonly SignatureCheck[];
  results: boolean[];
  /** checks still in flight */
  left: number;
  settled: boolean;
  resolve: (results: boolean[]) => void;
  reject: (error: Error) => void;
}

const VERIFY_TASK = new URL("./verifyTask.js", import.meta.url).href;

/** Verifies signatures in the worker pool, batching the checks of a turn (of the turns within VERIFY_BATCH_WINDOW_MS). */
export class PoolVerifier implements Verifier {
  private readonly pool: WorkerPool;
  private readonly ownsPool: boolean;
  private readonly maxBatch: number;
  private readonly batchWindowMs: number;
  private waiting: Waiter[] = [];
  private flushScheduled = false;
  /** performance.now() of the last flush, ms (−Infinity: none yet) */
  private lastFlushMs = Number.NEGATIVE_INFINITY;
  private readonly flushNow = (): void => this.flush();
  private closed = false;

  constructor(options: PoolVerifierOptions, dependencies: PoolVerifierDependencies = {}) {
    const maxBatch = options.maxBatch ?? VERIFY_BATCH;
    if (!Number.isInteger(maxBatch) || maxBatch < 1)
      throw new RangeError(`maxBatch: expected an integer ≥ 1, got ${maxBatch}`);
    this.maxBatch = maxBatch;
    const batchWindowMs = options.batchWindowMs ?? VERIFY_BATCH_WINDOW_MS;
    if (!(batchWindowMs >= 0 && batchWindowMs <= 1000))
      throw new RangeError(`batchWindowMs: expected 0 to 1000, got ${batchWindowMs}`);
    this.batchWindowMs = batchWindowMs;
    this.ownsPool = dependencies.pool === undefined;
    this.pool = dependencies.pool ?? createWorkerPool({ threads: options.threads });
  }

  /** Results in the order of `checks`; never rejects for a bad signature. Rejects with WorkerPoolError when the pool fails or is closed. */
  verify(checks: readonly SignatureCheck[]): Promise<boolean[]> {
    if (this.closed)
      return Promise.reject(new WorkerPoolError({ code: "POOL_CLOSED", what: "signature verification" }));
    if (checks.length === 0) return Promise.resolve([]);
    return new Promise<boolean[]>((resolve, reject) => {
      this.waiting.push({
        checks,
        results: new Array<boolean>(checks.length).fill(false),
        left: 0,
        settled: false,
        resolve,
        reject,
      });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        const wait = this.lastFlushMs + this.batchWindowMs - performance.now();
        if (wait > 0) realSetTimeout(this.flushNow, wait);
        else setImmediate(this.flushNow);
      }
    });
  }

  /** Share of the pool's thread time spent on tasks since it started, 0..1 (piscina's utilization). */
  utilization(): number {
    return this.pool.utilization;
  }

  /** Stop the pool (when owned); calls still waiting reject with POOL_CLOSED. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const error = new WorkerPoolError({ code: "POOL_CLOSED", what: "signature verification" });
    for (const w of this.waiting) settleReject(w, error);
    this.waiting = [];
    if (this.ownsPool) await this.pool.destroy();
  }

  /** Send everything gathered since the last flush, cut into batches. */
  private flush(): void {
    this.flushScheduled = false;
    this.lastFlushMs = performance.now();
    const waiters = this.waiting;
    this.waiting = [];
    if (this.closed) return;

    // Flat list of the checks that need a worker; wrong sizes stay false without a trip.
    const checks: SignatureCheck[] = [];
    const owner: Waiter[] = [];
    const index: number[] = [];
    for (const w of waiters) {
      for (let i = 0; i < w.checks.length; i++) {
        const c = w.checks[i]!;
        if (!isPackable(c)) continue;
        checks.push(c);
        owner.push(w);
        index.push(i);
        w.left++;
      }
      if (w.left === 0) settleResolve(w);
    }
    const total = checks.length;
    if (total === 0) return;

    const tasks = taskCount(total, this.maxBatch, this.pool.maxThreads);
    const base = Math.floor(total / tasks);
    const extra = total % tasks;
    let from = 0;
    for (let t = 0; t < tasks; t++) {
      const to = from + base + (t < extra ? 1 : 0);
      this.runBatch(checks, owner, index, from, to);
      from = to;
    }
  }

  private runBatch(checks: SignatureCheck[], owner: Waiter[], index: number[], from: number, to: number): void {
    const batch = packChecks(checks, from, to);
    this.pool
      .run(batch, { filename: VERIFY_TASK, transferList: [batch.packed.buffer as ArrayBuffer] })
      .then((results: Uint8Array) => {
        if (!(results instanceof Uint8Array) || results.length !== to - from)
          throw new InvariantError(`expected ${to - from} results, got ${sizeOf(results)}`);
        for (let k = from; k < to; k++) {
          const w = owner[k]!;
          w.results[index[k]!] = results[k - from] === 1;
          if (--w.left === 0) settleResolve(w);
        }
      })
      .catch((cause: unknown) => {
        const error = this.closed
          ? new WorkerPoolError({ code: "POOL_CLOSED", what: "signature verification" }, { cause })
          : new WorkerPoolError(
              { code: "TASK_FAILED", what: "signature verification", reason: reasonOf(cause) },
              { cause },
            );
        for (let k = from; k < to; k++) settleReject(owner[k]!, error);
      });
  }
}

/**
 * Number of tasks for `total` checks: enough that none exceeds `maxBatch`, and, when there are at least
 * MIN_TASK_BATCH checks per thread, one per thread so every thread works on the turn's checks.
 */
export function taskCount(total: number, maxBatch: number, threads: number): number {
  const minBatch = Math.min(MIN_TASK_BATCH, maxBatch);
  return Math.max(1, Math.ceil(total / maxBatch), Math.min(threads, Math.floor(total / minBatch)));
}

function settleResolve(w: Waiter): void {
  if (w.settled) return;
  w.settled = true;
  w.resolve(w.results);
}

function settleReject(w: Waiter, error: Error): void {
  if (w.settled) return;
  w.settled = true;
  w.reject(error);
}

/** Human reason of a worker failure. */
export function reasonOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

function sizeOf(value: unknown): string {
  return value instanceof Uint8Array ? `${value.length}` : typeof value;
}
