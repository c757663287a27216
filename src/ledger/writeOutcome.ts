/**
 * The outcome of one client write (a submit of the ledger), told once, when it is known, to every subscriber:
 * the ledger's own `rejected` counter, the API intake's counters (rpc/intake.ts) and the metrics
 * (`ledgerd_writes_total`, wired in node.ts). One event instead of each counting around the call.
 */
import { LedgerError } from "./errors.js";

/** Which submit the write went through. */
export type WriteKind = "commit" | "reveal" | "transaction";

export interface WriteOutcome {
  kind: WriteKind;
  /** absent: accepted (durable on a single node, applied from the log on a cluster node); else the LedgerError code, or "OTHER" */
  refused?: string;
}

export type WriteOutcomeListener = (outcome: WriteOutcome) => void;

/** The outcome of an accepted write of each kind: one object each, told for every acceptance (listeners only read it). */
const ACCEPTED: Readonly<Record<WriteKind, WriteOutcome>> = {
  commit: Object.freeze({ kind: "commit" }),
  reveal: Object.freeze({ kind: "reveal" }),
  transaction: Object.freeze({ kind: "transaction" }),
};

/** The subscribers of one ledger's write outcomes, in subscription order. */
export class WriteOutcomes {
  private listeners: readonly WriteOutcomeListener[] = [];

  /** Hear every outcome from now on; returns the unsubscribe. */
  subscribe(listener: WriteOutcomeListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  accepted(kind: WriteKind): void {
    this.tell(ACCEPTED[kind]);
  }

  /** Tell the refusal of a write that threw `e`; returns `e` for the caller to throw. */
  refused(kind: WriteKind, e: unknown): unknown {
    this.tell({ kind, refused: e instanceof LedgerError ? e.type.code : "OTHER" });
    return e;
  }

  // listeners are counters: they do not throw (one that did would fail the write's answer, not the write)
  private tell(outcome: WriteOutcome): void {
    for (const l of this.listeners) l(outcome);
  }
}
