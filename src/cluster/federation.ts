/**
 * A node of a federation (docs/cluster.md): it applies the replicated log (jetStreamLog.ts) to its ledger
 * in log order, and — as a federated server — proposes what the log needs to move on: the first block's
 * start, its directory-block signature for each height, and end-of-minute markers. Client writes sent to
 * this node are appended as `writes` records and answered once this node has applied them.
 *
 * JetStream orders; this file decides, with rules every node applies identically to the same records
 * (FEDERATION.md §4): a record that does not fit the open block (a stale end of minute, a signature of a
 * server that is not federated at that height, a second signature of one server) is skipped by every
 * node, so nothing depends on JetStream's dedup or on who proposed first.
 *
 * Per open height h (state reset at each close):
 * * dbSig records of the federated servers of h, verified over this node's own directory block h−1;
 * * end of minute 0 waits, pending, until ⌊F/2⌋+1 signatures are in (then the first valid EOM(h,0) ends it);
 * * addServer records (skeleton-signed) become admin entries 05/06 (+08 for a new key), active at h+1;
 * * the end of minute 9 closes the block with admin entries [05/06…, 01 signatures in factomd's minute-0
 *   VM order, 08…] and records the closing record's sequence with the saved block, where a restart resumes.
 */
import { NodeError } from "../errors.js";
import { LedgerError } from "../ledger/errors.js";
import { decodeMessage, type LogMessage } from "../ledger/messages.js";
import type { AdminEntry } from "../protocol/ablock.js";
import { bytesEqual, toHex } from "../protocol/bytes.js";
import { directoryBlockHashes } from "../protocol/dblock.js";
import { ProtocolError } from "../protocol/errors.js";
import type { SignatureCheck } from "../workers/verifier.js";
import { type Authority, AuthoritySet, type AuthorityView } from "./authorities.js";
import { loadAuthorities, saveAuthorities } from "./authorityFile.js";
import { checkBlockSet, decodeBlockSet, encodeBlockSet, type SetRecord } from "./blockSets.js";
import { badSignature, clientSignatureChecks } from "./clientSignatures.js";
import { majority, orderedSignatureEntries, verifyDirectoryBlockSignature } from "./dbSig.js";
import { newElectionState, tallyFaultVote } from "./election.js";
import type {
  FederationDependencies,
  FederationOptions,
  FederationStatus,
  HeightState,
  WriteResult,
} from "./federationTypes.js";
import type { LogRecord } from "./jetStreamLog.js";
import { Proposer } from "./proposer.js";
import { type ClusterRecord, decodeRecord, encodeRecord, recordSubject, verifyRecord } from "./records.js";
import { WriteIntake } from "./writeIntake.js";

export type {
  ClusterRole,
  FederatedLedger,
  FederationDependencies,
  FederationOptions,
  FederationStatus,
  OrderedLog,
} from "./federationTypes.js";

/** Between two looks at whether a proposal is due, ms (a minute of a 6-s block is 600 ms). */
const PROPOSE_TICK_MS = 50;
/** How often the network's leader height is read from the stream's newest end of minute, ms. */
const LEADER_HEIGHT_EVERY_MS = 2_000;
/** Pause before following again after the delivery stopped (disk full, a bug in apply), ms. */
const FOLLOW_RETRY_MS = 1_000;
/** Pause before looking again for a block set the archive does not hold yet, ms. */
const SET_RETRY_MS = 2_000;

/** The federation cannot go on from here (a trimmed log without the block sets it needs). */
export class FederationError extends NodeError {}

/** A client write of a `writes` record after its checks: the message to apply, or its refusal. */
type CheckedWrite = LogMessage | LedgerError;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export class Federation {
  private readonly now: () => number;
  private authorities: AuthoritySet;
  private readonly proposer: Proposer;
  private readonly intake: WriteIntake;
  private hs!: HeightState;
  private appliedSeq = 0;
  /** sequence the node must reach before it counts as synced and starts proposing */
  private catchUpTarget = Number.POSITIVE_INFINITY;
  private synced = false;
  private forked = false;
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
  /** client writes from the log skipped for a bad signature since this node started (summary, metrics) */
  private badSignatures = 0;
  /** the height of the last bad-signature warning (one per height) */
  private badSignatureWarnedAt = -1;
  /** a federated server with an archive: the records of the open height, for its block set (blockSets.ts) */
  private openRecords: SetRecord[] | undefined;

  constructor(
    private readonly options: FederationOptions,
    private readonly deps: FederationDependencies,
  ) {
    this.now = deps.now ?? Date.now;
    this.proposer = new Proposer(options, deps, this.now);
    this.authorities = new AuthoritySet(options.bootstrap);
    if (options.role === "federated" && deps.archive !== undefined) this.openRecords = [];
    this.intake = new WriteIntake(deps.log, options.nodeName, () =>
      this.forked ? "this node's blocks differ from the signed majority: writes refused" : undefined,
    );
  }

  /** Load the authority set, then follow the log from the saved block's record on. */
  async start(): Promise<void> {
    const open = this.deps.ledger.openBlock();
    this.loadAuthorities(open.height);
    this.resetHeight(open.height);
    this.appliedSeq = this.deps.ledger.savedLogSequence();
    this.catchUpTarget = await this.lastSequenceWithRetry();
    if (this.appliedSeq >= this.catchUpTarget) this.markSynced();
    this.follow();
    this.timer = setInterval(() => {
      if (this.synced && !this.forked && !this.stopped) this.proposer.propose(this.hs);
    }, PROPOSE_TICK_MS);
    if (this.deps.log.lastOfKind !== undefined) {
      void this.readNetworkHeight();
      this.leaderTimer = setInterval(() => void this.readNetworkHeight(), LEADER_HEIGHT_EVERY_MS);
      this.leaderTimer.unref();
    }
  }

  /**
   * The authority set of the saved blocks: from the file kept beside them (authorityFile.ts) when it belongs
   * to this chain, folding in only the admin blocks saved after it; else from every saved admin block.
   */
  private loadAuthorities(openHeight: number): void {
    let from = 0;
    const file = this.options.authorityFile;
    const saved = file === undefined ? undefined : loadAuthorities(file, this.options.bootstrap);
    if (saved !== undefined && "reason" in saved) {
      this.deps.logger.warn("authority file not used; rebuilding from the admin blocks", {
        file,
        reason: saved.reason,
      });
    } else if (saved !== undefined) {
      const block = saved.through < openHeight ? this.deps.ledger.directoryBlockByHeight(saved.through) : undefined;
      if (block !== undefined && bytesEqual(directoryBlockHashes(block.block).keyMR, saved.keyMR)) {
        this.authorities = saved.set;
        from = saved.through + 1;
      } else
        this.deps.logger.warn("authority file belongs to other blocks; rebuilding from the admin blocks", {
          file,
          height: saved.through,
        });
    }
    for (let h = from; h < openHeight; h++) this.authorities.applyAdminBlock(h, this.deps.ledger.adminEntries(h));
    this.deps.logger.debug("authority set loaded", { fromFile: from > 0, adminBlocksRead: openHeight - from });
    if (from < openHeight) this.saveAuthorities(openHeight - 1);
  }

  /** Keep the set as folded through admin block `through` (the last saved) beside the blocks. */
  private saveAuthorities(through: number): void {
    const file = this.options.authorityFile;
    if (file === undefined) return;
    const block = this.deps.ledger.directoryBlockByHeight(through);
    if (block === undefined) return;
    try {
      saveAuthorities(file, through, directoryBlockHashes(block.block).keyMR, this.authorities);
    } catch (e) {
      // a cache: the next start rebuilds from the admin blocks
      this.deps.logger.warn("authority file not written", { file, error: e instanceof Error ? e.message : String(e) });
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
    this.intake.close();
  }

  /** Catch up from block sets while the log no longer holds the next record, then follow the log. */
  private follow(): void {
    if (this.stopped) return;
    const retry = (e: unknown): void => {
      if (this.stopped) return;
      this.deps.logger.error("applying the log stopped; retrying", {
        seq: this.appliedSeq + 1,
        error: e instanceof Error ? e.message : String(e),
      });
      setTimeout(() => this.follow(), FOLLOW_RETRY_MS).unref();
    };
    this.catchUpFromSets().then(() => {
      if (this.stopped) return;
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
            height: this.hs.height,
            seq: this.appliedSeq + 1,
          });
        return;
      }
      const archive = this.deps.archive;
      if (archive === undefined)
        throw new FederationError(
          `the log's oldest record is ${first}, this node needs ${this.appliedSeq + 1}, and there is no block-set archive`,
        );
      const height = this.hs.height;
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
        federated: this.hs.authorities.federated,
        previous: this.deps.ledger.lastDirectoryBlock(),
      });
      if (wrong !== undefined) throw new FederationError(`block set ${height} refused: ${wrong}`);
      for (const r of set.records) await this.onRecord({ seq: r.seq, subject: "", data: r.data, storedMs: 0 });
      if (this.hs.height !== height + 1)
        throw new FederationError(`block set ${height} applied but did not close the height`);
      this.deps.logger.debug("block set applied", { height, records: set.records.length, seq: this.appliedSeq });
    }
  }

  private markSynced(): void {
    if (this.synced) return;
    this.synced = true;
    this.deps.logger.info("caught up with the log", { seq: this.appliedSeq, height: this.hs.height });
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
    if (!verifyRecord(rec, this.options.networkId, this.options.skeletonKey))
      throw new LedgerError({ code: "INVALID", info: "add server: the signature is not the network's skeleton key's" });
    const { seq } = await this.deps.log.append(recordSubject("addServer"), encodeRecord(rec));
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (this.appliedSeq >= seq || this.stopped) resolve();
        else setTimeout(check, 20);
      };
      check();
    });
  }

  // ───────────────────────────── apply ─────────────────────────────

  private async onRecord(r: LogRecord): Promise<void> {
    if (r.seq <= this.appliedSeq) return;
    // the log no longer holds what comes before (trimmed): follow() catches up from block sets
    if (r.seq > this.appliedSeq + 1)
      throw new FederationError(`the log skips from ${this.appliedSeq} to ${r.seq}: records were removed`);
    // network testing: a record is applied `delay` ms after the stream stored it (not cumulative)
    const delayMs = this.deps.networkTesting?.().delayMs ?? 0;
    const wait = delayMs > 0 ? r.storedMs + delayMs - this.now() : 0;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    let rec: ClusterRecord | undefined;
    try {
      rec = decodeRecord(r.data);
    } catch (e) {
      this.deps.logger.warn("log record skipped: not a record", { seq: r.seq, error: String(e) });
    }
    // client signatures are checked before anything of the record is applied (the check is asynchronous:
    // the worker pool); a record is applied as a whole, in one synchronous step
    const writes = rec?.kind === "writes" ? await this.checkWrites(rec.messages) : undefined;
    this.openRecords?.push({ seq: r.seq, data: r.data });
    const publisher = this.synced && this.isMe(this.hs.authorities.federated);
    let closed = false;
    if (rec !== undefined) closed = this.applyRecord(rec, r.seq, writes);
    this.appliedSeq = r.seq;
    if (closed) {
      await this.deps.ledger.closeSaved();
      this.saveAuthorities(this.hs.height - 1);
      if (this.openRecords !== undefined) {
        if (publisher) void this.publishSet(this.hs.height - 1, this.openRecords);
        this.openRecords = [];
      }
    }
    if (!this.synced && this.appliedSeq >= this.catchUpTarget) this.markSynced();
  }

  /** Apply one record; true when it closed a block. Deterministic: reads only the record and the state. */
  private applyRecord(rec: ClusterRecord, seq: number, writes: CheckedWrite[] | undefined): boolean {
    const hs = this.hs;
    switch (rec.kind) {
      case "writes": {
        this.intake.delivered(
          seq,
          (writes ?? []).map((w) => this.applyWrite(w)),
        );
        return false;
      }
      case "blockStart": {
        if (rec.height !== hs.height || hs.startFixed || this.deps.ledger.openBlock().minute !== 0) return false;
        if (!this.isFederatedSigner(rec.proposer, (key) => verifyRecord(rec, this.options.networkId, key)))
          return false;
        this.deps.ledger.applyFromLog({ kind: "blockStart", timeMs: rec.timeMs });
        hs.startFixed = true;
        return false;
      }
      case "dbSig":
        return this.applyDbSig(rec, seq);
      case "endOfMinute": {
        const open = this.deps.ledger.openBlock();
        if (rec.height !== hs.height || rec.minute !== open.minute || !hs.startFixed) return false;
        if (!this.isFederatedSigner(rec.proposer, (key) => verifyRecord(rec, this.options.networkId, key)))
          return false;
        const timeMs = Math.max(rec.timeMs, open.minuteStartMs);
        if (rec.minute === 0 && hs.sigs.size < majority(hs.authorities.federated.length)) {
          hs.pendingMinuteZero ??= { timeMs };
          return false;
        }
        return this.endMinute(rec.minute, timeMs, seq);
      }
      case "addServer": {
        if (!verifyRecord(rec, this.options.networkId, this.options.skeletonKey)) return false;
        const id = toHex(rec.identity);
        if (hs.added.has(id) || hs.election.changed.has(id)) return false;
        const list = rec.role === "federated" ? hs.authorities.federated : hs.authorities.audit;
        if (list.some((a) => bytesEqual(a.identity, rec.identity))) return false;
        hs.added.add(id);
        hs.election = { ...hs.election, changed: new Set([...hs.election.changed, id]) };
        hs.adminFirst.push({
          type: rec.role === "federated" ? 0x05 : 0x06,
          identityChainId: rec.identity,
          dbHeight: hs.height + 1,
        });
        const known = this.authorities.keyOf(rec.identity);
        if (known === undefined || !bytesEqual(known, rec.publicKey))
          hs.adminLast.push({
            type: 0x08,
            identityChainId: rec.identity,
            keyPriority: 0,
            publicKey: rec.publicKey,
            dbHeight: hs.height + 1,
          });
        return false;
      }
      case "heartbeat": {
        const a = hs.authorities.audit.find((x) => bytesEqual(x.identity, rec.identity));
        if (rec.height !== hs.height || a?.publicKey === undefined) return false;
        if (!verifyRecord(rec, this.options.networkId, a.publicKey)) return false;
        this.proposer.heartbeat(toHex(rec.identity), hs.height);
        return false;
      }
      case "faultVote": {
        if (rec.height !== hs.height) return false;
        if (!this.isFederatedSigner(rec.voter, (key) => verifyRecord(rec, this.options.networkId, key))) return false;
        const t = tallyFaultVote(
          hs.election,
          rec,
          hs.authorities.federated.map((a) => a.identity),
          hs.authorities.audit.map((a) => a.identity),
        );
        hs.election = t.state;
        if (t.decision !== undefined) {
          hs.adminFirst.push(
            { type: 0x05, identityChainId: t.decision.candidate, dbHeight: hs.height + 1 },
            { type: 0x06, identityChainId: t.decision.faulted, dbHeight: hs.height + 1 },
          );
          this.deps.logger.warn("a federated server was voted out; an audit server takes its place next block", {
            height: hs.height,
            faulted: toHex(t.decision.faulted),
            promoted: toHex(t.decision.candidate),
          });
        }
        return false;
      }
    }
  }

  /**
   * Decode each client write of a `writes` record and check its signatures (every node, whoever appended the
   * record): the message to apply, or the refusal every node gives it. Deterministic: the bytes decide.
   */
  private async checkWrites(messages: readonly Uint8Array[]): Promise<CheckedWrite[]> {
    const out: CheckedWrite[] = [];
    const checks: SignatureCheck[] = [];
    /** per message of `out`: where its checks start in `checks`, and how many */
    const spans: { from: number; count: number }[] = [];
    for (const bytes of messages) {
      let msg: LogMessage;
      try {
        msg = decodeMessage(bytes);
      } catch (e) {
        out.push(
          new LedgerError({ code: "INVALID", info: `not a message: ${e instanceof Error ? e.message : String(e)}` }),
        );
        spans.push({ from: checks.length, count: 0 });
        continue;
      }
      if (msg.kind !== "commit" && msg.kind !== "reveal" && msg.kind !== "transaction") {
        out.push(new LedgerError({ code: "INVALID", info: `a ${msg.kind} is not a client write` }));
        spans.push({ from: checks.length, count: 0 });
        continue;
      }
      const own = clientSignatureChecks(msg);
      if (own instanceof LedgerError) {
        out.push(own);
        spans.push({ from: checks.length, count: 0 });
        continue;
      }
      out.push(msg);
      spans.push({ from: checks.length, count: own.length });
      checks.push(...own);
    }
    if (checks.length === 0) return out;
    const results = await this.deps.signatures.verifyAtApply(checks);
    spans.forEach((span, i) => {
      for (let k = 0; k < span.count; k++)
        if (results[span.from + k] !== true) {
          out[i] = badSignature(out[i] as LogMessage, k);
          this.badSignatures++;
          return;
        }
    });
    return out;
  }

  private applyWrite(checked: CheckedWrite): WriteResult {
    if (checked instanceof LedgerError) {
      if (checked.type.code === "BAD_SIGNATURE") this.warnBadSignature();
      return checked;
    }
    let msg = checked;
    // Times never go back within the block (the block's start comes from the log from then on).
    if (this.hs.startFixed) msg = { ...msg, timeMs: Math.max(msg.timeMs, this.deps.ledger.openBlock().minuteStartMs) };
    try {
      this.deps.ledger.applyFromLog(msg);
      return undefined;
    } catch (e) {
      if (e instanceof LedgerError) return e;
      // a format problem of the message: the same bytes fail the same way on every node
      if (e instanceof ProtocolError) return new LedgerError({ code: "INVALID", info: e.message });
      // anything else (this node's disk refuses writes, a bug) stops applying here: skipping a record the
      // other nodes apply would fork this node
      throw e;
    }
  }

  /** One warning per height when a client write with a bad signature was skipped (a forger, or a bug). */
  private warnBadSignature(): void {
    if (this.badSignatureWarnedAt === this.hs.height) return;
    this.badSignatureWarnedAt = this.hs.height;
    this.deps.logger.warn("a client write in the log has a bad signature: skipped by every node", {
      height: this.hs.height,
      skippedSoFar: this.badSignatures,
    });
  }

  private applyDbSig(rec: Extract<ClusterRecord, { kind: "dbSig" }>, seq: number): boolean {
    const hs = this.hs;
    if (rec.height !== hs.height) return false;
    const id = toHex(rec.identity);
    if (hs.sigs.has(id) || hs.differing.has(id)) return false;
    const fed = hs.authorities.federated.find((a) => bytesEqual(a.identity, rec.identity));
    if (fed?.publicKey === undefined || !bytesEqual(fed.publicKey, rec.publicKey)) return false;
    if (!verifyDirectoryBlockSignature(rec.publicKey, this.deps.ledger.lastDirectoryBlock(), rec.signature)) {
      hs.differing.add(id);
      if (hs.differing.size >= majority(hs.authorities.federated.length) && !this.forked) {
        this.forked = true;
        this.deps.logger.error(
          "a majority of federated servers signed a different block: this node has forked and stops writing",
          {
            height: hs.height - 1,
          },
        );
        this.forkedAt(hs.height - 1);
      }
      return false;
    }
    hs.sigs.set(id, { identity: rec.identity, publicKey: rec.publicKey, signature: rec.signature });
    this.proposer.signed(id);
    const pending = hs.pendingMinuteZero;
    if (pending !== undefined && hs.sigs.size >= majority(hs.authorities.federated.length)) {
      hs.pendingMinuteZero = undefined;
      return this.endMinute(0, Math.max(pending.timeMs, this.deps.ledger.openBlock().minuteStartMs), seq);
    }
    return false;
  }

  /** End minute `minute` of the open block; minute 9 closes it. True when it closed. */
  private endMinute(minute: number, timeMs: number, seq: number): boolean {
    const hs = this.hs;
    if (minute < 9) {
      this.deps.ledger.applyFromLog({ kind: "endOfMinute", timeMs, minute });
      return false;
    }
    const adminEntries: AdminEntry[] = [
      ...hs.adminFirst,
      ...orderedSignatureEntries(
        [...hs.sigs.values()],
        hs.authorities.federated.map((a) => a.identity),
        hs.height,
      ),
      ...hs.adminLast,
    ];
    this.deps.ledger.applyFromLog({ kind: "endOfMinute", timeMs, minute }, { adminEntries, logSequence: seq });
    this.authorities.applyAdminBlock(hs.height, adminEntries);
    this.resetHeight(hs.height + 1);
    return true;
  }

  private resetHeight(height: number): void {
    this.hs = {
      height,
      authorities: this.authorities.at(height),
      startFixed: height > 1,
      sigs: new Map(),
      differing: new Set(),
      pendingMinuteZero: undefined,
      adminFirst: [],
      adminLast: [],
      added: new Set(),
      election: newElectionState(),
    };
    this.proposer.heightOpened(this.hs);
  }

  private isFederatedSigner(identity: Uint8Array, verify: (key: Uint8Array) => boolean): boolean {
    const fed = this.hs.authorities.federated.find((a: Authority) => bytesEqual(a.identity, identity));
    return fed?.publicKey !== undefined && verify(fed.publicKey);
  }

  /** True when this node's identity, with its own key, is in `list`. */
  private isMe(list: readonly Authority[]): boolean {
    const me = this.options.identity;
    return me !== undefined && list.some((a) => bytesEqual(a.identity, me));
  }

  /** Write the set of a height this federated server closed to the archive, unless it is there already. */
  private async publishSet(height: number, records: SetRecord[]): Promise<void> {
    const archive = this.deps.archive!;
    try {
      if (await archive.has(height)) return;
      await archive.put(
        height,
        encodeBlockSet(this.options.networkId, height, records, this.options.identity!, this.options.seed!),
      );
    } catch (e) {
      this.deps.logger.warn("block set not archived", {
        height,
        error: e instanceof Error ? e.message : String(e),
      });
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
    return Math.max(this.hs.height, this.networkHeight);
  }

  status(): FederationStatus {
    const hs = this.hs;
    return {
      role: this.options.role,
      stream: this.options.stream ?? "",
      identity: this.options.identity === undefined ? "" : toHex(this.options.identity),
      appliedSequence: this.appliedSeq,
      synced: this.synced,
      forked: this.forked,
      height: hs.height,
      federated: hs.authorities.federated.map((a) => toHex(a.identity)),
      audit: hs.authorities.audit.map((a) => toHex(a.identity)),
      signatures: [...hs.sigs.keys()],
      badSignatureWrites: this.badSignatures,
      faultVotes: Object.fromEntries([...hs.election.votes].map(([k, v]) => [k, [...v]])),
    };
  }

  /**
   * The voter's view of each federated server of the open height: online unless silent past the fault
   * timeout, and the audit server this node would vote to replace it with.
   */
  faultView(): Map<string, { online: boolean; replace: string | undefined }> {
    return this.proposer.faultView(this.hs);
  }

  /** The authority set of the open height (federated-servers, audit-servers, authorities). */
  authorityView(): AuthorityView {
    return this.hs.authorities;
  }
}
