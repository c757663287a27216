/**
 * Key layout of the LMDB environment (docs/ledger.md §Key layout). Every key is raw bytes; fixed-width
 * integers are big-endian so that LMDB's bytewise order is numeric order (range scans by height work).
 */
import { QUERY_DB_NAMES } from "./queryIndexKeys.js";

/** Named databases of the environment; one entry per thing stored (DESIGN §4). */
export const DB_NAMES = {
  /** primary block hash (32) → block kind (1) ‖ raw block bytes */
  blocks: "blocks",
  /** secondary block hash (32) → primary block hash (32) */
  blockAlias: "blockAlias",
  /** block kind (1) ‖ u32 height → primary block hash (32) */
  heights: "heights",
  /**
   * entry hash (32) → the latest commit that paid for it and, once saved, the entry's location and bytes: one
   * record (entryRecord.ts; format 1 kept them in `entries`, `entryLocations`, `paidCommits`)
   */
  entryRecords: "entryRecords",
  /** transaction id or full hash (32) → asset block keyMR (32) ‖ u32 height ‖ u32 index in the block */
  transactionLocations: "transactionLocations",
  /**
   * commit txid or full hash (32) → u32 directory block height ‖ u32 item index in that height's EC block (its
   * header hash is the `heights` record's; format 1's `commitLocations` stored it in each value)
   */
  commitPlaces: "commitPlaces",
  /** chain ID (32) → head entry block keyMR (32) ‖ full hash (32) ‖ u32 sequence ‖ u32 height */
  chainHeads: "chainHeads",
  /** RCD hash (32) → u64 balance, base units */
  assetBalances: "assetBalances",
  /** EC public key (32) → u64 balance, entry credits */
  ecBalances: "ecBalances",
  /** u32 height ‖ u32 sequence → one journaled message (ledger/messages.ts) */
  journal: "journal",
  /** ASCII name → value (see META_KEYS) */
  meta: "meta",
  // the query index (queryIndex.ts, layouts in queryIndexKeys.ts); appended: a record stream names a database
  // by its place in this list
  ...QUERY_DB_NAMES,
} as const;

/**
 * Databases of store format 1 that format 2 replaced: opened only to migrate a directory of format 1
 * (formatMigration.ts), then dropped.
 */
export const LEGACY_DB_NAMES = {
  entries: "entries",
  entryLocations: "entryLocations",
  paidCommits: "paidCommits",
  commitLocations: "commitLocations",
} as const;

/** Block kinds: the first byte of a `blocks` value and of a `heights` key. */
export const BlockKind = {
  directory: 1,
  admin: 2,
  ec: 3,
  asset: 4,
  entry: 5,
} as const;
export type BlockKind = (typeof BlockKind)[keyof typeof BlockKind];

/** Names in the `meta` database. */
export const META_KEYS = {
  /** u32 STORE_FORMAT_VERSION */
  format: "format",
  /** UTF-8 network name (MAIN, TEST, LOCAL, CUSTOM) */
  network: "network",
  /** u32 network id (distinguishes CUSTOM networks) */
  networkId: "networkId",
  /** u32 height of the last saved directory block */
  savedHeight: "savedHeight",
  /** u48 start of the open block, ms since epoch (the time of the end-of-minute-10 that closed the last block) */
  openBlockStartMs: "openBlockStartMs",
  /** 16 random bytes naming this database; its journal records the same (a journal of another is refused) */
  storeId: "storeId",
  /** u64 stream sequence of the replicated-log record that closed the last saved block (cluster nodes only) */
  logSequence: "logSequence",
  /**
   * u32 height ‖ u64 ms: every paid commit in `entryRecords` has a timestamp ≤ the ms, as of that saved height.
   * Kept by every block save in its transaction (blockSet.ts `mergePaidCommitBound`); it holds only while the height
   * is the saved height (a save that did not keep it, by a version before it, leaves it behind and so unused).
   */
  paidCommitBound: "paidCommitBound",
} as const;

/** The `meta` key of the saved height (META_KEYS.savedHeight), as bytes. */
export const SAVED_HEIGHT_KEY: Buffer = Buffer.from(META_KEYS.savedHeight, "ascii");

/** 4-byte big-endian u32. */
export function u32Bytes(value: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(value, 0);
  return b;
}

/** Key of the `heights` database. */
export function heightKey(kind: BlockKind, height: number): Buffer {
  const b = Buffer.allocUnsafe(5);
  b[0] = kind;
  b.writeUInt32BE(height, 1);
  return b;
}

/** Key of the `journal` database: heights sort first, then the sequence within the log. */
export function journalKey(height: number, seq: number): Buffer {
  const b = Buffer.allocUnsafe(8);
  b.writeUInt32BE(height, 0);
  b.writeUInt32BE(seq, 4);
  return b;
}

/** Height and sequence of a journal key. */
export function parseJournalKey(key: Uint8Array): { height: number; seq: number } {
  const b = asBuffer(key);
  return { height: b.readUInt32BE(0), seq: b.readUInt32BE(4) };
}

/** A Buffer view of `bytes` without copying (lmdb-js takes Buffers as binary keys). */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
