/**
 * What one block close (or genesis) writes to the main environment, as data: the block set a close hands to
 * the store, the fixed order of its (database, key, value) records, and their packing into one record stream
 * for the block-set writer thread (docs/ledger.md §5 "Block save").
 */
import { InvariantError } from "../errors.js";
import { toHex } from "../protocol/bytes.js";
import { DigestIndex } from "../protocol/digestIndex.js";
import { entryRecordFlags, entryRecordSize, isWholeRecord, mergeEntryRecord, writeEntryRecord } from "./entryRecord.js";
import type { Databases, DbName } from "./environment.js";
import { type BlockKind, heightKey, META_KEYS, SAVED_HEIGHT_KEY, u32Bytes } from "./keys.js";
import { forEachRecord, RECORD_CHUNK_BYTES, type RecordStream, RecordStreamWriter } from "./recordStream.js";
import {
  type ChainHead,
  COMMIT_PLACE_BYTES,
  type CommitLocation,
  type EntryLocation,
  encodeBalance,
  encodeChainHead,
  encodeTransactionLocation,
  type PaidCommit,
  type TransactionLocation,
  writeCommitPlace,
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

/**
 * Rows read by index, as an array reads them. `at` may make a fresh row at each call (the process list's views
 * do), so a reader keeps no row past its use.
 */
export interface RowList<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/** An entry a block set saves: its bytes and where it is. */
export interface EntryWrite {
  entryHash: Uint8Array;
  raw: Uint8Array;
  location: EntryLocation;
  /**
   * The row of its paid commit in the set's `paidCommits`, when the maker of the set knows it (the process list:
   * the entry hash's slot); else it is found by entry hash. The same row either way.
   */
  paidRow?: number;
}

/** Everything one block close (or genesis) writes, applied in one transaction. */
export interface BlockSetWrite {
  /** directory block height being saved */
  height: number;
  /** start of the block opened next, ms since epoch */
  openBlockStartMs: number;
  blocks: BlockWrite[];
  /**
   * The per-entry rows are read by index (`RowList`): arrays, or views over the process list that make each row
   * when it is read (ledger/blockBuilder.ts), so a close of tens of thousands of entries builds them while
   * packing, in turns, instead of all at once in the close's turn.
   */
  entries: RowList<EntryWrite>;
  /** each transaction indexed under its txid and full hash */
  transactions: { keys: Uint8Array[]; location: TransactionLocation }[];
  /** each commit indexed under its txid and full hash */
  commits: RowList<{ keys: Uint8Array[]; location: CommitLocation }>;
  /** paid-commit records, one per entry hash */
  paidCommits: RowList<{ entryHash: Uint8Array; record: PaidCommit }>;
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

/** A block set whose rows are arrays (made whole, as history checks make them: history/checker.ts). */
export type BlockSetArrays = Omit<BlockSetWrite, "entries" | "commits" | "paidCommits"> & {
  entries: EntryWrite[];
  commits: { keys: Uint8Array[]; location: CommitLocation }[];
  paidCommits: { entryHash: Uint8Array; record: PaidCommit }[];
};

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
 * Rows packed per event-loop turn by `packBlockSet` (an entry, a commit, a paid commit, a block…: one or two
 * records each, ~0.5–1 µs): a few ms of main thread, so a request arriving meanwhile waits at most that long.
 */
const PACK_CHUNK = 4096;

/**
 * Writes a block set's records into a record stream in one fixed order, a bounded number of rows per `pack`
 * call: each block (its bytes, alias and height key); the entries, each joined with its paid commit into one
 * record (a reveal always has its paid commit in the same set, marked revealed; a part alone is merged with the
 * saved record by `putRecord`); the transactions' and commits' keys; the paid commits no entry joined (not
 * revealed yet, or an entry hash paid again); chain heads; balances; the meta records.
 *
 * Plain loops over the rows, each value encoded in place in the stream: the generator this replaced moved from
 * loop to loop within one call, so V8 optimized it for the entries' loop, threw that code away at the next
 * loop's first row, and did so again at every busy block (~4 compiles of ~45 ms a block on its background
 * threads; issue 35, change 22).
 */
class BlockSetPacker {
  readonly stream: RecordStreamWriter;
  /** index in STAGES of the stage being packed */
  private stage = 0;
  /** the next row of the current stage */
  private row = 0;
  /** paid-commit row → 1 once joined to an entry */
  private readonly joined: Uint8Array;
  /** paid-commit rows by entry hash, for entries without a `paidRow` (made at the first one) */
  private paidRows: DigestIndex | undefined;
  /** the latest timestamp among the paid commits packed so far, ms (0: none): the meta stage's bound */
  private paidMaxMs = 0;

  constructor(
    private readonly set: BlockSetWrite,
    chunkBytes: number,
  ) {
    this.stream = new RecordStreamWriter(chunkBytes);
    this.joined = new Uint8Array(set.paidCommits.length);
  }

  /** Pack up to `budget` rows (Infinity: all); true once every record is packed. */
  pack(budget: number): boolean {
    let left = budget;
    while (this.stage < STAGES.length && left > 0) left -= this.packStage(left);
    return this.stage === STAGES.length;
  }

  /**
   * Pack up to `budget` rows of the current stage, moving to the next stage at its end; the rows packed. Each
   * stage's loop is a method of its own (called through STAGES), so V8 optimizes each loop with its own complete
   * feedback: one switch holding every loop was optimized while the entries' loop ran, and thrown away at the
   * next stage's first row, at every busy block.
   */
  private packStage(budget: number): number {
    const stage = STAGES[this.stage]!;
    const from = this.row;
    const rows = stage.rows(this.set);
    const to = Math.min(rows, from + budget);
    stage.pack(this, from, to);
    if (to === rows) {
      this.stage++;
      this.row = 0;
    } else this.row = to;
    // an empty stage counts as one row, so that `pack` always moves on
    return Math.max(1, to - from);
  }

  /** Each block's kind byte and its bytes (no joined copy: an EC block of a busy height is megabytes), alias, height key. */
  packBlocks(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const b = this.set.blocks[i]!;
      this.stream.putPrefixed("blocks", b.primary, b.kind, b.raw);
      if (b.secondary !== undefined) this.stream.put("blockAlias", b.secondary, b.primary);
      if (b.height !== undefined) this.stream.put("heights", heightKey(b.kind, b.height), b.primary);
    }
  }

  packEntries(from: number, to: number): void {
    const entries = this.set.entries;
    const paidCommits = this.set.paidCommits;
    const joined = this.joined;
    for (let i = from; i < to; i++) {
      const e = entries.at(i)!;
      const row = e.paidRow ?? this.paidRowOf(e.entryHash);
      let paid: PaidCommit | undefined;
      if (row >= 0 && joined[row] !== 1) {
        joined[row] = 1;
        paid = paidCommits.at(row)!.record;
      }
      this.putEntryRecord(e.entryHash, paid, e);
    }
  }

  packTransactions(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const t = this.set.transactions[i]!;
      const value = encodeTransactionLocation(t.location);
      for (const k of t.keys) this.stream.put("transactionLocations", k, value);
    }
  }

  packCommits(from: number, to: number): void {
    const commits = this.set.commits;
    const stream = this.stream;
    for (let i = from; i < to; i++) {
      const c = commits.at(i)!;
      for (const k of c.keys) {
        // reserve first: it may start a new chunk
        const at = stream.reserve("commitPlaces", k, COMMIT_PLACE_BYTES);
        writeCommitPlace(stream.chunk, at, c.location);
      }
    }
  }

  packUnjoinedPaid(from: number, to: number): void {
    const paidCommits = this.set.paidCommits;
    for (let i = from; i < to; i++)
      if (this.joined[i] !== 1) {
        const p = paidCommits.at(i)!;
        this.putEntryRecord(p.entryHash, p.record, undefined);
      }
  }

  packChainHeads(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const h = this.set.chainHeads[i]!;
      this.stream.put("chainHeads", h.chainId, encodeChainHead(h.head));
    }
  }

  packAssetBalances(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const a = this.set.assetBalances[i]!;
      this.stream.put("assetBalances", a.address, encodeBalance(a.balance));
    }
  }

  packEcBalances(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      const a = this.set.ecBalances[i]!;
      this.stream.put("ecBalances", a.publicKey, encodeBalance(a.balance));
    }
  }

  /** The paid-commit row of `entryHash`, -1 when the set has none. */
  private paidRowOf(entryHash: Uint8Array): number {
    let rows = this.paidRows;
    if (rows === undefined) {
      // a digest table, not a Map keyed by strings: ~50,000 keys a busy block
      rows = new DigestIndex();
      const paid = this.set.paidCommits;
      for (let i = 0; i < paid.length; i++)
        if (rows.add(paid.at(i)!.entryHash) !== i)
          throw new InvariantError(`a block set pays entry hash ${toHex(paid.at(i)!.entryHash)} twice`);
      this.paidRows = rows;
    }
    return rows.find(entryHash);
  }

  private putEntryRecord(key: Uint8Array, paid: PaidCommit | undefined, entry: EntryWrite | undefined): void {
    // every paid row comes here once: joined to its entry (packEntries) or alone (packUnjoinedPaid)
    if (paid !== undefined && paid.milliTime > this.paidMaxMs) this.paidMaxMs = paid.milliTime;
    const flags = entryRecordFlags(paid, entry);
    const size = entryRecordSize(flags, entry === undefined ? 0 : entry.raw.length);
    const at = this.stream.reserve("entryRecords", key, size);
    writeEntryRecord(this.stream.chunk, at, flags, paid, entry);
  }

  packMeta(): void {
    const set = this.set;
    // before the saved height: its merge reads the height the store had (mergePaidCommitBound)
    this.stream.put("meta", PAID_COMMIT_BOUND_KEY, paidCommitBoundBytes(set.height, this.paidMaxMs));
    this.stream.put("meta", metaKey(META_KEYS.savedHeight), u32Bytes(set.height));
    const start = Buffer.allocUnsafe(8);
    start.writeBigUInt64BE(BigInt(set.openBlockStartMs), 0);
    this.stream.put("meta", metaKey(META_KEYS.openBlockStartMs), start);
    if (set.logSequence !== undefined) {
      const seq = Buffer.allocUnsafe(8);
      seq.writeBigUInt64BE(BigInt(set.logSequence), 0);
      this.stream.put("meta", metaKey(META_KEYS.logSequence), seq);
    }
  }
}

/**
 * The stages of a block set's records, in their fixed order: how many rows each has (the meta records: one), and
 * how a range of them is packed.
 */
const STAGES: readonly { rows(set: BlockSetWrite): number; pack(p: BlockSetPacker, from: number, to: number): void }[] =
  [
    { rows: (set) => set.blocks.length, pack: (p, from, to) => p.packBlocks(from, to) },
    { rows: (set) => set.entries.length, pack: (p, from, to) => p.packEntries(from, to) },
    { rows: (set) => set.transactions.length, pack: (p, from, to) => p.packTransactions(from, to) },
    { rows: (set) => set.commits.length, pack: (p, from, to) => p.packCommits(from, to) },
    { rows: (set) => set.paidCommits.length, pack: (p, from, to) => p.packUnjoinedPaid(from, to) },
    { rows: (set) => set.chainHeads.length, pack: (p, from, to) => p.packChainHeads(from, to) },
    { rows: (set) => set.assetBalances.length, pack: (p, from, to) => p.packAssetBalances(from, to) },
    { rows: (set) => set.ecBalances.length, pack: (p, from, to) => p.packEcBalances(from, to) },
    { rows: () => 1, pack: (p) => p.packMeta() },
  ];

/**
 * Call `fn` with every record a block set writes, as (database, key, value), in the fixed order of
 * `BlockSetPacker` (the synchronous saves: genesis, replay, tests). Keys and values are views of a stream made
 * for the call.
 */
export function forEachBlockSetRecord(
  set: BlockSetWrite,
  fn: (db: DbName, key: Uint8Array, value: Uint8Array) => void,
): void {
  const packer = new BlockSetPacker(set, RECORD_CHUNK_BYTES);
  packer.pack(Number.POSITIVE_INFINITY);
  forEachRecord(packer.stream.finish(), fn);
}

/**
 * Pack everything a block set writes into one record stream on the main thread, `PACK_CHUNK` rows per
 * event-loop turn so requests are answered in between. The input of `savePacked`; the puts themselves happen
 * on the writer thread.
 */
export async function packBlockSet(
  set: BlockSetWrite,
  /** bytes of each of the stream's chunks (tests give small ones, to cross many chunk ends) */
  chunkBytes = RECORD_CHUNK_BYTES,
): Promise<PackedBlockSet> {
  const packer = new BlockSetPacker(set, chunkBytes);
  let busyMs = 0;
  let longestTurnMs = 0;
  for (;;) {
    const started = performance.now();
    const done = packer.pack(PACK_CHUNK);
    const ms = performance.now() - started;
    busyMs += ms;
    longestTurnMs = Math.max(longestTurnMs, ms);
    if (done) break;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  const carry = { height: set.height + 1, records: set.journalCarry };
  return { stream: packer.stream.finish(), records: packer.stream.count, busyMs, longestTurnMs, carry };
}

/**
 * Put one record of a block set (`forEachBlockSetRecord`, or its stream on the writer thread) inside the caller's write transaction: an entry record with only one of
 * its parts is merged with the saved record first (entryRecord.ts mergeEntryRecord; the read sees this
 * transaction's own puts). Returns the bytes put (the merged record for a part).
 */
export function putRecord(dbs: Databases, db: DbName, key: Uint8Array, value: Uint8Array): Uint8Array {
  if (db === "meta" && PAID_COMMIT_BOUND_KEY.equals(key)) return mergePaidCommitBound(dbs, value);
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

/** The saved height as the store's meta record holds it (inside a transaction: that transaction's view). */
export function savedHeightOf(dbs: Pick<Databases, "meta">): number | undefined {
  const v = dbs.meta.getBinary(SAVED_HEIGHT_KEY);
  return v === undefined || v.length !== 4 ? undefined : v.readUInt32BE(0);
}

const PAID_COMMIT_BOUND_KEY = Buffer.from(META_KEYS.paidCommitBound, "ascii");

/** A `paidCommitBound` value: u32 height ‖ u64 ms. */
export function paidCommitBoundBytes(height: number, ms: number): Buffer {
  const b = Buffer.alloc(12);
  b.writeUInt32BE(height, 0);
  b.writeBigUInt64BE(BigInt(ms), 4);
  return b;
}

/** A `paidCommitBound` value's height and ms, or undefined when it is not one (read in place). */
function decodePaidCommitBound(value: Uint8Array | undefined): { height: number; ms: number } | undefined {
  if (value?.length !== 12) return undefined;
  const b = new DataView(value.buffer, value.byteOffset, 12);
  return { height: b.getUint32(0), ms: Number(b.getBigUint64(4)) };
}

/**
 * The store's bound on its paid commits' timestamps (META_KEYS.paidCommitBound) as of `savedHeight`, ms, or
 * undefined when it has none that holds there (ledger/recentPaidCommits.ts).
 */
export function readPaidCommitBound(value: Uint8Array | undefined, savedHeight: number): number | undefined {
  const bound = decodePaidCommitBound(value);
  return bound?.height === savedHeight ? bound.ms : undefined;
}

/**
 * Put a block set's `paidCommitBound` record, (its height, the latest timestamp among its own paid commits),
 * merged with the store's inside the save's transaction, before the set's saved height is put: the bound held by
 * the store as it was (its height the saved height) is raised to the set's; on a fresh store (no saved height)
 * the set's is the whole store's. Otherwise the store's paid commits were written by saves that kept no bound
 * (a version before it): the record is removed and the store has none. Returns the bytes put (none: empty).
 */
function mergePaidCommitBound(dbs: Databases, value: Uint8Array): Uint8Array {
  const savedHeight = savedHeightOf(dbs);
  if (savedHeight === undefined) {
    dbs.meta.putSync(PAID_COMMIT_BOUND_KEY, value);
    return value;
  }
  // lmdb-js's reused read buffer, read in place by its `length` (the value's; store.ts plain)
  const held = readPaidCommitBound(dbs.meta.getBinaryFast(PAID_COMMIT_BOUND_KEY), savedHeight);
  if (held === undefined) {
    dbs.meta.removeSync(PAID_COMMIT_BOUND_KEY);
    return new Uint8Array(0);
  }
  const set = decodePaidCommitBound(value)!;
  const merged = paidCommitBoundBytes(set.height, Math.max(held, set.ms));
  dbs.meta.putSync(PAID_COMMIT_BOUND_KEY, merged);
  return merged;
}
