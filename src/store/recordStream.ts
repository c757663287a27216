/**
 * A list of LMDB puts packed into a few large buffers, so a block set (tens of thousands of small records) crosses
 * to the writer thread as a handful of transferable ArrayBuffers instead of a structured clone of every record.
 *
 * Layout of each chunk, repeated: database index (u8, position in DB_NAMES) ‖ key length (u8) ‖ value length
 * (u32 LE) ‖ key ‖ value. A record never spans two chunks.
 *
 * Why chunks (issue 35, docs/performance.md §Memory): the stream of a 53,000-entry block is ~26 MB. Packed into one
 * buffer grown by doubling from an estimate, it took a 36-MB buffer, and its exact copy at the end: 62 MB at once
 * on the main thread at every block close, the 36 MB kept until the next full collection. Chunks are filled in
 * place and handed over as they are: the stream holds its bytes plus at most one chunk's unused tail.
 */

import { InvariantError } from "../errors.js";
import type { DbName } from "./environment.js";
import { DB_NAMES } from "./keys.js";

/** Database names in DB_NAMES order: a record's database index is its position here. */
export const DB_ORDER = Object.keys(DB_NAMES) as DbName[];
const DB_INDEX = new Map<DbName, number>(DB_ORDER.map((name, i) => [name, i]));

const RECORD_HEADER_BYTES = 6;
/** Largest LMDB key lmdb-js accepts by default is 1978 bytes; ours are ≤ 32, so one byte of length is plenty. */
const MAX_KEY_BYTES = 255;
/**
 * Bytes of a chunk, unless a single record is larger (a big block: it gets a chunk of its own size). 4 MiB: a
 * few chunks per busy block, each filled in place, and at most one chunk's tail left unused.
 */
export const RECORD_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * A packed record stream: `buffers[i]` holds records in its first `lengths[i]` bytes. Transferable as
 * `buffers` (the writer thread frees each once its transaction is flushed).
 */
export interface RecordStream {
  buffers: ArrayBuffer[];
  lengths: number[];
}

/** Bytes of records in `stream`. */
export function streamBytes(stream: RecordStream): number {
  let total = 0;
  for (const n of stream.lengths) total += n;
  return total;
}

/** Builds a record stream, a chunk at a time. */
export class RecordStreamWriter {
  private readonly buffers: ArrayBuffer[] = [];
  private readonly lengths: number[] = [];
  private buf: Buffer | undefined;
  private used = 0;
  /** records written so far */
  count = 0;

  /** `chunkBytes`: size of each chunk (tests give small ones to cross many chunk ends). */
  constructor(private readonly chunkBytes = RECORD_CHUNK_BYTES) {
    if (!(chunkBytes >= RECORD_HEADER_BYTES)) throw new InvariantError(`chunkBytes: expected ≥ ${RECORD_HEADER_BYTES}`);
  }

  put(db: DbName, key: Uint8Array, value: Uint8Array): void {
    const at = this.reserve(db, key, value.length);
    this.chunk.set(value, at);
  }

  /**
   * Put a record whose value is the byte `first` followed by `rest` (a block's kind and its bytes), without a
   * buffer of its own for that value.
   */
  putPrefixed(db: DbName, key: Uint8Array, first: number, rest: Uint8Array): void {
    const at = this.reserve(db, key, 1 + rest.length);
    const b = this.chunk;
    b[at] = first;
    b.set(rest, at + 1);
  }

  /**
   * Start a record of `valueLength` bytes under `key` and return where its value goes in `chunk`: the caller
   * writes exactly that many bytes there before the next call (a value encoded in place, with no buffer of its
   * own: blockSet.ts packs a block's entry records so, ~50,000 a busy block).
   */
  reserve(db: DbName, key: Uint8Array, valueLength: number): number {
    if (key.length > MAX_KEY_BYTES)
      throw new InvariantError(`record key of ${key.length} bytes (most ${MAX_KEY_BYTES})`);
    const size = RECORD_HEADER_BYTES + key.length + valueLength;
    let b = this.buf;
    if (b === undefined || this.used + size > b.length) b = this.nextChunk(size);
    const at = this.used;
    b[at] = DB_INDEX.get(db)!;
    b[at + 1] = key.length;
    b.writeUInt32LE(valueLength, at + 2);
    b.set(key, at + RECORD_HEADER_BYTES);
    this.used = at + size;
    this.count++;
    return at + RECORD_HEADER_BYTES + key.length;
  }

  /** The chunk the last `reserve` placed its record in. */
  get chunk(): Buffer {
    return this.buf!;
  }

  /** The stream (transferable as its `buffers`); the writer must not be used after. */
  finish(): RecordStream {
    this.close();
    return { buffers: this.buffers, lengths: this.lengths };
  }

  private close(): void {
    if (this.buf === undefined) return;
    this.buffers.push(this.buf.buffer as ArrayBuffer);
    this.lengths.push(this.used);
    this.buf = undefined;
  }

  private nextChunk(need: number): Buffer {
    this.close();
    // allocUnsafeSlow: a buffer of its own (not a slice of Node's pool), so its ArrayBuffer is the chunk itself
    const b = Buffer.allocUnsafeSlow(Math.max(this.chunkBytes, need));
    this.buf = b;
    this.used = 0;
    return b;
  }
}

/**
 * Call `fn` for each record of a stream, in order; keys and values are views into its buffers. Throws
 * InvariantError on a truncated chunk or an unknown database index.
 */
export function forEachRecord(
  stream: RecordStream,
  fn: (db: DbName, key: Uint8Array, value: Uint8Array) => void,
): void {
  if (stream.buffers.length !== stream.lengths.length)
    throw new InvariantError(`record stream: ${stream.buffers.length} buffers, ${stream.lengths.length} lengths`);
  for (let i = 0; i < stream.buffers.length; i++) {
    const length = stream.lengths[i]!;
    if (!(length >= 0 && length <= stream.buffers[i]!.byteLength))
      throw new InvariantError(`record stream: chunk ${i} of ${stream.buffers[i]!.byteLength} bytes holds ${length}`);
    forEachInChunk(Buffer.from(stream.buffers[i]!, 0, length), i, fn);
  }
}

function forEachInChunk(b: Buffer, chunk: number, fn: (db: DbName, key: Uint8Array, value: Uint8Array) => void): void {
  let at = 0;
  while (at < b.length) {
    if (at + RECORD_HEADER_BYTES > b.length)
      throw new InvariantError(`record stream truncated at byte ${at} of chunk ${chunk}`);
    const db = DB_ORDER[b[at]!];
    if (db === undefined)
      throw new InvariantError(`record stream: unknown database index ${b[at]} at byte ${at} of chunk ${chunk}`);
    const keyLength = b[at + 1]!;
    const valueLength = b.readUInt32LE(at + 2);
    const keyAt = at + RECORD_HEADER_BYTES;
    const end = keyAt + keyLength + valueLength;
    if (end > b.length)
      throw new InvariantError(`record stream truncated in the record at byte ${at} of chunk ${chunk}`);
    fn(db, b.subarray(keyAt, keyAt + keyLength), b.subarray(keyAt + keyLength, end));
    at = end;
  }
}
