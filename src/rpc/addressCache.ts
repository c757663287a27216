/**
 * Public addresses already decoded, by text (issue 16). Decoding one (base58, then a checksum of two SHA-256)
 * is ~5 µs, a quarter of an `asset-balance` or `entry-credit-balance` read (docs/performance.md §Reads), and
 * wallets and explorers ask for the same few addresses over and over. An address's key is a pure function of
 * its text, so a remembered key is never stale; only valid addresses are remembered, so every malformed one
 * still gets its own error. Keys are shared between callers and must be treated as read-only.
 *
 * Each kind has its own two generations (a human-readable address is valid for one kind only; 64 hex characters
 * for both). A hit in the young generation is one map lookup: no reordering, which an exact least-recently-used
 * list paid on every hit (a delete and a set: ~2 % of the main thread in an `entry-credit-balance` read, `perf`,
 * twenty-seventh session). A hit in the old generation moves the address to the young one; when the young one is
 * full it becomes the old one and the old one is dropped. So an address used at least once per half of the
 * capacity's new addresses is never decoded again.
 */
import { toHex } from "../protocol/bytes.js";
import { addressFromText, type PublicAddressKind } from "./params.js";

/**
 * Addresses remembered per kind, at most: ~250 B each (text, key, its hex, map entry), ~1 MiB per kind; a
 * wallet's addresses and an explorer's hot ones fit many times over.
 */
export const ADDRESS_CACHE_SIZE = 4096;

/** A decoded address: its key (read-only) and the key in lower-case hex (the open block's maps are keyed so). */
export interface KnownAddress {
  key: Uint8Array;
  hex: string;
}

/** One kind's addresses: the young generation takes new and re-used ones; the old one is the previous young. */
class Generations {
  private young = new Map<string, KnownAddress>();
  private old = new Map<string, KnownAddress>();

  constructor(private readonly half: number) {}

  get(text: string): KnownAddress | undefined {
    const hit = this.young.get(text);
    if (hit !== undefined) return hit;
    const older = this.old.get(text);
    if (older !== undefined) this.add(text, older);
    return older;
  }

  add(text: string, known: KnownAddress): void {
    if (this.young.size >= this.half) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(text, known);
  }
}

export class AddressCache {
  private readonly byKind: Record<PublicAddressKind, Generations>;

  /** `size`: addresses remembered per kind, at most (two generations of half as many; of one each when it is 1) */
  constructor(size: number = ADDRESS_CACHE_SIZE) {
    const half = Math.max(1, Math.floor(size / 2));
    this.byKind = { EC: new Generations(half), FA: new Generations(half) };
  }

  /** `addressFromText(text, name, kind, true)` and its hex, remembered when valid; throws its errors unchanged. */
  known(text: string, name: string, kind: PublicAddressKind): KnownAddress {
    const generations = this.byKind[kind];
    const hit = generations.get(text);
    if (hit !== undefined) return hit;
    const key = addressFromText(text, name, kind, true);
    const known = { key, hex: toHex(key) };
    generations.add(text, known);
    return known;
  }
}
