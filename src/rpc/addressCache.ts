/**
 * Public addresses already decoded, by text (issue 16). Decoding one (base58, then a checksum of two SHA-256)
 * is ~5 µs, a quarter of an `asset-balance` or `entry-credit-balance` read (docs/performance.md §Reads), and
 * wallets and explorers ask for the same few addresses over and over. An address's key is a pure function of
 * its text, so a remembered key is never stale; only valid addresses are remembered, so every malformed one
 * still gets its own error. Keys are shared between callers and must be treated as read-only.
 */
import { addressFromText, type PublicAddressKind } from "./params.js";

/**
 * Addresses remembered, most recently used kept: ~200 B each (text, key, map entry), ~1 MiB in all; a
 * wallet's addresses and an explorer's hot ones fit many times over.
 */
export const ADDRESS_CACHE_SIZE = 4096;

export class AddressCache {
  private readonly keys = new Map<string, Uint8Array>();

  constructor(private readonly size: number = ADDRESS_CACHE_SIZE) {}

  /** `addressFromText(text, name, kind, true)`, remembered when valid; throws its errors unchanged. */
  key(text: string, name: string, kind: PublicAddressKind): Uint8Array {
    const id = `${kind}:${text}`;
    const hit = this.keys.get(id);
    if (hit !== undefined) {
      this.keys.delete(id);
      this.keys.set(id, hit);
      return hit;
    }
    const key = addressFromText(text, name, kind, true);
    if (this.keys.size >= this.size) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(id, key);
    return key;
  }
}
