/**
 * Message intake of the API: every write method (commit-*, reveal-*, asset-submit, send-raw-message)
 * hands its decoded message to the ledger through here. It holds the network-testing knobs of the debug
 * API (spec §4.2 drop-rate / delay) as mutable state, and counts what went through for `summary` and
 * `tps-rate`: `received` and `dropped` here, `accepted` and `rejected` from the ledger's write outcomes
 * (ledger/writeOutcome.ts, one event the metrics hear too; writes the node itself submits, e.g. anchors,
 * count as accepted or rejected as well).
 *
 * - delay: each message reaches the ledger `delayMs` milliseconds after its HTTP request arrived (the
 *   caller's answer waits too). Counted from the request's arrival, so a batch of N writes waits the delay
 *   once, not N times.
 * - drop: each message is dropped with probability `dropRatePerMille`/1000. A dropped message is REFUSED
 *   with a -32000 error saying so: the node never answers success for a message it then discards (the
 *   reference node does, after its API has answered; docs/compat.md). The ledger never sees it, and the
 *   client knows to send it again.
 */
import { randomInt } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { MAX_DELAY_MS } from "../config/limits.js";
import type { WriteOutcome, WriteOutcomes } from "../ledger/writeOutcome.js";
import { serverError } from "./errors.js";

/** Largest drop rate, per mille (every message dropped). */
export const MAX_DROP_RATE = 1000;
/** Largest delay, ms (one home: config/limits.ts, which the field table uses to bound the configured value the same way). */
export { MAX_DELAY_MS };

/** Seconds of history behind `instantRate`. */
const INSTANT_WINDOW_SECONDS = 10;

/** What kind of message came in (for counters). */
export type IntakeKind = "commit" | "reveal" | "transaction";

export interface IntakeCounters {
  received: number;
  accepted: number;
  rejected: number;
  dropped: number;
}

export class MessageIntake {
  private dropRate: number;
  private delay: number;
  private readonly counters: IntakeCounters = { received: 0, accepted: 0, rejected: 0, dropped: 0 };
  private readonly byKind: Record<IntakeKind, number> = { commit: 0, reveal: 0, transaction: 0 };
  private readonly startedMs: number;
  /** accepted messages per second for the last INSTANT_WINDOW_SECONDS seconds, keyed by whole second */
  private readonly perSecond = new Map<number, number>();

  /**
   * @param options.dropRatePerMille initial drop rate (0..1000)
   * @param options.delayMs initial delay (0..MAX_DELAY_MS), milliseconds
   * @param deps.writeOutcomes the ledger's write outcomes: accepted and rejected are counted from them
   */
  constructor(options: { dropRatePerMille: number; delayMs: number }, deps: { writeOutcomes: WriteOutcomes }) {
    this.dropRate = clamp(options.dropRatePerMille, 0, MAX_DROP_RATE);
    this.delay = clamp(options.delayMs, 0, MAX_DELAY_MS);
    this.startedMs = Date.now();
    deps.writeOutcomes.subscribe(this.outcome);
  }

  /** Current drop rate, messages per 1000. */
  get dropRatePerMille(): number {
    return this.dropRate;
  }
  /** Current delay before a message reaches the ledger, ms. */
  get delayMs(): number {
    return this.delay;
  }
  setDropRate(perMille: number): number {
    this.dropRate = clamp(perMille, 0, MAX_DROP_RATE);
    return this.dropRate;
  }
  setDelay(ms: number): number {
    this.delay = clamp(ms, 0, MAX_DELAY_MS);
    return this.delay;
  }

  /** Copy of the counters (messages since start). */
  stats(): IntakeCounters & Record<IntakeKind, number> {
    return { ...this.counters, ...this.byKind };
  }

  /**
   * Count one message and say whether it goes straight to the ledger: true when no debug delay or drop is
   * set (always, outside network tests), and the caller then calls the ledger itself — no closure, async
   * frame or promise of `submit` per write request. False: nothing counted; the caller uses `submit`.
   */
  direct(kind: IntakeKind): boolean {
    if (this.delay > 0 || this.dropRate > 0) return false;
    this.counters.received++;
    this.byKind[kind]++;
    return true;
  }

  /**
   * Hand one message to the ledger, applying delay and drop. A dropped message throws a -32000 error.
   * @param send       the ledger call; its rejection propagates to the caller
   * @param receivedMs performance.now() when the message's HTTP request arrived, ms (default: now)
   */
  async submit<T>(kind: IntakeKind, send: () => Promise<T>, receivedMs = performance.now()): Promise<T> {
    this.counters.received++;
    this.byKind[kind]++;
    if (this.delay > 0) {
      const waitMs = receivedMs + this.delay - performance.now();
      if (waitMs > 0) await sleep(waitMs);
    }
    if (this.dropRate > 0 && randomInt(MAX_DROP_RATE) < this.dropRate) {
      this.counters.dropped++;
      throw serverError(
        "Message dropped",
        `the debug drop rate (${this.dropRate} per 1000) dropped this ${kind}: it was not processed; send it again`,
      );
    }
    return send();
  }

  /** One write's outcome, from the ledger (made once, as a field: it is subscribed, and called per write). */
  private readonly outcome = (o: WriteOutcome): void => {
    if (o.refused !== undefined) {
      this.counters.rejected++;
      return;
    }
    this.counters.accepted++;
    const second = Math.floor(Date.now() / 1000);
    this.perSecond.set(second, (this.perSecond.get(second) ?? 0) + 1);
    for (const s of this.perSecond.keys()) if (s <= second - INSTANT_WINDOW_SECONDS) this.perSecond.delete(s);
  };

  /**
   * Accepted messages per second: `total` = since the node started, `instant` = over the last 10 s.
   */
  rates(): { total: number; instant: number } {
    const nowMs = Date.now();
    const second = Math.floor(nowMs / 1000);
    let recent = 0;
    for (const [s, n] of this.perSecond) if (s > second - INSTANT_WINDOW_SECONDS) recent += n;
    const uptimeSeconds = Math.max(1, (nowMs - this.startedMs) / 1000);
    return { total: this.counters.accepted / uptimeSeconds, instant: recent / INSTANT_WINDOW_SECONDS };
  }
}

function clamp(n: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.trunc(n)));
}
