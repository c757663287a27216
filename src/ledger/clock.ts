/**
 * The clock of a producing node: every blockTimeSeconds / 10 seconds it appends an end-of-minute message
 * to the ledger's log (DESIGN §7: the clock never calls the rules directly; the ledger closes minutes
 * and blocks when it applies those messages). Ticks are scheduled from the previous due time, so minutes
 * do not drift; a tick that is late (event loop busy, slow disk) fires at once and the next one is
 * scheduled a full minute later instead of bursting.
 */

import { MINUTES_PER_BLOCK } from "./constants.js";
import type { LedgerLog } from "./options.js";

/** What the clock drives (Ledger implements it). */
export interface MinuteSink {
  endMinute(timeMs: number): Promise<void>;
  startBlock(timeMs: number): Promise<boolean>;
  isProducing(): boolean;
}

export interface LedgerClockOptions {
  /** seconds per directory block; a minute is a tenth of it */
  blockTimeSeconds: number;
}

export interface LedgerClockDependencies {
  ledger: MinuteSink;
  log: LedgerLog;
  /** wall clock, ms since epoch (default Date.now) */
  now?: () => number;
}

export class LedgerClock {
  private readonly minuteMs: number;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private inFlight: Promise<void> = Promise.resolve();
  private dueMs = 0;
  private failing = false;

  constructor(
    options: LedgerClockOptions,
    private readonly deps: LedgerClockDependencies,
  ) {
    if (!(options.blockTimeSeconds > 0))
      throw new RangeError(`blockTimeSeconds must be > 0, got ${options.blockTimeSeconds}`);
    this.minuteMs = (options.blockTimeSeconds * 1000) / MINUTES_PER_BLOCK;
    this.now = deps.now ?? Date.now;
  }

  /**
   * Start ticking. On MAIN/TEST (not producing) it does nothing. A node that cannot write at start (its
   * disk below the free-space reserve) still starts: reads are served, and the minutes go on failing, logged
   * once, until writes work again.
   */
  async start(): Promise<void> {
    if (this.running || !this.deps.ledger.isProducing()) return;
    this.running = true;
    const now = this.now();
    try {
      await this.deps.ledger.startBlock(now);
    } catch (e) {
      this.safeLog("error", "starting the open block failed", { error: e instanceof Error ? e.message : String(e) });
      this.failing = true;
    }
    this.dueMs = now + this.minuteMs;
    this.schedule();
  }

  /** Stop ticking; resolves once a tick in progress has finished. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer); // a no-op for undefined (no tick pending)
    this.timer = undefined;
    await this.inFlight;
  }

  /** A log sink that throws (e.g. its disk is full) must not stop the clock. */
  private safeLog(level: "info" | "error", msg: string, fields: Record<string, unknown>): void {
    try {
      this.deps.log[level](msg, fields);
    } catch {
      // nothing else to tell
    }
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => this.tick(), Math.max(0, this.dueMs - this.now()));
  }

  private tick(): void {
    this.timer = undefined;
    if (!this.running) return;
    const timeMs = this.now();
    this.inFlight = this.deps.ledger.endMinute(timeMs).then(
      () => {
        if (this.failing) this.safeLog("info", "end of minute works again", {});
        this.failing = false;
      },
      (e: unknown) => {
        // Logged once per run of failures (a full disk fails every minute until space returns).
        if (!this.failing)
          this.safeLog("error", "end of minute failed", { error: e instanceof Error ? e.message : String(e) });
        this.failing = true;
      },
    );
    void this.inFlight.then(() => {
      const now = this.now();
      this.dueMs += this.minuteMs;
      if (this.dueMs <= now) this.dueMs = now + this.minuteMs;
      this.schedule();
    });
  }
}
