/**
 * Reveals that arrived before their commit (status NotConfirmed). They wait until a commit for their
 * entry hash is accepted, or until HOLD_EXPIRY_MS after their arrival (swept at each end of minute).
 * Held reveals are journaled like any message and carried into the next height's journal at a block
 * close, so a restart keeps them. How much it may hold, and per source, is holdingPolicy.ts; this file keeps
 * the reveals and the counts that policy reads.
 */
import { toHex } from "../protocol/bytes.js";
import type { Entry } from "../protocol/entry.js";
import { HOLD_EXPIRY_MS } from "./constants.js";

/** How much the queue may hold (the values: holdingPolicy.ts). */
export interface HoldingLimits {
  /** most reveals held */
  reveals: number;
  /** most bytes of entries held */
  bytes: number;
}

export interface HeldReveal {
  entryHash: Uint8Array;
  raw: Uint8Array;
  entry: Entry;
  /** arrival, ms since epoch */
  arrivalMs: number;
  /** who sent it (holdingPolicy.ts sourceOf), when this node's API took it; not in the log */
  source?: string;
}

export class HoldingQueue {
  private readonly held = new Map<string, HeldReveal>();
  private heldBytes = 0;
  /** reveals and bytes held per source (only reveals with a source) */
  private readonly bySource = new Map<string, { reveals: number; bytes: number }>();

  constructor(private readonly options: { limits: HoldingLimits }) {}

  get size(): number {
    return this.held.size;
  }

  /** bytes of the held entries */
  get bytes(): number {
    return this.heldBytes;
  }

  get limits(): HoldingLimits {
    return this.options.limits;
  }

  /** reveals and bytes held for `source` */
  heldBy(source: string): { reveals: number; bytes: number } {
    return this.bySource.get(source) ?? { reveals: 0, bytes: 0 };
  }

  get(entryHash: Uint8Array): HeldReveal | undefined {
    return this.held.get(toHex(entryHash));
  }

  add(r: HeldReveal): void {
    const k = toHex(r.entryHash);
    this.delete(k);
    this.held.set(k, r);
    this.heldBytes += r.raw.length;
    if (r.source !== undefined) this.count(r.source, 1, r.raw.length);
  }

  /** Count a held reveal against `source` (the API knows the sender only after the log has applied it). */
  attribute(entryHash: Uint8Array, source: string): void {
    const r = this.held.get(toHex(entryHash));
    if (r === undefined || r.source !== undefined) return;
    r.source = source;
    this.count(source, 1, r.raw.length);
  }

  remove(entryHash: Uint8Array): void {
    this.delete(toHex(entryHash));
  }

  private delete(k: string): void {
    const r = this.held.get(k);
    if (r === undefined) return;
    this.held.delete(k);
    this.heldBytes -= r.raw.length;
    if (r.source !== undefined) this.count(r.source, -1, -r.raw.length);
  }

  private count(source: string, reveals: number, bytes: number): void {
    const c = this.bySource.get(source) ?? { reveals: 0, bytes: 0 };
    c.reveals += reveals;
    c.bytes += bytes;
    if (c.reveals === 0) this.bySource.delete(source);
    else this.bySource.set(source, c);
  }

  /** True when `r` has expired at `nowMs` (ms since epoch). */
  static expired(r: HeldReveal, nowMs: number): boolean {
    return nowMs - r.arrivalMs > HOLD_EXPIRY_MS;
  }

  /** Drop every reveal expired at `nowMs`; returns how many were dropped. */
  sweep(nowMs: number): number {
    let n = 0;
    for (const [k, r] of this.held) {
      if (HoldingQueue.expired(r, nowMs)) {
        this.delete(k);
        n++;
      }
    }
    return n;
  }

  /** Held reveals in arrival order (then entry hash), a stable order for carrying and listing. */
  list(): HeldReveal[] {
    return [...this.held.values()].sort(
      (a, b) => a.arrivalMs - b.arrivalMs || Buffer.compare(a.entryHash, b.entryHash),
    );
  }

  clear(): void {
    this.held.clear();
    this.heldBytes = 0;
    this.bySource.clear();
  }
}
