/**
 * Replay: rebuild the open block from the journal, record by record, through the same rules that
 * accepted the messages (crash recovery is replay, docs/ledger.md §5). A node that only replays — a
 * follower — runs the same loop over its own state.
 */
import { NodeError } from "../errors.js";
import { entryHash } from "../protocol/entry.js";
import type { LedgerStore } from "../store/store.js";
import { HOLD_EXPIRY_MS } from "./constants.js";
import { decodeMessage, type LogMessage } from "./messages.js";
import { decodeEntry } from "./rules.js";
import type { LedgerState } from "./state.js";

/** A block closed again while replaying the journal could not be saved: the replay stops there. */
export class ReplaySaveError extends NodeError {
  constructor(height: number, cause: unknown) {
    super(
      `saving block ${height}, closed again from the journal, failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
    // Stryker disable next-line StringLiteral: never shown — the ledger logs and refuses writes with the message only
    this.name = "ReplaySaveError";
  }
}

/** What replay needs of the node that runs it. */
export interface ReplayHost {
  readonly store: Pick<
    LedgerStore,
    "journalRecords" | "journalRecordsBelow" | "removeJournalRecordsSync" | "removeJournalAbove"
  >;
  readonly state: LedgerState;
  /** apply one message (the writer's apply: the end of minute 10 closes and saves the block) */
  apply(msg: LogMessage): boolean;
  log(level: "debug" | "info" | "warn" | "error", msg: string, fields?: Record<string, unknown>): void;
  /** remove stale records (default true); false rebuilds the state without writing (the disk may be full) */
  readonly cleanup?: boolean;
}

/**
 * Replay the journal from the open height on. A height whose journal ends with its end of minute 10 was
 * closed but not saved (a crash or a failed save in between): replaying closes it again and saves it,
 * then goes on with the next height, whose first records — the reveals carried by that close — the
 * replayed close has just recreated. Throws ReplaySaveError when such a save fails.
 */
export function replayJournal(host: ReplayHost): void {
  const { store, state } = host;
  restoreHeld(host);
  let carried = 0;
  for (;;) {
    const height = state.pl.height;
    // `carried` stays 0 on every node today (a replay holds each reveal with its record, and a cluster node's
    // journal has no end of minute to close a height with), so the filter keeps every record:
    // Stryker disable next-line MethodExpression: the filter keeps all while `carried` is 0 (above)
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
  if (host.cleanup === false) return;
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
      if (msg.kind === "reveal") state.holding.located(msg.entryRaw, { height, seq: r.seq });
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

/**
 * Records below the open height are either held reveals, kept in place past their height's close (holdingQueue.ts),
 * or records of saved blocks whose removal a crash cut short. The first go back into the holding queue, in
 * log order, with their record; the others are removed: any message but a reveal, a reveal whose entry is in
 * a saved block, and one the last saved block's final end of minute swept (expired at its time, which starts
 * the open block). So the queue is what it was, and the open height's records replay onto the same room.
 */
function restoreHeld(host: ReplayHost): void {
  const { store, state } = host;
  const stale: { height: number; seq: number }[] = [];
  let restored = 0;
  for (const r of store.journalRecordsBelow(state.pl.height)) {
    let msg: LogMessage;
    try {
      msg = decodeMessage(r.bytes);
    } catch (e) {
      host.log("error", "journal message not replayed", { height: r.height, seq: r.seq, error: String(e) });
      stale.push(r);
      continue;
    }
    if (msg.kind !== "reveal") {
      stale.push(r);
      continue;
    }
    // swept already: expired at the last saved block's final end of minute (its time starts the open block)
    if (msg.timeMs + HOLD_EXPIRY_MS < state.pl.startMs) {
      stale.push(r);
      continue;
    }
    const hash = entryHash(msg.entryRaw);
    if (state.saved.entryLocation(hash) !== undefined) {
      stale.push(r);
      continue;
    }
    try {
      const entry = decodeEntry(msg.entryRaw);
      state.holding.add({
        entryHash: hash,
        raw: msg.entryRaw,
        entry,
        arrivalMs: msg.timeMs,
        record: { height: r.height, seq: r.seq },
      });
      restored++;
    } catch (e) {
      host.log("error", "journal message not replayed", { height: r.height, seq: r.seq, error: String(e) });
      stale.push(r);
    }
  }
  // a reveal held again later (after expiring) replaced its older record: that one goes too
  stale.push(...state.holding.takeReleased());
  if (host.cleanup !== false) {
    store.removeJournalRecordsSync(stale);
    if (stale.length > 0) host.log("info", "removed journal records of saved heights", { count: stale.length });
  }
  if (restored > 0) host.log("info", "restored held reveals from the journal", { count: restored });
}
