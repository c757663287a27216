/**
 * What a Ledger is opened with (ledger.ts `Ledger.open`): its options (network, block time, limits, the
 * signing identity) and its dependencies (store, verifier, log, clock; a cluster node's replicated log;
 * listeners). Types only, shared by the writer (ledger.ts) and its read side (reader.ts).
 */
import type { CustomGenesis } from "../protocol/genesis.js";
import type { NetworkName } from "../protocol/network.js";
import type { LedgerStore } from "../store/store.js";
import type { Verifier } from "../workers/verifier.js";
import type { SavedBlockInfo } from "./close.js";
import type { LogMessage } from "./messages.js";

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
  /** most bytes of entries waiting for their commit (default HOLDING_QUEUE_BYTES) */
  holdingBytes?: number;
  /** what `current-minute` reports as faulttimeout / roundtimeout, seconds (a cluster node's settings) */
  faultTimeoutSeconds?: number;
  roundTimeoutSeconds?: number;
  /** the identity and ed25519 seed that sign the blocks this node produces (default: LOCAL's bootstrap) */
  bootstrap?: { identityChainId: Uint8Array; seed: Uint8Array };
  /** CUSTOM (required there): the network's own genesis, from its operator (protocol/genesis.ts) */
  customGenesis?: CustomGenesis;
}

export interface LedgerDependencies {
  store: LedgerStore;
  verifier: Verifier;
  log: LedgerLog;
  /** wall clock, ms since epoch (default Date.now): stamps arrivals, never read by the rules */
  now?: () => number;
  /**
   * A cluster node's replicated log (cluster/federation.ts): accepted writes are appended there instead of
   * applied and journaled here, and answered once the log has delivered and this ledger applied them
   * (`applyFromLog`). Absent: the single node.
   */
  replicated?: ReplicatedWrites;
  /** told of each saved block (metrics); never changes what the ledger does */
  events?: LedgerEvents;
}

/** Where a cluster node's writes go: resolves once applied here, rejects with the rule's LedgerError. */
export interface ReplicatedWrites {
  submit(msg: LogMessage): Promise<void>;
  /** true while a message with this hash (commit txid or entry hash, entry hash, transaction id) was accepted here and is not yet applied from the log */
  isPending(hash: Uint8Array): boolean;
}

export interface LedgerEvents {
  blockSaved?(info: SavedBlockInfo): void;
}
