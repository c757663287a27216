/**
 * The export file (docs/export.md): a node's history as a stream of framed records — a prelude (magic,
 * version), a header (network, heights), then per height its block set as the protocol's raw bytes (directory,
 * admin, EC, asset block, then each entry block followed by its entries), and a trailer with the counts and a
 * sha256 of every byte before it. Each record is `type u8 ‖ length u32 ‖ payload ‖ crc32 u32` (big-endian; the
 * CRC covers type, length and payload), so a damaged byte is found at its record, and a file cut short or
 * extended is found at the trailer.
 *
 * This file only frames and orders: whether the blocks are good is the checker's (checker.ts) business.
 */
import { createHash, type Hash } from "node:crypto";
import { crc32 } from "node:zlib";
import { HistoryError } from "./errors.js";

/** First bytes of every export file: "LDGRHIST". */
export const MAGIC = Uint8Array.from(Buffer.from("LDGRHIST", "ascii"));
/** Layout version after the magic (u16). A reader refuses another. */
export const FORMAT_VERSION = 1;
/** Magic and version. */
const PRELUDE_BYTES = MAGIC.length + 2;
/** type u8 ‖ length u32 */
const FRAME_HEAD_BYTES = 5;
const CRC_BYTES = 4;
/**
 * Largest payload a reader accepts, bytes: a directory block of 100,000 entries is 6.4 MB and an entry block
 * of the reference's largest block a few MB; 64 MiB bounds what a damaged length can make the reader allocate.
 */
export const MAX_RECORD_BYTES = 64 * 2 ** 20;
/** Bytes the writer gathers before handing a chunk to its sink (fewer, larger writes to a pipe or file). */
const WRITE_CHUNK_BYTES = 1 << 20;

/** Record types (docs/export.md §2). */
export const RecordType = {
  header: 0x01,
  height: 0x02,
  directory: 0x03,
  admin: 0x04,
  ec: 0x05,
  asset: 0x06,
  entryBlock: 0x07,
  entry: 0x08,
  trailer: 0x7f,
} as const;
export type RecordType = (typeof RecordType)[keyof typeof RecordType];

const TYPE_NAMES: Record<number, string> = {
  [RecordType.header]: "header",
  [RecordType.height]: "height",
  [RecordType.directory]: "directory block",
  [RecordType.admin]: "admin block",
  [RecordType.ec]: "EC block",
  [RecordType.asset]: "asset block",
  [RecordType.entryBlock]: "entry block",
  [RecordType.entry]: "entry",
  [RecordType.trailer]: "trailer",
};

export interface HistoryHeader {
  /** u32 network id of the directory blocks */
  networkId: number;
  /** MAIN, TEST, LOCAL or CUSTOM */
  network: string;
  firstHeight: number;
  lastHeight: number;
  /** the program that wrote the file, e.g. "ledgerd 1.2.0" */
  producer: string;
}

/** One height's blocks as raw protocol bytes, entry blocks in directory-block order with their entries. */
export interface HeightSet {
  height: number;
  directory: Uint8Array;
  admin: Uint8Array;
  ec: Uint8Array;
  asset: Uint8Array;
  entryBlocks: { raw: Uint8Array; entries: Uint8Array[] }[];
}

export interface HistoryTrailer {
  heights: number;
  /** records before the trailer, the header included */
  records: number;
  entryBlocks: number;
  entries: number;
  /** start of the block after the last one, ms since epoch (the node's open block) */
  openBlockStartMs: number;
  /** sha256 of every byte before the trailer's record */
  sha256: Uint8Array;
}

/** "a …" or "an …" before a record's name. */
function an(name: string | undefined): string {
  return `${/^[aeiou]/i.test(name ?? "") ? "an" : "a"} ${name}`;
}

function u32(v: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(v, 0);
  return b;
}
function u64(v: number): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeBigUInt64BE(BigInt(v), 0);
  return b;
}
function shortString(s: string): Buffer {
  const b = Buffer.from(s, "utf8");
  if (b.length > 255)
    throw new HistoryError({ code: "REFUSED", info: `"${s.slice(0, 20)}…" is longer than 255 bytes` });
  return Buffer.concat([Uint8Array.of(b.length), b]);
}

export function encodeHeader(h: HistoryHeader): Uint8Array {
  return Buffer.concat([
    u32(h.networkId),
    shortString(h.network),
    u32(h.firstHeight),
    u32(h.lastHeight),
    shortString(h.producer),
  ]);
}

/** Writes an export file to `sink` (which resolves when it can take more: backpressure). */
export class HistoryWriter {
  private readonly hash: Hash = createHash("sha256");
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private records = 0;
  private entryBlocks = 0;
  private entries = 0;
  private heights = 0;
  /** bytes written so far */
  bytes = 0;

  constructor(
    private readonly sink: (chunk: Uint8Array) => Promise<void>,
    header: HistoryHeader,
  ) {
    const prelude = Buffer.allocUnsafe(PRELUDE_BYTES);
    prelude.set(MAGIC, 0);
    prelude.writeUInt16BE(FORMAT_VERSION, MAGIC.length);
    this.push(prelude);
    this.record(RecordType.header, encodeHeader(header));
  }

  /** Append one height's block set. */
  async heightSet(set: HeightSet): Promise<void> {
    let entries = 0;
    for (const eb of set.entryBlocks) entries += eb.entries.length;
    this.record(RecordType.height, Buffer.concat([u32(set.height), u32(set.entryBlocks.length), u32(entries)]));
    this.record(RecordType.directory, set.directory);
    this.record(RecordType.admin, set.admin);
    this.record(RecordType.ec, set.ec);
    this.record(RecordType.asset, set.asset);
    for (const eb of set.entryBlocks) {
      this.record(RecordType.entryBlock, eb.raw);
      for (const e of eb.entries) this.record(RecordType.entry, e);
    }
    this.heights++;
    this.entryBlocks += set.entryBlocks.length;
    this.entries += entries;
    if (this.pendingBytes >= WRITE_CHUNK_BYTES) await this.flush();
  }

  /** Write the trailer and hand everything left to the sink. */
  async finish(openBlockStartMs: number): Promise<HistoryTrailer> {
    const digest = new Uint8Array(this.hash.digest());
    const trailer: HistoryTrailer = {
      heights: this.heights,
      records: this.records,
      entryBlocks: this.entryBlocks,
      entries: this.entries,
      openBlockStartMs,
      sha256: digest,
    };
    this.frame(
      RecordType.trailer,
      Buffer.concat([
        u32(trailer.heights),
        u64(trailer.records),
        u64(trailer.entryBlocks),
        u64(trailer.entries),
        u64(openBlockStartMs),
        digest,
      ]),
      false,
    );
    await this.flush();
    return trailer;
  }

  private record(type: RecordType, payload: Uint8Array): void {
    this.frame(type, payload, true);
    this.records++;
  }

  private frame(type: RecordType, payload: Uint8Array, hashed: boolean): void {
    if (payload.length > MAX_RECORD_BYTES)
      throw new HistoryError({
        code: "REFUSED",
        info: `${an(TYPE_NAMES[type])} of ${payload.length} bytes cannot be written (most ${MAX_RECORD_BYTES})`,
      });
    const head = Buffer.allocUnsafe(FRAME_HEAD_BYTES);
    head[0] = type;
    head.writeUInt32BE(payload.length, 1);
    const crc = Buffer.allocUnsafe(CRC_BYTES);
    crc.writeUInt32BE(crc32(payload, crc32(head)), 0);
    const body = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    for (const part of [head, body, crc]) {
      if (hashed) this.hash.update(part);
      this.pending.push(part);
      this.pendingBytes += part.length;
    }
  }

  private push(b: Buffer): void {
    this.hash.update(b);
    this.pending.push(b);
    this.pendingBytes += b.length;
  }

  private async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const chunk = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.bytes += this.pendingBytes;
    this.pendingBytes = 0;
    await this.sink(chunk);
  }
}

/** Exact-length reads over an async byte stream (a file or a pipe). */
class ByteSource {
  private readonly it: AsyncIterator<Uint8Array>;
  private buf: Buffer = Buffer.alloc(0);
  private at = 0;
  /** bytes consumed so far (the offset of the next read) */
  offset = 0;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.it = source[Symbol.asyncIterator]();
  }

  /** Exactly `n` bytes, or fewer at the end of the stream. */
  async read(n: number): Promise<Buffer> {
    while (this.buf.length - this.at < n) {
      const next = await this.it.next();
      if (next.done === true) break;
      const rest = this.buf.subarray(this.at);
      this.buf = rest.length === 0 ? Buffer.from(next.value) : Buffer.concat([rest, next.value]);
      this.at = 0;
    }
    const got = this.buf.subarray(this.at, Math.min(this.at + n, this.buf.length));
    this.at += got.length;
    this.offset += got.length;
    return got;
  }

  /** True when no byte is left. */
  async atEnd(): Promise<boolean> {
    if (this.buf.length > this.at) return false;
    const next = await this.it.next();
    if (next.done === true) return true;
    this.buf = Buffer.from(next.value);
    this.at = 0;
    return this.buf.length === 0 ? this.atEnd() : false;
  }
}

/** What `readHistory` yields: the header first, then each height's set; the trailer is checked, then returned. */
export type HistoryItem = { kind: "header"; header: HistoryHeader } | { kind: "height"; set: HeightSet };

/**
 * Read an export file: yields the header, then every height set in order, after checking each record's CRC,
 * the record order, consecutive heights from the header's first to its last, and at the end the trailer (its
 * counts and the sha256 of the file). Returns the trailer. Throws HistoryError BAD_FILE naming the byte offset
 * and the height being read. The blocks' own validity is not looked at here.
 */
export async function* readHistory(source: AsyncIterable<Uint8Array>): AsyncGenerator<HistoryItem, HistoryTrailer> {
  const src = new ByteSource(source);
  const hash = createHash("sha256");
  let height = -1;
  const bad = (offset: number, info: string): HistoryError =>
    new HistoryError({ code: "BAD_FILE", offset, height, info });

  const prelude = await src.read(PRELUDE_BYTES);
  if (prelude.length < PRELUDE_BYTES || !prelude.subarray(0, MAGIC.length).equals(MAGIC))
    throw bad(0, "not a ledgerd export file (no LDGRHIST magic)");
  const version = prelude.readUInt16BE(MAGIC.length);
  if (version !== FORMAT_VERSION)
    throw bad(MAGIC.length, `format version ${version}, this program reads ${FORMAT_VERSION}`);
  hash.update(prelude);

  let records = 0;
  /** Next record: its type, payload and the offset it starts at. `hashed`: fold it into the file hash. */
  const next = async (hashed = true): Promise<{ type: number; payload: Buffer; offset: number }> => {
    const offset = src.offset;
    const head = await src.read(FRAME_HEAD_BYTES);
    if (head.length < FRAME_HEAD_BYTES) throw bad(offset, "the file ends without its trailer (cut short?)");
    const type = head[0]!;
    const length = head.readUInt32BE(1);
    const name = TYPE_NAMES[type] ?? `record of unknown type 0x${type.toString(16)}`;
    if (length > MAX_RECORD_BYTES)
      throw bad(offset, `${an(name)} of ${length} bytes (most ${MAX_RECORD_BYTES}): a damaged length?`);
    const headCopy = Buffer.from(head);
    const payload = Buffer.from(await src.read(length));
    const crc = await src.read(CRC_BYTES);
    if (payload.length < length || crc.length < CRC_BYTES) throw bad(offset, `the file ends inside ${an(name)}`);
    const computed = crc32(payload, crc32(headCopy));
    if (computed !== crc.readUInt32BE(0))
      throw bad(
        offset,
        `the ${name} (record ${records + 1}) fails its checksum (crc32 ${crc.readUInt32BE(0).toString(16)}, computed ${computed.toString(16)})`,
      );
    if (TYPE_NAMES[type] === undefined) throw bad(offset, `${name}`);
    if (hashed) {
      hash.update(headCopy);
      hash.update(payload);
      hash.update(crc);
      records++;
    }
    return { type, payload, offset };
  };
  const expect = async (type: RecordType): Promise<Buffer> => {
    const r = await next();
    if (r.type !== type) throw bad(r.offset, `${an(TYPE_NAMES[r.type])} where the ${TYPE_NAMES[type]} belongs`);
    return r.payload;
  };

  const h = await expect(RecordType.header);
  let header: HistoryHeader;
  try {
    let at = 0;
    const networkId = h.readUInt32BE(at);
    at += 4;
    const nameLength = h[at++]!;
    const network = h.subarray(at, at + nameLength).toString("utf8");
    at += nameLength;
    const firstHeight = h.readUInt32BE(at);
    const lastHeight = h.readUInt32BE(at + 4);
    at += 8;
    const producerLength = h[at++]!;
    if (at + producerLength !== h.length)
      throw bad(PRELUDE_BYTES, "the header record's length does not match its fields");
    const producer = h.subarray(at, at + producerLength).toString("utf8");
    header = { networkId, network, firstHeight, lastHeight, producer };
  } catch (e) {
    if (e instanceof HistoryError) throw e;
    throw bad(PRELUDE_BYTES, "the header record does not decode");
  }
  if (header.lastHeight < header.firstHeight)
    throw bad(PRELUDE_BYTES, `header heights ${header.firstHeight}..${header.lastHeight}`);
  yield { kind: "header", header };

  let entryBlocks = 0;
  let entries = 0;
  for (let expected = header.firstHeight; expected <= header.lastHeight; expected++) {
    const hr = await next();
    if (hr.type !== RecordType.height)
      throw bad(hr.offset, `${an(TYPE_NAMES[hr.type])} where height ${expected} should start`);
    if (hr.payload.length !== 12) throw bad(hr.offset, "a height record of the wrong size");
    const got = hr.payload.readUInt32BE(0);
    if (got !== expected) throw bad(hr.offset, `height ${got} where ${expected} belongs`);
    height = got;
    const ebCount = hr.payload.readUInt32BE(4);
    const entryCount = hr.payload.readUInt32BE(8);
    const set: HeightSet = {
      height,
      directory: await expect(RecordType.directory),
      admin: await expect(RecordType.admin),
      ec: await expect(RecordType.ec),
      asset: await expect(RecordType.asset),
      entryBlocks: [],
    };
    let seenEntries = 0;
    while (set.entryBlocks.length < ebCount || seenEntries < entryCount) {
      const r = await next();
      if (r.type === RecordType.entryBlock && set.entryBlocks.length < ebCount)
        set.entryBlocks.push({ raw: r.payload, entries: [] });
      else if (r.type === RecordType.entry && set.entryBlocks.length > 0 && seenEntries < entryCount) {
        set.entryBlocks[set.entryBlocks.length - 1]!.entries.push(r.payload);
        seenEntries++;
      } else
        throw bad(
          r.offset,
          `${an(TYPE_NAMES[r.type])} after ${set.entryBlocks.length} of ${ebCount} entry blocks and ${seenEntries} of ${entryCount} entries`,
        );
    }
    entryBlocks += ebCount;
    entries += entryCount;
    yield { kind: "height", set };
  }
  height = -1;
  const digest = new Uint8Array(hash.digest());
  const tr = await next(false);
  if (tr.type !== RecordType.trailer)
    throw bad(
      tr.offset,
      `${an(TYPE_NAMES[tr.type])} after the last height ${header.lastHeight}, where the trailer belongs`,
    );
  if (tr.payload.length !== 4 + 8 * 4 + 32) throw bad(tr.offset, "a trailer of the wrong size");
  const trailer: HistoryTrailer = {
    heights: tr.payload.readUInt32BE(0),
    records: Number(tr.payload.readBigUInt64BE(4)),
    entryBlocks: Number(tr.payload.readBigUInt64BE(12)),
    entries: Number(tr.payload.readBigUInt64BE(20)),
    openBlockStartMs: Number(tr.payload.readBigUInt64BE(28)),
    sha256: new Uint8Array(tr.payload.subarray(36, 68)),
  };
  const heights = header.lastHeight - header.firstHeight + 1;
  const counts: [string, number, number][] = [
    ["heights", trailer.heights, heights],
    ["records", trailer.records, records],
    ["entry blocks", trailer.entryBlocks, entryBlocks],
    ["entries", trailer.entries, entries],
  ];
  for (const [what, said, read] of counts)
    if (said !== read) throw bad(tr.offset, `the trailer counts ${said} ${what}, the file holds ${read}`);
  if (!Buffer.from(trailer.sha256).equals(digest))
    throw bad(tr.offset, "the file's sha256 does not match the trailer's");
  if (!(await src.atEnd())) throw bad(src.offset, "bytes after the trailer");
  return trailer;
}
