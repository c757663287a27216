/**
 * The live feed's refusals and drops (feed.ts): counted by limit for /metrics, and warned about — the first at
 * once, then at most one line per LIMIT_LOG_WINDOW_MS per limit with the count since the last, so a client
 * hammering a full feed cannot flood the log.
 */
import type { Logger } from "../../log/logger.js";
import type { FeedLimit } from "./feedOptions.js";

/** At most one warning line per this many ms for each kind of limit reached (with the count since the last). */
const LIMIT_LOG_WINDOW_MS = 10_000;

const LIMIT_MESSAGES: Record<FeedLimit, string> = {
  connections: "live feed: connection refused, the feed is full",
  source_connections: "live feed: connection refused, too many from one address",
  subscriptions: "live feed: subscription refused, the feed holds its most subscriptions",
  slow_consumer: "live feed: dropped a slow consumer",
};

export class FeedLimits {
  /** refusals and drops since start, by limit */
  readonly counts: Record<FeedLimit, number> = {
    connections: 0,
    source_connections: 0,
    subscriptions: 0,
    slow_consumer: 0,
  };
  /** per limit: when its last warning was written, and how many happened since */
  private readonly lastLine = new Map<FeedLimit, { atMs: number; unlogged: number }>();

  constructor(private readonly log: Logger) {}

  /** Count a limit reached and warn: the first at once, then one line per window with the count since. */
  reached(limit: FeedLimit, fields: Record<string, unknown>): void {
    this.counts[limit]++;
    const now = Date.now();
    const last = this.lastLine.get(limit);
    if (last !== undefined && now - last.atMs < LIMIT_LOG_WINDOW_MS) {
      last.unlogged++;
      return;
    }
    this.log.warn(LIMIT_MESSAGES[limit], {
      ...fields,
      ...(last !== undefined && last.unlogged > 0 ? { sinceLastLine: last.unlogged + 1 } : {}),
      total: this.counts[limit],
    });
    this.lastLine.set(limit, { atMs: now, unlogged: 0 });
  }
}
