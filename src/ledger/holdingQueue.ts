/**
 * Reveals that arrived before their commit (status NotConfirmed). They wait until a commit for their
 * entry hash is accepted, or until HOLD_EXPIRY_MS after their arrival (swept at each end of minute).
 * A held reveal's journal record stays where it was written (its `record`) across block closes: a close
 * writes nothing for it, and the record is removed once the reveal leaves the queue (paid into a saved
 * block, or expired; `takeReleased`). A restart restores the queue from those records (replay.ts). A reveal
 * held without a record of this node's journal (a cluster node applies the replicated log, not a journal)
 * is carried into the next height's journal at the close instead (close.ts). How much the queue may hold,
 * and per source, is holdingPolicy.ts; this file keeps the reveals and the counts that policy reads.
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
  /** the journal record that holds it (height and sequence), once written */
  record?: JournalPlace;
}

/** Where a journal record is: its height and sequence. */
export interface JournalPlace {
  height: number;
  seq: number;
}

export class HoldingQueue {
  private readonly held = new Map<string, HeldReveal>();
  private heldBytes = 0;
  /** reveals and bytes held per source (only reveals with a source) */
  private readonly bySource = new Map<string, { reveals: number; bytes: number }>();
  /** the last reveal added, until its journal record is known (`located`) */
  private unlocated: HeldReveal | undefined;
  /** the message bytes `unlocated` was held from (add's `given`) */
  private unlocatedGiven: Uint8Array | undefined;
  /** journal records of reveals that left the queue since the last `takeReleased` */
  private released: JournalPlace[] = [];

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
    // nothing held, the usual case: no hex key built (a reveal asks up to three times)
    // Stryker disable next-line ConditionalExpression: an empty map answers undefined too; cost only
    if (this.held.size === 0) return undefined;
    return this.held.get(toHex(entryHash));
  }

  /**
   * Hold `r`. `given`: the bytes of the reveal message as the rules were given them, when `r.raw` is a copy of
   * them (`located` knows the message by those very bytes).
   */
  add(r: HeldReveal, given: Uint8Array = r.raw): void {
    const k = toHex(r.entryHash);
    this.delete(k);
    this.held.set(k, r);
    this.heldBytes += r.raw.length;
    if (r.source !== undefined) this.count(r.source, 1, r.raw.length);
    this.unlocated = r.record === undefined ? r : undefined;
    this.unlocatedGiven = this.unlocated === undefined ? undefined : given;
  }

  /**
   * The reveal message `raw` (the very bytes the rules were given) was journaled at `place`: when the queue
   * took it, that record now holds it (the writer and replay call this after each journaled reveal).
   */
  located(raw: Uint8Array, place: JournalPlace): void {
    const r = this.unlocated;
    if (r === undefined || this.unlocatedGiven !== raw) return;
    this.unlocated = undefined;
    this.unlocatedGiven = undefined;
    if (this.held.get(toHex(r.entryHash)) === r) r.record = place;
  }

  /** Journal records of the reveals that left the queue since the last call (to remove once that is saved). */
  takeReleased(): JournalPlace[] {
    const out = this.released;
    this.released = [];
    return out;
  }

  /** Held reveals whose journal record is `height`'s (they keep it past that height's close). */
  recordsAt(height: number): Set<number> {
    const seqs = new Set<number>();
    for (const r of this.held.values()) if (r.record?.height === height) seqs.add(r.record.seq);
    return seqs;
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
    if (r.record !== undefined) this.released.push(r.record);
    if (this.unlocated === r) {
      this.unlocated = undefined;
      this.unlocatedGiven = undefined;
    }
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
    this.unlocated = undefined;
    this.unlocatedGiven = undefined;
    this.released = [];
  }
}
