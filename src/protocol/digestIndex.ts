/**
 * 32-byte digests (txids, entry hashes, full hashes) → dense ids: the open block's lookups (ledger/processList.ts)
 * and a block save's joins (store/blockSet.ts).
 *
 * Why not a `Map` keyed by hex: a busy block holds ~150,000 such keys, and each was a 64-character string plus
 * the map's entry, all promoted out of the young generation and marked by every full collection until the
 * block's save; lookups hashed and compared strings (Map set and find were ~7 % of a write-loaded main thread,
 * perf, issue 35 change 19). Here a key is its 32 bytes in one typed array and the table is open addressing
 * over an Int32Array: no heap object per key.
 *
 * Where a key lands depends on a random 64-bit seed per table, mixed with the digest's first 8 bytes, so that
 * nobody can grind entries whose hashes share a probe sequence (entry hashes are the writer's choice: a
 * 4-byte-prefix table is filled with collisions by ~2^17 hashes an entry). The seed never changes what a lookup
 * answers or the order of ids (insertion order), so the rules that use the table stay functions of the log.
 */
import { randomFillSync } from "node:crypto";
import { InvariantError } from "../errors.js";

/** Bytes of a key. */
export const DIGEST_BYTES = 32;

/** Ids the table is sized for at first; it doubles as it fills (at most half its slots used). */
const INITIAL_IDS = 256;

export class DigestIndex {
  /** slot → id + 1 (0: empty); twice as many slots as ids can be held */
  private slots: Int32Array;
  private mask: number;
  /** id → its key, DIGEST_BYTES each */
  private keys: Uint8Array;
  /** id → the caller's number (`setValue`) */
  private values: Int32Array;
  private count = 0;
  private readonly seedA: number;
  private readonly seedB: number;

  constructor(initialIds = INITIAL_IDS) {
    let ids = INITIAL_IDS;
    // Stryker disable next-line all: the first size only; a table too small grows (tested), one too large is memory
    while (ids < initialIds) ids *= 2;
    this.slots = new Int32Array(ids * 2);
    this.mask = ids * 2 - 1;
    this.keys = new Uint8Array(ids * DIGEST_BYTES);
    this.values = new Int32Array(ids);
    const seed = randomFillSync(new Int32Array(2));
    this.seedA = seed[0]!;
    this.seedB = seed[1]!;
  }

  /** Keys held. */
  get size(): number {
    return this.count;
  }

  /** The id of `digest`, or -1 when it is not held (also for a key that is not 32 bytes). */
  find(digest: Uint8Array): number {
    // Stryker disable next-line ConditionalExpression: a short key's missing bytes never equal a key's, so the probe
    // ends at an empty slot with -1 all the same; this answers without probing
    if (digest.length !== DIGEST_BYTES) return -1;
    const mask = this.mask;
    const slots = this.slots;
    for (let i = this.slotOf(digest) & mask; ; i = (i + 1) & mask) {
      const s = slots[i]!;
      if (s === 0) return -1;
      if (this.keyEquals(s - 1, digest)) return s - 1;
    }
  }

  /** The id of `digest`, added (with value 0) when it was not held. Throws for a key that is not 32 bytes. */
  add(digest: Uint8Array): number {
    if (digest.length !== DIGEST_BYTES) throw new InvariantError(`a digest key is 32 bytes, got ${digest.length}`);
    const found = this.find(digest);
    if (found >= 0) return found;
    if (this.count === this.values.length) this.grow();
    const id = this.count++;
    this.keys.set(digest, id * DIGEST_BYTES);
    this.values[id] = 0;
    this.place(id);
    return id;
  }

  /** The number stored with id `id`. */
  value(id: number): number {
    return this.values[id]!;
  }

  setValue(id: number, value: number): void {
    this.values[id] = value;
  }

  /** The key of id `id`: a view of the table's storage (its bytes never change; a grown table copies them). */
  key(id: number): Uint8Array {
    return this.keys.subarray(id * DIGEST_BYTES, (id + 1) * DIGEST_BYTES);
  }

  /** `fn` for every key, in id order: its bytes are `bytes[at…at + DIGEST_BYTES)` (the table's storage, only read). */
  forEachKey(fn: (bytes: Uint8Array, at: number, id: number) => void): void {
    const keys = this.keys;
    for (let id = 0; id < this.count; id++) fn(keys, id * DIGEST_BYTES, id);
  }

  private keyEquals(id: number, digest: Uint8Array): boolean {
    const keys = this.keys;
    const at = id * DIGEST_BYTES;
    for (let i = 0; i < DIGEST_BYTES; i++) if (keys[at + i] !== digest[i]) return false;
    return true;
  }

  /** The probe start of a key: its first 8 bytes and the seed, mixed (murmur3's finalizer). */
  private slotOf(d: Uint8Array, at = 0): number {
    const a = (d[at]! | (d[at + 1]! << 8) | (d[at + 2]! << 16) | (d[at + 3]! << 24)) ^ this.seedA;
    const b = (d[at + 4]! | (d[at + 5]! << 8) | (d[at + 6]! << 16) | (d[at + 7]! << 24)) ^ this.seedB;
    let h = Math.imul(a, 0xcc9e2d51) ^ Math.imul((b << 15) | (b >>> 17), 0x1b873593);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return h ^ (h >>> 16);
  }

  private place(id: number): void {
    const mask = this.mask;
    const slots = this.slots;
    let i = this.slotOf(this.keys, id * DIGEST_BYTES) & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = id + 1;
  }

  private grow(): void {
    const ids = this.values.length * 2;
    const keys = new Uint8Array(ids * DIGEST_BYTES);
    keys.set(this.keys);
    this.keys = keys;
    const values = new Int32Array(ids);
    values.set(this.values);
    this.values = values;
    this.slots = new Int32Array(ids * 2);
    this.mask = ids * 2 - 1;
    // Stryker disable next-line EqualityOperator: `<=` also places the id `add` is about to give, under the zero key's
    // probe start; `add` writes that id's key at once, so the slot is one more to probe past, never a wrong answer
    for (let id = 0; id < this.count; id++) this.place(id);
  }
}
