/**
 * Key and value layouts of the query index (docs/ledger.md §Query index; the index itself: queryIndex.ts).
 * Every key puts the thing asked for first and a position in the ledger's own order after it, so that
 * one query is one contiguous LMDB key range, and a page that starts at a key costs the same at any depth
 * (a B-tree seek, then `limit` steps). Integers are big-endian so bytewise order is numeric order.
 *
 * A position is where an item sits in the ordered log of saved blocks and never changes once saved:
 * (directory block height, place of the item's block in that height, place of the item in its block).
 */
import { sha256 } from "../protocol/hash.js";

/** The query index's named databases (added to DB_NAMES in keys.ts). */
export const QUERY_DB_NAMES = {
  /** chain ID (32) ‖ u32 height ‖ u32 item index in the entry block → ChainEntryValue (72) */
  qChainEntries: "qChainEntries",
  /** ExtIdKey of every saved entry → chain ID (32); the rest is its qChainEntries record (position in the key) */
  qEntryExtIds: "qEntryExtIds",
  /** ExtIdKey of each chain's first entry → chain ID (32) ‖ first entry hash (32) */
  qChainExtIds: "qChainExtIds",
  /** chain ID (32) → u64 saved entries of the chain */
  qChainCounts: "qChainCounts",
  /** u8 address kind ‖ address (32) ‖ u32 height ‖ u32 item number in the height → AddressItemValue (45) */
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

/** Bytes of the scope (hash of the ext IDs before the last one searched) at the start of an ExtIdKey. */
const SCOPE_BYTES = 16;

/** Bytes of a position: u32 height ‖ u32 block place ‖ u32 item place. */
export const POSITION_BYTES = 12;

/** Bytes of an ExtIdKey. */
export const EXTID_KEY_LENGTH = SCOPE_BYTES + EXTID_KEY_BYTES + 2 + POSITION_BYTES;

/** Bytes of a qChainEntries key. */
export const CHAIN_ENTRY_KEY_LENGTH = 32 + 4 + 4;

/** Bytes of a qAddresses key. */
export const ADDRESS_KEY_LENGTH = 1 + 32 + 4 + 4;

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

/** qChainEntries key. */
export function chainEntryKey(chainId: Uint8Array, height: number, item: number): Buffer {
  const b = Buffer.allocUnsafe(CHAIN_ENTRY_KEY_LENGTH);
  b.set(chainId, 0);
  putU32(b, 32, height);
  putU32(b, 36, item);
  return b;
}

/**
 * A saved entry of a chain: entry hash ‖ entry block keyMR ‖ u32 timestamp (seconds since epoch) ‖ u32 its
 * place among the entry block's entries (minute markers not counted).
 */
export interface ChainEntryValue {
  entryHash: Uint8Array;
  entryBlockKeyMR: Uint8Array;
  timestamp: number;
  ordinal: number;
}
export function encodeChainEntryValue(v: ChainEntryValue): Buffer {
  const b = Buffer.allocUnsafe(72);
  b.set(v.entryHash, 0);
  b.set(v.entryBlockKeyMR, 32);
  putU32(b, 64, v.timestamp);
  putU32(b, 68, v.ordinal);
  return b;
}
export function decodeChainEntryValue(b: Uint8Array): ChainEntryValue {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  return {
    entryHash: b.slice(0, 32),
    entryBlockKeyMR: b.slice(32, 64),
    timestamp: buf.readUInt32BE(64),
    ordinal: buf.readUInt32BE(68),
  };
}

/**
 * Scope of ext ID `level` (0-based) of a search: what the ext IDs before it must be, exactly. The level is
 * hashed in, so `[a]` and `[a, b]` never share a scope; each ext ID is length-prefixed, so `["ab","c"]` and
 * `["a","bc"]` do not either.
 */
export function extIdScope(extIds: readonly Uint8Array[], level: number): Buffer {
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
  return Buffer.from(sha256(pre).subarray(0, SCOPE_BYTES));
}

/**
 * ExtIdKey: scope (16) ‖ the ext ID's first EXTID_KEY_BYTES bytes, zero-padded (32) ‖ u16 its full length ‖
 * position (12). Entries whose ext ID at the level is equal (up to 32 bytes) are one range in position order;
 * entries whose ext ID starts with a prefix are one range too (ordered by the ext ID, then by position).
 */
export function extIdKey(scope: Uint8Array, extId: Uint8Array, position: Uint8Array): Buffer {
  const b = Buffer.alloc(EXTID_KEY_LENGTH);
  b.set(scope, 0);
  b.set(extId.subarray(0, EXTID_KEY_BYTES), SCOPE_BYTES);
  b.writeUInt16BE(extId.length, SCOPE_BYTES + EXTID_KEY_BYTES);
  b.set(position, SCOPE_BYTES + EXTID_KEY_BYTES + 2);
  return b;
}

/** The full length of the ext ID an ExtIdKey holds. */
export function extIdKeyLength(key: Uint8Array): number {
  return (key[SCOPE_BYTES + EXTID_KEY_BYTES]! << 8) | key[SCOPE_BYTES + EXTID_KEY_BYTES + 1]!;
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
  if (match === "exact") {
    const b = Buffer.alloc(SCOPE_BYTES + EXTID_KEY_BYTES + 2);
    b.set(scope, 0);
    b.set(extId.subarray(0, EXTID_KEY_BYTES), SCOPE_BYTES);
    b.writeUInt16BE(extId.length, SCOPE_BYTES + EXTID_KEY_BYTES);
    return { prefix: b, needsCheck: extId.length > EXTID_KEY_BYTES };
  }
  const cut = extId.subarray(0, EXTID_KEY_BYTES);
  return { prefix: Buffer.concat([scope, cut]), needsCheck: extId.length > EXTID_KEY_BYTES };
}

/** Position of an item: u32 height ‖ u32 place of its block in the height ‖ u32 place in the block. */
export function position(height: number, block: number, item: number): Buffer {
  const b = Buffer.allocUnsafe(POSITION_BYTES);
  putU32(b, 0, height);
  putU32(b, 4, block);
  putU32(b, 8, item);
  return b;
}

/** The height a position (or a key ending in one) starts with, from `at`. */
export function positionHeight(key: Uint8Array, at: number): number {
  return Buffer.from(key.buffer, key.byteOffset, key.byteLength).readUInt32BE(at);
}

/** Byte offset of the position in an ExtIdKey. */
export const EXTID_KEY_POSITION_AT = SCOPE_BYTES + EXTID_KEY_BYTES + 2;

/** Height and item index of the position in an ExtIdKey: with the chain ID (its value), its qChainEntries key. */
export function extIdKeyChainEntry(key: Uint8Array, chainId: Uint8Array): Buffer {
  const b = Buffer.from(key.buffer, key.byteOffset, key.byteLength);
  return chainEntryKey(chainId, b.readUInt32BE(EXTID_KEY_POSITION_AT), b.readUInt32BE(EXTID_KEY_POSITION_AT + 8));
}

/** qAddresses key. */
export function addressKey(kind: AddressKind, address: Uint8Array, height: number, item: number): Buffer {
  const b = Buffer.allocUnsafe(ADDRESS_KEY_LENGTH);
  b[0] = kind;
  b.set(address, 1);
  putU32(b, 33, height);
  putU32(b, 37, item);
  return b;
}

/** One item of an address's history: kind ‖ txid (transaction or commit) ‖ u64 amount ‖ u32 timestamp (s). */
export interface AddressItemValue {
  item: AddressItem;
  txId: Uint8Array;
  amount: bigint;
  timestamp: number;
}
export function encodeAddressItemValue(v: AddressItemValue): Buffer {
  const b = Buffer.allocUnsafe(45);
  b[0] = v.item;
  b.set(v.txId, 1);
  b.writeBigUInt64BE(v.amount, 33);
  putU32(b, 41, v.timestamp);
  return b;
}
export function decodeAddressItemValue(b: Uint8Array): AddressItemValue {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  return {
    item: b[0] as AddressItem,
    txId: b.slice(1, 33),
    amount: buf.readBigUInt64BE(33),
    timestamp: buf.readUInt32BE(41),
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
