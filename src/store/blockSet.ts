/**
 * What one block close (or genesis) writes to the main environment, as data: the block set a close hands to
 * the store, the fixed order of its (database, key, value) records, and their packing into one record stream
 * for the block-set writer thread (docs/ledger.md §5 "Block save").
 */
import { concat } from "../protocol/bytes.js";
import { DigestIndex } from "../protocol/digestIndex.js";
import { encodeEntryRecord, isWholeRecord, mergeEntryRecord } from "./entryRecord.js";
import type { Databases, DbName } from "./environment.js";
import { type BlockKind, heightKey, META_KEYS, u32Bytes } from "./keys.js";
import { type RecordStream, RecordStreamWriter } from "./recordStream.js";
import {
  type ChainHead,
  type CommitLocation,
  type EntryLocation,
  encodeBalance,
  encodeChainHead,
  encodeCommitPlace,
  encodeTransactionLocation,
  type PaidCommit,
  type TransactionLocation,
} from "./records.js";

/** One block to save: raw bytes under its primary hash, optionally a secondary hash and a height index. */
export interface BlockWrite {
  kind: BlockKind;
  primary: Uint8Array;
  secondary?: Uint8Array;
  raw: Uint8Array;
  /** indexed by height when given (directory, admin, EC and asset blocks; not entry blocks) */
  height?: number;
}

/** Everything one block close (or genesis) writes, applied in one transaction. */
export interface BlockSetWrite {
  /** directory block height being saved */
  height: number;
  /** start of the block opened next, ms since epoch */
  openBlockStartMs: number;
  blocks: BlockWrite[];
  /**
   * The per-entry records may be lazy (re-iterable, e.g. over the process list): a close of tens of thousands
   * of entries then builds them while packing, in chunks, instead of all at once in the close's turn.
   */
  entries: Iterable<{ entryHash: Uint8Array; raw: Uint8Array; location: EntryLocation }>;
  /** each transaction indexed under its txid and full hash */
  transactions: { keys: Uint8Array[]; location: TransactionLocation }[];
  /** each commit indexed under its txid and full hash */
  commits: Iterable<{ keys: Uint8Array[]; location: CommitLocation }>;
  paidCommits: Iterable<{ entryHash: Uint8Array; record: PaidCommit }>;
  chainHeads: { chainId: Uint8Array; head: ChainHead }[];
  /** new absolute balances, base units */
  assetBalances: { address: Uint8Array; balance: bigint }[];
  /** new absolute balances, entry credits */
  ecBalances: { publicKey: Uint8Array; balance: bigint }[];
  /** messages carried into the next height (held reveals), journaled under height + 1 */
  journalCarry: { seq: number; bytes: Uint8Array }[];
  /** cluster nodes: stream sequence of the log record that closed this block (where a restart resumes) */
  logSequence?: number;
}

/** A block set packed for the writer thread (`packBlockSet`). */
export interface PackedBlockSet {
  /** record stream (recordStream.ts); its buffers are transferred to the writer thread by `savePacked` */
  stream: RecordStream;
  records: number;
  /** main-thread time spent packing, ms (the turns in between not counted) */
  busyMs: number;
  /** longest single turn of the packing, ms */
  longestTurnMs: number;
  /** held reveals carried into the next height's journal, written before the block (savePacked) */
  carry: { height: number; records: BlockSetWrite["journalCarry"] };
}

/**
 * Records packed per event-loop turn by `packBlockSet`: ~4 ms of main thread at ~1 µs per record, so a
 * request arriving meanwhile waits at most that long for the packing.
 */
const PACK_CHUNK = 4096;

/** Every record a block set writes, as (database, key, value), in one fixed order: its blocks', then the rest. */
export function* blockSetRecords(set: BlockSetWrite): Generator<[DbName, Uint8Array, Uint8Array]> {
  for (const b of set.blocks) {
    yield ["blocks", b.primary, concat(Uint8Array.of(b.kind), b.raw)];
    yield* blockIndexRecords(b);
  }
  yield* dataRecords(set);
}

/** A block's records besides its bytes: its alias and height keys. */
function* blockIndexRecords(b: BlockWrite): Generator<[DbName, Uint8Array, Uint8Array]> {
  if (b.secondary !== undefined) yield ["blockAlias", b.secondary, b.primary];
  if (b.height !== undefined) yield ["heights", heightKey(b.kind, b.height), b.primary];
}

/** The records of `blockSetRecords` after the blocks': entries, indexes, balances, the saved height. */
function* dataRecords(set: BlockSetWrite): Generator<[DbName, Uint8Array, Uint8Array]> {
  // One record per entry hash (entryRecord.ts): a reveal's entry and its paid commit (a reveal always has one
  // in the same set, marked revealed) are joined into a whole record; a part alone is merged by `putRecord`.
  // Found by a digest table (protocol/digestIndex.ts), not a Map keyed by strings: ~50,000 keys a busy block.
  const paidIds = new DigestIndex();
  const paid: { entryHash: Uint8Array; record: PaidCommit }[] = [];
  for (const p of set.paidCommits) paid[paidIds.add(p.entryHash)] = p;
  /** 1: joined to an entry above */
  const joined = new Uint8Array(paid.length);
  for (const e of set.entries) {
    const id = paidIds.find(e.entryHash);
    const p = id < 0 || joined[id] === 1 ? undefined : paid[id];
    if (p !== undefined) joined[id] = 1;
    const entry = { location: e.location, raw: e.raw };
    yield ["entryRecords", e.entryHash, encodeEntryRecord(p === undefined ? { entry } : { paid: p.record, entry })];
  }
  for (const t of set.transactions) {
    const value = encodeTransactionLocation(t.location);
    for (const k of t.keys) yield ["transactionLocations", k, value];
  }
  for (const c of set.commits) {
    const value = encodeCommitPlace(c.location);
    for (const k of c.keys) yield ["commitPlaces", k, value];
  }
  // paid commits whose entry is not in this set (not revealed yet, or an entry hash paid again)
  for (let id = 0; id < paid.length; id++)
    if (joined[id] !== 1) yield ["entryRecords", paid[id]!.entryHash, encodeEntryRecord({ paid: paid[id]!.record })];
  for (const h of set.chainHeads) yield ["chainHeads", h.chainId, encodeChainHead(h.head)];
  for (const a of set.assetBalances) yield ["assetBalances", a.address, encodeBalance(a.balance)];
  for (const a of set.ecBalances) yield ["ecBalances", a.publicKey, encodeBalance(a.balance)];
  yield ["meta", metaKey(META_KEYS.savedHeight), u32Bytes(set.height)];
  const start = Buffer.allocUnsafe(8);
  start.writeBigUInt64BE(BigInt(set.openBlockStartMs), 0);
  yield ["meta", metaKey(META_KEYS.openBlockStartMs), start];
  if (set.logSequence !== undefined) {
    const seq = Buffer.allocUnsafe(8);
    seq.writeBigUInt64BE(BigInt(set.logSequence), 0);
    yield ["meta", metaKey(META_KEYS.logSequence), seq];
  }
}

/**
 * Put one record of `blockSetRecords` inside the caller's write transaction: an entry record with only one of
 * its parts is merged with the saved record first (entryRecord.ts mergeEntryRecord; the read sees this
 * transaction's own puts). Returns the bytes put (the merged record for a part).
 */
export function putRecord(dbs: Databases, db: DbName, key: Uint8Array, value: Uint8Array): Uint8Array {
  if (db === "entryRecords" && !isWholeRecord(value)) {
    const saved = dbs.entryRecords.getBinaryFast(key);
    // lmdb-js's reused read buffer: its `length` is the value's (store.ts plain); merge copies what it keeps
    const merged = mergeEntryRecord(
      saved === undefined ? undefined : new Uint8Array(saved.buffer, saved.byteOffset, saved.length),
      value,
    );
    dbs.entryRecords.putSync(key, merged);
    return merged;
  }
  dbs[db].putSync(key, value);
  return value;
}

/** Key of a `meta` record. */
export function metaKey(name: string): Uint8Array {
  return Buffer.from(name, "ascii");
}

/**
 * Pack everything a block set writes into one record stream on the main thread, `PACK_CHUNK` records
 * per event-loop turn so requests are answered in between (~1 µs per record: a 10,000-entry block is
 * ~40,000 records). The input of `savePacked`; the puts themselves happen on the writer thread.
 */
export async function packBlockSet(set: BlockSetWrite): Promise<PackedBlockSet> {
  let turnStarted = performance.now();
  let busyMs = 0;
  let longestTurnMs = 0;
  const endTurn = (): void => {
    const ms = performance.now() - turnStarted;
    busyMs += ms;
    longestTurnMs = Math.max(longestTurnMs, ms);
  };
  const stream = new RecordStreamWriter();
  // the blocks first, as blockSetRecords orders them: a block's kind byte and its bytes go into the stream
  // without a joined copy (an EC block of a busy height is megabytes)
  for (const b of set.blocks) {
    stream.putPrefixed("blocks", b.primary, b.kind, b.raw);
    for (const [db, k, v] of blockIndexRecords(b)) stream.put(db, k, v);
  }
  let inTurn = 0;
  for (const [db, k, v] of dataRecords(set)) {
    stream.put(db, k, v);
    if (++inTurn === PACK_CHUNK) {
      inTurn = 0;
      endTurn();
      await new Promise<void>((resolve) => setImmediate(resolve));
      turnStarted = performance.now();
    }
  }
  const packed = stream.finish();
  endTurn();
  const carry = { height: set.height + 1, records: set.journalCarry };
  return { stream: packed, records: stream.count, busyMs, longestTurnMs, carry };
}
