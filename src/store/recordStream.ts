/**
 * A list of LMDB puts packed into one buffer, so a block set (tens of thousands of small records) crosses
 * to the writer thread as ONE transferable ArrayBuffer instead of a structured clone of every record.
 *
 * Layout, repeated: database index (u8, position in DB_NAMES) ‖ key length (u8) ‖ value length (u32 LE)
 * ‖ key ‖ value.
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
/** First allocation when no size hint is given, bytes. */
const DEFAULT_CAPACITY = 64 * 1024;

/** Builds a record stream; grows by doubling. */
export class RecordStreamWriter {
  private buf: Buffer;
  private used = 0;
  /** records written so far */
  count = 0;

  /** `capacityHint`: expected total bytes (an underestimate only costs a regrowth). */
  constructor(capacityHint = DEFAULT_CAPACITY) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(capacityHint, RECORD_HEADER_BYTES));
  }

  put(db: DbName, key: Uint8Array, value: Uint8Array): void {
    if (key.length > MAX_KEY_BYTES)
      throw new InvariantError(`record key of ${key.length} bytes (most ${MAX_KEY_BYTES})`);
    const need = this.used + RECORD_HEADER_BYTES + key.length + value.length;
    if (need > this.buf.length) this.grow(need);
    const b = this.buf;
    let at = this.used;
    b[at] = DB_INDEX.get(db)!;
    b[at + 1] = key.length;
    b.writeUInt32LE(value.length, at + 2);
    at += RECORD_HEADER_BYTES;
    b.set(key, at);
    at += key.length;
    b.set(value, at);
    this.used = at + value.length;
    this.count++;
  }

  /** The stream, in an ArrayBuffer of its own (transferable); the writer must not be used after. */
  finish(): ArrayBuffer {
    if (this.used === this.buf.length && this.buf.byteOffset === 0) return this.buf.buffer as ArrayBuffer;
    return this.buf.buffer.slice(this.buf.byteOffset, this.buf.byteOffset + this.used) as ArrayBuffer;
  }

  private grow(need: number): void {
    let size = this.buf.length * 2;
    while (size < need) size *= 2;
    const next = Buffer.allocUnsafeSlow(size);
    this.buf.copy(next, 0, 0, this.used);
    this.buf = next;
  }
}

/**
 * Call `fn` for each record of a stream, in order; keys and values are views into `stream`. Throws
 * RangeError on a truncated stream or an unknown database index.
 */
export function forEachRecord(stream: ArrayBuffer, fn: (db: DbName, key: Uint8Array, value: Uint8Array) => void): void {
  const b = Buffer.from(stream);
  let at = 0;
  while (at < b.length) {
    if (at + RECORD_HEADER_BYTES > b.length) throw new InvariantError(`record stream truncated at byte ${at}`);
    const db = DB_ORDER[b[at]!];
    if (db === undefined) throw new InvariantError(`record stream: unknown database index ${b[at]} at byte ${at}`);
    const keyLength = b[at + 1]!;
    const valueLength = b.readUInt32LE(at + 2);
    const keyAt = at + RECORD_HEADER_BYTES;
    const end = keyAt + keyLength + valueLength;
    if (end > b.length) throw new InvariantError(`record stream truncated in the record at byte ${at}`);
    fn(db, b.subarray(keyAt, keyAt + keyLength), b.subarray(keyAt + keyLength, end));
    at = end;
  }
}
