/**
 * The journal's files (journal.ts): one append-only file per height, `<data dir>/journal/<height>.log`, of
 * records
 *
 *   length u32 ‖ height u32 ‖ seq u32 ‖ crc u32 ‖ bytes (length of them)     all little-endian
 *
 * where `crc` is the CRC-32 (zlib's) of the first 12 bytes and the message bytes. A record is there only if it
 * is complete, names its file's height and its CRC matches: a write cut by a crash or a power loss (a torn
 * tail), or bytes damaged on disk, end the file's records there, and the journal's open cuts the file at that
 * byte (cutTornTails) — nothing after a bad record is read, so what is read is a prefix of what was appended.
 *
 * Why files and not LMDB: an LMDB commit flushes twice (its data pages, then its meta page) and puts each
 * record into a B-tree; a group commit here is one write (writev) and one fdatasync (change 7 of
 * docs/performance.md §"Signature checks per entry").
 *
 * Reserved space: the writer thread writes zeros ahead of a file's records (RESERVE_BYTES at a time) and
 * writes records into them, so most commits change neither the file's size nor its extents and their
 * fdatasync flushes data alone, no metadata through ext4's journal (a 4.5-KB commit here: 76 → 48 µs of CPU,
 * 160 → 100 µs of wall; change 20 of docs/performance.md). So a file's records end at the first header whose
 * bytes from there to the file's end are all zero; what follows is space, not a tail. Every writer writes
 * at the records' end, never after the space (no O_APPEND), and a failed write is cut back to the records'
 * end. The space goes at a journal's close and at its open (cutTornTails), so a file at rest is its records.
 */
import {
  closeSync,
  constants,
  existsSync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
  writevSync,
} from "node:fs";
import { join } from "node:path";
import { crc32 } from "node:zlib";
import { InvariantError } from "../errors.js";

/** Bytes of a record's header: length ‖ height ‖ seq ‖ crc, u32 each. */
export const RECORD_HEADER_BYTES = 16;
/** The CRC covers the header's first 12 bytes (length, height, seq) and the message bytes. */
const CRC_AT = 12;
/**
 * Largest message a record may hold: a length beyond it is damage, not a record (a message is an entry of
 * at most 10 KiB or a transaction, ledger/messages.ts; the margin is for what a later version may journal).
 */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;
/**
 * Zeros the writer thread writes ahead of a file's records when a commit would pass its end (bytes): a
 * commit that extends the file pays for the metadata once per this many bytes. 1 MiB: 4 MiB made the commit
 * that extends the file take up to 12.5 ms here (1 MiB: 1.6–3 ms), for no less CPU per commit.
 */
export const RESERVE_BYTES = 1024 * 1024;
/** A height's file: ten decimal digits (u32 heights sort as names) and this suffix. */
const FILE_SUFFIX = ".log";
const FILE_NAME = /^(\d{10})\.log$/;
/** The id of the main environment this journal belongs to (storeIdentity.ts), 16 bytes. */
export const STORE_ID_FILE = "store-id";

/** A journal record as stored. */
export interface JournalRecord {
  height: number;
  seq: number;
  bytes: Uint8Array;
}

/** File name of `height`'s records. */
export function heightFileName(height: number): string {
  return `${String(height).padStart(10, "0")}${FILE_SUFFIX}`;
}

/** Heights that have a file in `dir`, ascending. */
export function journalHeights(dir: string): number[] {
  if (!existsSync(dir)) return [];
  const heights: number[] = [];
  for (const name of readdirSync(dir)) {
    const m = FILE_NAME.exec(name);
    if (m !== null) heights.push(Number(m[1]));
  }
  return heights.sort((a, b) => a - b);
}

/**
 * Pack records (in log order) into the bytes they take in their files, CRCs left 0 (sealRecords fills them,
 * on the writer thread). One transferable buffer: a group travels to the writer thread in it.
 */
export function packGroup(
  height: readonly number[],
  seq: readonly number[],
  bytes: readonly Uint8Array[],
  /** when given, record i's bytes are `bytes[i] ‖ more[i]` */
  more?: readonly Uint8Array[],
): Uint8Array {
  let size = 0;
  for (const b of bytes) size += RECORD_HEADER_BYTES + b.length;
  if (more !== undefined) for (const m of more) size += m.length;
  const packed = new Uint8Array(size);
  const view = new DataView(packed.buffer);
  let at = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    const m = more?.[i];
    const length = b.length + (m?.length ?? 0);
    view.setUint32(at, length, true);
    view.setUint32(at + 4, height[i]!, true);
    view.setUint32(at + 8, seq[i]!, true);
    packed.set(b, at + RECORD_HEADER_BYTES);
    if (m !== undefined) packed.set(m, at + RECORD_HEADER_BYTES + b.length);
    at += RECORD_HEADER_BYTES + length;
  }
  return packed;
}

/** CRC of the record at `at` of `buf` whose message is `length` bytes. */
function recordCrc(buf: Uint8Array, at: number, length: number): number {
  const head = crc32(buf.subarray(at, at + CRC_AT));
  return crc32(buf.subarray(at + RECORD_HEADER_BYTES, at + RECORD_HEADER_BYTES + length), head);
}

/**
 * Fill the CRC of every record of a packed group, and call `run(height, start, end)` for each run of
 * consecutive records of one height (the bytes one file's write takes). Throws on a group that ends inside a
 * record (a bug: packGroup made it).
 */
export function sealRecords(packed: Uint8Array, run: (height: number, start: number, end: number) => void): void {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  let at = 0;
  let runStart = 0;
  let runHeight = -1;
  while (at < packed.length) {
    const length = view.getUint32(at, true);
    const height = view.getUint32(at + 4, true);
    const end = at + RECORD_HEADER_BYTES + length;
    if (end > packed.length) throw new InvariantError(`a packed journal group ends inside a record at byte ${at}`);
    view.setUint32(at + CRC_AT, recordCrc(packed, at, length), true);
    if (height !== runHeight) {
      if (at > runStart) run(runHeight, runStart, at);
      runStart = at;
      runHeight = height;
    }
    at = end;
  }
  if (at > runStart) run(runHeight, runStart, at);
}

/** Call `put(height, seq, bytes)` for every record of a packed group, in order (CRCs not checked). */
export function forEachPacked(packed: Uint8Array, put: (height: number, seq: number, bytes: Uint8Array) => void): void {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  let at = 0;
  while (at < packed.length) {
    const end = at + RECORD_HEADER_BYTES + view.getUint32(at, true);
    if (end > packed.length) throw new InvariantError(`a packed journal group ends inside a record at byte ${at}`);
    put(view.getUint32(at + 4, true), view.getUint32(at + 8, true), packed.subarray(at + RECORD_HEADER_BYTES, end));
    at = end;
  }
}

/** The records of a height's file, and where its good bytes end. */
export interface ParsedFile {
  records: JournalRecord[];
  /** bytes of complete, checked records from the start; the rest (if any) is reserved space or a bad tail */
  goodBytes: number;
  /** why the records end before the file does, when what follows them is not reserved space (undefined: it is) */
  tail: string | undefined;
  /** bytes of reserved space (zeros) after the records; 0 when there is a tail */
  reserved: number;
}

const ZEROS = new Uint8Array(64 * 1024);

/** True when every byte of `buf` from `from` on is zero. */
function allZeroFrom(buf: Uint8Array, from: number): boolean {
  // Stryker disable next-line EqualityOperator: at the end, `<=` compares 0 bytes, equal: the same answer
  for (let at = from; at < buf.length; at += ZEROS.length) {
    const n = Math.min(ZEROS.length, buf.length - at);
    if (Buffer.compare(buf.subarray(at, at + n), ZEROS.subarray(0, n)) !== 0) return false;
  }
  return true;
}

/**
 * True when reserved space starts at `at`: every byte from there to the end is zero. No record starts with
 * 16 zero bytes: even an empty one of height 0, sequence 0 has a CRC (of 12 zero bytes) of 0x7bd5c66f.
 */
function reservedAt(buf: Uint8Array, view: DataView, at: number): boolean {
  const left = buf.length - at;
  // Stryker disable next-line all: a shortcut, not a rule: a header with a byte that is not 0 fails allZeroFrom too
  // (at its first chunk); this spares a record the native call, not an answer
  if (left >= RECORD_HEADER_BYTES && (view.getUint32(at, true) !== 0 || view.getUint32(at + CRC_AT, true) !== 0))
    return false;
  return allZeroFrom(buf, at);
}

/**
 * Walk a height's file's records up to the first incomplete or damaged one (a prefix), or to reserved space;
 * `record(at, length)` for each good record (its message at `at + RECORD_HEADER_BYTES`).
 */
function walkRecords(
  buf: Uint8Array,
  height: number,
  record: ((at: number, length: number) => void) | undefined,
): Omit<ParsedFile, "records"> {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = 0;
  let tail: string | undefined;
  while (at < buf.length) {
    if (reservedAt(buf, view, at)) return { goodBytes: at, tail: undefined, reserved: buf.length - at };
    if (buf.length - at < RECORD_HEADER_BYTES) {
      tail = `${buf.length - at} bytes of an incomplete record header`;
      break;
    }
    const length = view.getUint32(at, true);
    if (length > MAX_RECORD_BYTES) {
      tail = `a record length of ${length} bytes`;
      break;
    }
    if (buf.length - at - RECORD_HEADER_BYTES < length) {
      tail = `an incomplete record (${buf.length - at - RECORD_HEADER_BYTES} of its ${length} bytes)`;
      break;
    }
    if (view.getUint32(at + 4, true) !== height) {
      tail = `a record of height ${view.getUint32(at + 4, true)}`;
      break;
    }
    if (view.getUint32(at + CRC_AT, true) !== recordCrc(buf, at, length)) {
      tail = "a record whose checksum does not match";
      break;
    }
    record?.(at, length);
    at += RECORD_HEADER_BYTES + length;
  }
  return { goodBytes: at, tail, reserved: 0 };
}

/** Parse a height's file: its records up to the first incomplete or damaged one (a prefix), or reserved space. */
export function parseHeightFile(buf: Uint8Array, height: number): ParsedFile {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const records: JournalRecord[] = [];
  const walked = walkRecords(buf, height, (at, length) => {
    const start = at + RECORD_HEADER_BYTES;
    // a copy of its own (not a view of the file's buffer, which would keep all of it alive; a plain Uint8Array)
    const bytes = new Uint8Array(length);
    bytes.set(buf.subarray(start, start + length));
    records.push({ height, seq: view.getUint32(at + 8, true), bytes });
  });
  return { records, ...walked };
}

/** Where a height's file's good records end (parseHeightFile's `goodBytes`, nothing copied). */
export function recordsEnd(buf: Uint8Array, height: number): number {
  return walkRecords(buf, height, undefined).goodBytes;
}

/**
 * True when `buf` is whole records of `height` from its start to its end, every one of a sequence in `seqs`:
 * read from the record headers alone, no checksum computed and nothing copied. A saved height's file whose
 * records its block holds, all of them, goes whole (journal.ts removeNow): parsing it (a checksum and a copy per
 * record) took 105–180 ms of the main thread per 14,000-entry block here, ~8–12 µs per entry. A file it does not
 * describe (a record kept, a torn or damaged one) is parsed as before; a damaged record's bytes matter only
 * for a record that is kept, and a kept record is one whose sequence is not in `seqs`.
 */
export function onlyRecordsOf(buf: Uint8Array, height: number, seqs: ReadonlySet<number>): boolean {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = 0;
  while (at < buf.length) {
    // reserved space ends the records
    if (reservedAt(buf, view, at)) return true;
    if (buf.length - at < RECORD_HEADER_BYTES) return false;
    // zeros that do not run to the end: no record's header (its CRC is not 0), bytes a crash left
    if (view.getUint32(at, true) === 0 && view.getUint32(at + CRC_AT, true) === 0) return false;
    const length = view.getUint32(at, true);
    if (length > MAX_RECORD_BYTES || buf.length - at - RECORD_HEADER_BYTES < length) return false;
    if (view.getUint32(at + 4, true) !== height || !seqs.has(view.getUint32(at + 8, true))) return false;
    at += RECORD_HEADER_BYTES + length;
  }
  return true;
}

/**
 * Records of a parsed file in log order: by sequence, the last of a sequence written twice kept (a record
 * appended again replaces the earlier one, as a key put twice did in the LMDB journal).
 */
export function inLogOrder(records: JournalRecord[]): JournalRecord[] {
  const bySeq = new Map<number, JournalRecord>();
  for (const r of records) bySeq.set(r.seq, r);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}

/** The records of `height` in `dir` (none when it has no file), in log order. */
export function readHeight(dir: string, height: number): JournalRecord[] {
  let buf: Buffer;
  try {
    buf = readFileSync(join(dir, heightFileName(height)));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  return inLogOrder(parseHeightFile(buf, height).records);
}

/**
 * Write all of `buffers` to `fd`, from byte `position` on (undefined: at the file's position, a new file's
 * start): writev until every byte is taken.
 */
export function writeAllSync(fd: number, buffers: Uint8Array[], position?: number): void {
  let bufs = buffers;
  let at = position;
  for (;;) {
    let left = 0;
    for (const b of bufs) left += b.length;
    if (left === 0) return;
    let written =
      bufs.length === 1
        ? writeSync(fd, bufs[0]!, 0, bufs[0]!.length, at)
        : at === undefined
          ? writevSync(fd, bufs)
          : writevSync(fd, bufs, at);
    if (at !== undefined) at += written;
    // a short write (a file-size limit, a signal): go on from the first byte not taken
    const rest: Uint8Array[] = [];
    for (const b of bufs) {
      if (written >= b.length) {
        written -= b.length;
        continue;
      }
      rest.push(written > 0 ? b.subarray(written) : b);
      written = 0;
    }
    bufs = rest;
  }
}

/** Flush a directory, so the names created or removed in it survive a power loss. */
export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replace `dir/name` with `bytes` so that a crash leaves the old file or the new one, never a mix: write a
 * temporary file, flush it, rename it over, flush the directory.
 */
export function replaceFileSync(dir: string, name: string, bytes: Uint8Array): void {
  const tmp = join(dir, `${name}.tmp`);
  const fd = openSync(tmp, "w", 0o600);
  try {
    writeAllSync(fd, [bytes]);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, name));
  fsyncDirectory(dir);
}

/** Open a height's file to read and write at positions (no O_APPEND: records go at their end, before reserved space). */
export function openHeightFile(path: string): { fd: number; created: boolean } {
  try {
    return { fd: openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o600), created: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    return { fd: openSync(path, constants.O_RDWR), created: false };
  }
}

/**
 * Where the records of the height file open at `fd` end. What follows them is made reserved space or nothing:
 * a bad tail (bytes no record is read from) is cut off first, so that records written at the end are never
 * followed by stale bytes a later read could take for records.
 */
export function endOfRecords(fd: number, height: number): number {
  // from byte 0, whatever the descriptor's position: readFileSync(fd) reads from the position, which an earlier
  // read of the same descriptor left at the end (the writer thread reads a file's end again after a change)
  const size = fstatSync(fd).size;
  const whole = new Uint8Array(size);
  let read = 0;
  while (read < size) {
    const n = readSync(fd, whole, read, size - read, read);
    if (n === 0) break;
    read += n;
  }
  const buf = whole.subarray(0, read);
  const walked = walkRecords(buf, height, undefined);
  if (walked.tail !== undefined) ftruncateSync(fd, walked.goodBytes);
  return walked.goodBytes;
}

/**
 * Write packed, sealed records of one height at its file's records' end, flushed (the start's and a replayed
 * save's synchronous writes; the writer thread does the same for group commits). A failed write is cut off again.
 */
export function appendRecordsSync(dir: string, height: number, packed: Uint8Array): void {
  const { fd, created } = openHeightFile(join(dir, heightFileName(height)));
  let end = -1;
  try {
    end = created ? 0 : endOfRecords(fd, height);
    writeAllSync(fd, [packed], end);
    fdatasyncSync(fd);
  } catch (e) {
    if (end >= 0) ftruncateSync(fd, end);
    throw e;
  } finally {
    closeSync(fd);
  }
  if (created) fsyncDirectory(dir);
}

/**
 * Cut every height file of `dir` after its last good record (a torn or damaged tail, or reserved space),
 * flushed. Returns the tails cut, for the log (reserved space goes without a word).
 */
export function cutTornTails(dir: string): { height: number; bytes: number; why: string }[] {
  const cuts: { height: number; bytes: number; why: string }[] = [];
  for (const height of journalHeights(dir)) {
    const path = join(dir, heightFileName(height));
    const buf = readFileSync(path);
    const parsed = walkRecords(buf, height, undefined);
    if (parsed.goodBytes === buf.length) continue;
    const fd = openSync(path, "r+");
    try {
      ftruncateSync(fd, parsed.goodBytes);
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (parsed.tail !== undefined) cuts.push({ height, bytes: buf.length - parsed.goodBytes, why: parsed.tail });
  }
  return cuts;
}

/** Remove `dir/name` if it is there. */
export function unlinkIfThere(path: string): boolean {
  try {
    unlinkSync(path);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw e;
  }
}
