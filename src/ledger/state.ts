/**
 * The ledger's in-memory state, shared by its parts: the rules (rules.ts) fill `pl` and `holding`, the
 * block close (close.ts) replaces `tip` and `pl`, the read side (queries.ts, debugViews.ts) only reads. A follower that only replays the log keeps the same state and serves the same reads.
 */
import type { ChainTip } from "./blockBuilder.js";
import type { HoldingQueue } from "./holdingQueue.js";
import type { ProcessList } from "./processList.js";
import type { SavedState } from "./savedState.js";

/** Counters reported by the debug `summary` method. */
export interface LedgerCounters {
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

/** Every counter at zero. */
export function newCounters(): LedgerCounters {
  return {
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
}

/** The state the rules change and the read side reads. */
export interface LedgerState {
  /** the last closed block (saved, or being saved through `saved.closing`) */
  tip: ChainTip;
  /** the open block */
  pl: ProcessList;
  /** reveals waiting for their commit */
  readonly holding: HoldingQueue;
  /** the saved blocks: the block being saved first, then the store */
  readonly saved: SavedState;
  readonly counters: LedgerCounters;
  /**
   * the rate in force before the last rate change this process applied (cluster/ecRate.ts), base units per
   * entry credit: a fee priced at it is refused naming both rates; undefined before any change (or a restart)
   */
  formerExchangeRate?: bigint;
}

/**
 * The read side's view of the state (queries.ts, debugViews.ts): everything a node that only replays the
 * log — a follower — has too. Nothing here writes.
 */
export type LedgerView = Readonly<LedgerState>;
