/**
 * Replay: rebuild the open block from the journal, record by record, through the same rules that
 * accepted the messages (crash recovery is replay, docs/ledger.md §5). A node that only replays — a
 * follower — runs the same loop over its own state.
 */
import { NodeError } from "../errors.js";
import type { LedgerStore } from "../store/store.js";
import { decodeMessage, type LogMessage } from "./messages.js";
import type { LedgerState } from "./state.js";

/** A block closed again while replaying the journal could not be saved: the replay stops there. */
export class ReplaySaveError extends NodeError {
  constructor(height: number, cause: unknown) {
    super(
      `saving block ${height}, closed again from the journal, failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    this.name = "ReplaySaveError";
  }
}

/** What replay needs of the node that runs it. */
export interface ReplayHost {
  readonly store: Pick<LedgerStore, "journalRecords" | "removeJournalBelow" | "removeJournalAbove">;
  readonly state: LedgerState;
  /** apply one message (the writer's apply: the end of minute 10 closes and saves the block) */
  apply(msg: LogMessage): boolean;
  log(level: "debug" | "info" | "warn" | "error", msg: string, fields?: Record<string, unknown>): void;
}

/**
 * Replay the journal from the open height on. A height whose journal ends with its end of minute 10 was
 * closed but not saved (a crash or a failed save in between): replaying closes it again and saves it,
 * then goes on with the next height, whose first records — the reveals carried by that close — the
 * replayed close has just recreated. Throws ReplaySaveError when such a save fails.
 */
export function replayJournal(host: ReplayHost): void {
  const { store, state } = host;
  const stale = store.removeJournalBelow(state.pl.height);
  if (stale > 0) host.log("info", "removed journal records of saved heights", { count: stale });
  let carried = 0;
  for (;;) {
    const height = state.pl.height;
    const records = store.journalRecords(height).filter((r) => r.seq >= carried);
    if (records.length === 0) break;
    const replayed = replayHeight(host, records);
    host.log("info", "replayed the journal", { height, messages: replayed, minute: state.pl.minute });
    if (state.pl.height === height) break;
    // the close carried held reveals into the next height as its first records (sequences 0…)
    carried = state.pl.nextSeq;
  }
  // Records beyond the open height without the close before them were never acknowledged (a close's
  // marker is journaled before any later record).
  const unreachable = store.removeJournalAbove(state.pl.height);
  if (unreachable > 0)
    host.log("warn", "removed journal records beyond the open height", {
      count: unreachable,
      open: state.pl.height,
    });
}

/** Apply one height's journal records in order; stops after its close. Returns how many were applied. */
function replayHeight(host: ReplayHost, records: ReturnType<ReplayHost["store"]["journalRecords"]>): number {
  const { state } = host;
  const height = state.pl.height;
  let replayed = 0;
  for (const r of records) {
    if (state.pl.height !== height) {
      host.log("error", "journal records after the close of their height, ignored", { height, seq: r.seq });
      break;
    }
    try {
      const msg = decodeMessage(r.bytes);
      const pl = state.pl;
      pl.nextSeq = Math.max(pl.nextSeq, r.seq + 1);
      pl.journalSeqs.push(r.seq);
      host.apply(msg);
      replayed++;
      state.counters.replayedMessages++;
    } catch (e) {
      if (e instanceof ReplaySaveError) throw e;
      // Only a bug or a damaged journal gets here: the message was valid when it was journaled.
      host.log("error", "journal message not replayed", { height: r.height, seq: r.seq, error: String(e) });
    }
  }
  return replayed;
}
