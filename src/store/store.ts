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
import type { Transaction } from "lmdb";
import { InvariantError } from "../errors.js";
import type { NetworkName } from "../protocol/network.js";
import {
  type BlockSetWrite,
  forEachBlockSetRecord,
  metaKey,
  type PackedBlockSet,
  packBlockSet as packRecords,
  putRecord,
  readPaidCommitBound,
} from "./blockSet.js";
import { BlockSetWriter } from "./blockSetWriter.js";
import { DiskSpaceGuard } from "./diskSpace.js";
import { entryLocationOf, entryRawView, paidCommitOf } from "./entryRecord.js";
import {
  type Databases,
  guarded,
  openCheckedEnvironment,
  openDatabases,
  type RootEnv,
  writesSettled,
} from "./environment.js";
import { StoreError } from "./errors.js";
import { checkDataFile } from "./fileCheck.js";
import { migrateFormat } from "./formatMigration.js";
import { JOURNAL_DIR, Journal, type JournalRecord } from "./journal.js";
import { heightFileName, journalHeights } from "./journalFiles.js";
import { BlockKind, DB_NAMES, heightKey, LEGACY_DB_NAMES, META_KEYS, u32Bytes } from "./keys.js";
import { checkTreeSpines } from "./pageCheck.js";
import { indexSavedHeight } from "./queryIndex.js";
import { QueryIndexReader } from "./queryIndexReader.js";
import { QueryIndexRebuild, type QueryIndexStatus } from "./queryIndexRebuild.js";
import { streamBytes } from "./recordStream.js";
import {
  type ChainHead,
  type CommitLocation,
  commitLocationAt,
  decodeBalance,
  decodeChainHead,
  decodeTransactionLocation,
  type EntryLocation,
  encodePaidCommit,
  type PaidCommit,
  type TransactionLocation,
} from "./records.js";
import { checkNotDamaged } from "./scrub.js";
import {
  checkIdentity,
  checkJournalBelongs,
  isFresh,
  metaGet,
  moveLegacyJournal,
  STORE_FORMAT_VERSION,
  STORE_ID_BYTES,
} from "./storeIdentity.js";

/** A read transaction of `LedgerStore.readTransaction` (lmdb-js's, opaque to callers). */
export interface StateReadTransaction {
  done(): void;
}
export type { BlockSetArrays, BlockSetWrite, BlockWrite, EntryWrite, PackedBlockSet, RowList } from "./blockSet.js";
export { STORE_FORMAT_VERSION } from "./storeIdentity.js";

export interface StoreOptions {
  /** directory of the LMDB environment; created when missing */
  path: string;
  network: NetworkName;
  /** u32 network id (the directory block header field) */
  networkId: number;
  /**
   * Before LMDB maps them, follow each B-tree of both environments from its root along its first and last
   * child (pageCheck.ts: O(depth), a few pages per database whatever the store's size), and refuse a
   * directory whose background scrub found damage (scrub.ts). The node does it at start; the rest of the
   * pages are read by the scrub while it serves (docs/ledger.md §5).
   */
  verify?: boolean;
  /**
   * Bytes kept free on the data directory's file system: writes are refused with STORAGE_FULL below it
   * (diskSpace.ts). 0 or missing: no reserve (tests on a roomy temp directory).
   */
  reserveBytes?: number;
  /**
   * false leaves the query index out of block saves and starts no rebuild (the marker stays behind; the next
   * open with the index catches up): the node's -queryindex=false ([App] QueryIndex). Default true.
   */
  queryIndex?: boolean;
  /**
   * Milliseconds the background rebuild of the query index waits between two steps, each then of one height
   * (queryIndexRebuild.ts): a throttle for a machine that cannot spare the rebuild's CPU, and what lets a test
   * see the rebuilding state on a small store. Default 0: steps follow each other (saves still go first).
   */
  queryIndexRebuildPauseMs?: number;
  /**
   * Where the store says what it does at open that takes time: the migration of a directory of an older format
   * (formatMigration.ts), a line per step. Default: nowhere.
   */
  log?: (line: string) => void;
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

/** The node's database. Construct with `LedgerStore.open`. */
export class LedgerStore {
  private readonly dbs: Databases;
  /** applies block sets on its own thread (savePacked) */
  private readonly writer: BlockSetWriter;
  /** block-set saves under way: close() lets them finish */
  private readonly saving = new Set<Promise<number>>();
  private closing = false;
  /** set by markDamaged: why every write is refused */
  private damaged: string | undefined;
  /** reads of the query index (queryIndexReader.ts) */
  readonly queries: QueryIndexReader;
  /** where the query index stands: current, or rebuilt in the background (queryIndexRebuild.ts) */
  private readonly indexState: QueryIndexRebuild;

  /** refuses writes before the disk is full (diskSpace.ts) */
  private readonly space: DiskSpaceGuard;

  private constructor(
    readonly path: string,
    private readonly env: RootEnv,
    /** the journal, in an environment of its own (journal.ts) */
    private readonly journal: Journal,
    reserveBytes: number,
    private readonly queryIndex: boolean,
    log: (line: string) => void,
    rebuildPauseMs: number,
  ) {
    this.dbs = openDatabases(env);
    this.indexState = new QueryIndexRebuild(
      { path },
      { dbs: this.dbs, savedHeight: () => (this.isFresh() ? undefined : this.savedHeight()), log },
    );
    this.queries = new QueryIndexReader(this.dbs, this.indexState);
    this.writer = new BlockSetWriter({ path, queryIndex, rebuildPauseMs });
    this.space = new DiskSpaceGuard({
      path,
      reserveBytes,
      // the journal's newest file is the one being appended to (journalFiles.ts: one per height)
      files: () => {
        const heights = journalHeights(join(path, JOURNAL_DIR));
        return heights.length === 0 ? ["data.mdb"] : ["data.mdb", join(JOURNAL_DIR, heightFileName(heights.at(-1)!))];
      },
    });
  }

  /**
   * Open (or create) the environment at `options.path` and check that it belongs to `options.network`
   * and has this version's layout. Throws StoreError: NETWORK_MISMATCH, UNKNOWN_FORMAT, OPEN_FAILED.
   */
  static open(options: StoreOptions): LedgerStore {
    if (options.verify === true) {
      checkNotDamaged(options.path);
      for (const path of [options.path, join(options.path, JOURNAL_DIR)]) {
        checkDataFile(path);
        checkTreeSpines(path);
      }
    }
    // the databases of format 1 are allowed too: a directory of that format is migrated below
    const env = openCheckedEnvironment(
      options.path,
      "store",
      [...Object.values(DB_NAMES), ...Object.values(LEGACY_DB_NAMES)],
      false,
    );
    let journal: Journal | undefined;
    try {
      journal = Journal.open(options.path, { verify: false });
      const store = new LedgerStore(
        options.path,
        env,
        journal,
        options.reserveBytes ?? 0,
        options.queryIndex !== false,
        options.log ?? (() => {}),
        options.queryIndexRebuildPauseMs ?? 0,
      );
      const opened = { path: options.path, env, dbs: store.dbs, journal };
      const log = options.log ?? (() => {});
      if (journal.upgraded > 0) log(`carried ${journal.upgraded} journal records from the LMDB journal into its files`);
      for (const c of journal.cuts)
        log(`cut ${c.bytes} bytes off the journal of height ${c.height} after its last whole record (${c.why})`);
      migrateFormat(opened, options.log ?? (() => {}));
      checkIdentity(opened, options);
      checkJournalBelongs(opened);
      moveLegacyJournal(opened);
      if (options.queryIndex !== false) store.startQueryIndexRebuild();
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
   * When saved heights lack their index records (an index dropped, of an older layout, or behind), rebuild it in
   * the background on the writer thread, between saves; the node serves meanwhile and the query methods answer
   * "rebuilding" (docs/ledger.md §Query index, "Rebuild").
   */
  private startQueryIndexRebuild(): void {
    // the opening checks above are done; the figures are read again under the state's own snapshot
    if (!this.indexState.behind) return;
    this.indexState.started();
    this.writer.rebuildQueryIndex({
      onProgress: (p, ms) => {
        // the step committed on another thread: see it in this thread's next read
        this.env.resetReadTxn();
        this.indexState.progress(p, ms);
      },
      onCleared: (ms) => this.indexState.cleared(ms),
      onFailed: (error) => this.indexState.stopped(error),
    });
  }

  /** Where the query index stands (/metrics, /debug): current, or how far its background rebuild is. */
  queryIndexStatus(): QueryIndexStatus {
    return this.indexState.status();
  }

  /** True when nothing has been saved yet (no genesis). */
  isFresh(): boolean {
    return isFresh({ dbs: this.dbs });
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
      forEachBlockSetRecord(genesis, (db, k, v) => putRecord(this.dbs, db, k, v));
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
   * The latest timestamp any paid commit in the store may have, ms, or undefined when the store keeps no such
   * bound (saved by a version before it): ledger/recentPaidCommits.ts, read when a ledger opens the store.
   */
  paidCommitBound(): number | undefined {
    return readPaidCommitBound(this.metaGet(META_KEYS.paidCommitBound), this.savedHeight());
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
      forEachBlockSetRecord(set, (db, k, v) => putRecord(this.dbs, db, k, v));
      if (this.queryIndex) indexSavedHeight(this.dbs, set.height);
    });
  }

  /**
   * Pack everything a block set writes into one record stream (blockSet.ts packBlockSet): the input of
   * `savePacked`; the puts themselves happen on the writer thread.
   */
  packBlockSet(set: BlockSetWrite): Promise<PackedBlockSet> {
    return packRecords(set);
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
      this.space.check(2 * streamBytes(packed.stream));
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
    if (this.damaged !== undefined)
      throw new StoreError({
        code: "CORRUPT",
        path: this.path,
        info: `the background scrub found a damaged page (${this.damaged}): writes are refused; restore the data directory from a backup`,
      });
    this.space.check();
  }

  /**
   * Refuse every write from now on (assertWritable, so the ledger and `/health`): the background scrub found a
   * damaged page (scrub.ts). Reads go on; the next start refuses the directory.
   */
  markDamaged(reason: string): void {
    this.damaged ??= reason;
  }

  /** Change the free-space reserve, bytes (takes effect at the next write). */
  setReserveBytes(bytes: number): void {
    this.space.setReserveBytes(bytes);
  }

  // ── journal (journal.ts) ──

  /**
   * Append one message, `bytes ‖ more`; resolves once it is on disk (Journal.append). No free-space check here: the
   * caller checks (`assertWritable`) before it applies the message, and a refusal after the message was
   * applied would leave it applied in memory (a second check re-measures once its 100 ms reading is old,
   * so it could refuse what the first one let through: a CI run saw a refused reveal answered by `ack`).
   */
  appendJournal(height: number, seq: number, bytes: Uint8Array, more?: Uint8Array): Promise<void> {
    return this.journal.append(height, seq, bytes, more);
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
    // one copy of the entry's bytes, out of lmdb-js's reused read buffer
    const v = this.dbs.entryRecords.getBinaryFast(entryHash);
    return v === undefined ? undefined : entryRawView(plain(v))?.slice();
  }
  entryLocation(entryHash: Uint8Array): EntryLocation | undefined {
    const v = this.dbs.entryRecords.getBinaryFast(entryHash);
    return v === undefined ? undefined : entryLocationOf(plain(v));
  }
  transactionLocation(hash: Uint8Array): TransactionLocation | undefined {
    const v = this.dbs.transactionLocations.getBinaryFast(hash);
    return v === undefined ? undefined : decodeTransactionLocation(plain(v));
  }
  commitLocation(hash: Uint8Array): CommitLocation | undefined {
    // a copy: the EC block's lookup below reuses the read buffer
    const v = this.dbs.commitPlaces.getBinary(hash);
    return v === undefined ? undefined : commitLocationAt(v, (h) => this.blockHashAt(BlockKind.ec, h));
  }
  paidCommit(entryHash: Uint8Array): PaidCommit | undefined {
    const v = this.dbs.entryRecords.getBinaryFast(entryHash);
    return v === undefined ? undefined : paidCommitOf(plain(v));
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
    /** a transaction of `readTransaction`: read through it (the view it was opened on), across turns */
    transaction?: StateReadTransaction,
  ): Generator<[Uint8Array, Uint8Array]> {
    const range = transaction === undefined ? {} : { transaction: transaction as unknown as Transaction };
    if (name === "paidCommits") {
      // kept in the entry records (entryRecord.ts); given in format 1's paid-commit layout (records.ts), which
      // is the certified snapshot's
      for (const { key, value } of this.dbs.entryRecords.getRange(range)) {
        const paid = paidCommitOf(value as Uint8Array);
        if (paid !== undefined) yield [Uint8Array.from(key as Buffer), Uint8Array.from(encodePaidCommit(paid))];
      }
      return;
    }
    for (const { key, value } of this.dbs[name].getRange(range))
      yield [Uint8Array.from(key as Buffer), Uint8Array.from(value as Buffer)];
  }

  /**
   * A read transaction that keeps the view of now across event-loop turns (lmdb-js renews this thread's own each
   * turn): a reader that yields between chunks (certified snapshots, ledger/snapshotState.ts) reads one saved
   * height while the next one commits. Call `done()`; an open one keeps the pages of its view from being reused.
   */
  readTransaction(): StateReadTransaction {
    return this.env.useReadTransaction();
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
    return metaGet({ dbs: this.dbs }, name);
  }
  private metaPut(name: string, value: Buffer): void {
    this.dbs.meta.putSync(metaKey(name), value);
  }
}
