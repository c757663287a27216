/**
 * The open block's bytes (entries, commits, their hashes) copied into a few large chunks and named by a
 * number, so that the process list holds neither an ArrayBuffer nor a view object per field. Measured on a
 * heap snapshot of an open block of 12,202 entries (docs/performance.md §Memory): per entry one 8 KiB slab of
 * Node's Buffer pool was kept alive by the reveal's bytes (hex-decoded into the pool), plus five small
 * ArrayBuffers (the commit, a copy of the entry made by its decoder, three 32-byte hashes), each with its own
 * heap object and malloc'ed backing store. Views of a chunk were the next step; every view is a heap object
 * that a busy block kept alive until its save and that every full collection marked (issue 35, change 19), so
 * a region is now a handle, and a view is made only when something reads it.
 */

/**
 * Bytes per chunk: large enough that a chunk's allocation is not one of many small mallocs, small enough
 * that an open block with few entries holds little (256 KiB ≈ 700 entries of 64-byte content with their
 * commits and hashes). The largest entry (10,275 bytes) wastes at most 4 % of a chunk at its end.
 */
export const ARENA_CHUNK_BYTES = 256 * 1024;

/**
 * Regions are reserved in the current chunk; a full chunk stays in the list for the handles that name it. A
 * handle is `chunk index × ARENA_CHUNK_BYTES + offset`: a number below 2^53, not a 32-bit integer.
 */
export class ByteArena {
  private readonly chunks: Uint8Array[] = [];
  private chunk = new Uint8Array(0);
  private chunkIndex = -1;
  private used = 0;
  /** bytes reserved so far */
  private reserved = 0;

  /** A region of `n` bytes (zeros until written) in one chunk; a region above a quarter chunk gets its own. */
  reserve(n: number): number {
    this.reserved += n;
    if (n > ARENA_CHUNK_BYTES >>> 2) {
      this.chunks.push(new Uint8Array(n));
      return (this.chunks.length - 1) * ARENA_CHUNK_BYTES;
    }
    // the first region opens the first chunk, even an empty one (its handle must name a chunk)
    if (this.used + n > this.chunk.length || this.chunkIndex < 0) {
      this.chunk = new Uint8Array(ARENA_CHUNK_BYTES);
      this.chunks.push(this.chunk);
      this.chunkIndex = this.chunks.length - 1;
      this.used = 0;
    }
    const handle = this.chunkIndex * ARENA_CHUNK_BYTES + this.used;
    this.used += n;
    return handle;
  }

  /** Write `bytes` at `at` bytes into the region `handle`. */
  write(handle: number, at: number, bytes: Uint8Array): void {
    this.chunks[Math.floor(handle / ARENA_CHUNK_BYTES)]!.set(bytes, (handle % ARENA_CHUNK_BYTES) + at);
  }

  /** A region holding a copy of `bytes`. */
  copy(bytes: Uint8Array): number {
    const handle = this.reserve(bytes.length);
    this.write(handle, 0, bytes);
    return handle;
  }

  /** A view of `length` bytes at `at` bytes into region `handle` (it keeps the region's chunk alive). */
  view(handle: number, at: number, length: number): Uint8Array {
    const start = (handle % ARENA_CHUNK_BYTES) + at;
    return this.chunks[Math.floor(handle / ARENA_CHUNK_BYTES)]!.subarray(start, start + length);
  }

  /** Bytes reserved so far (not counting the unused ends of chunks). */
  get bytes(): number {
    return this.reserved;
  }
}
