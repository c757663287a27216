/**
 * Key and value layouts of the query index (docs/ledger.md §Query index; the index itself: queryIndex.ts).
 * Every key puts the thing asked for first and a position in the ledger's own order after it, so that
 * one query is one contiguous LMDB key range, and a page that starts at a key costs the same at any depth
 * (a B-tree seek, then `limit` steps). Integers are big-endian so bytewise order is numeric order.
 *
 * A record holds a block's worth of items, not one item: one per (chain, height) (the entry block's body is
 * the list of its entries), one per (ext ID, entry block) with the matching item indexes, one per (address,
 * height) with its items. LMDB costs ~10 bytes and a key per record, and a range that grows in the middle of
 * the tree leaves its pages half full (docs/performance.md §Disk): per block instead of per entry, both are paid
 * once per block. A position (what a cursor holds) is a record's key ‖ u32 item index in the record; it never
 * changes once saved.
 */
import { sha256 } from "../protocol/hash.js";

/** The query index's named databases (added to DB_NAMES in keys.ts). */
export const QUERY_DB_NAMES = {
  /** chain ID (32) ‖ u32 height → ChainHeightValue: one record per entry block (its entries: the block's body) */
  qChainEntries: "qChainEntries",
  /** ExtIdKey (ext ID, then u32 height ‖ u32 place of the entry block) → u32 item index of each match in the block */
  qEntryExtIds: "qEntryExtIds",
  /** ExtIdKey of each chain's first entry → chain ID (32) ‖ first entry hash (32) */
  qChainExtIds: "qChainExtIds",
  /** chain ID (32) → u64 saved entries of the chain */
  qChainCounts: "qChainCounts",
  /** u8 kind ‖ address (32) ‖ u32 height ‖ u32 last item number → up to ADDRESS_CHUNK_ITEMS AddressItemValues (49) */
  qAddresses: "qAddresses",
} as const;
export type QueryDbName = keyof typeof QUERY_DB_NAMES;

/**
 * Ext IDs indexed per entry: the first QUERY_EXTID_LEVELS ext IDs (a search for more is answered from the
 * deepest level and checked against each candidate entry). Each level costs one key per entry at every save;
 * applications tag with one to three ext IDs (a type, an id, a version), so three levels cover them.
 */
export const QUERY_EXTID_LEVELS = 3;

/** Bytes of an ext ID held in a key: longer ones are cut there (and searches past it check the entry). */
export const EXTID_KEY_BYTES = 32;

/**
 * Bytes of the scope (hash of the ext IDs before the last one searched) of an ext ID of level 1 and deeper;
 * 16 bytes: two scopes colliding by chance or by design (2^64 work) is out of reach.
 */
const SCOPE_BYTES = 16;

/** Bytes of an ExtIdKey's position: u32 height ‖ u32 place of the entry block in the directory block. */
export const BLOCK_POSITION_BYTES = 8;

/** Bytes of a cursor's item index, after a record's key (every position a page stops at: key ‖ u32 item). */
export const ITEM_BYTES = 4;

/** Bytes of a qChainEntries key. */
export const CHAIN_HEIGHT_KEY_LENGTH = 32 + 4;

/** Bytes of a qAddresses key. */
export const ADDRESS_KEY_LENGTH = 1 + 32 + 4 + 4;

/** Bytes of one item of a qAddresses value. */
export const ADDRESS_ITEM_BYTES = 49;

/**
 * Most items of one qAddresses record: an address's items of a height are cut into records of this many. A page
 * reads (and lmdb-js copies out of the map) one record at a time, so a busy EC key's height — one item per commit,
 * 20,000 in a 20,000-entry block, ~1 MB — costs a page 12 KB, whatever the block's size; and 250 × 49 bytes (+ 16
 * of LMDB's overflow page header) fill 3 pages of 4,096 to 99.8 %.
 */
export const ADDRESS_CHUNK_ITEMS = 250;

/** First byte of a qAddresses key. */
export const AddressKind = { asset: 1, ec: 2 } as const;
export type AddressKind = (typeof AddressKind)[keyof typeof AddressKind];

/** What an address item is (first byte of its value); the API names in ADDRESS_ITEM_NAMES. */
export const AddressItem = {
  /** the address paid into an asset transaction (amount: base units) */
  input: 1,
  /** the address was paid by an asset transaction (amount: base units) */
  output: 2,
  /** entry credits bought for this EC key by an asset transaction (amount: entry credits) */
  ecPurchase: 3,
  /** an entry commit paid by this EC key (amount: entry credits) */
  entryCommit: 4,
  /** a chain commit paid by this EC key (amount: entry credits) */
  chainCommit: 5,
} as const;
export type AddressItem = (typeof AddressItem)[keyof typeof AddressItem];

/** The word the API answers for each AddressItem. */
export const ADDRESS_ITEM_NAMES: Record<AddressItem, string> = {
  1: "input",
  2: "output",
  3: "ecpurchase",
  4: "commit",
  5: "chaincommit",
};

/** 4-byte big-endian u32 written at `at`. */
function putU32(b: Buffer, at: number, v: number): void {
  b.writeUInt32BE(v, at);
}

/**
 * A copy of bytes `start`..`end` of `b`. Not `b.slice`: on a Buffer (what lmdb-js reads return) that is a view,
 * and a read's buffer is lmdb-js's, reused by the thread's next read.
 */
export function copyOf(b: Uint8Array, start: number, end: number): Uint8Array {
  return Uint8Array.prototype.slice.call(b, start, end);
}

/** qChainEntries key: one record per (chain, height), the chain's entry block of that height. */
export function chainHeightKey(chainId: Uint8Array, height: number): Buffer {
  const b = Buffer.allocUnsafe(CHAIN_HEIGHT_KEY_LENGTH);
  b.set(chainId, 0);
  putU32(b, 32, height);
  return b;
}

/**
 * A chain's entry block of one height: its keyMR (the block's body lists the entry hashes, so the index holds
 * none), the directory block's timestamp (minutes), and the item index (in the body, minute markers counted)
 * of each minute marker, ascending: an entry's place among the block's entries and its minute follow from
 * them in O(markers), without reading the body before it.
 */
export interface ChainHeightValue {
  entryBlockKeyMR: Uint8Array;
  directoryTimestampMinutes: number;
  markers: number[];
}
export function encodeChainHeightValue(v: ChainHeightValue): Buffer {
  const b = Buffer.allocUnsafe(36 + 4 * v.markers.length);
  b.set(v.entryBlockKeyMR, 0);
  putU32(b, 32, v.directoryTimestampMinutes);
  for (let i = 0; i < v.markers.length; i++) putU32(b, 36 + 4 * i, v.markers[i]!);
  return b;
}
export function decodeChainHeightValue(b: Uint8Array): ChainHeightValue {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const markers: number[] = [];
  for (let at = 36; at + 4 <= b.length; at += 4) markers.push(buf.readUInt32BE(at));
  return { entryBlockKeyMR: copyOf(b, 0, 32), directoryTimestampMinutes: buf.readUInt32BE(32), markers };
}

/** A cursor position: a record's key ‖ u32 item index within the record. */
export function itemPosition(recordKey: Uint8Array, item: number): Buffer {
  const b = Buffer.allocUnsafe(recordKey.length + ITEM_BYTES);
  b.set(recordKey, 0);
  putU32(b, recordKey.length, item);
  return b;
}

/**
 * Scope of ext ID `level` (0-based) of a search: what the ext IDs before it must be, exactly. The level is
 * hashed in, so `[a]` and `[a, b]` never share a scope; each ext ID is length-prefixed, so `["ab","c"]` and
 * `["a","bc"]` do not either. Level 0 has no earlier ext IDs and needs no hash: its keys start with one byte.
 */
export function extIdScope(extIds: readonly Uint8Array[], level: number): Buffer {
  if (level === 0) return Buffer.from([0]);
  let size = 1;
  for (let i = 0; i < level; i++) size += 2 + extIds[i]!.length;
  const pre = Buffer.allocUnsafe(size);
  pre[0] = level;
  let at = 1;
  for (let i = 0; i < level; i++) {
    const id = extIds[i]!;
    pre.writeUInt16BE(id.length, at);
    pre.set(id, at + 2);
    at += 2 + id.length;
  }
  // the level first, so the scopes of different levels never share a key range with level 0's
  return Buffer.concat([Buffer.from([level]), sha256(pre).subarray(0, SCOPE_BYTES)]);
}

/** Escaped bytes of an ext ID (at most EXTID_KEY_BYTES of it): each 0x00 as 0x00 0xff. */
function escapedLength(extId: Uint8Array): number {
  let n = extId.length;
  for (let i = 0; i < extId.length; i++) if (extId[i] === 0) n++;
  return n;
}
function putEscaped(b: Buffer, at: number, extId: Uint8Array): number {
  for (let i = 0; i < extId.length; i++) {
    const byte = extId[i]!;
    b[at++] = byte;
    if (byte === 0) b[at++] = 0xff;
  }
  return at;
}

/**
 * The part of an ExtIdKey that names the ext ID: its first EXTID_KEY_BYTES bytes with each 0x00 escaped as
 * 0x00 0xff, then 0x00 0x00 (it ends here, the whole ext ID) or 0x00 0x01 ‖ u16 its full length (it was longer
 * and is cut). Escaped and terminated so, the bytes sort as the ext IDs do (a shorter ext ID before the longer
 * ones it starts), the escaped bytes of a prefix are a prefix of every ext ID starting with it (no padding
 * matches a prefix ending in zeros), and no ext ID's part is a prefix of another's.
 */
function extIdPart(extId: Uint8Array): Buffer {
  const cut = extId.subarray(0, EXTID_KEY_BYTES);
  const long = extId.length > EXTID_KEY_BYTES;
  const b = Buffer.allocUnsafe(escapedLength(cut) + (long ? 4 : 2));
  let at = putEscaped(b, 0, cut);
  b[at++] = 0;
  b[at++] = long ? 1 : 0;
  if (long) b.writeUInt16BE(extId.length, at);
  return b;
}

/**
 * ExtIdKey: scope (1 byte at level 0, 17 deeper: extIdScope) ‖ the ext ID (extIdPart) ‖ u32 height ‖ u32 place of
 * the entry block in the directory block: one record per (ext ID, entry block), whose value lists the matching
 * entries' item indexes in the block. Entries whose ext ID at the level is equal (up to 32 bytes) are one range
 * in ledger order; entries whose ext ID starts with a prefix are one range too (ordered by the ext ID, then by
 * position).
 */
export function extIdKey(scope: Uint8Array, extId: Uint8Array, height: number, place: number): Buffer {
  // extIdPart written in place: one buffer per key (the index makes one per entry and level at every save)
  const cut = extId.length > EXTID_KEY_BYTES ? extId.subarray(0, EXTID_KEY_BYTES) : extId;
  const long = extId.length > EXTID_KEY_BYTES;
  const partLength = escapedLength(cut) + (long ? 4 : 2);
  const b = Buffer.allocUnsafe(scope.length + partLength + BLOCK_POSITION_BYTES);
  b.set(scope, 0);
  let at = putEscaped(b, scope.length, cut);
  b[at++] = 0;
  b[at++] = long ? 1 : 0;
  if (long) b.writeUInt16BE(extId.length, at);
  putU32(b, scope.length + partLength, height);
  putU32(b, scope.length + partLength + 4, place);
  return b;
}

/** Height and entry block place of an ExtIdKey (its last 8 bytes). */
export function extIdKeyBlock(key: Uint8Array): { height: number; place: number } {
  const b = Buffer.from(key.buffer, key.byteOffset, key.byteLength);
  return { height: b.readUInt32BE(key.length - 8), place: b.readUInt32BE(key.length - 4) };
}

/**
 * The key prefix of every entry whose ext ID at the scope's level is `extId` (match "exact") or starts with it
 * (match "prefix"). For an exact ext ID longer than EXTID_KEY_BYTES, or a prefix longer than that, the range
 * holds more than the matches and each candidate is checked against its entry (`needsCheck`).
 */
export function extIdRange(
  scope: Uint8Array,
  extId: Uint8Array,
  match: "exact" | "prefix",
): { prefix: Buffer; needsCheck: boolean } {
  const needsCheck = extId.length > EXTID_KEY_BYTES;
  if (match === "exact") return { prefix: Buffer.concat([scope, extIdPart(extId)]), needsCheck };
  const cut = extId.subarray(0, EXTID_KEY_BYTES);
  const b = Buffer.allocUnsafe(scope.length + escapedLength(cut));
  b.set(scope, 0);
  putEscaped(b, scope.length, cut);
  return { prefix: b, needsCheck };
}

/**
 * qAddresses key: one record per (address, height, up to ADDRESS_CHUNK_ITEMS items), ending with the item number
 * of its last item. A position (kind ‖ address ‖ height ‖ item number, the key's layout) sorts just before or at
 * the key of the record that holds it: a seek to it lands on that record.
 */
export function addressKey(kind: AddressKind, address: Uint8Array, height: number, lastNumber: number): Buffer {
  const b = Buffer.allocUnsafe(ADDRESS_KEY_LENGTH);
  b[0] = kind;
  b.set(address, 1);
  putU32(b, 33, height);
  putU32(b, 37, lastNumber);
  return b;
}

/**
 * One item of an address's history: u32 item number in the height (asset inputs, outputs and purchases, then
 * EC commits, all addresses counted) ‖ kind ‖ txid (transaction or commit) ‖ u64 amount ‖ u32 timestamp (s).
 */
export interface AddressItemValue {
  number: number;
  item: AddressItem;
  txId: Uint8Array;
  amount: bigint;
  timestamp: number;
}
export function putAddressItem(b: Buffer, at: number, v: AddressItemValue): void {
  putU32(b, at, v.number);
  b[at + 4] = v.item;
  b.set(v.txId, at + 5);
  b.writeBigUInt64BE(v.amount, at + 37);
  putU32(b, at + 45, v.timestamp);
}
/** The item number of item `k` of a qAddresses value. */
export function addressItemNumber(b: Uint8Array, k: number): number {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).readUInt32BE(k * ADDRESS_ITEM_BYTES);
}
export function decodeAddressItem(b: Uint8Array, k: number): AddressItemValue {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const at = k * ADDRESS_ITEM_BYTES;
  return {
    number: buf.readUInt32BE(at),
    item: b[at + 4] as AddressItem,
    txId: copyOf(b, at + 5, at + 37),
    amount: buf.readBigUInt64BE(at + 37),
    timestamp: buf.readUInt32BE(at + 45),
  };
}

/** The smallest key above every key that starts with `prefix` (undefined: no such key, prefix all 0xff). */
export function prefixEnd(prefix: Uint8Array): Buffer | undefined {
  const b = Buffer.from(prefix);
  for (let i = b.length - 1; i >= 0; i--) {
    if (b[i] !== 0xff) {
      b[i]!++;
      return b.subarray(0, i + 1);
    }
  }
  return undefined;
}

/**
 * Ext IDs of a marshalled entry (wire-format §1.1), as views into `raw`; undefined when the bytes do not parse
 * (the index skips such an entry rather than fail a block save over it: a saved entry was validated already).
 */
export function entryExtIds(raw: Uint8Array): Uint8Array[] | undefined {
  if (raw.length < 35) return undefined;
  const sectionLength = (raw[33]! << 8) | raw[34]!;
  const end = 35 + sectionLength;
  if (end > raw.length) return undefined;
  const out: Uint8Array[] = [];
  let at = 35;
  while (at < end) {
    if (at + 2 > end) return undefined;
    const n = (raw[at]! << 8) | raw[at + 1]!;
    at += 2;
    if (at + n > end) return undefined;
    out.push(raw.subarray(at, at + n));
    at += n;
  }
  return out;
}
