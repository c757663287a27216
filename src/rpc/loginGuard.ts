/**
 * Failed logins (issue 19 item 4): each answer to a wrong or missing password waits FAILED_LOGIN_DELAY_MS (as
 * bitcoind's 250 ms), which caps one connection's guessing at 4 tries a second without holding the main
 * thread; failures are counted and logged at warning level with the remote address — the first from an
 * address at once, then at most one summary line per address per LOG_WINDOW_MS, so a flood cannot flood the log.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Logger } from "../log/logger.js";

/** Wait before a 401, ms (bitcoind: 250). */
export const FAILED_LOGIN_DELAY_MS = 250;
/** At most one warning per address per this many ms after its first. */
const LOG_WINDOW_MS = 10_000;
/** Addresses remembered for the log windows; past it the oldest are forgotten (a forgotten one logs again). */
const MAX_TRACKED_ADDRESSES = 10_000;

interface Window {
  startedMs: number;
  /** failures since the last line */
  unlogged: number;
}

export class LoginGuard {
  private total = 0;
  private readonly windows = new Map<string, Window>();

  constructor(private readonly deps: { log: Logger; now?: () => number }) {}

  /** Failed logins since start. */
  get failures(): number {
    return this.total;
  }

  /**
   * Count and log one failed login from `remote` ("" when unknown), then wait FAILED_LOGIN_DELAY_MS.
   * @param why "missing" (no Authorization header) or "wrong"
   */
  async failed(remote: string, why: "missing" | "wrong", path: string): Promise<void> {
    this.total++;
    const now = (this.deps.now ?? Date.now)();
    const key = remote === "" ? "unknown" : remote;
    const w = this.windows.get(key);
    if (w === undefined || now - w.startedMs >= LOG_WINDOW_MS) {
      const earlier = w?.unlogged ?? 0;
      this.deps.log.warn("failed login", {
        remote: key,
        path,
        credentials: why,
        ...(earlier > 0 ? { failuresSinceLastLine: earlier + 1 } : {}),
        totalFailures: this.total,
      });
      this.windows.delete(key);
      this.windows.set(key, { startedMs: now, unlogged: 0 });
      if (this.windows.size > MAX_TRACKED_ADDRESSES) this.windows.delete(this.windows.keys().next().value!);
    } else {
      w.unlogged++;
    }
    await sleep(FAILED_LOGIN_DELAY_MS);
  }
}
