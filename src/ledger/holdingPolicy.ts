/**
 * The holding queue's policy (issue 19 item 7): how much room reveals without their commit may take, and who
 * may take it. A reveal sent before its commit costs its sender nothing until the commit pays, so the room is
 * bounded three ways:
 *
 * - **reveals** (HOLDING_QUEUE_LIMIT) and **bytes** (HOLDING_QUEUE_BYTES) held in all: rules of the log,
 *   checked in `applyReveal` from the state alone, so every replay and every node of a cluster decides alike.
 * - **per source** (HOLDING_SOURCE_SHARE of each bound): an admission check at the API, before the reveal
 *   enters the log (like the signature check). The caller's address is not in the log, so replaying the log
 *   never re-checks it; a held reveal restored from the journal has no source and counts only in the totals.
 *   One address (an IPv6 caller: its /64) therefore cannot take the queue from honest reveal-first clients.
 *
 * A bound only ever refuses a new reveal (HOLDING_QUEUE_FULL naming the bound); it never evicts a held one.
 * What the success answer of a reveal promises is in docs/ledger.md ("What a reveal's answer means").
 */
import { isIPv6 } from "node:net";
import { LedgerError } from "./errors.js";
import type { HoldingLimits, HoldingQueue } from "./holdingQueue.js";

/**
 * Most reveals held at once. At the largest entry (10,275 bytes) this alone would allow ~100 MB, so the
 * bytes bound below is the one a flood of large reveals meets first; this one stops a flood of tiny ones.
 */
export const HOLDING_QUEUE_LIMIT = 10_000;

/**
 * Most bytes of entries held at once, 32 MiB: ~3,200 largest entries. Held reveals are kept in memory and in
 * the journal; at the review's flood rate (20 MiB in 2.4 s) the queue is full within seconds and further
 * reveals are refused, not held. An honest reveal-first client holds one reveal for the seconds until its commit.
 */
export const HOLDING_QUEUE_BYTES = 32 * 2 ** 20;

/**
 * The share of each bound one source may hold: 1/10, i.e. 1,000 reveals or 3.2 MiB. Ten sources together
 * could fill the queue; one cannot, and while one is at its share 90 % of the room stays for the others.
 */
export const HOLDING_SOURCE_SHARE = 10;

/** Per-source limits: HOLDING_SOURCE_SHARE of each total (at least one reveal of any size). */
export function sourceLimits(limits: HoldingLimits): HoldingLimits {
  return {
    reveals: Math.max(1, Math.floor(limits.reveals / HOLDING_SOURCE_SHARE)),
    bytes: Math.max(10_275, Math.floor(limits.bytes / HOLDING_SOURCE_SHARE)),
  };
}

/** Rule of the log: may a reveal of `size` bytes be held? Throws HOLDING_QUEUE_FULL naming the bound. */
export function checkHoldingRoom(queue: HoldingQueue, size: number): void {
  const { reveals, bytes } = queue.limits;
  if (queue.size + 1 > reveals)
    throw new LedgerError({ code: "HOLDING_QUEUE_FULL", bound: "reveals", limit: reveals, held: queue.size });
  if (queue.bytes + size > bytes)
    throw new LedgerError({ code: "HOLDING_QUEUE_FULL", bound: "bytes", limit: bytes, held: queue.bytes });
}

/**
 * Admission: may `source` have one more reveal of `size` bytes held? Throws HOLDING_QUEUE_FULL naming the
 * per-source bound. Only for a reveal that would be held (the caller checks that).
 */
export function checkSourceShare(queue: HoldingQueue, source: string, size: number): void {
  const limits = sourceLimits(queue.limits);
  const used = queue.heldBy(source);
  if (used.reveals + 1 > limits.reveals)
    throw new LedgerError({
      code: "HOLDING_QUEUE_FULL",
      bound: "source reveals",
      limit: limits.reveals,
      held: used.reveals,
    });
  if (used.bytes + size > limits.bytes)
    throw new LedgerError({ code: "HOLDING_QUEUE_FULL", bound: "source bytes", limit: limits.bytes, held: used.bytes });
}

/**
 * A caller's address, or the request that reads it when asked (rpc/server.ts ExchangeRequest): reading it
 * costs ~2 µs, so it is read only for a reveal that is or would be held.
 */
export type CallerAddress = string | { address(): string };

/** The source `from` counts as (sourceOf); undefined when its address is unknown (""): no share applies. */
export function callerSource(from: CallerAddress): string | undefined {
  const address = typeof from === "string" ? from : from.address();
  return address === "" ? undefined : sourceOf(address);
}

/**
 * The source a caller's address counts as: an IPv4 address as is (an IPv4-mapped IPv6 one as its IPv4), an
 * IPv6 address by its /64 (one subscriber's usual allocation: per address would be no bound at all), "" for
 * an unknown address (all unknown callers share one source).
 */
export function sourceOf(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped !== null) return mapped[1]!;
  if (!isIPv6(a)) return a;
  // the groups before and after "::" (at most one), which stands for the zero groups that make 8
  const [head, tail] = a.split("::") as [string, string?];
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(":")}::/64`;
}

/** The colon-separated groups of one side of an IPv6 address's "::" (none for an empty side). */
function groupsOf(part: string): string[] {
  return part === "" ? [] : part.split(":");
}
