/**
 * The ledger's read side as one API: `LedgerReader` answers every read of LedgerApi and LedgerDebugApi
 * over a LedgerView (state.ts) — blocks, entries, transactions, receipts, balances and acks through
 * queries.ts, the node's minute and open block, the /debug views (debugViews.ts) and the reads a cluster
 * node's federation needs. It writes nothing: the writer (ledger.ts `Ledger`) extends it, and a node that
 * only replays the log (a follower) can serve the same reads over its own state.
 */
import type { AdminBlock, AdminEntry } from "../protocol/ablock.js";
import type { Commit } from "../protocol/commit.js";
import type { DirectoryBlock } from "../protocol/dblock.js";
import type { EntryBlock } from "../protocol/eblock.js";
import type { ECBlock } from "../protocol/ecblock.js";
import type { Entry } from "../protocol/entry.js";
import type { AssetBlock } from "../protocol/fblock.js";
import type { Receipt } from "../protocol/receipt.js";
import type { Transaction } from "../protocol/transaction.js";
import type { LedgerStore } from "../store/store.js";
import {
  AckStatus,
  type Balance,
  type CommitAck,
  type EntryAck,
  type Heights,
  type HeldMessage,
  type ItemLocation,
  type LedgerDebugApi,
  type MinuteInfo,
  type PendingEntry,
  type PendingTransaction,
  type ProcessListSnapshot,
  type Stored,
  type TransactionAck,
} from "./api.js";
import type { BlockSigner } from "./blockBuilder.js";
import { FAULT_TIMEOUT_SECONDS, MINUTES_PER_BLOCK, ROUND_TIMEOUT_SECONDS, STALL_FACTOR } from "./constants.js";
import { federatedServers, heldMessages, journalLines, processListSnapshot, stats } from "./debugViews.js";
import type { LedgerOptions, ReplicatedWrites } from "./options.js";
import { LedgerQueries, type LedgerReads } from "./queries.js";
import type { LedgerView } from "./state.js";

/** What the read side reads: the state, the store, the options, and whether (and as whom) this node produces. */
export interface ReaderParts {
  view: LedgerView;
  store: LedgerStore;
  options: LedgerOptions;
  /** wall clock, ms since epoch: answers `current-minute` */
  now: () => number;
  /** true on networks this node produces blocks for (LOCAL, CUSTOM) */
  producing: boolean;
  /** signs the blocks this node produces */
  signer: BlockSigner;
  /** a cluster node's replicated log: what it accepted and has not yet applied acks as NotConfirmed */
  replicated?: ReplicatedWrites;
}

export class LedgerReader implements LedgerReads, LedgerDebugApi {
  protected readonly view: LedgerView;
  protected readonly options: LedgerOptions;
  protected readonly now: () => number;
  protected readonly producing: boolean;
  /** signs the blocks this node produces */
  protected readonly signer: BlockSigner;
  /** blocks, entries, transactions, receipts, balances, acks over `view` */
  protected readonly queries: LedgerQueries;
  private readonly store: LedgerStore;
  private readonly replicated: ReplicatedWrites | undefined;

  constructor(parts: ReaderParts) {
    this.view = parts.view;
    this.store = parts.store;
    this.options = parts.options;
    this.now = parts.now;
    this.producing = parts.producing;
    this.signer = parts.signer;
    this.replicated = parts.replicated;
    this.queries = new LedgerQueries(parts.view);
  }

  // ───────────────────────────── node state ─────────────────────────────

  currentMinute(): MinuteInfo {
    const nowMs = this.now();
    const minuteMs = (this.options.blockTimeSeconds * 1000) / MINUTES_PER_BLOCK;
    return {
      leaderHeight: this.view.pl.height,
      directoryBlockHeight: this.view.tip.height,
      // 10 only for the moment a close's marker is being made durable (close.ts PreClose): the block is still open
      minute: Math.min(this.view.pl.minute, MINUTES_PER_BLOCK - 1),
      currentBlockStartTimeNs: BigInt(this.view.pl.startMs) * 1_000_000n,
      currentMinuteStartTimeNs: BigInt(this.view.pl.minuteStartMs) * 1_000_000n,
      currentTimeNs: BigInt(nowMs) * 1_000_000n,
      directoryBlockInSeconds: this.options.blockTimeSeconds,
      stallDetected: this.producing && nowMs - this.view.pl.minuteStartMs > STALL_FACTOR * minuteMs,
      faultTimeoutSeconds: this.options.faultTimeoutSeconds ?? FAULT_TIMEOUT_SECONDS,
      roundTimeoutSeconds: this.options.roundTimeoutSeconds ?? ROUND_TIMEOUT_SECONDS,
    };
  }

  /** True on networks this node produces blocks for (LOCAL, CUSTOM). */
  isProducing(): boolean {
    return this.producing;
  }

  /** Height and minute of the open block (for the clock and logs). */
  openBlock(): { height: number; minute: number; startMs: number; minuteStartMs: number } {
    return {
      height: this.view.pl.height,
      minute: this.view.pl.minute,
      startMs: this.view.pl.startMs,
      minuteStartMs: this.view.pl.minuteStartMs,
    };
  }

  // ───────────────────────────── cluster reads (cluster/federation.ts) ─────────────────────────────

  /** Directory block h−1: what the federated servers sign for the open height h. */
  lastDirectoryBlock(): DirectoryBlock {
    return this.view.tip.directory;
  }

  /** Admin entries of the saved admin block of `height` ([] when there is none). */
  adminEntries(height: number): readonly AdminEntry[] {
    return this.queries.adminBlockByHeight(height)?.block.entries ?? [];
  }

  /** Stream sequence recorded with the last saved block (0 when none). */
  savedLogSequence(): number {
    return this.store.logSequence();
  }

  // ───────────────────────────── reads (queries.ts) ─────────────────────────────

  heights(): Heights {
    return this.queries.heights();
  }
  entryCreditRate(): bigint {
    return this.queries.entryCreditRate();
  }
  directoryBlockHead(): Stored<DirectoryBlock> {
    return this.queries.directoryBlockHead();
  }
  directoryBlockByHeight(height: number): Stored<DirectoryBlock> | undefined {
    return this.queries.directoryBlockByHeight(height);
  }
  directoryBlockByHash(hash: Uint8Array): Stored<DirectoryBlock> | undefined {
    return this.queries.directoryBlockByHash(hash);
  }
  adminBlockByHeight(height: number): Stored<AdminBlock> | undefined {
    return this.queries.adminBlockByHeight(height);
  }
  adminBlockByHash(hash: Uint8Array): Stored<AdminBlock> | undefined {
    return this.queries.adminBlockByHash(hash);
  }
  ecBlockByHeight(height: number): Stored<ECBlock> | undefined {
    return this.queries.ecBlockByHeight(height);
  }
  ecBlockByHash(hash: Uint8Array): Stored<ECBlock> | undefined {
    return this.queries.ecBlockByHash(hash);
  }
  assetBlockByHeight(height: number): Stored<AssetBlock> | undefined {
    return this.queries.assetBlockByHeight(height);
  }
  assetBlockByHash(hash: Uint8Array): Stored<AssetBlock> | undefined {
    return this.queries.assetBlockByHash(hash);
  }
  entryBlockByHash(hash: Uint8Array): Stored<EntryBlock> | undefined {
    return this.queries.entryBlockByHash(hash);
  }
  entryBlockBytes(hash: Uint8Array): { raw: Uint8Array; committed: boolean } | undefined {
    return this.queries.entryBlockBytes(hash);
  }
  entry(hash: Uint8Array): { entry: Entry; raw: Uint8Array; location?: ItemLocation; committed?: boolean } | undefined {
    return this.queries.entry(hash);
  }
  chainHead(chainId: Uint8Array, hex?: string): { head: Uint8Array | undefined; inProcessList: boolean } {
    return this.queries.chainHead(chainId, hex);
  }
  transaction(hash: Uint8Array): { tx: Transaction; location?: ItemLocation } | undefined {
    return this.queries.transaction(hash);
  }
  commit(hash: Uint8Array): { commit: Commit; location?: ItemLocation } | undefined {
    return this.queries.commit(hash);
  }
  receipt(hash: Uint8Array): Receipt | undefined {
    return this.queries.receipt(hash);
  }
  ecBalance(publicKey: Uint8Array, hex?: string): Balance {
    return this.queries.ecBalance(publicKey, hex);
  }
  assetBalance(rcdHash: Uint8Array, hex?: string): Balance {
    return this.queries.assetBalance(rcdHash, hex);
  }
  // A cluster node answers NotConfirmed (spec §3) for what it accepted and the replicated log has not yet
  // delivered back (e.g. while the cluster has no quorum); the single node never has such messages.
  commitAck(hash: Uint8Array): CommitAck {
    const a = this.queries.commitAck(hash);
    return this.pendingInLog(a.status, hash) ? { ...a, status: AckStatus.NotConfirmed } : a;
  }
  entryAck(hash: Uint8Array): { commit: CommitAck; entry: EntryAck } {
    const a = this.queries.entryAck(hash);
    return this.pendingInLog(a.entry.status, hash)
      ? { ...a, entry: { ...a.entry, status: AckStatus.NotConfirmed } }
      : a;
  }
  transactionAck(hash: Uint8Array): TransactionAck {
    const a = this.queries.transactionAck(hash);
    return this.pendingInLog(a.status, hash) ? { ...a, status: AckStatus.NotConfirmed } : a;
  }
  private pendingInLog(status: AckStatus, hash: Uint8Array): boolean {
    return status === AckStatus.Unknown && this.replicated?.isPending(hash) === true;
  }
  pendingEntries(): PendingEntry[] {
    return this.queries.pendingEntries();
  }
  pendingTransactions(rcdHash?: Uint8Array): PendingTransaction[] {
    return this.queries.pendingTransactions(rcdHash);
  }

  // ───────────────────────────── debug (debugViews.ts) ─────────────────────────────

  holdingQueue(): HeldMessage[] {
    return heldMessages(this.view);
  }
  /** The open block's process list, typed (its JSON: rpc/debug/processList.ts). */
  processList(): ProcessListSnapshot {
    return processListSnapshot(this.view);
  }
  federatedServers(): { chainId: Uint8Array; name: string; online: boolean; signingKey: Uint8Array }[] {
    return federatedServers(this.producing, this.signer);
  }
  journalMessages(): string[] {
    if (this.options.journaling !== true) return [];
    const height = this.view.pl.height;
    return journalLines(this.store.journalRecords(height), height);
  }
  stats(): Record<string, number> {
    return stats(this.view);
  }
  /**
   * Counts of the open block's messages and of the held reveals, for metrics on every scrape: processList()
   * maps every message of the open block (its hex JSON took 27–69 ms at 10,000 commits), this reads four lengths.
   */
  openBlockSizes(): { commits: number; reveals: number; transactions: number; held: number } {
    const pl = this.view.pl;
    return {
      commits: pl.commitCount,
      reveals: pl.revealCount,
      transactions: pl.transactions.length,
      held: this.view.holding.size,
    };
  }
}
