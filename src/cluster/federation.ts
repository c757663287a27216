/**
 * A node of a federation (docs/cluster.md): the driver around the federation's rules (heightMachine.ts). It
 * follows the replicated log (jetStreamLog.ts) from the saved block's record on, checks the client signatures
 * of each `writes` record through the worker pool (clientSignatures.ts) — pipelined ahead of the apply — and
 * hands every record to the machine in log order; it waits for each closed block's save, keeps the authority
 * set beside the blocks (authorityFile.ts), writes and reads block sets (blockSets.ts) to catch up past a
 * trimmed log, runs the proposer's timer (proposer.ts: the only part that reads the clock) and answers client
 * writes sent to this node (writeIntake.ts) once this node has applied them.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { publicKeyFromSeed } from "../crypto/ed25519.js";
import { NodeError } from "../errors.js";
import { LedgerError } from "../ledger/errors.js";
import type { LogMessage } from "../ledger/messages.js";
import { bytesEqual } from "../protocol/bytes.js";
import { type Authority, AuthoritySet, type AuthorityView } from "./authorities.js";
import { AuthorityKeeper } from "./authorityFile.js";
import { checkBlockSet, decodeBlockSet, encodeBlockSet, type SetRecord } from "./blockSets.js";
import { checkClientWrites } from "./clientSignatures.js";
import { EcRateSchedule, type ScheduledRate } from "./ecRate.js";
import { federationStatus } from "./federationStatus.js";
import type {
  FederationDependencies,
  FederationOptions,
  FederationStatus,
  ScheduledChanges,
} from "./federationTypes.js";
import { type CheckedWrite, type HeightEvents, HeightMachine } from "./heightMachine.js";
import type { LogRecord } from "./jetStreamLog.js";
import { operatorRecordName, operatorRecordRefusal, scheduledChangesView } from "./operatorRecords.js";
import { Proposer } from "./proposer.js";
import { type ClusterRecord, decodeRecord, encodeRecord, type OperatorRecord, recordSubject } from "./records.js";
import { WriteIntake } from "./writeIntake.js";

/** Between two looks at whether a proposal is due, ms (a minute of a 6-s block is 600 ms). */
const PROPOSE_TICK_MS = 50;
/** How often the network's leader height is read from the stream's newest end of minute, ms. */
const LEADER_HEIGHT_EVERY_MS = 2_000;
/** Pause before following again after the delivery stopped (disk full, a bug in apply), ms. */
const FOLLOW_RETRY_MS = 1_000;
/**
 * Records whose client signatures are checked ahead of the apply. A writes record holds up to 4,096 writes;
 * 8 records keep both pool threads busy while the main thread applies, and bound what waits in memory to
 * 8 × 512 KiB.
 */
const PIPELINE_RECORDS = 8;
/** Pause before looking again for a block set the archive does not hold yet, ms. */
const SET_RETRY_MS = 2_000;

/** Refusals of operator records remembered for their submitters (each answered within seconds of its apply). */
const MAX_REMEMBERED_REFUSALS = 64;

/**
 * Block sets this server failed to archive, kept to try again at its next closes. A put fails while the
 * archive's stream has no leader (a nats-server killed); every federated server closing that height may fail
 * alike, and a height no server archived is a hole no follower from an empty directory gets past once the log
 * is trimmed beyond it. 16 heights is ~32 s of 2-s test blocks and minutes of real ones; past that, or past
 * MAX_UNARCHIVED_BYTES of records kept (a busy height's records are tens of MB), the oldest is given up, with a warning.
 */
const MAX_UNARCHIVED_SETS = 16;
/** Bytes of records the kept sets may hold together (the node's memory budget is 400 MB under writes). */
const MAX_UNARCHIVED_BYTES = 64 * 1024 * 1024;

/** The federation cannot go on from here (a trimmed log without the block sets it needs). */
export class FederationError extends NodeError {}

export class Federation {
  private readonly now: () => number;
  private authorities: AuthoritySet;
  /** the authority set's file beside the saved blocks */
  private readonly keeper: AuthorityKeeper;
  /** the announced entry-credit rates, kept beside the saved blocks (ecRate.ts) */
  private readonly rates: EcRateSchedule;
  private readonly proposer: Proposer;
  private readonly intake: WriteIntake;
  /** the federation's rules over the open height (made at start, over the loaded authority set) */
  private machine!: HeightMachine;
  /** the last record applied */
  private appliedSeq = 0;
  /** the last record taken from the log (checked, queued or applied): appliedSeq ≤ receivedSeq */
  private receivedSeq = 0;
  /** settles when every record taken so far is applied */
  private applied: Promise<void> = Promise.resolve();
  /** records taken and not yet applied */
  private queued = 0;
  /** why applying stopped (a failed save, a bug): delivery stops, and follow() starts again from appliedSeq */
  private applyFailure: unknown;
  /** counts follow() starts: a retry of an older delivery does nothing */
  private followGeneration = 0;
  /** stop the current delivery and follow again (set by follow()) */
  private retryFollow: (e: unknown) => void = () => {};
  /** sequence the node must reach before it counts as synced and starts proposing */
  private catchUpTarget = Number.POSITIVE_INFINITY;
  private synced = false;
  private stopped = false;
  private following: { stop(): Promise<void>; done: Promise<void> } | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** the height the network works on, from the stream's newest end-of-minute record (0: not known yet) */
  private networkHeight = 0;
  private leaderTimer: NodeJS.Timeout | undefined;
  /** settles `whenForked` with the height of this node's block that the majority did not sign */
  private forkedAt: (height: number) => void = () => {};
  private readonly forkedPromise = new Promise<number>((resolve) => {
    this.forkedAt = resolve;
  });
  /** the height of the last bad-signature warning (one per height) */
  private badSignatureWarnedAt = -1;
  /** log sequence → why the rules skipped that operator's record (the latest few, for submitOperatorRecord) */
  private readonly refusals = new Map<number, string>();
  /** a federated server with an archive: the records of the open height, for its block set (blockSets.ts) */
  private openRecords: SetRecord[] | undefined;
  /** height → a closed height's set that could not be archived yet (MAX_UNARCHIVED_SETS), oldest first */
  private readonly unarchived = new Map<number, { records: SetRecord[]; seed: Uint8Array; bytes: number }>();
  /** the records' bytes `unarchived` holds */
  private unarchivedBytes = 0;

  constructor(
    private readonly options: FederationOptions,
    private readonly deps: FederationDependencies,
  ) {
    this.now = deps.now ?? Date.now;
    this.proposer = new Proposer(options, deps, this.now);
    this.authorities = new AuthoritySet(options.bootstrap);
    this.keeper = new AuthorityKeeper(
      { ...(options.authorityFile === undefined ? {} : { file: options.authorityFile }), bootstrap: options.bootstrap },
      { ledger: deps.ledger, logger: deps.logger },
    );
    if (options.role === "federated" && deps.archive !== undefined) this.openRecords = [];
    this.rates = new EcRateSchedule(options.ecRateFile === undefined ? {} : { file: options.ecRateFile }, {
      logger: deps.logger,
    });
    this.intake = new WriteIntake(deps.log, options.nodeName, () =>
      this.machine?.forked === true ? "this node's blocks differ from the signed majority: writes refused" : undefined,
    );
  }

  /** Load the authority set, then follow the log from the saved block's record on. */
  async start(): Promise<void> {
    const open = this.deps.ledger.openBlock();
    this.authorities = this.keeper.load(open.height);
    this.rates.load(this.deps.ledger.savedLogSequence(), open.height - 1);
    this.machine = new HeightMachine(
      {
        networkId: this.options.networkId,
        skeletonKey: this.options.skeletonKey,
        ...(this.options.rateAuthority === undefined ? {} : { rateAuthority: this.options.rateAuthority }),
      },
      {
        ledger: this.deps.ledger,
        authorities: this.authorities,
        rates: this.rates,
        events: this.machineEvents(),
      },
    );
    this.appliedSeq = this.deps.ledger.savedLogSequence();
    this.receivedSeq = this.appliedSeq;
    this.catchUpTarget = await this.lastSequenceWithRetry();
    if (this.appliedSeq >= this.catchUpTarget) this.markSynced();
    this.follow();
    this.timer = setInterval(() => {
      if (this.synced && !this.machine.forked && !this.stopped) this.proposer.propose(this.machine.height);
    }, PROPOSE_TICK_MS);
    if (this.deps.log.lastOfKind !== undefined) {
      void this.readNetworkHeight();
      this.leaderTimer = setInterval(() => void this.readNetworkHeight(), LEADER_HEIGHT_EVERY_MS);
      this.leaderTimer.unref();
    }
  }

  /**
   * Resolves, once, with the height of this node's block that a majority of federated servers did not sign
   * (the fork point): from then on the node proposes nothing and refuses writes (cli.ts resyncs it).
   */
  whenForked(): Promise<number> {
    return this.forkedPromise;
  }

  /** The stream's last sequence; retried while the stream has no leader (a nats-server is restarting). */
  private async lastSequenceWithRetry(): Promise<number> {
    const deadline = this.now() + 60_000;
    for (;;) {
      try {
        return await this.deps.log.lastSequence();
      } catch (e) {
        if (this.now() > deadline) throw e;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.leaderTimer !== undefined) clearInterval(this.leaderTimer);
    await this.following?.stop();
    // records already taken are applied (or fail) before the ledger under them closes
    await this.applied;
    this.intake.close();
  }

  /**
   * Catch up from block sets while the log no longer holds the next record, then follow the log. After a
   * failure (of the delivery, or of an apply) it starts again from the record after the last one applied.
   */
  private follow(): void {
    if (this.stopped) return;
    const generation = ++this.followGeneration;
    const retry = (e: unknown): void => {
      if (this.stopped || generation !== this.followGeneration) return;
      this.followGeneration++;
      this.deps.logger.error("applying the log stopped; retrying", {
        seq: this.appliedSeq + 1,
        error: e instanceof Error ? e.message : String(e),
      });
      const f = this.following;
      this.following = undefined;
      void (f?.stop() ?? Promise.resolve()).then(() => setTimeout(() => this.follow(), FOLLOW_RETRY_MS).unref());
    };
    this.retryFollow = retry;
    this.applied
      .then(() => {
        // a new delivery: every record taken before is applied or was dropped with the failure
        this.applyFailure = undefined;
        this.receivedSeq = this.appliedSeq;
        return this.catchUpFromSets();
      })
      .then(() => {
        if (this.stopped || generation !== this.followGeneration) return;
        const f = this.deps.log.follow(this.appliedSeq + 1, (r) => this.onRecord(r));
        this.following = f;
        f.done.then(() => {}, retry);
      }, retry);
  }

  /**
   * While the log's oldest record is past the next one this node needs (the stream was trimmed), apply the
   * open height's block set from the archive (blockSets.ts), checked first: signer, sequences, and the
   * signature majority of the height's federated servers over this node's own previous block.
   */
  private async catchUpFromSets(): Promise<void> {
    let announced = false;
    let waitingFor = -1;
    for (;;) {
      if (this.stopped) return;
      const first = await this.deps.log.firstSequence();
      if (this.appliedSeq + 1 >= first) {
        if (announced)
          this.deps.logger.info("block sets applied; following the log", {
            height: this.machine.height.height,
            seq: this.appliedSeq + 1,
          });
        return;
      }
      const archive = this.deps.archive;
      if (archive === undefined)
        throw new FederationError(
          `the log's oldest record is ${first}, this node needs ${this.appliedSeq + 1}, and there is no block-set archive`,
        );
      const height = this.machine.height.height;
      if (!announced) {
        this.deps.logger.info("the log no longer holds this node's next records: catching up from block sets", {
          height,
          need: this.appliedSeq + 1,
          oldestInLog: first,
        });
        announced = true;
      }
      const parts = await archive.get(height);
      if (parts === undefined) {
        if (waitingFor !== height)
          this.deps.logger.warn("no block set for the open height in the archive yet; waiting", { height });
        waitingFor = height;
        await sleep(SET_RETRY_MS);
        continue;
      }
      const set = decodeBlockSet(parts);
      const wrong = checkBlockSet(set, {
        networkId: this.options.networkId,
        height,
        nextSeq: this.appliedSeq + 1,
        federated: this.machine.height.authorities.federated,
        previous: this.deps.ledger.lastDirectoryBlock(),
      });
      if (wrong !== undefined) throw new FederationError(`block set ${height} refused: ${wrong}`);
      for (const r of set.records) await this.onRecord({ seq: r.seq, subject: "", data: r.data, storedMs: 0 });
      await this.drain();
      if (this.machine.height.height !== height + 1)
        throw new FederationError(`block set ${height} applied but did not close the height`);
      this.deps.logger.debug("block set applied", { height, records: set.records.length, seq: this.appliedSeq });
    }
  }

  private markSynced(): void {
    if (this.synced) return;
    this.synced = true;
    this.deps.logger.info("caught up with the log", { seq: this.appliedSeq, height: this.machine.height.height });
  }

  // ───────────────────────────── writes (writeIntake.ts) ─────────────────────────────

  /**
   * Append a client message (already checked here: decode, signature, pre-checks) and resolve once this
   * node has applied it: rejects with the rule's LedgerError when the log order made it invalid.
   */
  submit(msg: LogMessage): Promise<void> {
    return this.intake.submit(msg);
  }

  /** True while a write with this hash was accepted here and is not yet applied from the log (ack: NotConfirmed). */
  isPending(hash: Uint8Array): boolean {
    return this.intake.isPending(hash);
  }

  /**
   * Append a skeleton-signed addServer record (send-raw-message type 0x16) and resolve once this node has
   * applied it: the server is an authority from the block after the one it went into. Throws LedgerError INVALID
   * when the skeleton signature does not verify.
   */
  async submitAddServer(rec: Extract<ClusterRecord, { kind: "addServer" }>): Promise<void> {
    await this.submitOperatorRecord(rec);
  }

  /**
   * Append an operator's record (addServer 0x16, authorityChange 0x17, rotateKey 0x18) and resolve once this
   * node has applied it. Throws LedgerError INVALID, before appending, when its signature is not the key the
   * chain names for it (the skeleton key; for a rotation the identity's key in force), and after applying when
   * the rules skipped it (heightMachine.ts: the height, the order, the majority), with the rules' reason.
   */
  async submitOperatorRecord(rec: OperatorRecord): Promise<void> {
    const what = operatorRecordName(rec);
    const hs = this.machine.height;
    const refusal = operatorRecordRefusal(rec, {
      networkId: this.options.networkId,
      skeletonKey: this.options.skeletonKey,
      rateAuthority: this.options.rateAuthority,
      height: hs.height,
      authorities: hs.authorities,
    });
    if (refusal !== undefined) throw new LedgerError({ code: "INVALID", info: refusal });
    const appliedBefore = this.appliedSeq;
    const { seq, duplicate } = await this.deps.log.append(recordSubject(rec.kind), encodeRecord(rec));
    // the same bytes already stored, and applied before this call began (a follower names a record by its bytes,
    // so the log kept one copy): a replay, not this call's own retry, whose copy came after it began
    if (duplicate && seq <= appliedBefore)
      throw new LedgerError({
        code: "INVALID",
        info: `${what}: replay: the same record is already in the log (sequence ${seq})`,
      });
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (this.appliedSeq >= seq || this.stopped) resolve();
        else setTimeout(check, 20);
      };
      check();
    });
    const refused = this.refusals.get(seq);
    if (refused !== undefined) throw new LedgerError({ code: "INVALID", info: `${what}: ${refused}` });
  }

  // ───────────────────────────── apply ─────────────────────────────

  /**
   * Take the log's next record: decode it and start its client signature checks at once, then queue its
   * apply behind the records before it. Up to PIPELINE_RECORDS records are checked ahead of the apply (the
   * worker pool checks while the main thread applies); the delivery waits beyond that.
   */
  private async onRecord(r: LogRecord): Promise<void> {
    if (this.applyFailure !== undefined) throw this.applyFailure;
    if (r.seq <= this.receivedSeq) return;
    // the log no longer holds what comes before (trimmed): follow() catches up from block sets
    if (r.seq > this.receivedSeq + 1)
      throw new FederationError(`the log skips from ${this.receivedSeq} to ${r.seq}: records were removed`);
    this.receivedSeq = r.seq;
    const checked = this.check(r);
    this.queued++;
    const step = this.applied.then(() => this.applyChecked(r, checked));
    this.applied = step.then(
      () => {
        this.queued--;
      },
      (e: unknown) => {
        this.queued--;
        if (this.applyFailure !== undefined) return;
        this.applyFailure = e;
        this.retryFollow(e);
      },
    );
    if (this.queued >= PIPELINE_RECORDS) await this.applied;
    if (this.applyFailure !== undefined) throw this.applyFailure;
  }

  /** Resolves once every record taken so far is applied; rejects with the apply's failure. */
  private async drain(): Promise<void> {
    await this.applied;
    if (this.applyFailure !== undefined) throw this.applyFailure;
  }

  /** Decode a record; for a `writes` record, check its client writes (asynchronous: the pool). */
  private check(r: LogRecord): { rec: ClusterRecord | undefined; writes: Promise<CheckedWrite[]> | undefined } {
    let rec: ClusterRecord | undefined;
    try {
      rec = decodeRecord(r.data);
    } catch (e) {
      this.deps.logger.warn("log record skipped: not a record", { seq: r.seq, error: String(e) });
    }
    const writes = rec?.kind === "writes" ? checkClientWrites(rec.messages, this.deps.signatures) : undefined;
    // a rejection is read when the record's turn comes; until then it must not count as unhandled
    writes?.catch(() => {});
    return { rec, writes };
  }

  /** Apply one checked record in log order; after a close, wait for the block's save, then archive. */
  private async applyChecked(
    r: LogRecord,
    checked: { rec: ClusterRecord | undefined; writes: Promise<CheckedWrite[]> | undefined },
  ): Promise<void> {
    // a record after a failed one is not applied: the next delivery starts again from the failed one
    if (this.applyFailure !== undefined) throw this.applyFailure;
    // network testing: a record is applied `delay` ms after the stream stored it (not cumulative)
    const delayMs = this.deps.networkTesting?.().delayMs ?? 0;
    const wait = delayMs > 0 ? r.storedMs + delayMs - this.now() : 0;
    if (wait > 0) await sleep(wait);
    const writes = checked.writes === undefined ? undefined : await checked.writes;
    this.openRecords?.push({ seq: r.seq, data: r.data });
    // the set is signed with the key the chain names for this server at the set's height (a rotation switches it)
    const publisher =
      this.synced && this.proposer.signsAt(this.machine.height.height)
        ? this.mySeedFor(this.machine.height.authorities.federated)
        : undefined;
    let closed = false;
    if (checked.rec !== undefined) {
      const applied = this.machine.apply(checked.rec, r.seq, writes);
      closed = applied.closed;
      if (applied.writes !== undefined) this.intake.delivered(r.seq, applied.writes);
      if (applied.refused !== undefined) this.noteRefusal(r.seq, checked.rec.kind, applied.refused);
    }
    this.appliedSeq = r.seq;
    if (closed) {
      await this.deps.ledger.closeSaved();
      const height = this.machine.height.height;
      this.keeper.save(height - 1, this.authorities);
      if (this.openRecords !== undefined) {
        if (publisher !== undefined) void this.publishSet(height - 1, this.openRecords, publisher);
        this.openRecords = [];
      }
      // certified snapshots (snapshots.ts): signed by the servers federated at the height after it
      if (this.synced)
        this.deps.snapshots?.saved(
          height - 1,
          this.authorities,
          this.mySeedFor(this.machine.height.authorities.federated),
        );
    }
    if (!this.synced && this.appliedSeq >= this.catchUpTarget) this.markSynced();
  }

  /** One warning per height when a client write with a bad signature was skipped (a forger, or a bug). */
  private warnBadSignature(height: number): void {
    if (this.badSignatureWarnedAt === height) return;
    this.badSignatureWarnedAt = height;
    this.deps.logger.warn("a client write in the log has a bad signature: skipped by every node", {
      height,
      skippedSoFar: this.machine.badSignatures,
    });
  }

  /** An operator's record the rules skipped: logged, and kept a while for its submitter's answer. */
  private noteRefusal(seq: number, kind: string, reason: string): void {
    this.deps.logger.warn("operator record skipped", { seq, kind, reason });
    this.refusals.set(seq, reason);
    // (insertion order: the oldest goes first)
    if (this.refusals.size > MAX_REMEMBERED_REFUSALS) this.refusals.delete(this.refusals.keys().next().value!);
  }

  /** What the machine reports, to the proposer (the voter's observations) and the log. */
  private machineEvents(): HeightEvents {
    return {
      signed: (id) => this.proposer.signed(id),
      heightOpened: (hs) => this.proposer.heightOpened(hs),
      badSignature: (height) => this.warnBadSignature(height),
      forked: (height) => {
        this.deps.logger.error(
          "a majority of federated servers signed a different block: this node has forked and stops writing",
          { height },
        );
        this.forkedAt(height);
      },
      snapshotSigned: (rec, federated) => this.deps.snapshots?.signed(rec, federated),
      votedOut: (height, faulted, promoted) =>
        this.deps.logger.warn("a federated server was voted out; an audit server takes its place next block", {
          height,
          faulted,
          promoted,
        }),
    };
  }

  /** True when this node's identity, with its own key, is in `list`. */
  /** This server's seed whose key `list` (federated servers of a height) names for it; undefined when none. */
  private mySeedFor(list: readonly Authority[]): Uint8Array | undefined {
    const me = this.options.identity;
    const key = me === undefined ? undefined : list.find((a) => bytesEqual(a.identity, me))?.publicKey;
    if (key === undefined) return undefined;
    for (const seed of [this.options.seed, this.options.nextSeed])
      if (seed !== undefined && bytesEqual(publicKeyFromSeed(seed), key)) return seed;
    return undefined;
  }

  /**
   * Write the set of a height this federated server closed to the archive, unless it is there already; first
   * the sets earlier puts failed to write (`unarchived`), oldest first. A set that fails is kept for the next close.
   */
  private async publishSet(height: number, records: SetRecord[], seed: Uint8Array): Promise<void> {
    for (const [h, kept] of [...this.unarchived]) {
      if (!(await this.archiveSet(h, kept.records, kept.seed))) break;
      if (this.unarchived.delete(h)) this.unarchivedBytes -= kept.bytes;
      this.deps.logger.info("block set archived on a later try", { height: h });
    }
    if (await this.archiveSet(height, records, seed)) return;
    let bytes = 0;
    for (const r of records) bytes += r.data.length;
    this.unarchived.set(height, { records, seed, bytes });
    this.unarchivedBytes += bytes;
    while (this.unarchived.size > MAX_UNARCHIVED_SETS || this.unarchivedBytes > MAX_UNARCHIVED_BYTES) {
      const [oldest, kept] = this.unarchived.entries().next().value!;
      this.unarchived.delete(oldest);
      this.unarchivedBytes -= kept.bytes;
      this.deps.logger.warn("block set given up: not archived after later tries", { height: oldest });
    }
  }

  /** Put one set unless the archive holds it; false (logged) when the archive refused or could not be reached. */
  private async archiveSet(height: number, records: SetRecord[], seed: Uint8Array): Promise<boolean> {
    const archive = this.deps.archive!;
    try {
      if (!(await archive.has(height)))
        await archive.put(
          height,
          encodeBlockSet(this.options.networkId, height, records, this.options.identity!, seed),
        );
      return true;
    } catch (e) {
      this.deps.logger.warn("block set not archived", {
        height,
        error: e instanceof Error ? e.message : String(e),
      });
      return false;
    }
  }

  // ───────────────────────────── views ─────────────────────────────

  /** Read the newest end of minute of the stream: the network is at its height (the next one after minute 10). */
  private async readNetworkHeight(): Promise<void> {
    try {
      const data = await this.deps.log.lastOfKind!(recordSubject("endOfMinute"));
      if (data === undefined) return;
      const rec = decodeRecord(data);
      if (rec.kind === "endOfMinute") this.networkHeight = rec.minute === 9 ? rec.height + 1 : rec.height;
    } catch {
      // no server answers now: keep the last known height
    }
  }

  /**
   * The height the leaders work on (spec `leaderheight`): this node's open height, or the network's when the
   * stream shows it further on (a follower catching up).
   */
  leaderHeight(): number {
    return Math.max(this.machine.height.height, this.networkHeight);
  }

  status(): FederationStatus {
    const o = this.options;
    const position = {
      appliedSequence: this.appliedSeq,
      synced: this.synced,
      stream: o.stream ?? "",
      networkHeight: this.networkHeight,
    };
    return federationStatus({ role: o.role, identity: o.identity, ...position }, this.machine);
  }

  /**
   * The voter's view of each federated server of the open height: online unless silent past the fault
   * timeout, and the audit server this node would vote to replace it with.
   */
  faultView(): Map<string, { online: boolean; replace: string | undefined }> {
    return this.proposer.faultView(this.machine.height);
  }

  /**
   * The entry-credit rate of the open block and the changes announced after it (entry-credit-rate,
   * predictive-fer, the panel): `announced` is the next change's rate, or the rate in force when none.
   */
  ecRates(): { inForce: bigint; announced: bigint; scheduled: ScheduledRate[] } {
    // (asked before start too: the API listens first)
    const open = this.machine?.height.height ?? this.deps.ledger.openBlock().height;
    const scheduled = this.rates.scheduled().filter((s) => s.activationHeight > open);
    const inForce = this.deps.ledger.entryCreditRate?.() ?? 0n;
    return { inForce, announced: scheduled[0]?.rate ?? inForce, scheduled: [...scheduled] };
  }

  /**
   * Brain swap on a running server (a reloaded [App] IdentityActivationHeight / IdentityStopHeight): it signs
   * for its identity only at heights of the window. Logged, with the open height.
   */
  signingWindow(): { fromHeight: number; untilHeight: number } {
    return this.proposer.signingWindow();
  }

  setSigningWindow(w: { fromHeight: number; untilHeight: number }): void {
    this.proposer.setSigningWindow(w);
    this.deps.logger.warn("signing window changed (brain swap)", {
      fromHeight: w.fromHeight,
      untilHeight: w.untilHeight,
      openHeight: this.machine?.height.height,
    });
  }

  /**
   * What the chain has scheduled and not yet in force (the panel): role changes and keys recorded in saved
   * admin blocks, with their activation heights; the announced entry-credit rates; this node's signing window.
   */
  scheduledChanges(): ScheduledChanges {
    const openHeight = this.machine?.height.height ?? this.deps.ledger.openBlock().height;
    return scheduledChangesView(
      openHeight,
      this.authorities.pendingChanges(),
      this.ecRates().scheduled,
      this.signingWindow(),
    );
  }

  /** The signing key the open height's authority set names for an identity (undefined: not an authority). */
  keyInForce(identity: Uint8Array): Uint8Array | undefined {
    const hs = this.machine?.height;
    if (hs === undefined) return undefined;
    return [...hs.authorities.federated, ...hs.authorities.audit].find((a) => bytesEqual(a.identity, identity))
      ?.publicKey;
  }

  /** The authority set of the open height (federated-servers, audit-servers, authorities). */
  authorityView(): AuthorityView {
    return this.machine.height.authorities;
  }
}
