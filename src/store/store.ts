/**
 * The LMDB environment of a node: one env, named databases with raw-byte keys (keys.ts), typed accessors,
 * and the two write paths the ledger needs (docs/ledger.md):
 *
 * - `appendJournal`: one accepted message, group-committed with the others appended meanwhile (journal.ts),
 *   resolved only once its commit is flushed to disk;
 * - `saveBlockSet`: everything a block close changes, in ONE synchronous transaction (flushed before it
 *   returns), so a block is saved atomically or not at all.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { InvariantError } from "../errors.js";
import { concat } from "../protocol/bytes.js";
import type { NetworkName } from "../protocol/network.js";
import { BlockSetWriter } from "./blockSetWriter.js";
import { DiskSpaceGuard } from "./diskSpace.js";
import {
  type Databases,
  type DbName,
  guarded,
  openCheckedEnvironment,
  openDatabases,
  type RootEnv,
  verifyReadable,
  writesSettled,
} from "./environment.js";
import { StoreError } from "./errors.js";
import { checkDataFile } from "./fileCheck.js";
import { JOURNAL_DIR, Journal, type JournalRecord } from "./journal.js";
import { type BlockKind, DB_NAMES, heightKey, journalKey, META_KEYS, parseJournalKey, u32Bytes } from "./keys.js";
import { catchUpQueryIndex, indexSavedHeight } from "./queryIndex.js";
import { QueryIndexReader } from "./queryIndexReader.js";
import { RecordStreamWriter } from "./recordStream.js";
import {
  type ChainHead,
  type CommitLocation,
  decodeBalance,
  decodeChainHead,
  decodeCommitLocation,
  decodeEntryLocation,
  decodePaidCommit,
  decodeTransactionLocation,
  type EntryLocation,
  encodeBalance,
  encodeChainHead,
  encodeCommitLocation,
  encodeEntryLocation,
  encodePaidCommit,
  encodeTransactionLocation,
  type PaidCommit,
  type TransactionLocation,
} from "./records.js";

/**
 * Layout version written into `meta`. Bump it when a key or value layout changes; a node refuses to
 * open a directory written with another version instead of misreading it.
 */
export const STORE_FORMAT_VERSION = 1;

export interface StoreOptions {
  /** directory of the LMDB environment; created when missing */
  path: string;
  network: NetworkName;
  /** u32 network id (the directory block header field) */
  networkId: number;
  /**
   * Read every database once before opening for writes, in a child process (scanTask.ts): damaged pages
   * crash LMDB, and only a child can turn that into a start-up error. Costs a process start plus a walk
   * of all pages; the node does it at start, tests that reopen often skip it.
   */
  verify?: boolean;
  /**
   * Bytes kept free on the data directory's file system: writes are refused with STORAGE_FULL below it
   * (diskSpace.ts). 0 or missing: no reserve (tests on a roomy temp directory).
   */
  reserveBytes?: number;
  /**
   * Internal, for bench/queryRows.ts only: false leaves the query index out of block saves (the marker falls
   * behind and the next open with the index catches up), so the write path's CPU can be measured with and
   * without it in one build. Default true; the node never sets it.
   */
  queryIndex?: boolean;
}

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

/** Bytes of a store id (META_KEYS.storeId). */
const STORE_ID_BYTES = 16;

/** A block set packed for the writer thread (`packBlockSet`). */
export interface PackedBlockSet {
  /** record stream (recordStream.ts); transferred to the writer thread by `savePacked` */
  stream: ArrayBuffer;
  records: number;
  /** main-thread time spent packing, ms (the turns in between not counted) */
  busyMs: number;
  /** longest single turn of the packing, ms */
  longestTurnMs: number;
  /** held reveals carried into the next height's journal, written before the block (savePacked) */
  carry: { height: number; records: BlockSetWrite["journalCarry"] };
}

/**
 * Record-stream bytes per byte of the blocks (an estimate): each entry adds ~32 bytes to its entry block and
 * ~140 to the EC block, and ~420 bytes of records plus its own bytes (often a few hundred) to the stream.
 */
const ESTIMATED_STREAM_PER_BLOCK_BYTE = 4;

/** Expected size of a block set's record stream, bytes (an underestimate only costs a regrowth). */
function estimateBytes(set: BlockSetWrite): number {
  let bytes = 64 * 1024;
  for (const b of set.blocks) bytes += b.raw.length * ESTIMATED_STREAM_PER_BLOCK_BYTE;
  return bytes;
}

/**
 * Records packed per event-loop turn by `packBlockSet`: ~4 ms of main thread at ~1 µs per record, so a
 * request arriving meanwhile waits at most that long for the packing.
 */
const PACK_CHUNK = 4096;

/** Every record a block set writes, as (database, key, value), in one fixed order. */
function* blockSetRecords(set: BlockSetWrite): Generator<[DbName, Uint8Array, Uint8Array]> {
  for (const b of set.blocks) {
    yield ["blocks", b.primary, concat(Uint8Array.of(b.kind), b.raw)];
    if (b.secondary !== undefined) yield ["blockAlias", b.secondary, b.primary];
    if (b.height !== undefined) yield ["heights", heightKey(b.kind, b.height), b.primary];
  }
  for (const e of set.entries) {
    yield ["entries", e.entryHash, e.raw];
    yield ["entryLocations", e.entryHash, encodeEntryLocation(e.location)];
  }
  for (const t of set.transactions) {
    const value = encodeTransactionLocation(t.location);
    for (const k of t.keys) yield ["transactionLocations", k, value];
  }
  for (const c of set.commits) {
    const value = encodeCommitLocation(c.location);
    for (const k of c.keys) yield ["commitLocations", k, value];
  }
  for (const p of set.paidCommits) yield ["paidCommits", p.entryHash, encodePaidCommit(p.record)];
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

export type { JournalRecord } from "./journal.js";

/**
 * A plain Uint8Array view of the value a `getBinaryFast` returned. The bytes are lmdb-js's reused read buffer,
 * valid only until the next read on this thread: every caller decodes (records.ts copies every byte field) or
 * copies at once, before any other read. The returned Buffer IS that whole buffer (16 MiB) with only its JS
 * `length` property set to the value's size: `byteLength`, `new Uint8Array(b)` and `Buffer.from(b)` all see the
 * 16 MiB. So the view takes `length` — a view of `byteLength` let a decoder read a damaged short record's
 * missing bytes from an earlier read, and a copy by `new Uint8Array(b)` (an earlier try for entries and heights)
 * made a 16 MiB "hash" that lmdb-js's key writer refused (RangeError: offset is out of bounds).
 */
function plain(b: Buffer): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.length);
}

/** Key of a `meta` record. */
function metaKey(name: string): Uint8Array {
  return Buffer.from(name, "ascii");
}

/** The node's database. Construct with `LedgerStore.open`. */
export class LedgerStore {
  private readonly dbs: Databases;
  /** applies block sets on its own thread (savePacked) */
  private readonly writer: BlockSetWriter;
  /** block-set saves under way: close() lets them finish */
  private readonly saving = new Set<Promise<number>>();
  private closing = false;
  /** heights the query index caught up with at open (queryIndex.ts catchUpQueryIndex): 0 when it was current */
  queryIndexCaughtUp = 0;
  /** reads of the query index (queryIndexReader.ts) */
  readonly queries: QueryIndexReader;

  /** refuses writes before the disk is full (diskSpace.ts) */
  private readonly space: DiskSpaceGuard;

  private constructor(
    readonly path: string,
    private readonly env: RootEnv,
    /** the journal, in an environment of its own (journal.ts) */
    private readonly journal: Journal,
    reserveBytes: number,
    private readonly queryIndex: boolean,
  ) {
    this.dbs = openDatabases(env);
    this.queries = new QueryIndexReader(this.dbs);
    this.writer = new BlockSetWriter({ path, queryIndex });
    this.space = new DiskSpaceGuard({
      path,
      reserveBytes,
      files: ["data.mdb", join(JOURNAL_DIR, "data.mdb")],
    });
  }

  /**
   * Open (or create) the environment at `options.path` and check that it belongs to `options.network`
   * and has this version's layout. Throws StoreError: NETWORK_MISMATCH, UNKNOWN_FORMAT, OPEN_FAILED.
   */
  static open(options: StoreOptions): LedgerStore {
    if (options.verify === true) {
      // both environments read in one child process (verifyReadable), after their headers are checked
      const journalPath = join(options.path, JOURNAL_DIR);
      checkDataFile(options.path);
      checkDataFile(journalPath);
      verifyReadable([options.path, journalPath]);
    }
    const env = openCheckedEnvironment(options.path, "store", Object.values(DB_NAMES), false);
    let journal: Journal | undefined;
    try {
      journal = Journal.open(options.path, { verify: false });
      const store = new LedgerStore(
        options.path,
        env,
        journal,
        options.reserveBytes ?? 0,
        options.queryIndex !== false,
      );
      store.checkIdentity(options);
      store.checkJournalBelongs();
      store.moveLegacyJournal();
      if (!store.isFresh() && options.queryIndex !== false)
        store.queryIndexCaughtUp = catchUpQueryIndex(env, store.dbs, store.savedHeight());
      return store;
    } catch (e) {
      void env.close();
      void journal?.close();
      if (e instanceof StoreError) throw e;
      throw new StoreError({
        code: "OPEN_FAILED",
        path: options.path,
        info: e instanceof Error ? e.message : String(e),
      });
    }
  }

  /**
   * The journal must be this database's: a journal left from another (a data.mdb restored or copied over an
   * existing directory) would replay that database's messages onto this one's blocks. Directories written
   * before the id existed get one now.
   */
  private checkJournalBelongs(): void {
    if (this.isFresh()) return; // initialize() names both
    let id = this.metaGet(META_KEYS.storeId);
    if (id === undefined) {
      id = Buffer.from(randomBytes(STORE_ID_BYTES));
      const newId = id;
      this.env.transactionSync(() => this.metaPut(META_KEYS.storeId, newId));
    }
    const journalId = this.journal.storeId();
    if (journalId === undefined) {
      this.journal.setStoreId(id);
      return;
    }
    if (!Buffer.from(journalId).equals(id))
      throw new StoreError({
        code: "UNKNOWN_FORMAT",
        path: this.path,
        info:
          `the journal in ${this.journal.path} belongs to another database (store id ${Buffer.from(journalId).toString("hex")}, ` +
          `this one ${id.toString("hex")}): restore data.mdb and journal/ from the same copy, or remove journal/ to drop its messages`,
      });
  }

  /**
   * Directories written before the journal had its own environment keep it in the main one's `journal`
   * database: move those records over (copy, then delete, so a crash in between only repeats the move).
   */
  private moveLegacyJournal(): void {
    const legacy = this.dbs.journal;
    const byHeight = new Map<number, { seq: number; bytes: Uint8Array }[]>();
    for (const { key, value } of legacy.getRange()) {
      const k = parseJournalKey(key);
      const list = byHeight.get(k.height) ?? [];
      list.push({ seq: k.seq, bytes: new Uint8Array(value) });
      byHeight.set(k.height, list);
    }
    if (byHeight.size === 0) return;
    for (const [height, records] of byHeight) this.journal.appendAllSync(height, records);
    this.env.transactionSync(() => {
      for (const [height, records] of byHeight) for (const r of records) legacy.removeSync(journalKey(height, r.seq));
    });
  }

  private checkIdentity(options: StoreOptions): void {
    const format = this.metaGet(META_KEYS.format);
    if (format === undefined) {
      // No meta: must be a brand-new environment, not somebody else's LMDB data, and no journal left over
      // from a database that is gone (replaying it onto a new genesis would invent history).
      if (this.journal.count() > 0)
        throw new StoreError({
          code: "UNKNOWN_FORMAT",
          path: this.path,
          info: `it holds a journal (${this.journal.path}) but no database: restore the data directory whole, or remove the journal`,
        });
      for (const [name, db] of Object.entries(this.dbs)) {
        if (db.getKeysCount({ limit: 1 }) > 0)
          throw new StoreError({
            code: "UNKNOWN_FORMAT",
            path: this.path,
            info: `database '${name}' has data but no format record`,
          });
      }
      return;
    }
    if (format.length !== 4 || format.readUInt32BE(0) !== STORE_FORMAT_VERSION)
      throw new StoreError({
        code: "UNKNOWN_FORMAT",
        path: this.path,
        info: `format ${format.length === 4 ? format.readUInt32BE(0) : "?"}, this version reads format ${STORE_FORMAT_VERSION}`,
      });
    const network = this.metaGet(META_KEYS.network)?.toString("utf8") ?? "?";
    const id = this.metaGet(META_KEYS.networkId);
    const storedId = id?.length === 4 ? id.readUInt32BE(0) : -1;
    if (network !== options.network || storedId !== options.networkId)
      throw new StoreError({
        code: "NETWORK_MISMATCH",
        path: this.path,
        stored: `${network} (id 0x${storedId.toString(16)})`,
        expected: `${options.network} (id 0x${options.networkId.toString(16)})`,
      });
    if (this.metaGet(META_KEYS.savedHeight)?.length !== 4)
      throw new StoreError({ code: "CORRUPT", path: this.path, info: "no saved height" });
  }

  /** True when nothing has been saved yet (no genesis). */
  isFresh(): boolean {
    return this.metaGet(META_KEYS.format) === undefined;
  }

  /**
   * Write the genesis block set and the identity records (format, network) in one transaction.
   * Only valid on a fresh store.
   */
  initialize(options: StoreOptions, genesis: BlockSetWrite): void {
    if (!this.isFresh())
      throw new StoreError({ code: "CORRUPT", path: this.path, info: "initialize on a non-empty store" });
    // the journal is empty here (checkIdentity): name it first, so it never lacks the id of its database
    const id = Buffer.from(randomBytes(STORE_ID_BYTES));
    this.journal.setStoreId(id);
    this.env.transactionSync(() => {
      this.metaPut(META_KEYS.format, u32Bytes(STORE_FORMAT_VERSION));
      this.metaPut(META_KEYS.network, Buffer.from(options.network, "utf8"));
      this.metaPut(META_KEYS.networkId, u32Bytes(options.networkId));
      this.metaPut(META_KEYS.storeId, id);
      for (const [db, k, v] of blockSetRecords(genesis)) this.dbs[db].putSync(k, v);
      if (genesis.journalCarry.length > 0) throw new InvariantError("a genesis block set carries no journal records");
      indexSavedHeight(this.dbs, genesis.height);
    });
  }

  /** Height of the last saved directory block. */
  savedHeight(): number {
    const b = this.metaGet(META_KEYS.savedHeight);
    if (b === undefined || b.length !== 4)
      throw new StoreError({ code: "CORRUPT", path: this.path, info: "no saved height" });
    return b.readUInt32BE(0);
  }

  /** Start of the open block, ms since epoch. */
  openBlockStartMs(): number {
    const b = this.metaGet(META_KEYS.openBlockStartMs);
    if (b === undefined || b.length !== 8)
      throw new StoreError({ code: "CORRUPT", path: this.path, info: "no open block start" });
    return Number(b.readBigUInt64BE(0));
  }

  /**
   * Stream sequence of the replicated-log record that closed the last saved block (0: none saved by a
   * cluster node yet). Saved in the same transaction as the block, so a restart resumes exactly after it.
   */
  logSequence(): number {
    const b = this.metaGet(META_KEYS.logSequence);
    return b === undefined || b.length !== 8 ? 0 : Number(b.readBigUInt64BE(0));
  }

  /** Save a block set atomically in one synchronous, flushed LMDB transaction (genesis, tests). */
  saveBlockSet(set: BlockSetWrite): void {
    this.space.check();
    // carried records first: once the block is saved its own journal may go, and they must be there
    this.journal.appendAllSync(set.height + 1, set.journalCarry);
    this.env.transactionSync(() => {
      for (const [db, k, v] of blockSetRecords(set)) this.dbs[db].putSync(k, v);
      if (this.queryIndex) indexSavedHeight(this.dbs, set.height);
    });
  }

  /**
   * Pack everything a block set writes into one record stream on the main thread, `PACK_CHUNK` records
   * per event-loop turn so requests are answered in between (~1 µs per record: a 10,000-entry block is
   * ~40,000 records). The input of `savePacked`; the puts themselves happen on the writer thread.
   */
  async packBlockSet(set: BlockSetWrite): Promise<PackedBlockSet> {
    let turnStarted = performance.now();
    let busyMs = 0;
    let longestTurnMs = 0;
    const endTurn = (): void => {
      const ms = performance.now() - turnStarted;
      busyMs += ms;
      longestTurnMs = Math.max(longestTurnMs, ms);
    };
    const stream = new RecordStreamWriter(estimateBytes(set));
    let inTurn = 0;
    for (const [db, k, v] of blockSetRecords(set)) {
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

  /**
   * Save a packed block set atomically in ONE LMDB transaction on the writer thread (blockSetWriter.ts).
   * Resolves once it is committed and flushed, and this thread's reads see it; until then readers must not
   * expect to see it (the ledger serves the closed block from memory meanwhile). Journal appends of the next height may commit before it: if
   * this save never commits, a restart closes the block again from its journal, then replays them.
   * Returns the writer thread's time from receipt to the flushed commit, ms.
   */
  savePacked(packed: PackedBlockSet): Promise<number> {
    if (this.closing) return Promise.reject(new StoreError({ code: "CLOSED", path: this.path }));
    try {
      // LMDB rewrites whole pages: room for twice the records' bytes is a safe bound
      this.space.check(2 * packed.stream.byteLength);
    } catch (e) {
      return Promise.reject(e);
    }
    const saving = (async () => {
      // Carried records first: once the block commits, its own journal may be removed and they must be
      // there (a replayed close recreates the same records when the block does not commit).
      await this.journal.appendAll(packed.carry.height, packed.carry.records);
      const written = await this.writer.write(packed.stream);
      // lmdb-js renews this thread's read snapshot once per event-loop turn; the commit happened on another
      // thread, so start a fresh snapshot now or a read later in this turn could miss the block.
      this.env.resetReadTxn();
      return written.ms;
    })();
    this.saving.add(saving);
    const done = (): void => {
      this.saving.delete(saving);
    };
    saving.then(done, done);
    return saving;
  }

  /**
   * Throw StoreError STORAGE_FULL when the data directory's disk is below the free-space reserve
   * (diskSpace.ts): callers check before they change anything.
   */
  assertWritable(): void {
    this.space.check();
  }

  /** Change the free-space reserve, bytes (takes effect at the next write). */
  setReserveBytes(bytes: number): void {
    this.space.setReserveBytes(bytes);
  }

  // ── journal (journal.ts) ──

  /**
   * Append one message; resolves once it is on disk (Journal.append). No free-space check here: the
   * caller checks (`assertWritable`) before it applies the message, and a refusal after the message was
   * applied would leave it applied in memory (a second check re-measures once its 100 ms reading is old,
   * so it could refuse what the first one let through: a CI run saw a refused reveal answered by `ack`).
   */
  appendJournal(height: number, seq: number, bytes: Uint8Array): Promise<void> {
    return this.journal.append(height, seq, bytes);
  }

  /** Resolves once every journal record appended so far is on disk; rejects when one is not (Journal.durable). */
  journalDurable(): Promise<void> {
    return this.journal.durable();
  }

  /** Resolves when every journal record appended so far has been committed or has failed. */
  journalSettled(): Promise<void> {
    return this.journal.appended();
  }

  /** Remove journal records of a saved height, in chunks (Journal.remove). */
  removeJournalRecords(height: number, seqs: readonly number[], chunk?: number): Promise<void> {
    return this.journal.remove(height, seqs, chunk);
  }

  /** Journal records of `height`, in log order. */
  journalRecords(height: number): JournalRecord[] {
    return this.journal.records(height);
  }

  /** Journal records of the heights below `height`, in (height, seq) order (Journal.recordsBelow). */
  journalRecordsBelow(height: number): JournalRecord[] {
    return this.journal.recordsBelow(height);
  }

  /** Remove these journal records now, in one transaction. */
  removeJournalRecordsSync(places: readonly { height: number; seq: number }[]): void {
    this.journal.removeSync(places);
  }

  /** Remove journal records of heights below `height`: saved blocks whose cleanup was cut short. Returns how many. */
  removeJournalBelow(height: number): number {
    return this.journal.removeBelow(height);
  }

  /** Remove journal records of heights above `height`. Returns how many. */
  removeJournalAbove(height: number): number {
    return this.journal.removeAbove(height);
  }

  /**
   * Write and flush a small record in each environment: resolves when the disk takes writes again (the
   * ledger probes with it after a failure), rejects while it does not.
   */
  async probeWrite(): Promise<void> {
    this.space.check();
    await guarded(() => this.dbs.meta.put(metaKey("probe"), Uint8Array.of(1)));
    await guarded(() => this.env.flushed);
    await this.journal.probe();
  }

  // ── reads ──

  /** A block by its primary or secondary hash. */
  block(hash: Uint8Array): { kind: BlockKind; raw: Uint8Array; primary: Uint8Array } | undefined {
    let primary: Uint8Array = hash;
    let v = this.dbs.blocks.getBinary(primary);
    if (v === undefined) {
      const alias = this.dbs.blockAlias.getBinary(primary);
      if (alias === undefined) return undefined;
      primary = alias;
      v = this.dbs.blocks.getBinary(primary);
      if (v === undefined) return undefined;
    }
    return {
      kind: v[0] as BlockKind,
      raw: new Uint8Array(v.buffer, v.byteOffset + 1, v.byteLength - 1),
      primary: new Uint8Array(primary),
    };
  }

  /** Primary hash of the block of `kind` at `height`. */
  blockHashAt(kind: BlockKind, height: number): Uint8Array | undefined {
    if (!Number.isInteger(height) || height < 0 || height > 0xffffffff) return undefined;
    const v = this.dbs.heights.getBinaryFast(heightKey(kind, height));
    return v === undefined ? undefined : plain(v).slice();
  }

  entryRaw(entryHash: Uint8Array): Uint8Array | undefined {
    // one copy of the value (getBinary copied it, and then this copied it again)
    const v = this.dbs.entries.getBinaryFast(entryHash);
    return v === undefined ? undefined : plain(v).slice();
  }
  entryLocation(entryHash: Uint8Array): EntryLocation | undefined {
    const v = this.dbs.entryLocations.getBinaryFast(entryHash);
    return v === undefined ? undefined : decodeEntryLocation(plain(v));
  }
  transactionLocation(hash: Uint8Array): TransactionLocation | undefined {
    const v = this.dbs.transactionLocations.getBinaryFast(hash);
    return v === undefined ? undefined : decodeTransactionLocation(plain(v));
  }
  commitLocation(hash: Uint8Array): CommitLocation | undefined {
    const v = this.dbs.commitLocations.getBinaryFast(hash);
    return v === undefined ? undefined : decodeCommitLocation(plain(v));
  }
  paidCommit(entryHash: Uint8Array): PaidCommit | undefined {
    const v = this.dbs.paidCommits.getBinaryFast(entryHash);
    return v === undefined ? undefined : decodePaidCommit(plain(v));
  }
  chainHead(chainId: Uint8Array): ChainHead | undefined {
    const v = this.dbs.chainHeads.getBinaryFast(chainId);
    return v === undefined ? undefined : decodeChainHead(plain(v));
  }
  /** Saved balance in base units; undefined when the address never had one. */
  assetBalance(address: Uint8Array): bigint | undefined {
    const v = this.dbs.assetBalances.getBinaryFast(address);
    return v === undefined ? undefined : decodeBalance(plain(v));
  }
  /** Saved balance in entry credits; undefined when the key never had one. */
  ecBalance(publicKey: Uint8Array): bigint | undefined {
    const v = this.dbs.ecBalances.getBinaryFast(publicKey);
    return v === undefined ? undefined : decodeBalance(plain(v));
  }

  /**
   * Every (key, value) of one of the state databases, in key order (LMDB's bytewise order: canonical), each a
   * copy. For certified snapshots (ledger/snapshotState.ts), which read the state of the saved height.
   */
  *stateRecords(
    name: "chainHeads" | "assetBalances" | "ecBalances" | "paidCommits" | "transactionLocations",
  ): Generator<[Uint8Array, Uint8Array]> {
    for (const { key, value } of this.dbs[name].getRange())
      yield [Uint8Array.from(key as Buffer), Uint8Array.from(value as Buffer)];
  }

  /**
   * Resolves when every write so far is flushed to disk or has failed; each failure is reported to the
   * write's own caller (a save, a probe, a journal append or cleanup), not again here (writesSettled).
   */
  async flushed(): Promise<void> {
    await writesSettled(this.env);
    await this.journal.flushed();
  }

  /** Flush and close the environment. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.allSettled([...this.saving]);
    await this.writer.close();
    await this.journal.close();
    await writesSettled(this.env);
    await this.env.close();
  }

  private metaGet(name: string): Buffer | undefined {
    return this.dbs.meta.getBinary(metaKey(name));
  }
  private metaPut(name: string, value: Buffer): void {
    this.dbs.meta.putSync(metaKey(name), value);
  }
}
