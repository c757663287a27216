// Entry blocks: wire-format §5.1 (factomd common/entryBlock/eblockHeader.go, eblockBody.go, eblock.go).
import { ByteReader, ByteWriter, bytesEqual, toHex } from "./bytes.js";
import { ProtocolError } from "./errors.js";
import { sha256 } from "./hash.js";
import { merkleParent, merkleRoot } from "./merkle.js";

/** Header bytes: chain ID, BodyMR, PrevKeyMR, PrevFullHash (32 each), EBSequence, DBHeight, EntryCount (u32 each). */
export const ENTRY_BLOCK_HEADER_SIZE = 140;
/** Minutes per directory block: markers are numbered 1..10. */
export const MINUTES_PER_BLOCK = 10;

/** An entry block. `items` are 32-byte body items: entry hashes and minute markers (31 zero bytes ‖ minute 1..10). */
export interface EntryBlock {
  chainId: Uint8Array;
  bodyMR: Uint8Array;
  prevKeyMR: Uint8Array;
  prevFullHash: Uint8Array;
  sequence: number; // EBSequence
  dbHeight: number;
  items: Uint8Array[];
}

/** 32-byte minute marker for minute n (1..10). */
export function minuteMarker(minute: number): Uint8Array {
  if (!Number.isInteger(minute) || minute < 1 || minute > MINUTES_PER_BLOCK)
    throw new ProtocolError("BAD_VALUE", "minute", `must be 1..${MINUTES_PER_BLOCK}, got ${minute}`);
  const marker = new Uint8Array(32);
  marker[31] = minute;
  return marker;
}
/** Minute number (1..10) when the item is a minute marker, otherwise 0. */
export function markerMinute(item: Uint8Array): number {
  return item.length === 32 ? markerMinuteAt(item, 0) : 0;
}

/**
 * `markerMinute` of the 32-byte item at `at` in `bytes` (a block's body read in place, with no view per item):
 * minute 1..10 when it is a marker (31 zero bytes ‖ minute), otherwise 0.
 */
export function markerMinuteAt(bytes: Uint8Array, at: number): number {
  for (let i = at; i < at + 31; i++) if (bytes[i] !== 0) return 0;
  // a zero byte there is the zero hash, not a marker: 0 either way
  const minute = bytes[at + 31]!;
  return minute <= MINUTES_PER_BLOCK ? minute : 0;
}

/** An entry of an entry block with the minute (1..10) of the marker that follows it. */
export interface EntryInBlock {
  entryHash: Uint8Array;
  /** index of the entry among the block's items (markers included) */
  index: number;
  /**
   * minute 1..10 of the next minute marker, i.e. the entry was recorded by the end of that minute. An entry
   * with no marker after it (never produced by factomd or us) counts as minute 10, the end of the block.
   */
  minute: number;
}

/** The entries of a block (markers skipped) with the minute each one belongs to. */
export function entriesWithMinutes(block: Pick<EntryBlock, "items">): EntryInBlock[] {
  const out: EntryInBlock[] = [];
  let pending = 0; // entries of `out` still waiting for their marker
  block.items.forEach((item, index) => {
    const minute = markerMinute(item);
    if (minute === 0) {
      out.push({ entryHash: item, index, minute: MINUTES_PER_BLOCK });
      pending++;
    } else {
      for (let i = out.length - pending; i < out.length; i++) out[i]!.minute = minute;
      pending = 0;
    }
  });
  return out;
}

/**
 * Timestamp of an entry of a block, seconds since epoch: directory block timestamp (MINUTES, as stored in the
 * directory block header) × 60 + 60 × the entry's minute (factomd wsapi HandleV2EntryBlock, receipts).
 */
export function entryTimestampSeconds(dblockTimestampMinutes: number, minute: number): number {
  return dblockTimestampMinutes * 60 + 60 * minute;
}

function checkItems(items: readonly Uint8Array[]): void {
  items.forEach((item, i) => {
    if (item.length !== 32)
      throw new ProtocolError("BAD_LENGTH", `entry block.items[${i}]`, `expected 32 bytes, got ${item.length}`);
  });
}

/** Build an entry block from its items, computing bodyMR. */
export function buildEntryBlock(fields: Omit<EntryBlock, "bodyMR">): EntryBlock {
  checkItems(fields.items);
  return { ...fields, bodyMR: merkleRoot(fields.items) };
}

function checkU32(value: number, field: string): void {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw new ProtocolError("BAD_VALUE", `entry block.${field}`, `must be a u32, got ${value}`);
}

function checkHash(value: Uint8Array, field: string): void {
  if (value.length !== 32)
    throw new ProtocolError("BAD_LENGTH", `entry block.${field}`, `expected 32 bytes, got ${value.length}`);
}

/** The 140-byte header of `block` (with its stored bodyMR). */
export function encodeEntryBlockHeader(block: EntryBlock): Uint8Array {
  return encodeHeader(block, block.items.length);
}

function encodeHeader(block: Omit<EntryBlock, "items">, itemCount: number): Uint8Array {
  checkHash(block.chainId, "chainid");
  checkHash(block.bodyMR, "bodymr");
  checkHash(block.prevKeyMR, "prevkeymr");
  checkHash(block.prevFullHash, "prevfullhash");
  checkU32(block.sequence, "sequence");
  checkU32(block.dbHeight, "dbheight");
  return new ByteWriter(ENTRY_BLOCK_HEADER_SIZE)
    .bytes(block.chainId)
    .bytes(block.bodyMR)
    .bytes(block.prevKeyMR)
    .bytes(block.prevFullHash)
    .u32(block.sequence)
    .u32(block.dbHeight)
    .u32(itemCount)
    .finish();
}

/**
 * Header ‖ body, with the body's items already one array (`body`, EntryCount × 32 bytes): an open block's items
 * are kept that way (ledger/processList.ts OpenEntryBlock), and a big block is not cut into views to be joined.
 */
export function encodeEntryBlockWithBody(block: Omit<EntryBlock, "items">, body: Uint8Array): Uint8Array {
  if (body.length % 32 !== 0)
    throw new ProtocolError("BAD_LENGTH", "entry block.body", `expected 32-byte items, got ${body.length} bytes`);
  const header = encodeHeader(block, body.length / 32);
  return new ByteWriter(header.length + body.length).bytes(header).bytes(body).finish();
}

/** Header ‖ body (EntryCount × 32 bytes). */
export function encodeEntryBlock(block: EntryBlock): Uint8Array {
  checkItems(block.items);
  const w = new ByteWriter(ENTRY_BLOCK_HEADER_SIZE + 32 * block.items.length);
  w.bytes(encodeEntryBlockHeader(block));
  for (const item of block.items) w.bytes(item);
  return w.finish();
}

/**
 * Decode; rejects truncation and trailing bytes, and (unless `verifyBodyMR` is false) a stored BodyMR that is
 * not the Merkle root of the body. The result owns a copy of the bytes.
 */
export function decodeEntryBlock(bytes: Uint8Array, options: { verifyBodyMR?: boolean } = {}): EntryBlock {
  const r = new ByteReader(bytes.slice(), "entry block");
  const chainId = r.bytesN(32, "chainid");
  const bodyMR = r.bytesN(32, "bodymr");
  const prevKeyMR = r.bytesN(32, "prevkeymr");
  const prevFullHash = r.bytesN(32, "prevfullhash");
  const sequence = r.u32("sequence");
  const dbHeight = r.u32("dbheight");
  const count = r.u32("entrycount");
  if (count * 32 > r.remaining)
    throw new ProtocolError(
      "TRUNCATED",
      "entry block.body",
      `entry count ${count} needs ${count * 32} bytes, only ${r.remaining} left`,
    );
  const items: Uint8Array[] = new Array(count);
  for (let i = 0; i < count; i++) items[i] = r.bytesN(32, `items[${i}]`);
  r.end();
  const block = { chainId, bodyMR, prevKeyMR, prevFullHash, sequence, dbHeight, items };
  if (options.verifyBodyMR !== false) {
    const computed = merkleRoot(items);
    if (!bytesEqual(computed, bodyMR))
      throw new ProtocolError(
        "BAD_VALUE",
        "entry block.bodymr",
        `stored ${toHex(bodyMR)} is not the body's Merkle root ${toHex(computed)}`,
      );
  }
  return block;
}

/** KeyMR = sha256(sha256(header) ‖ bodyMR) and full hash = sha256(header ‖ body); headerHash = sha256(header). */
export function entryBlockHashes(block: EntryBlock): {
  keyMR: Uint8Array;
  fullHash: Uint8Array;
  headerHash: Uint8Array;
} {
  const raw = encodeEntryBlock(block);
  const headerHash = sha256(raw.subarray(0, ENTRY_BLOCK_HEADER_SIZE));
  return { keyMR: merkleParent(headerHash, block.bodyMR), fullHash: sha256(raw), headerHash };
}
