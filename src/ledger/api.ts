/**
 * CONTRACT between rpc/ and ledger/ (fixed: rpc/v2 handlers code against it; ledger/ implements it).
 * All hashes are raw bytes; rpc/ converts hex ↔ bytes and builds the JSON shapes. A read given a hash that
 * is not 32 bytes finds nothing (rpc/ checks the length at the edge already; the ledger checks again because
 * it also answers callers other than rpc/ — the live feed, a follower, tests — and must not misread them).
 * Write methods throw LedgerError (ledger/errors.ts) for every rejection; they resolve only after the
 * accepted message is durably journaled.
 */
import type { AdminBlock } from "../protocol/ablock.js";
import type { Commit } from "../protocol/commit.js";
import type { DirectoryBlock } from "../protocol/dblock.js";
import type { EntryBlock } from "../protocol/eblock.js";
import type { ECBlock } from "../protocol/ecblock.js";
import type { Entry } from "../protocol/entry.js";
import type { AssetBlock } from "../protocol/fblock.js";
import type { Receipt } from "../protocol/receipt.js";
import type { Transaction } from "../protocol/transaction.js";
import type { CallerAddress } from "./holdingPolicy.js";
import type { WriteOutcomes } from "./writeOutcome.js";

/** Spec §3 statuses. */
export const AckStatus = {
  Unknown: "Unknown",
  NotConfirmed: "NotConfirmed",
  TransactionACK: "TransactionACK",
  DBlockConfirmed: "DBlockConfirmed",
} as const;
export type AckStatus = (typeof AckStatus)[keyof typeof AckStatus];

/** A saved block with its raw bytes. */
export interface Stored<B> {
  block: B;
  raw: Uint8Array;
}

/** Where a confirmed item lives. */
export interface ItemLocation {
  /** keyMR of the entry block / asset block / EC block header hash holding it */
  blockKeyMR: Uint8Array;
  directoryBlockKeyMR: Uint8Array;
  directoryBlockHeight: number;
  /** directory block timestamp, ms since epoch */
  blockTimeMs: number;
}

export interface CommitAck {
  status: AckStatus;
  /** ms since epoch: the commit's own milliTime; undefined when Unknown */
  transactionTimeMs?: number;
  /** ms since epoch of the directory block that confirmed it, when DBlockConfirmed */
  blockTimeMs?: number;
  commit?: Commit;
  /** txid of the commit, when known */
  txId?: Uint8Array;
}
export interface EntryAck {
  status: AckStatus;
  /** ms since epoch the node acknowledged the reveal, or of the confirming block */
  blockTimeMs?: number;
  entryHash: Uint8Array;
  chainId?: Uint8Array;
}
export interface TransactionAck {
  status: AckStatus;
  transactionTimeMs?: number; // the tx's own milliTimestamp
  blockTimeMs?: number; // directory block time when confirmed
  txId: Uint8Array;
}

export interface Balance {
  /** balance after in-flight (acknowledged, not yet saved) messages: base units or EC */
  ack: bigint;
  /** balance as of the last saved block */
  saved: bigint;
  /** false when the address never appeared in any transaction/commit (spec §4.1.4 condition 3) */
  seen: boolean;
}

export interface Heights {
  directoryBlockHeight: number;
  leaderHeight: number;
  entryBlockHeight: number;
  entryHeight: number;
}

export interface MinuteInfo {
  leaderHeight: number;
  directoryBlockHeight: number;
  minute: number; // 0..9, the minute of the open block
  currentBlockStartTimeNs: bigint; // ns since epoch, as the reference
  currentMinuteStartTimeNs: bigint;
  currentTimeNs: bigint;
  directoryBlockInSeconds: number;
  stallDetected: boolean;
  faultTimeoutSeconds: number;
  roundTimeoutSeconds: number;
}

export interface PendingEntry {
  entryHash: Uint8Array;
  chainId: Uint8Array | undefined; // unknown for a commit whose reveal has not arrived
  status: AckStatus;
}
export interface PendingTransaction {
  transaction: Transaction;
  txId: Uint8Array;
  status: AckStatus;
  feeBaseUnits: bigint;
}

/** A commit's answer; `hex`: its txid and entry hash in hex, when the ledger made them already (an answer's text). */
export interface CommitAnswer {
  txId: Uint8Array;
  entryHash: Uint8Array;
  hex?: { txId: string; entryHash: string };
}

/** A reveal's answer; `hex.entryHash`: the entry hash in hex, when the ledger made it already. */
export interface RevealAnswer {
  entryHash: Uint8Array;
  chainId: Uint8Array;
  hex?: { entryHash: string };
}

export interface LedgerApi {
  // ── writes (resolve after durable journaling; throw LedgerError) ──
  /** each submit's outcome, told once (writeOutcome.ts): the intake's counters and the metrics subscribe */
  readonly writeOutcomes: WriteOutcomes;
  submitCommit(commit: Commit): Promise<CommitAnswer>;
  /**
   * `options.kind` (optional, compatible extension): "chain" when the client called reveal-chain. Without a
   * paid commit yet, a chain reveal whose chain ID is not derived from its ext IDs is refused at once
   * (CHAIN_ID_MISMATCH), as is one for a chain that exists (CHAIN_EXISTS); otherwise the paying commit decides.
   */
  /**
   * A reveal; `from` is the caller's address, or what reads it, when an API took it (the holding queue's
   * per-source share, holdingPolicy.ts: read only for a reveal that is or would be held). Success means
   * docs/ledger.md "What a reveal's answer means". `options.entry`: `unmarshalEntry(entryRaw)` when the caller
   * has decoded these very bytes already (the API, to refuse a malformed entry before any debug delay): not
   * decoded again.
   */
  submitReveal(
    entryRaw: Uint8Array,
    options?: { kind?: "chain" | "entry"; from?: CallerAddress; entry?: Entry },
  ): Promise<RevealAnswer>;
  submitTransaction(tx: Transaction): Promise<{ txId: Uint8Array }>;

  // ── node state ──
  heights(): Heights;
  currentMinute(): MinuteInfo;
  /** base units of the asset per entry credit */
  entryCreditRate(): bigint;
  /** true once the node has loaded every saved block (spec §4.1.4 condition 1) */
  isBooted(): boolean;

  // ── blocks (by height, or by primary/secondary hash); undefined when not found ──
  directoryBlockHead(): Stored<DirectoryBlock>;
  directoryBlockByHeight(height: number): Stored<DirectoryBlock> | undefined;
  directoryBlockByHash(hash: Uint8Array): Stored<DirectoryBlock> | undefined;
  adminBlockByHeight(height: number): Stored<AdminBlock> | undefined;
  adminBlockByHash(hash: Uint8Array): Stored<AdminBlock> | undefined;
  ecBlockByHeight(height: number): Stored<ECBlock> | undefined;
  ecBlockByHash(hash: Uint8Array): Stored<ECBlock> | undefined;
  assetBlockByHeight(height: number): Stored<AssetBlock> | undefined;
  assetBlockByHash(hash: Uint8Array): Stored<AssetBlock> | undefined;
  entryBlockByHash(hash: Uint8Array): Stored<EntryBlock> | undefined;
  /**
   * The saved bytes of entry block `hash` (keyMR or full hash), not decoded (answers written from the bytes:
   * rpc/v2/entryBlockText.ts). `committed`: the block's save has committed, so the bytes are found the same
   * forever (a block being saved may still fail).
   */
  entryBlockBytes(hash: Uint8Array): { raw: Uint8Array; committed: boolean } | undefined;

  // ── entries, chains, transactions ──
  /**
   * An entry, saved or acknowledged-pending; location set once confirmed. `committed`: in a block whose save has
   * committed — found the same forever (a pending entry may still be dropped, a block being saved may fail).
   */
  entry(
    entryHash: Uint8Array,
  ): { entry: Entry; raw: Uint8Array; location?: ItemLocation; committed?: boolean } | undefined;
  /**
   * keyMR of the chain's last saved entry block; inProcessList when the open block has entries for it. `hex`: the
   * chain ID in lower-case hex when the caller has it (spares making it again)
   */
  chainHead(chainId: Uint8Array, hex?: string): { head: Uint8Array | undefined; inProcessList: boolean };
  /** A transaction by txid (or full hash), saved or pending. */
  transaction(hash: Uint8Array): { tx: Transaction; location?: ItemLocation } | undefined;
  /** A commit by txid or full hash, saved or pending. */
  commit(hash: Uint8Array): { commit: Commit; location?: ItemLocation } | undefined;
  receipt(entryHash: Uint8Array): Receipt | undefined;

  // ── balances ──
  /** `hex`: the key in lower-case hex when the caller has it (spares making it again) */
  ecBalance(ecPublicKey: Uint8Array, hex?: string): Balance;
  assetBalance(rcdHash: Uint8Array, hex?: string): Balance;

  // ── acks and pending ──
  commitAck(commitTxIdOrFullHash: Uint8Array): CommitAck;
  /** commit and entry status of an entry hash (the commit found by entry hash) */
  entryAck(entryHash: Uint8Array): { commit: CommitAck; entry: EntryAck };
  transactionAck(txId: Uint8Array): TransactionAck;
  pendingEntries(): PendingEntry[];
  pendingTransactions(rcdHash?: Uint8Array): PendingTransaction[];
}

/** One message waiting in the holding queue (e.g. a reveal whose commit has not arrived). */
export interface HeldMessage {
  kind: "commit" | "reveal" | "transaction";
  hash: Uint8Array; // entry hash or txid
  receivedMs: number; // ms since epoch
  expiresMs: number; // ms since epoch
}

/**
 * The open block's process list in bytes and counts (`process-list`; rpc/debug/processList.ts builds its
 * JSON, docs/ledger.md §7).
 */
export interface ProcessListSnapshot {
  height: number;
  minute: number;
  /** ms since epoch */
  startMs: number;
  minuteStartMs: number;
  commits: { txId: Uint8Array; entryHash: Uint8Array; credits: number; kind: "entry" | "chain" }[];
  entries: { entryHash: Uint8Array; chainId: Uint8Array }[];
  transactions: { txId: Uint8Array }[];
  entryBlocks: { chainId: Uint8Array; items: number; newChain: boolean }[];
  /** reveals in the holding queue */
  held: number;
}

/** Read-only views for /debug (spec §4.2). */
export interface LedgerDebugApi {
  holdingQueue(): HeldMessage[];
  /** The open block's process list, typed (rpc/debug/processList.ts builds its JSON). */
  processList(): ProcessListSnapshot;
  /** Federated servers: on LOCAL and CUSTOM the bootstrap identity, with the key that signs its blocks. */
  federatedServers(): { chainId: Uint8Array; name: string; online: boolean; signingKey: Uint8Array }[];
  /** The message journal as human-readable lines (only meaningful with -journaling=true). */
  journalMessages(): string[];
  /** Counters for `summary` (messages accepted/rejected, blocks closed, ...). */
  stats(): Record<string, number>;
}

// ── the query index (extension; docs/api.md "Query extensions") ──

/**
 * One page of an index read. `next` is the index position the next page starts after (opaque bytes the API
 * wraps in a cursor); undefined when the range is exhausted. A page may hold fewer items than asked while
 * `next` is set: a read that checks candidates stops after a bounded number of keys.
 */
export interface IndexPage<T> {
  items: T[];
  next: Uint8Array | undefined;
  /** the last position this page read (set at the end of the range too): where to go on once more is saved */
  last: Uint8Array | undefined;
}
/** A page, or why the position asked to start after does not belong to this query. */
export type IndexAnswer<T> = IndexPage<T> | { refused: string };

/** A saved entry as the index holds it. */
export interface IndexedEntry {
  chainId: Uint8Array;
  entryHash: Uint8Array;
  entryBlockKeyMR: Uint8Array;
  directoryBlockHeight: number;
  /** seconds since epoch: the end of the entry's minute */
  timestamp: number;
  /** place among its entry block's entries, from 0 (minute markers not counted) */
  position: number;
}
/** A chain found by its first entry's ext IDs. */
export interface IndexedChain {
  chainId: Uint8Array;
  firstEntryHash: Uint8Array;
  /** height of the chain's first entry block */
  directoryBlockHeight: number;
  /** saved entries of the chain */
  entryCount: bigint;
}
/** One item of an address's history. */
export interface AddressHistoryItem {
  kind: "input" | "output" | "ecpurchase" | "commit" | "chaincommit";
  /** asset transaction id, or commit txid */
  txId: Uint8Array;
  directoryBlockHeight: number;
  /** seconds since epoch (the transaction's or the commit's own time) */
  timestamp: number;
  /** base units (input, output) or entry credits (ecpurchase, commit, chaincommit) */
  amount: bigint;
}

/**
 * Reads of the query index over SAVED blocks (the open block is not in it). `after`: a `next` of an earlier page
 * of the same query; ranges are in the ledger's order (height, then place), `desc` reversing it.
 */
export interface QueryIndexApi {
  chainEntries(q: { chainId: Uint8Array; after?: Uint8Array; desc: boolean; limit: number }): IndexAnswer<IndexedEntry>;
  /** entries whose ext IDs start with `extIds` (the last one equal, or starting with it for "prefix") */
  searchEntries(q: {
    extIds: Uint8Array[];
    match: "exact" | "prefix";
    chainId?: Uint8Array;
    after?: Uint8Array;
    limit: number;
  }): IndexAnswer<IndexedEntry>;
  searchChains(q: {
    extIds: Uint8Array[];
    match: "exact" | "prefix";
    after?: Uint8Array;
    limit: number;
  }): IndexAnswer<IndexedChain>;
  /** `address`: RCD hash (FA) or EC public key (EC) */
  addressHistory(q: {
    kind: "FA" | "EC";
    address: Uint8Array;
    after?: Uint8Array;
    desc: boolean;
    limit: number;
  }): IndexAnswer<AddressHistoryItem>;
  /**
   * Where a background rebuild of the index stands (store/queryIndexRebuild.ts), undefined once every saved
   * height is indexed. While it is defined the answers above would be partial: the query methods refuse them.
   */
  rebuilding?(): { nextHeight: number; savedHeight: number } | undefined;
}
