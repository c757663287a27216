/**
 * The live feed's bounds and what it needs from the ledger (feed.ts): how many connections, subscriptions and
 * unsent bytes it holds at most, and why it refuses. Kept apart so the node's start-up and the tests can build
 * options without the feed.
 */
import type { Ledger } from "../../ledger/ledger.js";

/** Why a connection or a subscription was refused, or a connection dropped: the label of the counter. */
export type FeedLimit = "connections" | "source_connections" | "subscriptions" | "slow_consumer";

/** What `hasRoom` refuses: the HTTP status and a sentence for the client. */
export interface FeedRefusal {
  status: 503;
  reason: string;
}

/** What the ledger must offer the feed. */
export type LiveLedger = Pick<
  Ledger,
  | "setObserver"
  | "writeRefusal"
  | "isBooted"
  | "currentMinute"
  | "heights"
  | "directoryBlockByHeight"
  | "entryBlockByHash"
  | "assetBlockByHeight"
  | "entryAck"
  | "transactionAck"
  | "entry"
>;

export interface LiveFeedOptions {
  /**
   * Unsent bytes one connection may hold, bytes. 1 MiB is ~4,000 entry events: a reader that falls that far
   * behind is not keeping up; 1,000 connections at the limit would hold 1 GiB, hence maxConnections.
   */
  maxBufferedBytes: number;
  /** most open connections; more are refused with HTTP 503 */
  maxConnections: number;
  /** most open connections from one client address; more are refused with HTTP 503 */
  maxConnectionsPerSource: number;
  /** most chains + addresses + hashes one connection may subscribe to */
  maxSubscriptions: number;
  /** most chains + addresses + hashes of all connections together */
  maxTotalSubscriptions: number;
  /** live events queued for a connection while its replay runs */
  maxQueuedEvents: number;
  /** how long a replay waits for a full socket to drain before dropping it as slow, ms */
  drainWaitMs: number;
  /** health check period, ms (query subscriptions look at the index again at the same period) */
  healthPeriodMs: number;
  /** `match` events a query subscription sends before it lets other work run (one index read each) */
  queryBatch: number;
}

export const DEFAULT_LIVE_FEED_OPTIONS: LiveFeedOptions = {
  maxBufferedBytes: 1024 * 1024,
  maxConnections: 1000,
  // 32 of 1,000: a busy client (a wallet daemon, an indexer, a few browser tabs) has room; one address can
  // no longer hold every connection (security review 3, M3: one client held all 1,000 and the panel got 503)
  maxConnectionsPerSource: 32,
  maxSubscriptions: 10_000,
  // ~300 bytes of index each (measured: 100 × 10,000 subscriptions grew the node by 282 MiB): ~150 MiB at
  // the bound, where 1,000 connections × 10,000 could reach ~3 GB
  maxTotalSubscriptions: 500_000,
  maxQueuedEvents: 4096,
  drainWaitMs: 5000,
  healthPeriodMs: 1000,
  queryBatch: 64,
};
