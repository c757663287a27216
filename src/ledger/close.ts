/**
 * The block close (end of minute 10): build every block of the height from the process list
 * (blockBuilder.ts), queue their save as one LMDB transaction, open the next height at once, and remove
 * the confirmed journal records once the save has committed. Readers see the closed block once its end of
 * minute 10 is durable (`PreClose`), through the saved state's `closing` overlay (savedState.ts) until the
 * save commits.
 *
 * The close's wall-clock and CPU times are measured here, in the writer, for the debug counters: the
 * rules (rules.ts) and the blocks they build never read a clock (DESIGN §7).
 */
import { NodeError } from "../errors.js";
import type { AdminEntry } from "../protocol/ablock.js";
import { toHex } from "../protocol/bytes.js";
import type { BlockSetWrite, LedgerStore } from "../store/store.js";
import { type BlockSigner, type ChainTip, closeBlock } from "./blockBuilder.js";
import { encodeMessage } from "./messages.js";
import { ProcessList } from "./processList.js";
import { ReplaySaveError } from "./replay.js";
import { closingOf, type SavedState } from "./savedState.js";
import type { LedgerState } from "./state.js";

/**
 * What readers see while a close's end of minute 10 is not durable yet: the state just before that close
 * (the closed height's process list, the previous tip and saved state). A kill -9 before the marker's
 * journal commit loses the close, and the restart closes that height again at another time: a block
 * shown before that could come back with another keyMR (docs/ledger.md §5).
 */
export interface PreClose {
  tip: ChainTip;
  pl: ProcessList;
  saved: SavedState;
}

/** What the close needs of the ledger that runs it. */
export interface BlockCloserHost {
  readonly store: Pick<LedgerStore, "saveBlockSet" | "packBlockSet" | "savePacked" | "removeJournalRecords">;
  readonly state: LedgerState;
  readonly networkId: number;
  /** the bootstrap identity and key that sign the blocks (ledger/bootstrap.ts) */
  readonly signer: BlockSigner;
  log(level: "debug" | "info" | "warn", msg: string, fields?: Record<string, unknown>): void;
  /** a save failed: refuse writes until recovery (ledger.ts) */
  fail(reason: string): void;
  /** the block set of `info.height` is saved (the ledger logs it and tells its observer and events) */
  saved(info: SavedBlockInfo): void;
  /** set while a close's marker is not durable (`PreClose`); the ledger's readers see `current` then */
  readonly shown: { current: PreClose | undefined };
}

/** A block the store has saved: what the node logs and measures of it. */
export interface SavedBlockInfo {
  height: number;
  /** reveals (entries), commits and asset transactions in the block */
  entries: number;
  commits: number;
  transactions: number;
  /** main-thread time of the close: build, plus packing for the writer thread outside replay, ms */
  closeMs: number;
  /** true when the block was closed again from the journal at start or recovery */
  replayed: boolean;
}

/** What a cluster node's log decided about the close (cluster/federation.ts). */
export interface ClusterClose {
  /** the admin block's entries: server-set changes, the federated servers' signatures, keys */
  adminEntries: AdminEntry[];
  /** stream sequence of the record that closes the block, saved with it */
  logSequence: number;
}

/**
 * How a close is made: the one value that decides when its save starts, when readers see it, and what the
 * admin block carries (ledger.ts picks it by the path the end of minute 10 came through).
 */
export type CloseMode =
  /** replaying the journal at start or in recovery: saved at once (the next height's records build on it) */
  | { kind: "replay" }
  /** a single node's new end of minute 10, journaled right after: saved and shown once that record is durable */
  | { kind: "journaled" }
  /**
   * a cluster node's close from the replicated log, with what the log decided (no journal record of its
   * own); without `cluster`, the single node's admin block
   */
  | { kind: "log"; cluster?: ClusterClose };

/** The replay mode (one object: a close in replay carries nothing else). */
export const REPLAY_CLOSE: CloseMode = { kind: "replay" };
/** The single node's mode. */
export const JOURNALED_CLOSE: CloseMode = { kind: "journaled" };

export class BlockCloser {
  /** removal of confirmed journal records, running after each block save */
  private cleanupChain: Promise<void> = Promise.resolve();
  /** the last close whose end-of-minute-10 record is being journaled: its save starts once that is durable */
  private marker: { resolve: () => void; reject: (e: unknown) => void } | undefined;

  constructor(private readonly host: BlockCloserHost) {}

  /** Settles when every journal cleanup queued so far has run. */
  get cleanup(): Promise<void> {
    return this.cleanupChain;
  }

  /**
   * Close the open block at `timeMs` (end of minute 10): build every block, queue their save as one LMDB
   * transaction, and open the next height at once. Until the save commits, readers see the closed block
   * through `closing`. `mode` (CloseMode): a replayed close (journal replay at start or in recovery) saves at
   * once: the next height's records build on this block; its failure throws ReplaySaveError.
   *
   * A journaled close (a single node closing on a new end of minute 10, whose journal record the ledger
   * appends right after): the save starts, and readers see the closed block and the next height, only once
   * that record is durable (`markerJournaled`) — nothing shown may change in a kill -9 and restart. The
   * close's main-thread work is the same; the block's records are packed meanwhile.
   *
   * A close from the log carries the admin entries and the log sequence the federation decided.
   */
  close(timeMs: number, mode: CloseMode): void {
    const { state, store } = this.host;
    const synchronous = mode.kind === "replay";
    const cluster = mode.kind === "log" ? mode.cluster : undefined;
    const started = performance.now();
    const cpu = process.cpuUsage();
    let marker: Promise<void> | undefined;
    if (mode.kind === "journaled") {
      const pre: PreClose = { tip: state.tip, pl: state.pl, saved: state.saved.copy() };
      marker = new Promise<void>((resolve, reject) => {
        this.marker = { resolve, reject };
      });
      this.host.shown.current = pre;
      const unhide = (): void => {
        if (this.host.shown.current === pre) this.host.shown.current = undefined;
      };
      // a failed marker keeps the close hidden: the ledger rebuilds its state from disk (without it)
      marker.then(unhide, () => {});
    }
    // A held reveal keeps its own journal record past this close (holdingQueue.ts): only one without a record
    // of this node's journal (a cluster node's) is carried into the next height's journal, sequences 0…
    const carry = state.holding
      .list()
      .filter((h) => h.record === undefined)
      .map((h, i) => ({ seq: i, bytes: encodeMessage({ kind: "reveal", timeMs: h.arrivalMs, entryRaw: h.raw }) }));
    const keep = state.holding.recordsAt(state.pl.height);
    // Stryker disable next-line MethodExpression: the closing height's released records go with its whole journal below; removing them twice changes nothing
    const released = state.holding.takeReleased().filter((p) => p.height !== state.pl.height);
    const closed = closeBlock(state.pl, {
      tip: state.tip,
      signer: this.host.signer,
      networkId: this.host.networkId,
      chainHead: (id) => state.saved.chainHead(id),
      assetBalance: (a) => state.saved.assetBalance(a),
      ecBalance: (k) => state.saved.ecBalance(k),
      nextStartMs: timeMs,
      journalCarry: carry,
      ...(cluster === undefined ? {} : { adminEntries: cluster.adminEntries, logSequence: cluster.logSequence }),
    });
    const saved = synchronous ? this.saveNow(closed.write) : this.saveClosed(closed.write, marker);
    const closing = closingOf(state.pl, closed, saved);
    state.saved.closing = closing;
    // its paid commits are the store's once saved: the filter in front of the store's reads has them from now
    state.saved.recentPaid.addBlock(state.pl);
    const confirmed = state.pl;
    let buildMs = 0;
    saved.then(
      () => {
        // one save is in flight at a time (endMinute, and a cluster node's log reader, wait for the previous one:
        // a close builds on the saved state), so the overlay is always this close's here; left in place it would
        // answer as the store does (closingOverlay) until the next close
        // Stryker disable next-line ConditionalExpression,EqualityOperator: see the comment above: the guard never fails
        if (state.saved.closing === closing) state.saved.closing = undefined;
        this.host.saved({
          height: closed.tip.height,
          entries: confirmed.revealCount,
          commits: confirmed.commitCount,
          transactions: confirmed.transactions.length,
          closeMs: Math.round(buildMs + (synchronous ? 0 : state.counters.lastCloseSaveMs)),
          replayed: synchronous,
        });
        // the block holds these messages now; a removal lost in a crash is redone at the next start
        this.cleanupChain = this.cleanupChain
          .then(() =>
            store.removeJournalRecords(
              confirmed.height,
              keep.size === 0 ? confirmed.journalSeqs : confirmed.journalSeqs.filter((s) => !keep.has(s)),
            ),
          )
          .then(() => removeReleased(store, released))
          .catch((e: unknown) =>
            this.host.log("warn", "journal cleanup failed", { error: e instanceof Error ? e.message : String(e) }),
          );
      },
      (e: unknown) =>
        this.host.fail(`saving block ${closed.tip.height} failed: ${e instanceof Error ? e.message : String(e)}`),
    );
    state.tip = closed.tip;
    state.pl = new ProcessList(closed.tip.height + 1, timeMs);
    for (const c of carry) state.pl.journalSeqs.push(c.seq);
    state.pl.nextSeq = carry.length;
    const counters = state.counters;
    counters.blocksClosed++;
    counters.lastCloseMs = performance.now() - started;
    buildMs = counters.lastCloseMs;
    counters.lastCloseBuildMs = counters.lastCloseMs;
    counters.lastCloseLongestTurnMs = counters.lastCloseMs;
    const used = process.cpuUsage(cpu);
    counters.lastCloseCpuMs = (used.user + used.system) / 1000;
    this.host.log("debug", "block closed", {
      height: closed.tip.height,
      keymr: toHex(closed.tip.directoryKeyMR),
      entryBlocks: closed.directory.entries.length - 3,
      closeMs: Math.round(counters.lastCloseMs),
    });
  }

  /**
   * The end-of-minute-10 record of the last `journaled` close is durable (`durable` resolves) or failed
   * (rejects: the block is never saved nor shown).
   */
  markerJournaled(durable: Promise<void>): void {
    const m = this.marker;
    this.marker = undefined;
    if (m !== undefined) durable.then(m.resolve, m.reject);
  }

  /** Forget a close waiting for its marker (the ledger rebuilds its state from disk). */
  reset(): void {
    // a close leaves `marker` here only when it threw before queueing its save (markerJournaled follows every close
    // that returns), so only its unhide handler hears this rejection, and ignores it
    // Stryker disable next-line StringLiteral: no one reads this message (see above)
    this.marker?.reject(new NodeError("the ledger state was rebuilt from disk before this close's marker was durable"));
    this.marker = undefined;
    this.host.shown.current = undefined;
  }

  /** Save synchronously (replay); a failure throws ReplaySaveError, which ends the replay. */
  private saveNow(write: BlockSetWrite): Promise<void> {
    try {
      this.host.store.saveBlockSet(write);
    } catch (e) {
      throw new ReplaySaveError(write.height, e);
    }
    return Promise.resolve();
  }

  /**
   * Save a closed block set: pack its records one event-loop turn after the build, so requests that
   * arrived during the build are answered in between and none waits for the build and the packing
   * together (docs/performance.md §"Block close"); the writer thread then applies them.
   */
  private async saveClosed(write: BlockSetWrite, marker: Promise<void> | undefined): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const { store, state } = this.host;
    // packed while the marker's journal commit is in flight; written only once the marker is durable
    const [packed] = await Promise.all([store.packBlockSet(write), marker]);
    const counters = state.counters;
    counters.lastCloseSaveMs = packed.busyMs;
    counters.lastCloseMs += packed.busyMs;
    counters.lastCloseLongestTurnMs = Math.max(counters.lastCloseLongestTurnMs, packed.longestTurnMs);
    counters.lastCloseWriteMs = await store.savePacked(packed);
  }
}

/** Remove the records of reveals that left the holding queue during the closed height (paid or expired), by height. */
async function removeReleased(
  store: Pick<LedgerStore, "removeJournalRecords">,
  released: readonly { height: number; seq: number }[],
): Promise<void> {
  const byHeight = new Map<number, number[]>();
  for (const p of released) byHeight.set(p.height, [...(byHeight.get(p.height) ?? []), p.seq]);
  for (const [height, seqs] of byHeight) await store.removeJournalRecords(height, seqs);
}
