/**
 * What the ledger tells an observer (the live event feed): accepted messages once they are durable, and
 * saved blocks. Called after the fact, never inside a rule: an observer cannot change the state, and the
 * ledger stays a function of its ordered log. A throwing observer is logged and ignored.
 */
import type { LogMessage } from "./messages.js";

export interface LedgerObserver {
  /**
   * A write message (commit, reveal, transaction, end of minute) was applied and its journal record is
   * durable: the moment the API answers its sender. `height` is the open block it went into (an end of
   * minute 10 closed that block). Not called while the journal is replayed.
   */
  accepted(msg: LogMessage, height: number): void;
  /** The block set of `height` is saved: every read of it is answered from the store from now on. */
  blockSaved(height: number): void;
}
