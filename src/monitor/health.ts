/**
 * `GET /health`: a small list of named checks, each answering ok or a reason. The node registers its own
 * (booted, blocks, stall, storage); other parts add theirs with `add` (the cluster's "in consensus", say)
 * without touching this file or the HTTP side. The answer reveals no secret: names, heights, ages, reasons.
 */
import { InvariantError } from "../errors.js";
import { MINUTES_PER_BLOCK } from "../ledger/constants.js";
import { StoreError } from "../store/errors.js";

/** One check's verdict. `detail` says what was seen (shown either way; the reason when failing). */
export interface HealthVerdict {
  ok: boolean;
  detail: string;
}

/** A named check; `check` must be cheap (a load balancer may ask every second) and must not throw. */
export interface HealthCheck {
  readonly name: string;
  check(nowMs: number): HealthVerdict;
}

/** The body of /health (also its status: 200 when `status` is "ok", else 503). */
export interface HealthReport {
  status: "ok" | "failing";
  /** "name: detail" of each failing check, in registration order */
  failing: string[];
  checks: Record<string, HealthVerdict>;
}

export class HealthChecks {
  private readonly checks: HealthCheck[] = [];

  constructor(checks: readonly HealthCheck[] = []) {
    for (const c of checks) this.add(c);
  }

  /** Register a check; names are unique. */
  add(check: HealthCheck): void {
    if (this.checks.some((c) => c.name === check.name))
      throw new InvariantError(`health check ${check.name} exists already`);
    this.checks.push(check);
  }

  /** Run every check (a check that throws counts as failing with its message). */
  evaluate(nowMs: number): HealthReport {
    const checks: Record<string, HealthVerdict> = {};
    const failing: string[] = [];
    for (const c of this.checks) {
      let verdict: HealthVerdict;
      try {
        verdict = c.check(nowMs);
      } catch (e) {
        verdict = { ok: false, detail: `check failed: ${e instanceof Error ? e.message : String(e)}` };
      }
      checks[c.name] = verdict;
      if (!verdict.ok) failing.push(`${c.name}: ${verdict.detail}`);
    }
    return { status: failing.length === 0 ? "ok" : "failing", failing, checks };
  }
}

/** What the node's own checks read. */
export interface NodeHealthSources {
  ledger: {
    isBooted(): boolean;
    isProducing(): boolean;
    heights(): { directoryBlockHeight: number };
    /** start of the open block (= end of the newest block) and of its open minute, ms since epoch */
    openBlock(): { startMs: number; minuteStartMs: number };
  };
  /** throws (StoreError STORAGE_FULL) while the data directory's disk is inside its reserve */
  store: { assertWritable(): void };
  /** seconds per directory block, read per check (reload-configuration can change it) */
  blockTimeSeconds(): number;
}

/**
 * Blocks may be this many block times old before the node is unhealthy: one block time is normal (the
 * open block), the second covers a slow close and timer jitter.
 */
export const BLOCK_AGE_LIMIT_BLOCKS = 2;

/**
 * The stall check fails when the open minute has lasted this many minute lengths, plus STALL_SLACK_SECONDS.
 * Not `current-minute`'s stalldetected (1.5 minute lengths, the reference's): a loaded node's timers run a
 * few hundred ms late, and a load balancer must not drop a node for that (a 6 s block: 1.8 s + 1 s).
 */
export const STALL_LIMIT_MINUTES = 3;
export const STALL_SLACK_SECONDS = 1;

/** The node's own checks: booted, blocks advance, no stall, storage outside its reserve. */
export function nodeHealthChecks(s: NodeHealthSources): HealthCheck[] {
  return [
    {
      name: "booted",
      check: () =>
        s.ledger.isBooted()
          ? { ok: true, detail: `height ${s.ledger.heights().directoryBlockHeight}` }
          : { ok: false, detail: "still loading the saved blocks" },
    },
    {
      name: "blocks",
      check: (nowMs) => {
        if (!s.ledger.isProducing()) return { ok: true, detail: "read-only: this network's blocks are not made here" };
        const ageSeconds = Math.max(0, (nowMs - s.ledger.openBlock().startMs) / 1000);
        const limit = BLOCK_AGE_LIMIT_BLOCKS * s.blockTimeSeconds();
        const detail = `newest block ${ageSeconds.toFixed(1)} s old (limit ${limit} s)`;
        return { ok: ageSeconds <= limit, detail };
      },
    },
    {
      name: "stall",
      check: (nowMs) => {
        if (!s.ledger.isProducing()) return { ok: true, detail: "read-only: no minutes are made here" };
        const minuteSeconds = s.blockTimeSeconds() / MINUTES_PER_BLOCK;
        const limit = STALL_LIMIT_MINUTES * minuteSeconds + STALL_SLACK_SECONDS;
        const age = Math.max(0, (nowMs - s.ledger.openBlock().minuteStartMs) / 1000);
        return age <= limit
          ? { ok: true, detail: "minutes advance" }
          : {
              ok: false,
              detail: `the open minute has lasted ${age.toFixed(1)} s (limit ${limit.toFixed(1)} s): block production is stalled`,
            };
      },
    },
    {
      name: "storage",
      check: () => {
        try {
          s.store.assertWritable();
          return { ok: true, detail: "writable" };
        } catch (e) {
          // the numbers only: the StoreError's message names the data directory, which /health does not show
          if (e instanceof StoreError && e.type.code === "STORAGE_FULL")
            return {
              ok: false,
              detail: `${mib(e.type.availableBytes)} MiB free, below the reserve of ${mib(e.type.reserveBytes)} MiB: writes refused`,
            };
          return { ok: false, detail: e instanceof StoreError ? e.type.code : "storage check failed" };
        }
      },
    },
  ];
}

function mib(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(1);
}

/**
 * Open heights a synced node may stand behind the stream's newest end of minute and still pass: the network height
 * is read every 2 s and a node applies a moment after the stream stores, so a block's edge can show one height of
 * lag, and a busy moment two. More means the node is not keeping up, or does not close a height the others closed.
 */
export const BEHIND_LIMIT_HEIGHTS = 2;

/**
 * A cluster node's "in consensus" check (cluster/federation.ts status): ok once it has caught up with the
 * replicated log, its blocks match the log's and its open height keeps up with the network's; failing while it
 * catches up, after a fork, and while it stands more than BEHIND_LIMIT_HEIGHTS behind the stream's newest end of
 * minute (CI, 2026-12-01: a server followed the log for minutes at open height 2, the others at 99, and this
 * check said "in consensus").
 */
export function consensusCheck(federation: {
  status(): {
    synced: boolean;
    forked: boolean;
    height: number;
    networkHeight: number;
    appliedSequence: number;
    federated: readonly string[];
    signatures: readonly string[];
  };
}): HealthCheck {
  return {
    name: "consensus",
    check: () => {
      const s = federation.status();
      if (s.forked)
        return { ok: false, detail: `forked at height ${s.height}: this node's blocks differ from the log's` };
      if (!s.synced)
        return { ok: false, detail: `catching up with the log (applied up to record ${s.appliedSequence})` };
      if (s.networkHeight > s.height + BEHIND_LIMIT_HEIGHTS)
        return {
          ok: false,
          detail:
            `behind the network: open height ${s.height} (${s.signatures.length} of its ${s.federated.length} ` +
            `federated servers' signatures of block ${s.height - 1} applied), the log's newest minute is of height ` +
            `${s.networkHeight} (applied up to record ${s.appliedSequence})`,
        };
      return { ok: true, detail: `in consensus at height ${s.height}` };
    },
  };
}

/** How often the watch re-evaluates the checks, ms: a refusal of writes is in the log within this time. */
export const HEALTH_WATCH_INTERVAL_MS = 2_000;

/**
 * Logs each check's change: warning when it starts failing (with the reason: writes refused below the disk
 * reserve, blocks stopped, …), info when it passes again. One line per change, not per refused request.
 */
export class HealthWatch {
  private timer: NodeJS.Timeout | undefined;
  private readonly failing = new Map<string, string>();

  constructor(
    private readonly options: { intervalMs: number },
    private readonly deps: {
      health: HealthChecks;
      log: {
        info(msg: string, fields?: Record<string, unknown>): void;
        warn(msg: string, fields?: Record<string, unknown>): void;
      };
      now(): number;
    },
  ) {}

  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => this.look(), this.options.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Evaluate once and log the changes (the timer's work; tests call it directly too). */
  look(): void {
    const report = this.deps.health.evaluate(this.deps.now());
    for (const [name, verdict] of Object.entries(report.checks)) {
      const was = this.failing.get(name);
      if (!verdict.ok && was === undefined) {
        this.failing.set(name, verdict.detail);
        this.deps.log.warn(`health check ${name} failing: ${verdict.detail}`, { check: name });
      } else if (verdict.ok && was !== undefined) {
        this.failing.delete(name);
        this.deps.log.info(`health check ${name} passes again: ${verdict.detail}`, { check: name, was });
      }
    }
  }
}
