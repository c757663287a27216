/**
 * The federation's rules (docs/cluster.md §1, FEDERATION.md §4): a synchronous state machine over the
 * records of the replicated log, one open height at a time. It reads nothing but the record, its own state
 * and the ledger it applies to; no clock, no I/O, no randomness, no unordered iteration — every node that
 * applies the same records gets the same blocks. The driver (federation.ts) follows the log, checks client
 * signatures ahead of it (clientSignatures.ts), archives, catches up and runs the proposer's timers.
 *
 * Per open height h (state reset at each close):
 * * a record of a server role is counted only when signed by an identity the chain authorises for that kind
 *   at h: blockStart, end of minute, fault vote — a federated server of h; dbSig — a federated server of h
 *   with its recorded key; heartbeat — an audit server of h; addServer — the network's skeleton key;
 * * **time no single server controls:** the first block's start and each end of minute take effect when
 *   ⌊F/2⌋+1 distinct federated servers of h have proposed them, at the earliest of those proposals' times
 *   (never before the minute's start): a server whose clock runs fast can neither end a minute early nor
 *   move the chain's time ahead of a majority's clocks;
 * * end of minute 0 waits, pending, until ⌊F/2⌋+1 dbSigs over this node's directory block h−1 are in;
 * * addServer records become admin entries 05/06 (+08 for a new key), active at h+1;
 * * authorityChange records (skeleton key) become 05 promote / 06 demote / 07 remove, and rotateKey records
 *   (the identity's key in force at h) an 08, each active at the record's own height H ≥ h+1 (§1.5.1 of
 *   docs/cluster.md: the refusals, and the majority rule — a change may not leave fewer federated servers
 *   than a majority of those federated at h);
 * * fault votes (election.ts) name as candidate only an audit server whose heartbeat the log carries at h
 *   (a server cut off is never promoted), and are refused against a server that became federated at h
 *   (its grace height: no flapping);
 * * snapshotSignature records of height h−1 go to the driver (`snapshotSigned`, with h's federated servers, who
 *   count them: snapshotCertification.ts); they change no block;
 * * the end of minute 9 closes the block with admin entries [05/06…, 01 signatures in factomd's minute-0
 *   VM order, 08…], given to the ledger with the closing record's sequence.
 */
import { LedgerError } from "../ledger/errors.js";
import type { AdminEntry } from "../protocol/ablock.js";
import { bytesEqual, toHex } from "../protocol/bytes.js";
import { ProtocolError } from "../protocol/errors.js";
import { type Authority, type AuthoritySet, type AuthorityView, authorityView } from "./authorities.js";
import type { CheckedWrite } from "./clientSignatures.js";
import { majority, orderedSignatureEntries, verifyDirectoryBlockSignature } from "./dbSig.js";
import { type EcRateSchedule, setEcRateRefusal } from "./ecRate.js";
import { newElectionState, tallyFaultVote } from "./election.js";
import type { FederatedLedger, HeightState, WriteResult } from "./federationTypes.js";
import { type ClusterRecord, verifyRecord } from "./records.js";

export type { CheckedWrite };

/** What the machine tells its driver as it applies (all optional; none changes what is applied). */
export interface HeightEvents {
  /** a federated server's dbSig for the open height was counted */
  signed?(identityHex: string): void;
  /** a new height opened (after a close, or at start) */
  heightOpened?(hs: HeightState): void;
  /** a majority of federated servers signed another block h−1 than this node's: this node forked */
  forked?(height: number): void;
  /** a fault vote was decided: `faulted` leaves, `promoted` takes its place at the next height */
  votedOut?(height: number, faulted: string, promoted: string): void;
  /** a client write was skipped because a signature did not verify */
  badSignature?(height: number): void;
  /** an operator's record (addServer, authorityChange, rotateKey) was skipped; `reason` says why */
  refused?(height: number, kind: string, reason: string): void;
  /** a signature over the snapshot of the height just saved (open height − 1), with the open height's federated
   * servers, who count it (snapshotCertification.ts) */
  snapshotSigned?(rec: Extract<ClusterRecord, { kind: "snapshotSignature" }>, federated: readonly Authority[]): void;
}

/** Furthest ahead of the open height a change may be scheduled, in blocks (≈ 70 days of 10-minute blocks): a
 * typo in the height cannot park a change for years where nobody looks. */
export const MAX_ACTIVATION_LEAD = 10_000;

/**
 * Fewest heights after the open height h a key rotation (08) may take effect: h + 2. Admin block h + 1 carries
 * the signatures over directory block h, the block that records the rotation; from h + 2 on they are still made
 * by the keys in force before it. An offline verifier (protocol/proofRules.ts) must not let a block vouch for its
 * own changes, so it checks block h against the set it held before h: with the new key in force at h + 1, the
 * rotating server's signature over h would count for nothing there, and a federation of one or two servers
 * could never be proved past its rotation (docs/api.md §proof, docs/cluster.md §1.5.1).
 */
export const MIN_ROTATION_LEAD = 2;

export interface HeightMachineOptions {
  networkId: number;
  /** public key that signs addServer records (the network's skeleton key) */
  skeletonKey: Uint8Array;
  /** public key that signs setEcRate records (the network's rate authority); absent: every one is refused */
  rateAuthority?: Uint8Array;
}

export interface HeightMachineDependencies {
  ledger: FederatedLedger;
  /** the authority set folded through the last saved admin block; the machine folds in each close */
  authorities: AuthoritySet;
  /** the announced entry-credit rates (ecRate.ts); absent: setEcRate records are refused */
  rates?: EcRateSchedule;
  events?: HeightEvents;
}

/** The result of applying one record. */
export interface Applied {
  /** the record closed the open block (the driver waits for its save, then archives) */
  closed: boolean;
  /** for a `writes` record: each write's verdict, in order (undefined = accepted) */
  writes?: WriteResult[];
  /** for an operator's record that was skipped: why (nothing changed) */
  refused?: string;
}

export class HeightMachine {
  private hs!: HeightState;
  private forkedFlag = false;
  private badSignatureCount = 0;

  constructor(
    private readonly options: HeightMachineOptions,
    private readonly deps: HeightMachineDependencies,
  ) {
    this.open(deps.ledger.openBlock().height);
  }

  /** The state of the open height (read-only for the driver and its views). */
  get height(): Readonly<HeightState> {
    return this.hs;
  }

  /** True once a majority of federated servers signed another block than this node's. */
  get forked(): boolean {
    return this.forkedFlag;
  }

  /** Client writes skipped for a bad signature since this machine was made. */
  get badSignatures(): number {
    return this.badSignatureCount;
  }

  /** Apply one record delivered at `seq`. `writes`: the checked writes of a `writes` record (required for one). */
  apply(rec: ClusterRecord, seq: number, writes?: readonly CheckedWrite[]): Applied {
    switch (rec.kind) {
      case "writes":
        return { closed: false, writes: (writes ?? []).map((w) => this.applyWrite(w)) };
      case "blockStart":
        this.applyBlockStart(rec);
        return { closed: false };
      case "dbSig":
        return { closed: this.applyDbSig(rec, seq) };
      case "endOfMinute":
        return { closed: this.applyEndOfMinute(rec, seq) };
      case "addServer":
        this.applyAddServer(rec);
        return { closed: false };
      case "heartbeat":
        this.applyHeartbeat(rec);
        return { closed: false };
      case "faultVote":
        this.applyFaultVote(rec);
        return { closed: false };
      case "authorityChange":
        return this.refusal(rec.kind, this.applyAuthorityChange(rec));
      case "rotateKey":
        return this.refusal(rec.kind, this.applyRotateKey(rec));
      case "snapshotSignature":
        // counted only while the height after the snapshot's is open, by that height's federated servers (the
        // ones signing its directory block); changes no block
        if (rec.height === this.hs.height - 1) this.deps.events?.snapshotSigned?.(rec, this.hs.authorities.federated);
        return { closed: false };
      case "setEcRate":
        return this.refusal(rec.kind, this.applySetEcRate(rec, seq));
    }
  }

  // ───────────────────────────── client writes ─────────────────────────────

  private applyWrite(checked: CheckedWrite): WriteResult {
    if (checked instanceof LedgerError) {
      if (checked.type.code === "BAD_SIGNATURE") {
        this.badSignatureCount++;
        this.deps.events?.badSignature?.(this.hs.height);
      }
      return checked;
    }
    let msg = checked;
    if (msg.kind !== "commit" && msg.kind !== "reveal" && msg.kind !== "transaction")
      return new LedgerError({ code: "INVALID", info: `a ${msg.kind} is not a client write` });
    // Times never go back within the block (the block's start comes from the log from then on).
    if (this.hs.startFixed) msg = { ...msg, timeMs: Math.max(msg.timeMs, this.deps.ledger.openBlock().minuteStartMs) };
    try {
      this.deps.ledger.applyFromLog(msg);
      return undefined;
    } catch (e) {
      if (e instanceof LedgerError) return e;
      // a format problem of the message: the same bytes fail the same way on every node (the rules turn their
      // own ProtocolErrors into LedgerErrors; this keeps one that escapes from stopping every node at once)
      // Stryker disable next-line all: no rule of ledger/rules.ts lets a ProtocolError out (asLedgerError)
      if (e instanceof ProtocolError) return new LedgerError({ code: "INVALID", info: e.message });
      // anything else (this node's disk refuses writes, a bug) stops applying here: skipping a record the
      // other nodes apply would fork this node
      throw e;
    }
  }

  // ───────────────────────────── time: block start and minutes ─────────────────────────────

  /**
   * Count a proposal of the open minute's boundary by a federated server; returns the boundary's time once
   * a majority of distinct federated servers proposed it (the earliest of their times), else undefined.
   */
  private countBoundary(proposer: Uint8Array, timeMs: number): number | undefined {
    const hs = this.hs;
    const id = toHex(proposer);
    if (hs.boundaryVotes.has(id)) return undefined;
    hs.boundaryVotes.set(id, timeMs);
    if (hs.boundaryVotes.size < majority(hs.authorities.federated.length)) return undefined;
    let earliest = Number.POSITIVE_INFINITY;
    for (const t of hs.boundaryVotes.values()) earliest = Math.min(earliest, t);
    hs.boundaryVotes = new Map();
    return earliest;
  }

  private applyBlockStart(rec: Extract<ClusterRecord, { kind: "blockStart" }>): void {
    const hs = this.hs;
    // (a block whose start is not fixed is in its minute 0: minutes end only after the start)
    if (rec.height !== hs.height || hs.startFixed) return;
    if (!this.isFederatedSigner(rec.proposer, (key) => verifyRecord(rec, this.options.networkId, key))) return;
    const timeMs = this.countBoundary(rec.proposer, rec.timeMs);
    if (timeMs === undefined) return;
    this.deps.ledger.applyFromLog({ kind: "blockStart", timeMs });
    hs.startFixed = true;
  }

  private applyEndOfMinute(rec: Extract<ClusterRecord, { kind: "endOfMinute" }>, seq: number): boolean {
    const hs = this.hs;
    const open = this.deps.ledger.openBlock();
    if (rec.height !== hs.height || rec.minute !== open.minute || !hs.startFixed) return false;
    if (hs.pendingMinuteZero !== undefined) return false;
    if (!this.isFederatedSigner(rec.proposer, (key) => verifyRecord(rec, this.options.networkId, key))) return false;
    const proposed = this.countBoundary(rec.proposer, rec.timeMs);
    if (proposed === undefined) return false;
    const timeMs = Math.max(proposed, open.minuteStartMs);
    // only minute 0 can wait: the signatures of h only grow, and minute 0 needed their majority to end
    if (hs.sigs.size < majority(hs.authorities.federated.length)) {
      hs.pendingMinuteZero = { timeMs };
      return false;
    }
    return this.endMinute(rec.minute, timeMs, seq);
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
    this.deps.authorities.applyAdminBlock(hs.height, adminEntries);
    this.open(hs.height + 1);
    return true;
  }

  // ───────────────────────────── signatures of the previous block ─────────────────────────────

  private applyDbSig(rec: Extract<ClusterRecord, { kind: "dbSig" }>, seq: number): boolean {
    const hs = this.hs;
    if (rec.height !== hs.height) return false;
    const id = toHex(rec.identity);
    if (hs.sigs.has(id) || hs.differing.has(id)) return false;
    const fed = hs.authorities.federated.find((a) => bytesEqual(a.identity, rec.identity));
    if (fed?.publicKey === undefined || !bytesEqual(fed.publicKey, rec.publicKey)) return false;
    if (!verifyDirectoryBlockSignature(rec.publicKey, this.deps.ledger.lastDirectoryBlock(), rec.signature)) {
      hs.differing.add(id);
      if (hs.differing.size >= majority(hs.authorities.federated.length) && !this.forkedFlag) {
        this.forkedFlag = true;
        this.deps.events?.forked?.(hs.height - 1);
      }
      return false;
    }
    hs.sigs.set(id, { identity: rec.identity, publicKey: rec.publicKey, signature: rec.signature });
    this.deps.events?.signed?.(id);
    const pending = hs.pendingMinuteZero;
    if (pending !== undefined && hs.sigs.size >= majority(hs.authorities.federated.length)) {
      hs.pendingMinuteZero = undefined;
      return this.endMinute(0, Math.max(pending.timeMs, this.deps.ledger.openBlock().minuteStartMs), seq);
    }
    return false;
  }

  // ───────────────────────────── authority changes ─────────────────────────────

  private applyAddServer(rec: Extract<ClusterRecord, { kind: "addServer" }>): void {
    const hs = this.hs;
    if (!verifyRecord(rec, this.options.networkId, this.options.skeletonKey)) return;
    const id = toHex(rec.identity);
    if (hs.added.has(id) || hs.election.changed.has(id)) return;
    const list = rec.role === "federated" ? hs.authorities.federated : hs.authorities.audit;
    if (list.some((a) => bytesEqual(a.identity, rec.identity))) return;
    hs.added.add(id);
    hs.election = { ...hs.election, changed: new Set([...hs.election.changed, id]) };
    hs.adminFirst.push({
      type: rec.role === "federated" ? 0x05 : 0x06,
      identityChainId: rec.identity,
      dbHeight: hs.height + 1,
    });
    const known = this.deps.authorities.keyOf(rec.identity);
    if (known === undefined || !bytesEqual(known, rec.publicKey))
      hs.adminLast.push({
        type: 0x08,
        identityChainId: rec.identity,
        keyPriority: 0,
        publicKey: rec.publicKey,
        dbHeight: hs.height + 1,
      });
  }

  private refusal(kind: string, reason: string | undefined): Applied {
    if (reason === undefined) return { closed: false };
    this.deps.events?.refused?.(this.hs.height, kind, reason);
    return { closed: false, refused: reason };
  }

  /** Why a change active at `activation` cannot be scheduled at the open height; undefined when it can. */
  private badActivation(activation: number): string | undefined {
    const h = this.hs.height;
    if (activation <= h) return `activation height ${activation} is not after the open height ${h}`;
    if (activation > h + MAX_ACTIVATION_LEAD)
      return `activation height ${activation} is more than ${MAX_ACTIVATION_LEAD} blocks after the open height ${h}`;
    return undefined;
  }

  /** This height's admin entries so far, as they will be folded (roles first, then keys). */
  private openEntries(): Exclude<AdminEntry, { forwardCompatible: unknown }>[] {
    const out: Exclude<AdminEntry, { forwardCompatible: unknown }>[] = [];
    for (const e of [...this.hs.adminFirst, ...this.hs.adminLast]) if (!("forwardCompatible" in e)) out.push(e);
    return out;
  }

  /** The set the chain has scheduled for `height`: pending changes, then this open block's entries. */
  private scheduledAt(height: number): AuthorityView {
    const base = this.deps.authorities.projected(height);
    const role = new Map<string, { identity: Uint8Array; role: "federated" | "audit" }>();
    const keys = new Map<string, Uint8Array>();
    for (const [list, r] of [
      [base.federated, "federated"],
      [base.audit, "audit"],
    ] as const)
      for (const a of list) {
        role.set(toHex(a.identity), { identity: a.identity, role: r });
        if (a.publicKey !== undefined) keys.set(toHex(a.identity), a.publicKey);
      }
    const at = (e: { dbHeight: number }): number => Math.max(e.dbHeight, this.hs.height);
    for (const e of this.openEntries()) {
      if (e.type === 0x07 && at(e) <= height) role.delete(toHex(e.identityChainId));
      else if ((e.type === 0x05 || e.type === 0x06) && at(e) <= height)
        role.set(toHex(e.identityChainId), {
          identity: e.identityChainId,
          role: e.type === 0x05 ? "federated" : "audit",
        });
      else if (e.type === 0x08 && at(e) <= height) keys.set(toHex(e.identityChainId), e.publicKey);
    }
    return authorityView(role, keys);
  }

  /** Role changes (05/06/07) recorded and not yet in force: the chain's pending ones, then this block's. */
  private pendingRoleChanges(): { height: number; identity: Uint8Array }[] {
    const out: { height: number; identity: Uint8Array }[] = [];
    for (const c of this.deps.authorities.pendingChanges()) if (c.type !== 0x08) out.push(c);
    for (const e of this.openEntries())
      if (e.type === 0x05 || e.type === 0x06 || e.type === 0x07)
        out.push({ height: Math.max(e.dbHeight, this.hs.height + 1), identity: e.identityChainId });
    return out;
  }

  /**
   * promote (05) / demote (06) / remove (07), signed by the skeleton key, active at the record's height.
   * Returns why it was refused, or undefined when its admin entry was recorded.
   */
  private applyAuthorityChange(rec: Extract<ClusterRecord, { kind: "authorityChange" }>): string | undefined {
    const hs = this.hs;
    if (!verifyRecord(rec, this.options.networkId, this.options.skeletonKey))
      return "the signature is not the network's skeleton key's";
    const H = rec.activationHeight;
    const bad = this.badActivation(H);
    if (bad !== undefined) return bad;
    // order: one change at a time per server, and changes in force in the order the chain recorded them
    const pending = this.pendingRoleChanges();
    if (pending.some((c) => bytesEqual(c.identity, rec.identity)))
      return "the server has a change recorded and not yet in force";
    const last = pending.reduce((m, c) => Math.max(m, c.height), 0);
    if (H < last) return `activation height ${H} is before a change already scheduled for ${last}`;
    const at = this.scheduledAt(H);
    const isFed = at.federated.some((a) => bytesEqual(a.identity, rec.identity));
    const isAudit = at.audit.some((a) => bytesEqual(a.identity, rec.identity));
    if (rec.change === "promote" && !isAudit) return `promote: the server is not an audit server at ${H}`;
    if (rec.change === "demote" && !isFed) return `demote: the server is not a federated server at ${H}`;
    if (rec.change === "remove" && !isFed && !isAudit) return `remove: the server is not an authority at ${H}`;
    if (isFed && rec.change !== "promote") {
      const now = hs.authorities.federated.length;
      const left = at.federated.length - 1;
      if (left < majority(now))
        return `${rec.change} would leave ${left} federated server(s) at ${H}; a majority of the ${now} federated at ${hs.height} is ${majority(now)}`;
    }
    if (rec.change === "promote" && at.federated.length === 0) return "promote: no federated server at the height";
    hs.adminFirst.push({
      type: rec.change === "promote" ? 0x05 : rec.change === "demote" ? 0x06 : 0x07,
      identityChainId: rec.identity,
      dbHeight: H,
    });
    return undefined;
  }

  /**
   * A new signing key for an identity, signed with its key in force at the open height, active at the record's
   * height (08). Returns why it was skipped, or undefined when its 08 was recorded.
   */
  private applyRotateKey(rec: Extract<ClusterRecord, { kind: "rotateKey" }>): string | undefined {
    const hs = this.hs;
    const now = [...hs.authorities.federated, ...hs.authorities.audit].find((a) =>
      bytesEqual(a.identity, rec.identity),
    );
    if (now?.publicKey === undefined) return "the identity is not an authority with a key at the open height";
    if (!verifyRecord(rec, this.options.networkId, now.publicKey))
      return "the signature is not the identity's key in force";
    const bad = this.badActivation(rec.activationHeight);
    if (bad !== undefined) return bad;
    if (rec.activationHeight < this.hs.height + MIN_ROTATION_LEAD)
      return `a key rotation takes effect ${MIN_ROTATION_LEAD} or more heights after the open height ${this.hs.height}, not at ${rec.activationHeight}: the block after the one recording it is signed with the keys before it`;
    const pendingKey =
      this.deps.authorities.pendingChanges().some((c) => c.type === 0x08 && bytesEqual(c.identity, rec.identity)) ||
      this.openEntries().some((e) => e.type === 0x08 && bytesEqual(e.identityChainId, rec.identity));
    if (pendingKey) return "the identity has a key recorded and not yet in force";
    if (bytesEqual(rec.newKey, now.publicKey)) return "the new key is the key in force";
    const at = this.scheduledAt(rec.activationHeight);
    if ([...at.federated, ...at.audit].some((a) => a.publicKey !== undefined && bytesEqual(a.publicKey, rec.newKey)))
      return "the new key is another authority's key";
    hs.adminLast.push({
      type: 0x08,
      identityChainId: rec.identity,
      keyPriority: 0,
      publicKey: rec.newKey,
      dbHeight: rec.activationHeight,
    });
    return undefined;
  }

  /** A new entry-credit rate from the record's height on (ecRate.ts). Returns why it was refused, or undefined. */
  private applySetEcRate(rec: Extract<ClusterRecord, { kind: "setEcRate" }>, seq: number): string | undefined {
    const rates = this.deps.rates;
    if (rates === undefined) return "this node keeps no entry-credit rate schedule";
    const why = setEcRateRefusal(rec, {
      openHeight: this.hs.height,
      networkId: this.options.networkId,
      authority: this.options.rateAuthority,
      pending: rates.scheduled(),
      maxLead: MAX_ACTIVATION_LEAD,
    });
    if (why === undefined) rates.add(rec, seq);
    return why;
  }

  private applyHeartbeat(rec: Extract<ClusterRecord, { kind: "heartbeat" }>): void {
    const hs = this.hs;
    const a = hs.authorities.audit.find((x) => bytesEqual(x.identity, rec.identity));
    if (rec.height !== hs.height || a?.publicKey === undefined) return;
    if (!verifyRecord(rec, this.options.networkId, a.publicKey)) return;
    hs.alive.add(toHex(rec.identity));
  }

  private applyFaultVote(rec: Extract<ClusterRecord, { kind: "faultVote" }>): void {
    const hs = this.hs;
    if (rec.height !== hs.height) return;
    if (!this.isFederatedSigner(rec.voter, (key) => verifyRecord(rec, this.options.networkId, key))) return;
    // no flapping: a server federated since this height has its grace height; a candidate the log has not
    // heard from at this height (cut off, or down) is not promoted
    if (hs.graced.has(toHex(rec.faulted)) || !hs.alive.has(toHex(rec.candidate))) return;
    const t = tallyFaultVote(
      hs.election,
      rec,
      hs.authorities.federated.map((a) => a.identity),
      hs.authorities.audit.map((a) => a.identity),
    );
    hs.election = t.state;
    if (t.decision === undefined) return;
    hs.adminFirst.push(
      { type: 0x05, identityChainId: t.decision.candidate, dbHeight: hs.height + 1 },
      { type: 0x06, identityChainId: t.decision.faulted, dbHeight: hs.height + 1 },
    );
    this.deps.events?.votedOut?.(hs.height, toHex(t.decision.faulted), toHex(t.decision.candidate));
  }

  // ───────────────────────────── heights ─────────────────────────────

  /**
   * Open height `height`: its authority set, and the servers in their grace height — those the admin block
   * of `height − 1` (saved, so every node reads the same) made federated from `height` on.
   */
  private open(height: number): void {
    const graced = new Set<string>();
    // (genesis's admin block names the bootstrap server with activation 0: nobody is in grace at height 1)
    // Stryker disable next-line StringLiteral: only TypeScript's narrowing; an entry of an unknown type is no 05
    for (const e of this.deps.ledger.adminEntries(height - 1))
      if (!("forwardCompatible" in e) && e.type === 0x05 && e.dbHeight === height) graced.add(toHex(e.identityChainId));
    // a server promoted by an authorityChange record at a height named in an earlier block has the same grace
    // (docs/cluster.md §1.7): every server federated at `height` that was not at `height − 1`
    const before = height > 1 ? this.deps.authorities.projected(height - 1).federated : undefined;
    const authorities = this.deps.authorities.at(height);
    if (before !== undefined)
      for (const a of authorities.federated)
        if (!before.some((b) => bytesEqual(b.identity, a.identity))) graced.add(toHex(a.identity));
    this.hs = {
      height,
      authorities,
      startFixed: height > 1,
      boundaryVotes: new Map(),
      sigs: new Map(),
      differing: new Set(),
      pendingMinuteZero: undefined,
      adminFirst: [],
      adminLast: [],
      added: new Set(),
      election: newElectionState(),
      alive: new Set(),
      graced,
    };
    // a rate announced for this height: the open block (empty yet) pays it and its asset block carries it
    const rate = this.deps.rates?.openAt(height);
    if (rate !== undefined) this.deps.ledger.setOpenExchangeRate?.(rate);
    this.deps.events?.heightOpened?.(this.hs);
  }

  private isFederatedSigner(identity: Uint8Array, verify: (key: Uint8Array) => boolean): boolean {
    const fed = this.hs.authorities.federated.find((a: Authority) => bytesEqual(a.identity, identity));
    return fed?.publicKey !== undefined && verify(fed.publicKey);
  }
}
