/**
 * The open block's bytes (entries, commits, their hashes) copied into a few large chunks, so that the
 * process list holds views of shared memory instead of one ArrayBuffer per field. Measured on a heap snapshot
 * of an open block of 12,202 entries (docs/performance.md §Memory): per entry one 8 KiB slab of Node's Buffer
 * pool was kept alive by the reveal's bytes (hex-decoded into the pool), plus five small ArrayBuffers (the
 * commit, a copy of the entry made by its decoder, three 32-byte hashes), each with its own heap object and
 * malloc'ed backing store.
 */

/**
 * Bytes per chunk: large enough that a chunk's allocation is not one of many small mallocs, small enough
 * that an open block with few entries holds little (256 KiB ≈ 700 entries of 64-byte content with their
 * commits and hashes). The largest entry (10,275 bytes) wastes at most 4 % of a chunk at its end.
 */
export const ARENA_CHUNK_BYTES = 256 * 1024;

/** Copies are appended to the current chunk; a full chunk is left to the views that point into it. */
export class ByteArena {
  private chunk = new Uint8Array(0);
  private used = 0;
  /** bytes handed out so far */
  private copied = 0;

  /** A copy of `bytes` that lives as long as any view of its chunk does. */
  copy(bytes: Uint8Array): Uint8Array {
    const n = bytes.length;
    if (n > ARENA_CHUNK_BYTES >>> 2) return bytes.slice();
    if (this.used + n > this.chunk.length) {
      this.chunk = new Uint8Array(ARENA_CHUNK_BYTES);
      this.used = 0;
    }
    const out = this.chunk.subarray(this.used, this.used + n);
    out.set(bytes);
    this.used += n;
    this.copied += n;
    return out;
  }

  /** Bytes copied in so far (not counting the unused ends of chunks). */
  get bytes(): number {
    return this.copied;
  }
}
