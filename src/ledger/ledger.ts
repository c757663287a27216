/**
 * The ledger: a deterministic state machine over an ordered log of messages (ledger/messages.ts) —
 * commits, reveals, asset transactions, end-of-minute markers and block starts (DESIGN §7).
 *
 * Write path (DESIGN §3): stateless decode (caller) → signatures through the Verifier (the pool batches
 * the checks of one tick) → `apply` (every stateful rule; a rejection throws a LedgerError and changes
 * nothing) → journal append, durable before the promise resolves. Replaying the journal from the last
 * saved block rebuilds the same process list; the end of minute 10 closes the block (blockBuilder.ts)
 * and saves it in one LMDB transaction.
 *
 * Times: every time a rule needs comes from a message (`timeMs`, ms since epoch). The injected clock
 * `now()` only stamps arrivals and answers `current-minute`.
 */

import { publicKeyFromSeed } from "../crypto/ed25519.js";
import type { AdminBlock } from "../protocol/ablock.js";
import { decodeAdminBlock } from "../protocol/ablock.js";
import { encodeAddress } from "../protocol/address.js";
import { bytesEqual, fromHex, toHex } from "../protocol/bytes.js";
import {
  CHAIN_COMMIT_CREDITS,
  type Commit,
  commitFullHash,
  commitSignedPart,
  commitTxId,
  ENTRY_COMMIT_CREDITS,
} from "../protocol/commit.js";
import { type DirectoryBlock, decodeDirectoryBlock } from "../protocol/dblock.js";
import { decodeEntryBlock, type EntryBlock } from "../protocol/eblock.js";
import { decodeECBlock, type ECBlock } from "../protocol/ecblock.js";
import { chainIdFromExtIds, type Entry, entryCreditCost, entryHash, unmarshalEntry } from "../protocol/entry.js";
import { ProtocolError } from "../protocol/errors.js";
import { type AssetBlock, assetBlockTransactions, decodeAssetBlock, emptyCoinbase } from "../protocol/fblock.js";
import { genesisBlocks, LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_SEED_HEX } from "../protocol/genesis.js";
import { sha256d } from "../protocol/hash.js";
import { type NetworkName, networkId } from "../protocol/network.js";
import { buildReceipt, type Receipt } from "../protocol/receipt.js";
import {
  type Transaction,
  transactionFeeEC,
  transactionFullHash,
  transactionId,
  transactionSignatureChecks,
  validateTransaction,
} from "../protocol/transaction.js";
import { BlockKind } from "../store/keys.js";
import type { ChainHead, CommitLocation, EntryLocation, PaidCommit, TransactionLocation } from "../store/records.js";
import type { BlockSetWrite, JournalRecord, LedgerStore } from "../store/store.js";
import type { Verifier } from "../workers/verifier.js";
import {
  AckStatus,
  type Balance,
  type CommitAck,
  type EntryAck,
  type Heights,
  type HeldMessage,
  type ItemLocation,
  type LedgerApi,
  type LedgerDebugApi,
  type MinuteInfo,
  type PendingEntry,
  type PendingTransaction,
  type Stored,
  type TransactionAck,
} from "./api.js";
import {
  type BlockSigner,
  type ChainTip,
  type ClosedBlockSet,
  closeBlock,
  genesisBlockSet,
  tipFromRaw,
} from "./blockBuilder.js";
import {
  COMMIT_LIFETIME_MS,
  FAULT_TIMEOUT_SECONDS,
  HOLD_EXPIRY_MS,
  HOLDING_QUEUE_LIMIT,
  MINUTES_PER_BLOCK,
  MS_PER_TIMESTAMP_MINUTE,
  RECOVERY_PROBE_MS,
  ROUND_TIMEOUT_SECONDS,
  STALL_FACTOR,
  TIMESTAMP_WINDOW_MS,
} from "./constants.js";
import { DecodedBlockCache } from "./decodedBlockCache.js";
import { LedgerError, type LedgerErrorType } from "./errors.js";
import { HoldingQueue } from "./holdingQueue.js";
import { decodeMessage, describeMessage, encodeMessage, type LogMessage } from "./messages.js";
import { ProcessList, type RevealedEntry } from "./processList.js";

/** The reference node's sentence for a repeated commit (spec §7). */
export const REPEATED_COMMIT_INFO = "A commit with equal or greater payment already exists";

/** Logging the ledger needs (structurally the node's Logger). */
export interface LedgerLog {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface LedgerOptions {
  network: NetworkName;
  /** name hashed into a CUSTOM network's id */
  customNet?: string;
  /** seconds per directory block (reported by current-minute; the clock uses it to time minutes) */
  blockTimeSeconds: number;
  /** keep human-readable journal lines for the debug `messages` method */
  journaling?: boolean;
  /** most reveals waiting for their commit (default HOLDING_QUEUE_LIMIT) */
  holdingLimit?: number;
}

export interface LedgerDependencies {
  store: LedgerStore;
  verifier: Verifier;
  log: LedgerLog;
  /** wall clock, ms since epoch (default Date.now): stamps arrivals, never read by the rules */
  now?: () => number;
}

/** Counters reported by the debug `summary` method. */
interface Counters {
  commitsAccepted: number;
  revealsAccepted: number;
  revealsHeld: number;
  revealsExpired: number;
  transactionsAccepted: number;
  rejected: number;
  blocksClosed: number;
  /**
   * main-thread time of the last block close, ms: building the blocks, then (one event-loop turn later,
   * added when done) packing their records for the writer thread
   */
  lastCloseMs: number;
  /** of which: building the blocks, ms (one event-loop turn) */
  lastCloseBuildMs: number;
  /** of which: packing the save's records, ms (in several event-loop turns) */
  lastCloseSaveMs: number;
  /** longest single event-loop turn of the last close, ms: what a request arriving meanwhile waits at most */
  lastCloseLongestTurnMs: number;
  /** writer-thread time of the last block save, from receipt to the flushed commit, ms (off the main thread) */
  lastCloseWriteMs: number;
  /** CPU time of the process during the last close, ms (wall time above includes other processes' turns) */
  lastCloseCpuMs: number;
  replayedMessages: number;
}

/**
 * Decoded saved directory blocks kept (LRU). Each `entry`, `transaction`, `commit`, `receipt` and
 * `dblock-by-height` read needs one; 64 covers the recent blocks that most reads hit. A directory block
 * is at most 64 B per entry, so 4 MiB of raw bytes is a bound that never binds on today's chains.
 * Without it `entry` served ~5,900 req/s, 95 % of it re-decoding the same block (docs/performance.md).
 */
const DIRECTORY_BLOCK_CACHE = { maxBlocks: 64, maxRawBytes: 4 * 1024 * 1024 } as const;
/**
 * Decoded saved entry-credit blocks kept (LRU) for `ack`, `commit` and `transaction` of saved commits,
 * which otherwise parse every commit of the block per call (12–30 ms on a 10,000-commit block). The byte
 * bound (a 10,000-commit block is ~1.4 MB raw, a few times that decoded) keeps the heap cost under ~100 MB.
 */
const EC_BLOCK_CACHE = { maxBlocks: 64, maxRawBytes: 16 * 1024 * 1024 } as const;

/** Networks a standalone node produces blocks for (MAIN and TEST need the real federated servers). */
const PRODUCING_NETWORKS: readonly NetworkName[] = ["LOCAL", "CUSTOM"];

/**
 * A closed block whose LMDB transaction has not committed yet. Reads fall through to it before the
 * store, so the block, its indexes and balances are visible from the moment it closes.
 */
interface Closing {
  pl: ProcessList;
  closed: ClosedBlockSet;
  /** blocks by primary and secondary hash hex */
  blocks: Map<string, { kind: BlockKind; raw: Uint8Array; primary: Uint8Array }>;
  /** `${kind}/${height}` → primary hash */
  heights: Map<string, Uint8Array>;
  chainHeads: Map<string, ChainHead>;
  assetBalances: Map<string, bigint>;
  ecBalances: Map<string, bigint>;
  coinbaseTxId: string;
  /** resolves when the block set is committed and flushed; rejects when the save failed */
  saved: Promise<void>;
}

/** A block closed again while replaying the journal could not be saved: the replay stops there. */
class ReplaySaveError extends Error {
  constructor(height: number, cause: unknown) {
    super(
      `saving block ${height}, closed again from the journal, failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    this.name = "ReplaySaveError";
  }
}

export class Ledger implements LedgerApi, LedgerDebugApi {
  private readonly now: () => number;
  private readonly networkIdValue: number;
  private readonly producing: boolean;
  private readonly holding: HoldingQueue;
  private tip: ChainTip;
  private pl: ProcessList;
  private booted = false;
  /** true while the journal is replayed (start, recovery): a replayed close saves synchronously */
  private replaying = false;
  /** set when a write to LMDB failed: writes are refused until recovery rebuilds the state; reads still served */
  private failure: string | undefined;
  private signerCache: BlockSigner | undefined;
  /** the last closed block while its asynchronous save is in flight (readers see it from here) */
  private closing: Closing | undefined;
  /** removal of confirmed journal records, running after each block save */
  private cleanup: Promise<void> = Promise.resolve();
  /** accept() calls whose writes have not settled (recovery waits for them) */
  private readonly inflight = new Set<Promise<void>>();
  /** pending recovery probe after a storage failure */
  private recoveryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly directoryBlockCache = new DecodedBlockCache<DirectoryBlock>(DIRECTORY_BLOCK_CACHE);
  private readonly ecBlockCache = new DecodedBlockCache<ECBlock>(EC_BLOCK_CACHE);
  private readonly counters: Counters = {
    commitsAccepted: 0,
    revealsAccepted: 0,
    revealsHeld: 0,
    revealsExpired: 0,
    transactionsAccepted: 0,
    rejected: 0,
    blocksClosed: 0,
    lastCloseMs: 0,
    lastCloseSaveMs: 0,
    lastCloseWriteMs: 0,
    lastCloseBuildMs: 0,
    lastCloseLongestTurnMs: 0,
    lastCloseCpuMs: 0,
    replayedMessages: 0,
  };

  private constructor(
    private readonly options: LedgerOptions,
    private readonly deps: LedgerDependencies,
  ) {
    this.now = deps.now ?? Date.now;
    this.networkIdValue = networkId(options.network, options.customNet);
    this.producing = PRODUCING_NETWORKS.includes(options.network);
    this.holding = new HoldingQueue({ limit: options.holdingLimit ?? HOLDING_QUEUE_LIMIT });
    const store = deps.store;
    if (store.isFresh()) {
      const genesis = genesisBlockSet(genesisBlocks(options.network, options.customNet), this.now());
      store.initialize({ path: store.path, network: options.network, networkId: this.networkIdValue }, genesis.write);
      this.log("info", "created the genesis block", { network: options.network, path: store.path });
    }
    const height = store.savedHeight();
    this.tip = this.loadTip(height);
    this.pl = new ProcessList(height + 1, store.openBlockStartMs());
  }

  /**
   * Open the ledger over `deps.store`: write the genesis block when the store is fresh, load the last
   * saved block, then replay the journal of the open block (crash recovery is replay).
   */
  static open(options: LedgerOptions, deps: LedgerDependencies): Ledger {
    const ledger = new Ledger(options, deps);
    try {
      ledger.replay();
    } catch (e) {
      if (!(e instanceof ReplaySaveError)) throw e;
      // Start anyway, serving reads; writes stay refused and recovery replays again once the disk takes writes.
      ledger.booted = true;
      ledger.fail(e.message);
    }
    return ledger;
  }

  private loadTip(height: number): ChainTip {
    const raw = (kind: BlockKind): Uint8Array => {
      const hash = this.deps.store.blockHashAt(kind, height);
      const block = hash && this.deps.store.block(hash);
      if (!block) throw new Error(`store has no block of kind ${kind} at saved height ${height}`);
      return block.raw;
    };
    return tipFromRaw({
      directory: raw(BlockKind.directory),
      admin: raw(BlockKind.admin),
      ec: raw(BlockKind.ec),
      asset: raw(BlockKind.asset),
    });
  }

  /**
   * Replay the journal from the open height on. A height whose journal ends with its end of minute 10 was
   * closed but not saved (a crash or a failed save in between): replaying closes it again and saves it,
   * then goes on with the next height, whose first records — the reveals carried by that close — the
   * replayed close has just recreated.
   */
  private replay(): void {
    const store = this.deps.store;
    const stale = store.removeJournalBelow(this.pl.height);
    if (stale > 0) this.log("info", "removed journal records of saved heights", { count: stale });
    this.replaying = true;
    try {
      let carried = 0;
      for (;;) {
        const height = this.pl.height;
        const records = store.journalRecords(height).filter((r) => r.seq >= carried);
        if (records.length === 0) break;
        const replayed = this.replayHeight(records);
        this.log("info", "replayed the journal", { height, messages: replayed, minute: this.pl.minute });
        if (this.pl.height === height) break;
        // the close carried held reveals into the next height as its first records (sequences 0…)
        carried = this.pl.nextSeq;
      }
    } finally {
      this.replaying = false;
    }
    // Records beyond the open height without the close before them were never acknowledged (a close's
    // marker is journaled before any later record).
    const unreachable = store.removeJournalAbove(this.pl.height);
    if (unreachable > 0)
      this.log("warn", "removed journal records beyond the open height", { count: unreachable, open: this.pl.height });
    this.booted = true;
  }

  /** Apply one height's journal records in order; stops after its close. Returns how many were applied. */
  private replayHeight(records: readonly JournalRecord[]): number {
    const height = this.pl.height;
    let replayed = 0;
    for (const r of records) {
      if (this.pl.height !== height) {
        this.log("error", "journal records after the close of their height, ignored", { height, seq: r.seq });
        break;
      }
      try {
        const msg = decodeMessage(r.bytes);
        const pl = this.pl;
        pl.nextSeq = Math.max(pl.nextSeq, r.seq + 1);
        pl.journalSeqs.push(r.seq);
        this.apply(msg);
        replayed++;
        this.counters.replayedMessages++;
      } catch (e) {
        if (e instanceof ReplaySaveError) throw e;
        // Only a bug or a damaged journal gets here: the message was valid when it was journaled.
        this.log("error", "journal message not replayed", { height: r.height, seq: r.seq, error: String(e) });
      }
    }
    return replayed;
  }

  // ───────────────────────────── writes ─────────────────────────────

  async submitCommit(commit: Commit): Promise<{ txId: Uint8Array; entryHash: Uint8Array }> {
    return this.counted(async () => {
      this.assertWritable();
      const timeMs = this.now();
      checkTimestamp("commit", commit.milliTime, timeMs);
      const [ok] = await this.deps.verifier.verify([
        { publicKey: commit.ecPublicKey, message: commitSignedPart(commit), signature: commit.signature },
      ]);
      if (ok !== true) throw new LedgerError({ code: "BAD_SIGNATURE", what: "commit" });
      await this.accept({ kind: "commit", timeMs, commit });
      return { txId: commitTxId(commit), entryHash: commit.entryHash };
    });
  }

  async submitReveal(
    entryRaw: Uint8Array,
    options: { kind?: "chain" | "entry" } = {},
  ): Promise<{ entryHash: Uint8Array; chainId: Uint8Array }> {
    return this.counted(async () => {
      this.assertWritable();
      const entry = decodeEntry(entryRaw);
      const timeMs = this.now();
      if (options.kind === "chain") this.checkChainReveal(entry, entryHash(entryRaw), timeMs);
      await this.accept({ kind: "reveal", timeMs, entryRaw });
      return { entryHash: entryHash(entryRaw), chainId: entry.chainId };
    });
  }

  async submitTransaction(tx: Transaction): Promise<{ txId: Uint8Array }> {
    return this.counted(async () => {
      this.assertWritable();
      const timeMs = this.now();
      checkTimestamp("transaction", tx.milliTimestamp, timeMs);
      checkTransactionShape(tx, this.tip.exchangeRate);
      let checks: ReturnType<typeof transactionSignatureChecks>;
      try {
        checks = transactionSignatureChecks(tx);
      } catch (e) {
        throw asLedgerError(e);
      }
      const results = await this.deps.verifier.verify(checks);
      const bad = results.findIndex((r) => r !== true);
      if (bad >= 0) throw new LedgerError({ code: "BAD_SIGNATURE", what: `transaction input ${bad}` });
      await this.accept({ kind: "transaction", timeMs, tx });
      return { txId: transactionId(tx) };
    });
  }

  /**
   * End the open block's current minute at `timeMs` (the clock's job; tests call it directly). The end of
   * minute 10 closes and saves the block. Resolves once the marker is durable.
   */
  async endMinute(timeMs: number = this.now()): Promise<void> {
    this.assertWritable();
    // One block save in flight at a time: a close builds on the previous block's saved state.
    const previous = this.closing;
    if (this.pl.minute === MINUTES_PER_BLOCK - 1 && previous !== undefined) {
      try {
        await previous.saved;
      } catch {
        throw new LedgerError({ code: "STORAGE_FULL", info: this.failure ?? "the previous block save failed" });
      }
    }
    await this.accept({ kind: "endOfMinute", timeMs, minute: this.pl.minute });
  }

  /**
   * Set the open block's start time to `timeMs` when it is still in its first minute (the clock calls
   * this at boot so a block opened before downtime starts now). Returns false when past minute 1.
   */
  async startBlock(timeMs: number = this.now()): Promise<boolean> {
    this.assertWritable();
    if (this.pl.minute !== 0) return false;
    await this.accept({ kind: "blockStart", timeMs });
    return true;
  }

  /** Resolves when every write so far (journal, block saves, journal cleanup) is on disk. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.inflight, this.closing?.saved]);
    await this.cleanup;
    await this.deps.store.flushed();
  }

  private async counted<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      this.counters.rejected++;
      throw e;
    }
  }

  private assertWritable(): void {
    if (!this.producing)
      throw new LedgerError({
        code: "NOT_PRODUCING",
        info:
          `a standalone node cannot produce blocks on ${this.options.network}: that needs the network's ` +
          "federated servers; run with -network=LOCAL (or CUSTOM) to write",
      });
    if (this.failure !== undefined) throw new LedgerError({ code: "STORAGE_FULL", info: this.failure });
  }

  /**
   * Apply then journal; resolves once the journal record is durable. The end of minute 10 is journaled
   * under the height it closes, and resolves once that block is saved too. Nothing else waits for a block
   * save: the closed block is fully described by its height's journal (its messages and this marker), so
   * if the save never commits, a restart or a recovery closes it again from the journal, byte for byte,
   * before it replays the next height (docs/ledger.md §5).
   */
  private accept(msg: LogMessage): Promise<void> {
    // After a storage failure nothing new is applied until recovery has rebuilt the state from disk.
    if (this.failure !== undefined)
      return Promise.reject(new LedgerError({ code: "STORAGE_FULL", info: this.failure }));
    // Refused before it is applied: a message the disk has no room for changes nothing.
    try {
      this.deps.store.assertWritable();
    } catch (e) {
      return Promise.reject(
        new LedgerError({ code: "STORAGE_FULL", info: e instanceof Error ? e.message : String(e) }),
      );
    }
    // the block the message goes into (the end of minute 10 replaces this.pl by the next block's list)
    const pl = this.pl;
    const journal = this.apply(msg);
    const waits: Promise<void>[] = [];
    if (journal) {
      const seq = pl.nextSeq++;
      pl.journalSeqs.push(seq);
      waits.push(this.deps.store.appendJournal(pl.height, seq, encodeMessage(msg)));
    } else {
      // Same answer as an earlier identical message: not before that one is durable too.
      waits.push(this.deps.store.flushed());
    }
    if (this.pl !== pl && this.closing !== undefined) waits.push(this.closing.saved);
    const done = Promise.all(waits).then(
      () => {},
      (e: unknown) => {
        this.fail(`a write to the database failed: ${e instanceof Error ? e.message : String(e)}`);
        throw new LedgerError({ code: "STORAGE_FULL", info: this.failure! });
      },
    );
    this.inflight.add(done);
    const forget = (): void => {
      this.inflight.delete(done);
    };
    done.then(forget, forget);
    return done;
  }

  /**
   * Refuse every write from now on (STORAGE_FULL) and say why; reads are still served. A probe retries
   * every RECOVERY_PROBE_MS; once the disk takes writes again the state is rebuilt from disk (last saved
   * block + journal replay: exactly what was acknowledged) and writes resume, without a restart.
   */
  private fail(reason: string): void {
    if (this.failure !== undefined) return;
    this.log("error", "refusing writes until the database takes writes again", { reason });
    this.failure = reason;
    this.scheduleRecovery();
  }

  private scheduleRecovery(): void {
    if (this.closed || this.recoveryTimer !== undefined) return;
    this.recoveryTimer = setTimeout(() => {
      this.recoveryTimer = undefined;
      void this.tryRecover();
    }, RECOVERY_PROBE_MS);
    this.recoveryTimer.unref();
  }

  private async tryRecover(): Promise<void> {
    // Let every write already queued settle, so the disk holds all that will ever be acknowledged.
    await Promise.allSettled([...this.inflight, this.closing?.saved, this.cleanup]);
    try {
      await this.deps.store.probeWrite();
      this.reload();
    } catch (e) {
      this.log("debug", "database still refuses writes", { error: e instanceof Error ? e.message : String(e) });
      this.scheduleRecovery();
      return;
    }
    this.log("info", "writes resumed", { height: this.tip.height, minute: this.pl.minute, after: this.failure });
    this.failure = undefined;
  }

  /** Rebuild the in-memory state from the store: last saved block, then the open height's journal. */
  private reload(): void {
    const store = this.deps.store;
    this.closing = undefined;
    this.holding.clear();
    const height = store.savedHeight();
    this.tip = this.loadTip(height);
    this.pl = new ProcessList(height + 1, store.openBlockStartMs());
    this.replay();
  }

  /** Log without letting a failing sink (e.g. a full disk holding the log file) break a ledger path. */
  private log(level: keyof LedgerLog, msg: string, fields?: Record<string, unknown>): void {
    try {
      this.deps.log[level](msg, fields);
    } catch {
      // the log is best effort; the ledger's answer is what matters
    }
  }

  /** Stop the recovery probe and flush; call before closing the store. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.recoveryTimer !== undefined) clearTimeout(this.recoveryTimer);
    this.recoveryTimer = undefined;
    await this.flush().catch(() => {});
  }

  // ───────────────────────────── rules ─────────────────────────────

  /**
   * Apply one message to the state. Throws LedgerError (state unchanged) when a rule rejects it.
   * Returns false when the message needs no journal record (a resubmitted held reveal).
   */
  private apply(msg: LogMessage): boolean {
    switch (msg.kind) {
      case "commit":
        this.applyCommit(msg.commit, msg.timeMs);
        return true;
      case "reveal":
        return this.applyReveal(msg.entryRaw, msg.timeMs);
      case "transaction":
        this.applyTransaction(msg.tx, msg.timeMs);
        return true;
      case "endOfMinute":
        return this.applyEndOfMinute(msg.minute, msg.timeMs);
      case "blockStart":
        if (this.pl.minute !== 0)
          throw new LedgerError({ code: "INVALID", info: "block start after the first minute" });
        this.pl.startMs = msg.timeMs;
        this.pl.minuteStartMs = msg.timeMs;
        return true;
    }
  }

  private applyCommit(commit: Commit, timeMs: number): void {
    checkTimestamp("commit", commit.milliTime, timeMs);
    const range = commit.kind === "chain" ? CHAIN_COMMIT_CREDITS : ENTRY_COMMIT_CREDITS;
    if (commit.credits < range.min || commit.credits > range.max)
      throw new LedgerError({
        code: "INVALID",
        info: `${commit.kind} commit credits must be ${range.min}..${range.max}, got ${commit.credits}`,
      });
    const hash = commit.entryHash;
    const existing = this.livePaidCommit(hash, timeMs);
    if (existing !== undefined && existing.credits >= commit.credits)
      throw new LedgerError({ code: "REPEATED_COMMIT", entryHash: toHex(hash), info: REPEATED_COMMIT_INFO });
    const txId = commitTxId(commit);
    const record: PaidCommit = {
      kind: commit.kind,
      credits: commit.credits,
      revealed: false,
      height: this.pl.height,
      milliTime: commit.milliTime,
      txId,
      chainIdHash: commit.kind === "chain" ? commit.chainIdHash : new Uint8Array(32),
    };
    let held = this.holding.get(hash);
    if (held !== undefined && HoldingQueue.expired(held, timeMs)) held = undefined;
    if (held !== undefined) this.checkPairing(held.entry, held.raw, hash, record);
    const have = this.ecAck(commit.ecPublicKey);
    if (have < BigInt(commit.credits))
      throw new LedgerError({
        code: "EC_BALANCE_LOW",
        ecPublicKey: encodeAddress("EC", commit.ecPublicKey),
        need: commit.credits,
        have: Number(have),
      });

    // accepted: charge, record, and release a reveal that was waiting for it
    this.pl.changeEC(commit.ecPublicKey, -BigInt(commit.credits));
    this.pl.addCommit(commit, txId, commitFullHash(commit), timeMs);
    this.pl.paidCommits.set(toHex(hash), { entryHash: hash, record });
    this.counters.commitsAccepted++;
    if (held !== undefined) {
      this.holding.remove(hash);
      this.acceptReveal(held.entry, held.raw, hash, record, held.arrivalMs);
    }
  }

  private applyReveal(raw: Uint8Array, timeMs: number): boolean {
    const entry = decodeEntry(raw);
    const hash = entryHash(raw);
    const held = this.holding.get(hash);
    if (held !== undefined) {
      if (!HoldingQueue.expired(held, timeMs)) return false; // already waiting: same bytes, same answer
      this.holding.remove(hash);
    }
    const paid = this.livePaidCommit(hash, timeMs);
    if (paid?.revealed === true) throw new LedgerError({ code: "DUPLICATE_ENTRY", entryHash: toHex(hash) });
    if (paid !== undefined) {
      this.checkPairing(entry, raw, hash, paid);
      this.acceptReveal(entry, raw, hash, paid, timeMs);
      return true;
    }
    // No commit yet: hold it, unless no commit could ever make it valid.
    if (!this.chainExists(entry.chainId) && !bytesEqual(chainIdFromExtIds(entry.extIds), entry.chainId))
      throw new LedgerError({ code: "CHAIN_NOT_FOUND", chainId: toHex(entry.chainId) });
    if (this.holding.size >= this.holding.limit)
      throw new LedgerError({ code: "HOLDING_QUEUE_FULL", limit: this.holding.limit });
    this.holding.add({ entryHash: hash, raw, entry, arrivalMs: timeMs });
    this.counters.revealsHeld++;
    return true;
  }

  /**
   * reveal-chain before its commit: refuse what no chain commit could make valid. (With a live unrevealed
   * commit the pairing rules decide in apply.) Not part of the log: accepted messages are unchanged.
   */
  private checkChainReveal(entry: Entry, hash: Uint8Array, timeMs: number): void {
    const paid = this.livePaidCommit(hash, timeMs);
    if (paid !== undefined && !paid.revealed) return;
    const derived = chainIdFromExtIds(entry.extIds);
    if (!bytesEqual(derived, entry.chainId))
      throw new LedgerError({
        code: "CHAIN_ID_MISMATCH",
        chainId: toHex(entry.chainId),
        info: `a chain's first entry must carry the chain ID of its external IDs, ${toHex(derived)}`,
      });
    if (this.chainExists(entry.chainId)) throw new LedgerError({ code: "CHAIN_EXISTS", chainId: toHex(entry.chainId) });
  }

  /** Does commit `paid` pay for revealing `entry`? Throws the rule that fails. */
  private checkPairing(entry: Entry, raw: Uint8Array, hash: Uint8Array, paid: PaidCommit): void {
    const exists = this.chainExists(entry.chainId);
    const chainHex = toHex(entry.chainId);
    let need: number;
    try {
      need = entryCreditCost(raw.length, paid.kind === "chain");
    } catch (e) {
      throw asLedgerError(e);
    }
    if (paid.kind === "chain") {
      const derived = chainIdFromExtIds(entry.extIds);
      if (!bytesEqual(derived, entry.chainId))
        throw new LedgerError({
          code: "CHAIN_ID_MISMATCH",
          chainId: chainHex,
          info: `a chain's first entry must carry the chain ID of its external IDs, ${toHex(derived)}`,
        });
      if (!bytesEqual(sha256d(entry.chainId), paid.chainIdHash))
        throw new LedgerError({
          code: "CHAIN_ID_MISMATCH",
          chainId: chainHex,
          info: "the chain commit pays for a different chain ID",
        });
      if (exists) throw new LedgerError({ code: "CHAIN_EXISTS", chainId: chainHex });
    } else if (!exists) {
      throw new LedgerError({ code: "CHAIN_NOT_FOUND", chainId: chainHex });
    }
    if (paid.credits < need)
      throw new LedgerError({ code: "CREDITS_TOO_LOW", entryHash: toHex(hash), need, paid: paid.credits });
  }

  private acceptReveal(entry: Entry, raw: Uint8Array, hash: Uint8Array, paid: PaidCommit, timeMs: number): void {
    this.pl.paidCommits.set(toHex(hash), { entryHash: hash, record: { ...paid, revealed: true } });
    const r: RevealedEntry = { entryHash: hash, raw, entry, commitTxId: paid.txId, timeMs };
    this.pl.addReveal(r, paid.kind === "chain");
    this.counters.revealsAccepted++;
  }

  private applyTransaction(tx: Transaction, timeMs: number): void {
    checkTimestamp("transaction", tx.milliTimestamp, timeMs);
    const rate = this.tip.exchangeRate;
    checkTransactionShape(tx, rate);
    const txId = transactionId(tx);
    if (this.pl.transactionsByHash.has(toHex(txId)) || this.savedTransactionLocation(txId) !== undefined)
      throw new LedgerError({ code: "DUPLICATE_TRANSACTION", txId: toHex(txId) });
    // An address may appear in several inputs: their sum must be covered (wire-format §4.3 rule 5).
    const spend = new Map<string, { address: Uint8Array; amount: bigint }>();
    for (const i of tx.inputs) {
      const k = toHex(i.address);
      const s = spend.get(k);
      if (s === undefined) spend.set(k, { address: i.address, amount: i.amount });
      else s.amount += i.amount;
    }
    for (const s of spend.values()) {
      const have = this.assetAck(s.address);
      if (have < s.amount)
        throw new LedgerError({
          code: "ASSET_BALANCE_LOW",
          address: encodeAddress("FA", s.address),
          need: s.amount,
          have,
        });
    }
    for (const i of tx.inputs) this.pl.changeAsset(i.address, -i.amount);
    for (const o of tx.outputs) this.pl.changeAsset(o.address, o.amount);
    // EC purchases: floor(amount / rate) entry credits; the remainder is burned (wire-format §4.3 rule 6).
    for (const o of tx.ecOutputs) this.pl.changeEC(o.address, rate > 0n ? o.amount / rate : 0n);
    this.pl.addTransaction({ tx, txId, fullHash: transactionFullHash(tx), timeMs });
    this.counters.transactionsAccepted++;
  }

  private applyEndOfMinute(minute: number, timeMs: number): boolean {
    if (minute !== this.pl.minute)
      throw new LedgerError({
        code: "INVALID",
        info: `end of minute ${minute + 1} out of order: the open block is in minute ${this.pl.minute + 1}`,
      });
    this.counters.revealsExpired += this.holding.sweep(timeMs);
    this.pl.endMinute(timeMs);
    if (minute < MINUTES_PER_BLOCK - 1) return true;
    try {
      this.closeOpenBlock(timeMs);
    } catch (e) {
      // A bug, not a user error: stop writing rather than continue on a half-closed block.
      this.fail(`closing block ${this.pl.height} failed: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    }
    return true;
  }

  /**
   * Close the open block at `timeMs` (end of minute 10): build every block, queue their save as one LMDB
   * transaction, and open the next height at once. Until the save commits, readers see the closed block
   * through `closing`.
   */
  private closeOpenBlock(timeMs: number): void {
    const started = performance.now();
    const cpu = process.cpuUsage();
    // carried into the next height's journal as its first records, sequences 0…
    const carry = this.holding.list().map((h, i) => ({
      seq: i,
      bytes: encodeMessage({ kind: "reveal", timeMs: h.arrivalMs, entryRaw: h.raw }),
    }));
    const closed = closeBlock(this.pl, {
      tip: this.tip,
      signer: this.signer(),
      networkId: this.networkIdValue,
      chainHead: (id) => this.savedChainHead(id),
      assetBalance: (a) => this.savedAssetBalance(a),
      ecBalance: (k) => this.savedECBalance(k),
      nextStartMs: timeMs,
      journalCarry: carry,
    });
    // Replaying the journal (start, recovery) saves at once: the next height's records build on this block.
    const saved = this.replaying ? this.saveNow(closed.write) : this.saveClosed(closed.write);
    const closing = this.closingOf(this.pl, closed, saved);
    this.closing = closing;
    const confirmed = this.pl;
    saved.then(
      () => {
        if (this.closing === closing) this.closing = undefined;
        // the block holds these messages now; a removal lost in a crash is redone at the next start
        this.cleanup = this.cleanup
          .then(() => this.deps.store.removeJournalRecords(confirmed.height, confirmed.journalSeqs))
          .catch((e: unknown) =>
            this.log("warn", "journal cleanup failed", { error: e instanceof Error ? e.message : String(e) }),
          );
      },
      (e: unknown) =>
        this.fail(`saving block ${closed.tip.height} failed: ${e instanceof Error ? e.message : String(e)}`),
    );
    this.tip = closed.tip;
    this.pl = new ProcessList(closed.tip.height + 1, timeMs);
    for (const c of carry) this.pl.journalSeqs.push(c.seq);
    this.pl.nextSeq = carry.length;
    this.counters.blocksClosed++;
    this.counters.lastCloseMs = performance.now() - started;
    this.counters.lastCloseBuildMs = this.counters.lastCloseMs;
    this.counters.lastCloseLongestTurnMs = this.counters.lastCloseMs;
    const used = process.cpuUsage(cpu);
    this.counters.lastCloseCpuMs = (used.user + used.system) / 1000;
    this.log("debug", "block closed", {
      height: closed.tip.height,
      keymr: toHex(closed.tip.directoryKeyMR),
      entryBlocks: closed.directory.entries.length - 3,
      closeMs: Math.round(this.counters.lastCloseMs),
    });
  }

  /**
   * Save a closed block set: pack its records one event-loop turn after the build, so requests that
   * arrived during the build are answered in between and none waits for the build and the packing
   * together (docs/performance.md, block close); the writer thread then applies them.
   */
  /** Save synchronously (replay); a failure throws ReplaySaveError, which ends the replay. */
  private saveNow(write: BlockSetWrite): Promise<void> {
    try {
      this.deps.store.saveBlockSet(write);
    } catch (e) {
      throw new ReplaySaveError(write.height, e);
    }
    return Promise.resolve();
  }

  private async saveClosed(write: BlockSetWrite): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const packed = await this.deps.store.packBlockSet(write);
    this.counters.lastCloseSaveMs = packed.busyMs;
    this.counters.lastCloseMs += packed.busyMs;
    this.counters.lastCloseLongestTurnMs = Math.max(this.counters.lastCloseLongestTurnMs, packed.longestTurnMs);
    this.counters.lastCloseWriteMs = await this.deps.store.savePacked(packed);
  }

  private closingOf(pl: ProcessList, closed: ClosedBlockSet, saved: Promise<void>): Closing {
    const w = closed.write;
    const blocks = new Map<string, { kind: BlockKind; raw: Uint8Array; primary: Uint8Array }>();
    const heights = new Map<string, Uint8Array>();
    for (const b of w.blocks) {
      const v = { kind: b.kind, raw: b.raw, primary: b.primary };
      blocks.set(toHex(b.primary), v);
      if (b.secondary !== undefined) blocks.set(toHex(b.secondary), v);
      if (b.height !== undefined) heights.set(`${b.kind}/${b.height}`, b.primary);
    }
    const coinbase = closed.write.transactions[0]!.keys[0]!;
    return {
      pl,
      closed,
      blocks,
      heights,
      chainHeads: new Map(w.chainHeads.map((h) => [toHex(h.chainId), h.head])),
      assetBalances: new Map(w.assetBalances.map((a) => [toHex(a.address), a.balance])),
      ecBalances: new Map(w.ecBalances.map((a) => [toHex(a.publicKey), a.balance])),
      coinbaseTxId: toHex(coinbase),
      // its rejection is handled by the `then` in close(); waiters see it through this promise
      saved,
    };
  }

  // ── saved state: the block being saved first, then the store ──

  private savedPaidCommit(hash: Uint8Array): PaidCommit | undefined {
    return this.closing?.pl.paidCommits.get(toHex(hash))?.record ?? this.deps.store.paidCommit(hash);
  }
  private savedChainHead(chainId: Uint8Array): ChainHead | undefined {
    return this.closing?.chainHeads.get(toHex(chainId)) ?? this.deps.store.chainHead(chainId);
  }
  private savedAssetBalance(address: Uint8Array): bigint | undefined {
    return this.closing?.assetBalances.get(toHex(address)) ?? this.deps.store.assetBalance(address);
  }
  private savedECBalance(publicKey: Uint8Array): bigint | undefined {
    return this.closing?.ecBalances.get(toHex(publicKey)) ?? this.deps.store.ecBalance(publicKey);
  }
  private savedTransactionLocation(hash: Uint8Array): TransactionLocation | undefined {
    const c = this.closing;
    if (c !== undefined) {
      const hex = toHex(hash);
      const t = c.pl.transactionsByHash.get(hex);
      const index = t !== undefined ? t.blockIndex : hex === c.coinbaseTxId ? 0 : undefined;
      if (index !== undefined) return { assetBlockKeyMR: c.closed.tip.assetKeyMR, height: c.pl.height, index };
    }
    return this.deps.store.transactionLocation(hash);
  }
  private savedCommitLocation(hash: Uint8Array): CommitLocation | undefined {
    const c = this.closing;
    const p = c?.pl.commitsByHash.get(toHex(hash));
    if (c !== undefined && p !== undefined)
      return { ecBlockHeaderHash: c.closed.tip.ecHeaderHash, height: c.pl.height, index: p.ecIndex };
    return this.deps.store.commitLocation(hash);
  }
  private savedEntryLocation(hash: Uint8Array): EntryLocation | undefined {
    const c = this.closing;
    const r = c?.pl.revealsByHash.get(toHex(hash));
    if (c !== undefined && r !== undefined)
      return { entryBlockKeyMR: r.block!.keyMR!, height: c.pl.height, commitTxId: r.commitTxId };
    return this.deps.store.entryLocation(hash);
  }
  private savedEntryRaw(hash: Uint8Array): Uint8Array | undefined {
    return this.closing?.pl.revealsByHash.get(toHex(hash))?.raw ?? this.deps.store.entryRaw(hash);
  }
  private savedBlock(hash: Uint8Array): { kind: BlockKind; raw: Uint8Array; primary: Uint8Array } | undefined {
    return this.closing?.blocks.get(toHex(hash)) ?? this.deps.store.block(hash);
  }
  private savedBlockHashAt(kind: BlockKind, height: number): Uint8Array | undefined {
    return this.closing?.heights.get(`${kind}/${height}`) ?? this.deps.store.blockHashAt(kind, height);
  }

  private signer(): BlockSigner {
    if (this.signerCache === undefined) {
      const seed = fromHex(LOCAL_BOOTSTRAP_SEED_HEX, "LOCAL_BOOTSTRAP_SEED_HEX", 32);
      this.signerCache = {
        seed,
        publicKey: publicKeyFromSeed(seed),
        identityChainId: fromHex(LOCAL_BOOTSTRAP_IDENTITY_HEX, "LOCAL_BOOTSTRAP_IDENTITY_HEX", 32),
      };
    }
    return this.signerCache;
  }

  // ───────────────────────────── state helpers ─────────────────────────────

  /** The latest commit paid for `hash` if it is still live at `nowMs` (COMMIT_LIFETIME_MS after its timestamp). */
  private livePaidCommit(hash: Uint8Array, nowMs: number): PaidCommit | undefined {
    const rec = this.pl.paidCommits.get(toHex(hash))?.record ?? this.savedPaidCommit(hash);
    if (rec === undefined || nowMs - rec.milliTime > COMMIT_LIFETIME_MS) return undefined;
    return rec;
  }

  private chainExists(chainId: Uint8Array): boolean {
    return this.pl.newChains.has(toHex(chainId)) || this.savedChainHead(chainId) !== undefined;
  }

  private ecAck(publicKey: Uint8Array): bigint {
    return (this.savedECBalance(publicKey) ?? 0n) + (this.pl.ecDelta.get(toHex(publicKey))?.delta ?? 0n);
  }

  private assetAck(address: Uint8Array): bigint {
    return (this.savedAssetBalance(address) ?? 0n) + (this.pl.assetDelta.get(toHex(address))?.delta ?? 0n);
  }

  // ───────────────────────────── node state ─────────────────────────────

  heights(): Heights {
    const saved = this.tip.height;
    return { directoryBlockHeight: saved, leaderHeight: saved + 1, entryBlockHeight: saved, entryHeight: saved };
  }

  currentMinute(): MinuteInfo {
    const nowMs = this.now();
    const minuteMs = (this.options.blockTimeSeconds * 1000) / MINUTES_PER_BLOCK;
    return {
      leaderHeight: this.pl.height,
      directoryBlockHeight: this.tip.height,
      minute: this.pl.minute,
      currentBlockStartTimeNs: BigInt(this.pl.startMs) * 1_000_000n,
      currentMinuteStartTimeNs: BigInt(this.pl.minuteStartMs) * 1_000_000n,
      currentTimeNs: BigInt(nowMs) * 1_000_000n,
      directoryBlockInSeconds: this.options.blockTimeSeconds,
      stallDetected: this.producing && nowMs - this.pl.minuteStartMs > STALL_FACTOR * minuteMs,
      faultTimeoutSeconds: FAULT_TIMEOUT_SECONDS,
      roundTimeoutSeconds: ROUND_TIMEOUT_SECONDS,
    };
  }

  entryCreditRate(): bigint {
    return this.tip.exchangeRate;
  }

  isBooted(): boolean {
    return this.booted;
  }

  /** True on networks this node produces blocks for (LOCAL, CUSTOM). */
  isProducing(): boolean {
    return this.producing;
  }

  /** Height and minute of the open block (for the clock and logs). */
  openBlock(): { height: number; minute: number; startMs: number; minuteStartMs: number } {
    return {
      height: this.pl.height,
      minute: this.pl.minute,
      startMs: this.pl.startMs,
      minuteStartMs: this.pl.minuteStartMs,
    };
  }

  // ───────────────────────────── blocks ─────────────────────────────

  private stored<B>(
    hash: Uint8Array | undefined,
    kind: BlockKind,
    decode: (raw: Uint8Array) => B,
    cache?: DecodedBlockCache<B>,
  ): Stored<B> | undefined {
    if (hash === undefined || hash.length !== 32) return undefined;
    // Existence is always checked first, so the cache never answers for a block that is not saved.
    const b = this.savedBlock(hash);
    if (b === undefined || b.kind !== kind) return undefined;
    const block = cache === undefined ? decode(b.raw) : cache.get(toHex(b.primary), b.raw, decode);
    return { block, raw: b.raw };
  }

  directoryBlockHead(): Stored<DirectoryBlock> {
    return this.directoryBlockByHeight(this.tip.height)!;
  }
  directoryBlockByHeight(height: number): Stored<DirectoryBlock> | undefined {
    return this.stored(
      this.savedBlockHashAt(BlockKind.directory, height),
      BlockKind.directory,
      decodeDirectoryBlock,
      this.directoryBlockCache,
    );
  }
  directoryBlockByHash(hash: Uint8Array): Stored<DirectoryBlock> | undefined {
    return this.stored(hash, BlockKind.directory, decodeDirectoryBlock, this.directoryBlockCache);
  }
  adminBlockByHeight(height: number): Stored<AdminBlock> | undefined {
    return this.stored(this.savedBlockHashAt(BlockKind.admin, height), BlockKind.admin, decodeAdminBlock);
  }
  adminBlockByHash(hash: Uint8Array): Stored<AdminBlock> | undefined {
    return this.stored(hash, BlockKind.admin, decodeAdminBlock);
  }
  ecBlockByHeight(height: number): Stored<ECBlock> | undefined {
    return this.stored(this.savedBlockHashAt(BlockKind.ec, height), BlockKind.ec, decodeECBlock, this.ecBlockCache);
  }
  ecBlockByHash(hash: Uint8Array): Stored<ECBlock> | undefined {
    return this.stored(hash, BlockKind.ec, decodeECBlock, this.ecBlockCache);
  }
  assetBlockByHeight(height: number): Stored<AssetBlock> | undefined {
    return this.stored(this.savedBlockHashAt(BlockKind.asset, height), BlockKind.asset, decodeAssetBlock);
  }
  assetBlockByHash(hash: Uint8Array): Stored<AssetBlock> | undefined {
    return this.stored(hash, BlockKind.asset, decodeAssetBlock);
  }
  entryBlockByHash(hash: Uint8Array): Stored<EntryBlock> | undefined {
    return this.stored(hash, BlockKind.entry, (raw) => decodeEntryBlock(raw));
  }

  /** Location of something saved in `blockKeyMR` at directory block `height`. */
  private location(blockKeyMR: Uint8Array, height: number): ItemLocation | undefined {
    const d = this.directoryBlockByHeight(height);
    if (d === undefined) return undefined;
    const hash = this.savedBlockHashAt(BlockKind.directory, height)!;
    return {
      blockKeyMR,
      directoryBlockKeyMR: hash,
      directoryBlockHeight: height,
      blockTimeMs: d.block.timestamp * MS_PER_TIMESTAMP_MINUTE,
    };
  }

  // ───────────────────────────── entries, chains, transactions ─────────────────────────────

  entry(hash: Uint8Array): { entry: Entry; raw: Uint8Array; location?: ItemLocation } | undefined {
    if (hash.length !== 32) return undefined;
    const pending = this.pl.revealsByHash.get(toHex(hash));
    const loc = this.savedEntryLocation(hash);
    if (loc !== undefined) {
      const raw = this.savedEntryRaw(hash);
      if (raw !== undefined) {
        const location = this.location(loc.entryBlockKeyMR, loc.height);
        return { entry: unmarshalEntry(raw), raw, ...(location ? { location } : {}) };
      }
    }
    if (pending !== undefined) return { entry: pending.entry, raw: pending.raw };
    return undefined;
  }

  chainHead(chainId: Uint8Array): { head: Uint8Array | undefined; inProcessList: boolean } {
    if (chainId.length !== 32) return { head: undefined, inProcessList: false };
    return {
      head: this.savedChainHead(chainId)?.keyMR,
      inProcessList: this.pl.entryBlocks.has(toHex(chainId)),
    };
  }

  transaction(hash: Uint8Array): { tx: Transaction; location?: ItemLocation } | undefined {
    if (hash.length !== 32) return undefined;
    const pending = this.pl.transactionsByHash.get(toHex(hash));
    if (pending !== undefined) return { tx: pending.tx };
    const loc = this.savedTransactionLocation(hash);
    if (loc === undefined) return undefined;
    const block = this.assetBlockByHash(loc.assetBlockKeyMR);
    const tx = block && assetBlockTransactions(block.block)[loc.index];
    if (tx === undefined) return undefined;
    const location = this.location(loc.assetBlockKeyMR, loc.height);
    return { tx, ...(location ? { location } : {}) };
  }

  commit(hash: Uint8Array): { commit: Commit; location?: ItemLocation } | undefined {
    if (hash.length !== 32) return undefined;
    const pending = this.pl.commitsByHash.get(toHex(hash));
    if (pending !== undefined) return { commit: pending.commit };
    const saved = this.savedCommit(hash);
    if (saved === undefined) return undefined;
    return { commit: saved.commit, ...(saved.location ? { location: saved.location } : {}) };
  }

  private savedCommit(hash: Uint8Array): { commit: Commit; location: ItemLocation | undefined } | undefined {
    const loc = this.savedCommitLocation(hash);
    if (loc === undefined) return undefined;
    const block = this.ecBlockByHash(loc.ecBlockHeaderHash);
    const item = block?.block.items[loc.index];
    if (item === undefined || (item.type !== "entryCommit" && item.type !== "chainCommit")) return undefined;
    return { commit: item.commit, location: this.location(loc.ecBlockHeaderHash, loc.height) };
  }

  receipt(hash: Uint8Array): Receipt | undefined {
    if (hash.length !== 32) return undefined;
    const loc = this.savedEntryLocation(hash);
    if (loc === undefined) return undefined;
    const eblock = this.entryBlockByHash(loc.entryBlockKeyMR);
    const dblock = this.directoryBlockByHeight(loc.height);
    if (eblock === undefined || dblock === undefined) return undefined;
    return buildReceipt(hash, eblock.block, dblock.block);
  }

  // ───────────────────────────── balances ─────────────────────────────

  ecBalance(publicKey: Uint8Array): Balance {
    const saved = this.savedECBalance(publicKey);
    const delta = this.pl.ecDelta.get(toHex(publicKey));
    return {
      saved: saved ?? 0n,
      ack: (saved ?? 0n) + (delta?.delta ?? 0n),
      seen: saved !== undefined || delta !== undefined,
    };
  }

  assetBalance(rcdHash: Uint8Array): Balance {
    const saved = this.savedAssetBalance(rcdHash);
    const delta = this.pl.assetDelta.get(toHex(rcdHash));
    return {
      saved: saved ?? 0n,
      ack: (saved ?? 0n) + (delta?.delta ?? 0n),
      seen: saved !== undefined || delta !== undefined,
    };
  }

  // ───────────────────────────── acks and pending ─────────────────────────────

  commitAck(hash: Uint8Array): CommitAck {
    if (hash.length !== 32) return { status: AckStatus.Unknown };
    const pending = this.pl.commitsByHash.get(toHex(hash));
    if (pending !== undefined)
      return {
        status: AckStatus.TransactionACK,
        transactionTimeMs: pending.commit.milliTime,
        commit: pending.commit,
        txId: pending.txId,
      };
    const saved = this.savedCommit(hash);
    if (saved === undefined) return { status: AckStatus.Unknown };
    return {
      status: AckStatus.DBlockConfirmed,
      transactionTimeMs: saved.commit.milliTime,
      ...(saved.location ? { blockTimeMs: saved.location.blockTimeMs } : {}),
      commit: saved.commit,
      txId: commitTxId(saved.commit),
    };
  }

  entryAck(hash: Uint8Array): { commit: CommitAck; entry: EntryAck } {
    if (hash.length !== 32)
      return { commit: { status: AckStatus.Unknown }, entry: { status: AckStatus.Unknown, entryHash: hash } };
    let entry: EntryAck;
    let commitTxIdOfEntry: Uint8Array | undefined;
    const loc = this.savedEntryLocation(hash);
    const pending = this.pl.revealsByHash.get(toHex(hash));
    const held = this.holding.get(hash);
    if (pending !== undefined) {
      entry = {
        status: AckStatus.TransactionACK,
        blockTimeMs: pending.timeMs,
        entryHash: hash,
        chainId: pending.entry.chainId,
      };
      commitTxIdOfEntry = pending.commitTxId;
    } else if (loc !== undefined) {
      const location = this.location(loc.entryBlockKeyMR, loc.height);
      const raw = this.savedEntryRaw(hash);
      entry = {
        status: AckStatus.DBlockConfirmed,
        ...(location ? { blockTimeMs: location.blockTimeMs } : {}),
        entryHash: hash,
        ...(raw ? { chainId: raw.slice(1, 33) } : {}),
      };
      commitTxIdOfEntry = loc.commitTxId;
    } else if (held !== undefined) {
      entry = {
        status: AckStatus.NotConfirmed,
        blockTimeMs: held.arrivalMs,
        entryHash: hash,
        chainId: held.entry.chainId,
      };
    } else {
      entry = { status: AckStatus.Unknown, entryHash: hash };
    }
    // A newer (unrevealed, greater) commit counts over the one that paid an earlier reveal.
    const paid = this.pl.paidCommits.get(toHex(hash))?.record ?? this.savedPaidCommit(hash);
    const txId = paid !== undefined && !paid.revealed ? paid.txId : (commitTxIdOfEntry ?? paid?.txId);
    const commit = txId === undefined ? { status: AckStatus.Unknown } : this.commitAck(txId);
    return { commit, entry };
  }

  transactionAck(hash: Uint8Array): TransactionAck {
    if (hash.length !== 32) return { status: AckStatus.Unknown, txId: hash };
    const pending = this.pl.transactionsByHash.get(toHex(hash));
    if (pending !== undefined)
      return { status: AckStatus.TransactionACK, transactionTimeMs: pending.tx.milliTimestamp, txId: pending.txId };
    const saved = this.transaction(hash);
    if (saved === undefined) return { status: AckStatus.Unknown, txId: hash };
    return {
      status: AckStatus.DBlockConfirmed,
      transactionTimeMs: saved.tx.milliTimestamp,
      ...(saved.location ? { blockTimeMs: saved.location.blockTimeMs } : {}),
      txId: transactionId(saved.tx),
    };
  }

  pendingEntries(): PendingEntry[] {
    const out = new Map<string, PendingEntry>();
    for (const c of this.pl.commits) {
      const k = toHex(c.commit.entryHash);
      if (!out.has(k))
        out.set(k, {
          entryHash: c.commit.entryHash,
          chainId: this.pl.revealsByHash.get(k)?.entry.chainId,
          status: AckStatus.TransactionACK,
        });
    }
    for (const r of this.pl.reveals) {
      const k = toHex(r.entryHash);
      const have = out.get(k);
      if (have === undefined)
        out.set(k, { entryHash: r.entryHash, chainId: r.entry.chainId, status: AckStatus.TransactionACK });
      else have.chainId ??= r.entry.chainId;
    }
    for (const h of this.holding.list()) {
      const k = toHex(h.entryHash);
      if (!out.has(k)) out.set(k, { entryHash: h.entryHash, chainId: h.entry.chainId, status: AckStatus.NotConfirmed });
    }
    return [...out.values()];
  }

  pendingTransactions(rcdHash?: Uint8Array): PendingTransaction[] {
    const rate = this.tip.exchangeRate;
    const out: PendingTransaction[] = [];
    if (rcdHash === undefined) {
      // The reference lists the open block's coinbase first (api-behavior §9.1).
      const coinbase = emptyCoinbase(this.pl.startMs);
      out.push({
        transaction: coinbase,
        txId: transactionId(coinbase),
        status: AckStatus.TransactionACK,
        feeBaseUnits: 0n,
      });
    }
    for (const t of this.pl.transactions) {
      const tx = t.tx;
      if (
        rcdHash !== undefined &&
        ![...tx.inputs, ...tx.outputs, ...tx.ecOutputs].some((io) => bytesEqual(io.address, rcdHash))
      )
        continue;
      out.push({
        transaction: tx,
        txId: t.txId,
        status: AckStatus.TransactionACK,
        feeBaseUnits: BigInt(transactionFeeEC(tx)) * rate,
      });
    }
    return out;
  }

  // ───────────────────────────── debug ─────────────────────────────

  holdingQueue(): HeldMessage[] {
    return this.holding.list().map((h) => ({
      kind: "reveal",
      hash: h.entryHash,
      receivedMs: h.arrivalMs,
      expiresMs: h.arrivalMs + HOLD_EXPIRY_MS,
    }));
  }

  /** Shape documented in docs/ledger.md §Process list. */
  processList(): Record<string, unknown> {
    const pl = this.pl;
    return {
      dbheight: pl.height,
      minute: pl.minute,
      blockstartms: pl.startMs,
      minutestartms: pl.minuteStartMs,
      commits: pl.commits.map((c) => ({
        txid: toHex(c.txId),
        entryhash: toHex(c.commit.entryHash),
        credits: c.commit.credits,
        kind: c.commit.kind,
      })),
      entries: pl.reveals.map((r) => ({ entryhash: toHex(r.entryHash), chainid: toHex(r.entry.chainId) })),
      transactions: pl.transactions.map((t) => ({ txid: toHex(t.txId) })),
      entryblocks: [...pl.entryBlocks.values()].map((eb) => ({
        chainid: toHex(eb.chainId),
        items: eb.items.length,
        newchain: eb.newChain,
      })),
      held: this.holding.size,
    };
  }

  federatedServers(): { chainId: Uint8Array; name: string; online: boolean }[] {
    if (!this.producing) return [];
    return [{ chainId: fromHex(LOCAL_BOOTSTRAP_IDENTITY_HEX, "identity", 32), name: "", online: true }];
  }

  journalMessages(): string[] {
    if (this.options.journaling !== true) return [];
    const height = this.pl.height;
    return this.deps.store.journalRecords(height).map((r) => {
      try {
        return describeMessage(decodeMessage(r.bytes), height, r.seq);
      } catch (e) {
        return JSON.stringify({ height, seq: r.seq, error: String(e) });
      }
    });
  }

  stats(): Record<string, number> {
    return { ...this.counters, held: this.holding.size, height: this.tip.height, minute: this.pl.minute };
  }
}

// ───────────────────────────── stateless helpers ─────────────────────────────

/** |timestampMs − nowMs| must be within TIMESTAMP_WINDOW_MS (both ms since epoch). */
function checkTimestamp(what: string, timestampMs: number, nowMs: number): void {
  if (Math.abs(timestampMs - nowMs) > TIMESTAMP_WINDOW_MS)
    throw new LedgerError({ code: "TIMESTAMP_OUT_OF_WINDOW", what, timestampMs, nowMs, windowMs: TIMESTAMP_WINDOW_MS });
}

/**
 * Stateless transaction rules at `rate` base units per EC: structure (validateTransaction without the
 * fee) → INVALID naming the rule; then inputs ≥ outputs + EC outputs + fee → INSUFFICIENT_FEE.
 */
function checkTransactionShape(tx: Transaction, rate: bigint): void {
  try {
    validateTransaction(tx, 0n);
  } catch (e) {
    throw asLedgerError(e);
  }
  const sum = (l: readonly { amount: bigint }[]): bigint => l.reduce((a, io) => a + io.amount, 0n);
  const surplus = sum(tx.inputs) - sum(tx.outputs) - sum(tx.ecOutputs);
  const fee = BigInt(transactionFeeEC(tx)) * rate;
  if (surplus < fee) throw new LedgerError({ code: "INSUFFICIENT_FEE", need: fee, have: surplus });
}

function decodeEntry(raw: Uint8Array): Entry {
  try {
    return unmarshalEntry(raw);
  } catch (e) {
    throw asLedgerError(e);
  }
}

/** A ProtocolError met inside a ledger rule becomes LedgerError INVALID with its message. */
function asLedgerError(e: unknown): unknown {
  if (e instanceof ProtocolError)
    return new LedgerError({ code: "INVALID", info: e.message } satisfies LedgerErrorType);
  return e;
}
