/**
 * Reveals that arrived before their commit (status NotConfirmed). They wait until a commit for their
 * entry hash is accepted, or until HOLD_EXPIRY_MS after their arrival (swept at each end of minute).
 * Held reveals are journaled like any message and carried into the next height's journal at a block
 * close, so a restart keeps them.
 */
import { toHex } from "../protocol/bytes.js";
import type { Entry } from "../protocol/entry.js";
import { HOLD_EXPIRY_MS } from "./constants.js";

export interface HeldReveal {
  entryHash: Uint8Array;
  raw: Uint8Array;
  entry: Entry;
  /** arrival, ms since epoch */
  arrivalMs: number;
}

export class HoldingQueue {
  private readonly held = new Map<string, HeldReveal>();

  constructor(private readonly options: { limit: number }) {}

  get size(): number {
    return this.held.size;
  }

  get limit(): number {
    return this.options.limit;
  }

  get(entryHash: Uint8Array): HeldReveal | undefined {
    return this.held.get(toHex(entryHash));
  }

  add(r: HeldReveal): void {
    this.held.set(toHex(r.entryHash), r);
  }

  remove(entryHash: Uint8Array): void {
    this.held.delete(toHex(entryHash));
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
        this.held.delete(k);
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
  }
}
