/**
 * The ledger: a deterministic state machine over an ordered log of messages (ledger/messages.ts) —
 * commits, reveals, asset transactions, end-of-minute markers and block starts (DESIGN §7).
 *
 * This file is the hub and the writer. Write path (DESIGN §3): stateless decode (caller) → signatures
 * through the Verifier (the pool batches the checks of one tick) → `apply`, which runs the rules
 * (rules.ts: every stateful rule; a rejection throws a LedgerError and changes nothing) → journal append,
 * durable before the promise resolves. The end of minute 10 closes the block (blockBuilder.ts) and saves
 * it in one LMDB transaction; until it commits, reads see it through the saved state (savedState.ts).
 * Replaying the journal from the last saved block (replay.ts) rebuilds the same process list. Reads are
 * the read side's (reader.ts `LedgerReader`, which `Ledger` extends: queries.ts, debugViews.ts), which a
 * follower node can run over its own state (state.ts `LedgerView`). Options and dependencies: options.ts.
 *
 * Times: every time a rule needs comes from a message (`timeMs`, ms since epoch). The injected clock
 * `now()` only stamps arrivals and answers `current-minute`.
 */

import { hexBytes, toHex } from "../protocol/bytes.js";
import { type Commit, commitSignedPart } from "../protocol/commit.js";
import { type Entry, entryHashHex } from "../protocol/entry.js";
import { genesisBlocks } from "../protocol/genesis.js";
import { sha256Hex } from "../protocol/hash.js";
import { type NetworkName, networkId } from "../protocol/network.js";
import { type Transaction, transactionId, transactionSignatureChecks } from "../protocol/transaction.js";
import { StoreError } from "../store/errors.js";
import type { CommitAnswer, LedgerApi, LedgerDebugApi, RevealAnswer } from "./api.js";
import { genesisBlockSet } from "./blockBuilder.js";
import { assertSameGenesis, bootstrapSigner, loadTip } from "./bootstrap.js";
import {
  BlockCloser,
  type CloseMode,
  type ClusterClose,
  JOURNALED_CLOSE,
  type PreClose,
  REPLAY_CLOSE,
  type SavedBlockInfo,
} from "./close.js";
import { MINUTES_PER_BLOCK, RECOVERY_PROBE_MS } from "./constants.js";
import { LedgerError, nodeUnavailable } from "./errors.js";
import {
  type CallerAddress,
  callerSource,
  checkSourceShare,
  HOLDING_QUEUE_BYTES,
  HOLDING_QUEUE_LIMIT,
} from "./holdingPolicy.js";
import { HoldingQueue } from "./holdingQueue.js";
import { type LogMessage, messageBody, messageHead } from "./messages.js";
import type { LedgerObserver } from "./observer.js";
import type { LedgerDependencies, LedgerLog, LedgerOptions } from "./options.js";
import { ProcessList } from "./processList.js";
import { LedgerReader } from "./reader.js";
import { readersView } from "./readersView.js";
import { RecentPaidCommits } from "./recentPaidCommits.js";
import { ReplaySaveError, replayJournal } from "./replay.js";
import {
  applyMessage,
  asLedgerError,
  checkChainReveal,
  checkTimestamp,
  checkTransactionShape,
  decodeEntry,
  wouldHold,
} from "./rules.js";
import { SavedState } from "./savedState.js";
import { type LedgerState, newCounters } from "./state.js";
import { WriteOutcomes } from "./writeOutcome.js";

/** Networks a standalone node produces blocks for (MAIN and TEST need the real federated servers). */
const PRODUCING_NETWORKS: readonly NetworkName[] = ["LOCAL", "CUSTOM"];
/** A message's answer carries no value once its writes are on disk. */
const NOTHING = (): void => {};

export class Ledger extends LedgerReader implements LedgerApi, LedgerDebugApi {
  private readonly deps: LedgerDependencies;
  private readonly networkIdValue: number;
  /** tip, open process list, holding queue, saved state, counters: what the rules change (the reader's `view`) */
  private readonly state: LedgerState;
  private booted = false;
  /** set when a write to LMDB failed: writes are refused until recovery rebuilds the state; reads still served */
  private failure: string | undefined;
  /** the block close (close.ts) */
  private readonly closer: BlockCloser;
  /** accept() calls whose writes have not settled (recovery waits for them) */
  private readonly inflight = new Set<Promise<void>>();
  /** pending recovery probe after a storage failure */
  private recoveryTimer: NodeJS.Timeout | undefined;
  /** the state rebuilt from disk after a failed journal write (once per failure), see `rollBack` */
  private rollback: Promise<void> | undefined;
  private closed = false;
  /** each submit's outcome, once (writeOutcome.ts): the `rejected` counter below, the API intake, the metrics */
  readonly writeOutcomes = new WriteOutcomes();
  /** the live feed, told of accepted messages and saved blocks (observer.ts) */
  private observer: LedgerObserver | undefined;

  private constructor(options: LedgerOptions, deps: LedgerDependencies) {
    const now = deps.now ?? Date.now;
    const networkIdValue = networkId(options.network, options.customNet);
    const producing = PRODUCING_NETWORKS.includes(options.network);
    const store = deps.store;
    const genesisBlockSetOf = genesisBlocks(options.network, options.customNet, options.customGenesis);
    if (store.isFresh()) {
      const genesis = genesisBlockSet(genesisBlockSetOf, now());
      store.initialize({ path: store.path, network: options.network, networkId: networkIdValue }, genesis.write);
      logSafely(deps.log, "info", "created the genesis block", { network: options.network, path: store.path });
    } else assertSameGenesis(store, genesisBlockSetOf, options.network);
    const signer = bootstrapSigner(options.bootstrap);
    const height = store.savedHeight();
    const state: LedgerState = {
      tip: loadTip(store, height),
      pl: new ProcessList(height + 1, store.openBlockStartMs()),
      holding: new HoldingQueue({
        limits: {
          reveals: options.holdingLimit ?? HOLDING_QUEUE_LIMIT,
          bytes: options.holdingBytes ?? HOLDING_QUEUE_BYTES,
        },
      }),
      saved: new SavedState(store, new Set(), new RecentPaidCommits(store.paidCommitBound())),
      counters: newCounters(),
    };
    const shown: { current: PreClose | undefined } = { current: undefined };
    super({ view: readersView(state, shown), store, options, now, producing, signer, replicated: deps.replicated });
    this.deps = deps;
    this.networkIdValue = networkIdValue;
    this.state = state;
    this.writeOutcomes.subscribe((o) => {
      if (o.refused !== undefined) this.state.counters.rejected++;
    });
    this.closer = new BlockCloser({
      shown,
      store,
      state: this.state,
      networkId: this.networkIdValue,
      signer: this.signer,
      log: (level, msg, fields) => this.log(level, msg, fields),
      fail: (reason) => this.fail(reason),
      saved: (info) => this.saved(info),
    });
  }

  /**
   * Open the ledger over `deps.store`: write the genesis block when the store is fresh, load the last
   * saved block, then replay the journal of the open block (crash recovery is replay).
   */
  static open(options: LedgerOptions, deps: LedgerDependencies): Ledger {
    const ledger = new Ledger(options, deps);
    try {
      ledger.replay();
    } catch (e) {
      if (!(e instanceof ReplaySaveError)) throw e;
      // Start anyway, serving reads; writes stay refused and recovery replays again once the disk takes writes.
      ledger.booted = true;
      ledger.fail(e.message);
    }
    return ledger;
  }

  /** Replay the journal from the open height on (replay.ts); a replayed close saves at once. */
  private replay(cleanup = true): void {
    replayJournal({
      store: this.deps.store,
      state: this.state,
      apply: (msg) => this.apply(msg, REPLAY_CLOSE),
      log: (level, msg, fields) => this.log(level, msg, fields),
      cleanup,
    });
    this.booted = true;
  }

  // ───────────────────────────── writes ─────────────────────────────

  // The three submits tell their outcome (try/catch in the method, not a wrapping closure: one async frame
  // and one promise less per write request).
  async submitCommit(commit: Commit): Promise<CommitAnswer> {
    try {
      this.assertWritable();
      const timeMs = this.now();
      checkTimestamp("commit", commit.milliTime, timeMs);
      const signed = commitSignedPart(commit);
      const [ok] = await this.deps.verifier.verify([
        { publicKey: commit.ecPublicKey, message: signed, signature: commit.signature },
      ]);
      if (ok !== true) throw new LedgerError({ code: "BAD_SIGNATURE", what: "commit" });
      // hashed once, to hex (hash.ts sha256Hex): the rules take the txid and the hex keys with the message
      // (messages.ts), the answer carries them
      const txIdHex = sha256Hex(signed);
      const txId = hexBytes(txIdHex);
      const hex = { txId: txIdHex, entryHash: toHex(commit.entryHash) };
      await this.accept({ kind: "commit", timeMs, commit, txId, keys: hex });
      this.writeOutcomes.accepted("commit");
      return { txId, entryHash: commit.entryHash, hex };
    } catch (e) {
      throw this.writeOutcomes.refused("commit", e);
    }
  }

  async submitReveal(
    entryRaw: Uint8Array,
    options: { kind?: "chain" | "entry"; from?: CallerAddress; entry?: Entry } = {},
  ): Promise<RevealAnswer> {
    try {
      this.assertWritable();
      const entry = options.entry ?? decodeEntry(entryRaw);
      // hashed once, to hex: the rules' key, the answer's entryhash; the bytes made from it
      const hashHex = entryHashHex(entryRaw);
      const hash = hexBytes(hashHex);
      const timeMs = this.now();
      if (options.kind === "chain") checkChainReveal(this.state, entry, hash, timeMs);
      // the per-source share (holdingPolicy.ts): an admission check, the caller is not in the log. The
      // caller's address is read only for a reveal that is or would be held: reading it for every reveal was
      // ~4 % of a loaded node's main thread (docs/performance.md §Writes).
      const from = options.from;
      let source: string | null | undefined; // null: read, and no source (an unknown address)
      if (from !== undefined && wouldHold(this.state, hash, timeMs)) {
        source = callerSource(from) ?? null;
        if (source !== null) checkSourceShare(this.state.holding, source, entryRaw.length);
      }
      // the entry decoded and hashed once: the rules take both with the message (messages.ts `decoded`)
      const decoded = { entry, entryHash: hash, entryHashHex: hashHex };
      const done = this.accept({ kind: "reveal", timeMs, entryRaw, decoded });
      // held now on a single node (applied before the journal write); on a cluster node once the log applied it
      if (from !== undefined) source = this.attributeHeld(hash, from, source);
      await done;
      if (from !== undefined) this.attributeHeld(hash, from, source);
      this.writeOutcomes.accepted("reveal");
      return { entryHash: hash, chainId: entry.chainId, hex: { entryHash: hashHex } };
    } catch (e) {
      throw this.writeOutcomes.refused("reveal", e);
    }
  }

  async submitTransaction(tx: Transaction): Promise<{ txId: Uint8Array }> {
    try {
      this.assertWritable();
      const timeMs = this.now();
      checkTimestamp("transaction", tx.milliTimestamp, timeMs);
      checkTransactionShape(
        tx,
        this.state.pl.exchangeRate ?? this.state.tip.exchangeRate,
        this.state.formerExchangeRate ?? this.state.tip.exchangeRate,
      );
      let checks: ReturnType<typeof transactionSignatureChecks>;
      try {
        checks = transactionSignatureChecks(tx);
      } catch (e) {
        throw asLedgerError(e);
      }
      const results = await this.deps.verifier.verify(checks);
      const bad = results.findIndex((r) => r !== true);
      if (bad >= 0) throw new LedgerError({ code: "BAD_SIGNATURE", what: `transaction input ${bad}` });
      await this.accept({ kind: "transaction", timeMs, tx });
      this.writeOutcomes.accepted("transaction");
      return { txId: transactionId(tx) };
    } catch (e) {
      throw this.writeOutcomes.refused("transaction", e);
    }
  }

  /**
   * End the open block's current minute at `timeMs` (the clock's job; tests call it directly). The end of
   * minute 10 closes and saves the block. Resolves once the marker is durable.
   */
  async endMinute(timeMs: number = this.now()): Promise<void> {
    this.assertWritable();
    // One block save in flight at a time: a close builds on the previous block's saved state.
    const previous = this.state.saved.closing;
    if (this.state.pl.minute === MINUTES_PER_BLOCK - 1 && previous !== undefined) {
      try {
        await previous.saved;
      } catch {
        throw new LedgerError({ code: "STORAGE_FULL", info: this.failure ?? "the previous block save failed" });
      }
    }
    await this.accept({ kind: "endOfMinute", timeMs, minute: this.state.pl.minute });
  }

  /**
   * Set the open block's start time to `timeMs` when it is still in its first minute (the clock calls
   * this at boot so a block opened before downtime starts now). Returns false when past minute 1.
   */
  async startBlock(timeMs: number = this.now()): Promise<boolean> {
    this.assertWritable();
    if (this.state.pl.minute !== 0) return false;
    await this.accept({ kind: "blockStart", timeMs });
    return true;
  }

  /** Resolves when every write so far (journal, block saves, journal cleanup) is on disk. */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.inflight, this.state.saved.closing?.saved]);
    await this.closer.cleanup;
    await this.deps.store.flushed();
  }

  /**
   * Count the reveal `hash` against its caller's source when the queue holds it and has no source for it yet;
   * the caller's address is read then unless already read (`source`: undefined when not read, null when read
   * and unknown). Returns the source as now known.
   */
  private attributeHeld(
    hash: Uint8Array,
    from: CallerAddress,
    source: string | null | undefined,
  ): string | null | undefined {
    const held = this.state.holding.get(hash);
    if (held === undefined || held.source !== undefined) return source;
    const known = source === undefined ? (callerSource(from) ?? null) : source;
    if (known !== null) this.state.holding.attribute(hash, known);
    return known;
  }

  private assertWritable(): void {
    // close() has begun: a write now could miss the final flush (a retry at the restarted node is safe)
    if (this.closed) throw nodeUnavailable("the node is stopping");
    if (!this.producing)
      throw new LedgerError({
        code: "NOT_PRODUCING",
        info:
          `a standalone node cannot produce blocks on ${this.options.network}: that needs the network's ` +
          "federated servers; run with -network=LOCAL (or CUSTOM) to write",
      });
    if (this.failure !== undefined) throw new LedgerError({ code: "STORAGE_FULL", info: this.failure });
  }

  /**
   * Apply then journal; resolves once the journal record is durable. The end of minute 10 is journaled
   * under the height it closes, and resolves once that block is saved too. Nothing else waits for a block
   * save: the closed block is fully described by its height's journal (its messages and this marker), so
   * if the save never commits, a restart or a recovery closes it again from the journal, byte for byte,
   * before it replays the next height (docs/ledger.md §5).
   */
  private accept(msg: LogMessage): Promise<void> {
    // After a storage failure nothing new is applied until recovery has rebuilt the state from disk.
    if (this.failure !== undefined)
      return Promise.reject(new LedgerError({ code: "STORAGE_FULL", info: this.failure }));
    // Refused before it is applied: a message the disk has no room for changes nothing.
    try {
      this.deps.store.assertWritable();
    } catch (e) {
      return Promise.reject(
        new LedgerError({ code: "STORAGE_FULL", info: e instanceof Error ? e.message : String(e) }),
      );
    }
    if (this.deps.replicated !== undefined) return this.deps.replicated.submit(msg);
    // the block the message goes into (the end of minute 10 replaces this.state.pl by the next block's list)
    const pl = this.state.pl;
    // applied, then journaled: a close waits for this record (close.ts, JOURNALED_CLOSE)
    const journal = this.apply(msg, JOURNALED_CLOSE);
    let durable: Promise<void>;
    if (journal) {
      const seq = pl.nextSeq++;
      pl.journalSeqs.push(seq);
      // a held reveal keeps this record past the close (holdingQueue.ts)
      if (msg.kind === "reveal") this.state.holding.located(msg.entryRaw, { height: pl.height, seq });
      // the message's head and its own bytes, packed by the journal (no buffer per message)
      durable = this.deps.store.appendJournal(pl.height, seq, messageHead(msg), messageBody(msg));
      // the end of minute 10: the block is saved and shown once this record is durable (close.ts)
      if (this.state.pl !== pl) this.closer.markerJournaled(durable);
    } else {
      // Same answer as an earlier identical message: not before that one is durable too.
      durable = this.deps.store.journalDurable();
    }
    // A record that is not on disk leaves its message applied in memory: the state is rebuilt from disk
    // before the refusal is answered, so a refused write is never seen as accepted (`rollBack`).
    // (The handlers are made once per ledger, as fields: a message costs two promises here, plus the close's wait.)
    let written: Promise<unknown> = durable.then(undefined, this.journalFailed);
    if (this.state.pl !== pl && this.state.saved.closing !== undefined)
      written = Promise.all([written, this.state.saved.closing.saved]);
    const done = written.then(NOTHING, this.writeFailed);
    this.inflight.add(done);
    done.then(
      () => {
        this.inflight.delete(done);
        if (journal) this.notify((o) => o.accepted(msg, pl.height));
      },
      () => {
        this.inflight.delete(done);
      },
    );
    return done;
  }

  /** A journal record did not reach the disk: refuse writes, rebuild the state from disk, then refuse this one. */
  private readonly journalFailed = (e: unknown): Promise<never> => {
    this.fail(`a write to the journal failed: ${e instanceof Error ? e.message : String(e)}`);
    return this.rollBack().then(() => {
      throw new LedgerError({ code: "STORAGE_FULL", info: this.failure ?? String(e) });
    });
  };

  /** What a message's wait ended with when it failed: the journal's refusal as is, a block save's as STORAGE_FULL. */
  private readonly writeFailed = (e: unknown): never => {
    if (e instanceof LedgerError) throw e;
    this.fail(`a write to the database failed: ${e instanceof Error ? e.message : String(e)}`);
    throw new LedgerError({ code: "STORAGE_FULL", info: this.failure! });
  };

  /** Tell `observer` of every accepted message and saved block from now on (one observer: the live feed). */
  setObserver(observer: LedgerObserver | undefined): void {
    this.observer = observer;
  }

  /** A saved block: one info line for the operator, then the observer (live feed) and the events (metrics). */
  private saved(info: SavedBlockInfo): void {
    this.log("info", "block saved", { ...info });
    this.notify((o) => o.blockSaved(info.height));
    try {
      this.deps.events?.blockSaved?.(info);
    } catch (e) {
      this.log("warn", "blockSaved listener failed", { error: e instanceof Error ? e.message : String(e) });
    }
  }

  private notify(call: (o: LedgerObserver) => void): void {
    if (this.observer === undefined) return;
    try {
      call(this.observer);
    } catch (e) {
      this.log("error", "ledger observer failed", { error: e instanceof Error ? e.message : String(e) });
    }
  }

  /**
   * Refuse every write from now on (STORAGE_FULL) and say why; reads are still served. A probe retries
   * every RECOVERY_PROBE_MS; once the disk takes writes again the state is rebuilt from disk (last saved
   * block + journal replay: exactly what was acknowledged) and writes resume, without a restart.
   */
  private fail(reason: string): void {
    if (this.failure !== undefined) return;
    this.log("error", "refusing writes until the database takes writes again", { reason });
    this.failure = reason;
    this.scheduleRecovery();
  }

  private scheduleRecovery(): void {
    if (this.closed || this.recoveryTimer !== undefined) return;
    this.recoveryTimer = setTimeout(() => {
      this.recoveryTimer = undefined;
      void this.tryRecover();
    }, RECOVERY_PROBE_MS);
    this.recoveryTimer.unref();
  }

  /**
   * After a failed journal write: once every write queued settles, rebuild the state from disk (last
   * saved block + the journal's durable records), dropping every message whose record is not on disk
   * (journal.ts refuses every record after a failed one, so that is all from the first failure on).
   * Writes stay refused until the recovery probe. Reads only, no write: the disk may still be full.
   */
  private rollBack(): Promise<void> {
    this.rollback ??= (async () => {
      await this.deps.store.journalSettled();
      await Promise.allSettled([this.state.saved.closing?.saved, this.closer.cleanup]);
      try {
        this.reload(false);
        this.log("warn", "dropped the messages whose journal write failed", {
          height: this.state.pl.height,
          minute: this.state.pl.minute,
        });
      } catch (e) {
        this.log("error", "rebuilding the state from disk failed", {
          error: e instanceof Error ? e.message : String(e),
        });
      }
    })();
    return this.rollback;
  }

  private async tryRecover(): Promise<void> {
    // Let every write already queued settle, so the disk holds all that will ever be acknowledged.
    await Promise.allSettled([...this.inflight, this.rollback, this.state.saved.closing?.saved, this.closer.cleanup]);
    try {
      await this.deps.store.probeWrite();
      this.reload();
    } catch (e) {
      this.log("debug", "database still refuses writes", { error: e instanceof Error ? e.message : String(e) });
      this.scheduleRecovery();
      return;
    }
    this.log("info", "writes resumed", {
      height: this.state.tip.height,
      minute: this.state.pl.minute,
      after: this.failure,
    });
    this.failure = undefined;
    this.rollback = undefined;
  }

  /**
   * Rebuild the in-memory state from the store: last saved block, then the open height's journal.
   * `cleanup` false: remove no stale journal records (a rebuild while the disk may be full).
   */
  private reload(cleanup = true): void {
    const store = this.deps.store;
    this.closer.reset();
    this.state.saved.closing = undefined;
    this.state.holding.clear();
    const height = store.savedHeight();
    this.state.tip = loadTip(store, height);
    this.state.pl = new ProcessList(height + 1, store.openBlockStartMs());
    this.replay(cleanup);
  }

  /** Log without letting a failing sink (e.g. a full disk holding the log file) break a ledger path. */
  private log(level: keyof LedgerLog, msg: string, fields?: Record<string, unknown>): void {
    logSafely(this.deps.log, level, msg, fields);
  }

  /** Stop the recovery probe and flush; call before closing the store. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.recoveryTimer !== undefined) clearTimeout(this.recoveryTimer);
    this.recoveryTimer = undefined;
    await this.flush().catch(() => {});
  }

  // ───────────────────────────── apply ─────────────────────────────

  /**
   * Apply one message through the rules (rules.ts `applyMessage`); the end of minute 10 closes the block
   * (close.ts). A failing close is a bug, not a user error: writes stop rather than continue on a
   * half-closed block.
   */
  /** Run the rules on one message; an end of minute 10 closes the block in `mode`. */
  private apply(msg: LogMessage, mode: CloseMode): boolean {
    return applyMessage(this.state, msg, (timeMs) => {
      try {
        this.closer.close(timeMs, mode);
      } catch (e) {
        this.fail(`closing block ${this.state.pl.height} failed: ${e instanceof Error ? e.message : String(e)}`);
        throw e;
      }
    });
  }

  // ───────────────────────────── cluster (cluster/federation.ts) ─────────────────────────────

  /**
   * A cluster node: apply one message the replicated log delivered, in log order. No journal record (the
   * log is the journal; a restart replays it from the saved block's `logSequence`). Throws LedgerError with
   * the state unchanged when a rule rejects the message; throws a StoreError (not a LedgerError) when this
   * node's disk refuses writes, so the caller stops applying rather than skip a record the others apply.
   * The end of minute 10 closes the block with the admin entries the log decided (`close`).
   */
  applyFromLog(msg: LogMessage, close?: ClusterClose): void {
    if (this.failure !== undefined)
      throw new StoreError({
        code: "WRITES_REFUSED",
        path: this.deps.store.path,
        info: `writes refused until recovery: ${this.failure}`,
      });
    this.deps.store.assertWritable();
    // the admin entries reach the close as an argument: only an end of minute 10 uses them
    this.apply(msg, close === undefined ? { kind: "log" } : { kind: "log", cluster: close });
  }

  /** Resolves when the last closed block is saved (rejects when its save failed). */
  async closeSaved(): Promise<void> {
    await this.state.saved.closing?.saved;
  }

  // ───────────────────────────── node state ─────────────────────────────

  /** Height and minute of the open block as the writer has it (the clock, cluster): a close not yet durable included. */
  override openBlock(): { height: number; minute: number; startMs: number; minuteStartMs: number } {
    const pl = this.state.pl;
    return { height: pl.height, minute: pl.minute, startMs: pl.startMs, minuteStartMs: pl.minuteStartMs };
  }

  isBooted(): boolean {
    return this.booted;
  }

  /**
   * A cluster's rate change starts at the open block (cluster/ecRate.ts): it pays `rate` base units per entry
   * credit and its asset block carries it. Only before the block's first write (the federation calls it as
   * the height opens), so no write of one block paid another rate than its neighbours.
   */
  setOpenExchangeRate(rate: bigint): void {
    const pl = this.state.pl;
    if (pl.commitCount > 0 || pl.revealCount > 0 || pl.transactions.length > 0)
      throw new LedgerError({ code: "INVALID", info: `block ${pl.height} has writes: its rate cannot change now` });
    if (rate <= 0n) throw new LedgerError({ code: "INVALID", info: `entry-credit rate ${rate}: must be above 0` });
    const current = pl.exchangeRate ?? this.state.tip.exchangeRate;
    if (rate !== current) this.state.formerExchangeRate = current;
    pl.exchangeRate = rate;
  }

  /** Why writes are refused (a storage failure being recovered from), or undefined while they are taken. */
  writeRefusal(): string | undefined {
    return this.failure;
  }
}

/** Log without letting a failing sink (e.g. a full disk holding the log file) break a ledger path. */
function logSafely(log: LedgerLog, level: keyof LedgerLog, msg: string, fields?: Record<string, unknown>): void {
  try {
    log[level](msg, fields);
  } catch {
    // the log is best effort; the ledger's answer is what matters
  }
}
