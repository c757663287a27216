/**
 * The federation's types (federation.ts): what it needs of the ledger and of the replicated log, its options
 * and dependencies, the deterministic state of the open height, and what `network-info` shows of it.
 */
import type { LedgerError } from "../ledger/errors.js";
import type { LogMessage } from "../ledger/messages.js";
import type { AdminEntry } from "../protocol/ablock.js";
import type { DirectoryBlock } from "../protocol/dblock.js";
import type { Authority, AuthoritySet, AuthorityView } from "./authorities.js";
import type { ApplyVerifier } from "./clientSignatures.js";
import type { DbSignature } from "./dbSig.js";
import type { ElectionState } from "./election.js";
import type { Appended, BlockSetArchive, LogRecord } from "./jetStreamLog.js";
import type { ClusterRecord } from "./records.js";

export type ClusterRole = "federated" | "audit" | "follower";

/** What the federation needs of the ledger (Ledger implements it). */
export interface FederatedLedger {
  /** the open block: height, minute (0..9), its start and its current minute's start, ms since epoch */
  openBlock(): { height: number; minute: number; startMs: number; minuteStartMs: number };
  /** directory block h−1 (the last closed block) */
  lastDirectoryBlock(): DirectoryBlock;
  /** directory block `height` as saved (undefined above the saved height) */
  directoryBlockByHeight(height: number): { block: DirectoryBlock } | undefined;
  /** admin entries of the saved admin block of `height` */
  adminEntries(height: number): readonly AdminEntry[];
  /** the stream sequence recorded with the last saved block (0: none) */
  savedLogSequence(): number;
  /**
   * Apply one message the log delivered (no journal: the log is the journal). Throws LedgerError, state
   * unchanged, when a rule rejects it. The end of minute 10 needs `close`: the admin block's entries and
   * the sequence of the record that closes it.
   */
  applyFromLog(msg: LogMessage, close?: { adminEntries: AdminEntry[]; logSequence: number }): void;
  /** resolves when the last closed block is saved */
  closeSaved(): Promise<void>;
  /**
   * The open block (no write in it yet) pays `rate` base units per entry credit and its asset block carries
   * it (an announced rate change, ecRate.ts); optional: a ledger without it keeps the genesis rate.
   */
  setOpenExchangeRate?(rate: bigint): void;
  /** base units per entry credit the open block pays (views) */
  entryCreditRate?(): bigint;
}

/** The replicated log as the federation uses it (JetStreamLog implements it). */
export interface OrderedLog {
  append(kind: string, data: Uint8Array, msgId?: string): Promise<Appended>;
  follow(
    fromSeq: number,
    onRecord: (r: LogRecord) => Promise<void> | void,
  ): { stop(): Promise<void>; done: Promise<void> };
  lastSequence(): Promise<number>;
  /** the oldest sequence the log still holds (last + 1 when it holds none) */
  firstSequence(): Promise<number>;
  /** the newest record of a kind (a direct get; optional) */
  lastOfKind?(kind: string): Promise<Uint8Array | undefined>;
}

export interface FederationOptions {
  role: ClusterRole;
  /** identity chain ID (federated and audit servers) */
  identity?: Uint8Array;
  /** ed25519 seed of the signing key (federated and audit servers) */
  seed?: Uint8Array;
  /**
   * the seed of a key a rotation (rotateKey record) names from some height: the server signs with whichever
   * of its keys the chain names at the open height, so it rotates without a restart
   */
  nextSeed?: Uint8Array;
  networkId: number;
  /** seconds per block: a minute is a tenth of it */
  blockTimeSeconds: number;
  /** the network's genesis federated server and its key (the genesis admin block carries no key) */
  bootstrap: { identity: Uint8Array; publicKey: Uint8Array };
  /** public key that signs addServer records (the network's skeleton key) */
  skeletonKey: Uint8Array;
  /** a name unique in the cluster, part of record ids */
  nodeName: string;
  /** seconds without a federated server's signature before the others vote it out (default 120) */
  faultTimeoutSeconds?: number;
  /** seconds per election round (default 30) */
  roundTimeoutSeconds?: number;
  /** the log's stream name (for views) */
  stream?: string;
  /**
   * file that keeps the authority set beside the saved blocks (authorityFile.ts): a start then folds in only
   * the admin blocks saved after it. Absent: rebuilt from every saved admin block at start.
   */
  authorityFile?: string;
  /**
   * brain swap: the heights at which this server signs for its identity — from `fromHeight` (0: always)
   * until before `untilHeight` (0: never stops); changed while running with Federation.setSigningWindow
   */
  signingWindow?: { fromHeight: number; untilHeight: number };
  /** public key of the network's entry-credit rate authority (setEcRate records); absent: none is accepted */
  rateAuthority?: Uint8Array;
  /** file that keeps the announced entry-credit rates beside the saved blocks (ecRate.ts); absent: memory only */
  ecRateFile?: string;
}

export interface FederationDependencies {
  ledger: FederatedLedger;
  log: OrderedLog;
  /**
   * checks the client signatures of every write the log delivers (clientSignatures.ts): the node's verifier
   * pool behind a RememberingVerifier, so the node that took a write does not check it twice
   */
  signatures: ApplyVerifier;
  logger: {
    debug(msg: string, fields?: Record<string, unknown>): void;
    info(msg: string, fields?: Record<string, unknown>): void;
    warn(msg: string, fields?: Record<string, unknown>): void;
    error(msg: string, fields?: Record<string, unknown>): void;
  };
  /**
   * where block sets are kept (blockSets.ts): federated servers write each height's set there; a node whose
   * next records the log no longer holds rebuilds those heights from it. Absent: neither.
   */
  archive?: BlockSetArchive;
  /** wall clock, ms since epoch: paces proposals and stamps writes, never read by apply */
  now?: () => number;
  /**
   * Network testing (debug set-drop-rate / set-delay): drop this node's outbound proposals per mille (never
   * fault votes, never inbound records); hold each outbound publish a random 0…delay ms and each inbound
   * apply `delay` ms. Absent: none.
   */
  networkTesting?: () => { dropRatePerMille: number; delayMs: number };
  /** a federated server's certified snapshots (snapshots.ts): made after each due saved block. Absent: none. */
  snapshots?: {
    saved(height: number, authorities: AuthoritySet, seed: Uint8Array | undefined): void;
    signed(rec: Extract<ClusterRecord, { kind: "snapshotSignature" }>, federated: readonly Authority[]): void;
  };
}

/** The deterministic state of the open height. */
export interface HeightState {
  height: number;
  authorities: AuthorityView;
  /** the block's start comes from the log (true from height 2 on: the previous close fixes it) */
  startFixed: boolean;
  /**
   * proposals of the open boundary (the first block's start, or the end of the open minute): federated
   * server (hex) → its proposed time, ms since epoch; the boundary takes effect at a majority
   */
  boundaryVotes: Map<string, number>;
  sigs: Map<string, DbSignature>;
  /** federated servers whose signature did not verify over this node's block h−1 */
  differing: Set<string>;
  /** a valid EOM(h,0) that waits for the majority of signatures */
  pendingMinuteZero: { timeMs: number } | undefined;
  adminFirst: AdminEntry[];
  adminLast: AdminEntry[];
  added: Set<string>;
  /** fault votes of this height (election.ts) */
  election: ElectionState;
  /** audit servers (hex) whose heartbeat the log carries at this height: the only candidates a vote may name */
  alive: Set<string>;
  /** servers (hex) federated from this height on (the previous admin block's 05): not faulted at this height */
  graced: Set<string>;
}

/** What `network-info` shows of the federation. */
export interface FederationStatus {
  role: ClusterRole;
  stream: string;
  identity: string;
  appliedSequence: number;
  synced: boolean;
  forked: boolean;
  height: number;
  /**
   * The open height the stream's newest end of minute shows (read every 2 s; 0 before the first read, and on a
   * node without the stream's direct reads): above `height`, this node applies behind the network.
   */
  networkHeight: number;
  federated: string[];
  audit: string[];
  signatures: string[];
  /** client writes from the log skipped because a signature did not verify, since this node started */
  badSignatureWrites: number;
  /** fault votes of the open height: `${round}/${faulted}/${candidate}` → voters (hex) */
  faultVotes: Record<string, string[]>;
}

/** What the chain has scheduled and not yet in force (Federation.scheduledChanges; the panel shows it). */
export interface ScheduledChanges {
  openHeight: number;
  /** recorded in saved admin blocks, in force from `height`: 05 federated, 06 audit, 07 removed, 08 key */
  authority: {
    height: number;
    change: "federated" | "audit" | "removed" | "key";
    identity: string;
    publicKey?: string;
  }[];
  /** announced entry-credit rates (base units per entry credit, decimal) from `height` */
  rates: { height: number; rate: string }[];
  /** the heights at which this node signs for its identity (brain swap; 0, 0: always) */
  signingWindow: { fromHeight: number; untilHeight: number };
}

/** The verdict of one applied client write: undefined = accepted. */
export type WriteResult = LedgerError | undefined;

/** A logger as the federation uses it. */
export type FederationLogger = FederationDependencies["logger"];
