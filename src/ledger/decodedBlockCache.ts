import { type Releasable, releaseWhenIdle } from "../idleRelease.js";

/**
 * Bounded LRU of decoded saved blocks, keyed by the block's primary hash (hex).
 *
 * Decoding a directory block re-checks its body Merkle root, and decoding an entry-credit block parses
 * every commit; profiling the `entry`, `dblock-by-height` and `ack` reads showed that work was ~95 % of
 * those handlers (tools/loadgen, docs/performance.md §Reads). The key is the block's own hash, so a cached value
 * can never be stale: the same key always denotes the same bytes. Callers still check that the block is
 * saved before they use the cache, so a block dropped by a failed save is not served from here.
 * Cached blocks are shared between readers and must be treated as read-only. Everything is dropped when the
 * node goes quiet (idleRelease.ts): a full cache is tens of MB of heap that nothing reads at rest.
 */
export class DecodedBlockCache<B> implements Releasable {
  private readonly map = new Map<string, { block: B; rawBytes: number }>();
  private rawBytes = 0;

  /**
   * @param options.maxBlocks   most blocks kept
   * @param options.maxRawBytes most raw (encoded) bytes kept in total; the decoded form is a few times larger
   */
  constructor(private readonly options: { maxBlocks: number; maxRawBytes: number }) {
    releaseWhenIdle(this);
  }

  /** Drop every block (the node went quiet); later reads decode again. */
  releaseHeld(): void {
    this.map.clear();
    this.rawBytes = 0;
  }

  /** The block remembered for `key` (marked most recently used), or undefined. */
  peek(key: string): B | undefined {
    const hit = this.map.get(key);
    if (hit === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.block;
  }

  /** The decoded block for `key`, decoding `raw` and remembering it on a miss. */
  get(key: string, raw: Uint8Array, decode: (raw: Uint8Array) => B): B {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      // Map keeps insertion order: re-insert to mark most recently used.
      this.map.delete(key);
      this.map.set(key, hit);
      return hit.block;
    }
    const block = decode(raw);
    if (raw.length > this.options.maxRawBytes) return block;
    this.map.set(key, { block, rawBytes: raw.length });
    this.rawBytes += raw.length;
    for (const [k, v] of this.map) {
      if (this.map.size <= this.options.maxBlocks && this.rawBytes <= this.options.maxRawBytes) break;
      this.map.delete(k);
      this.rawBytes -= v.rawBytes;
    }
    return block;
  }
}
