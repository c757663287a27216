/**
 * What the control panel's pages share (docs/panel.md): the live feed's event shapes, the node's status, and the
 * current page's feed listeners and timers (each navigation's own; the router clears them).
 */

import type { ScheduledStatus } from "./scheduled.js";

export interface BlockEvent {
  event: "block";
  height: number;
  keymr: string;
  timestamp: number;
  entryblocks: number;
  entries: number;
  transactions: number;
}
export interface FeedEvent {
  event: string;
  [k: string]: unknown;
}
export interface Status {
  version: string;
  network: string;
  setting: "readonly" | "readwrite";
  apiport: number;
  blocktimeseconds: number;
  heights: { directoryBlockHeight: number; leaderHeight: number; entryBlockHeight: number; entryHeight: number };
  minute: number;
  blockstartms: number;
  nowms: number;
  stalled: boolean;
  booted: boolean;
  holdingqueue: number;
  processlist: { entries: number; transactions: number };
  storage: { freebytes?: number; totalbytes?: number; databasebytes?: number; reservebytes: number };
  federatedservers: { chainid: string; online: boolean }[];
  auditservers: { chainid: string; online: boolean }[];
  scheduled?: ScheduledStatus;
}

/** What one page registered while it rendered: its live-feed listeners and its timers. */
export interface PageRegistry {
  listeners: ((e: FeedEvent) => void)[];
  timers: number[];
}

/**
 * The newest navigation's registry (the feed's events go to its listeners only; the router clears its timers at the
 * next navigation), and the node's status once read.
 */
export const page: {
  current: PageRegistry;
  status: Status | undefined;
} = { current: { listeners: [], timers: [] }, status: undefined };

/** `n` with the word for one or for many. */
export function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** A block's transaction count: every asset block holds its coinbase, so it is named apart from the rest. */
export function transactionsText(n: number): string {
  return n <= 1 ? "coinbase only" : `${n - 1} + coinbase`;
}
