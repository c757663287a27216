/**
 * What a federated or audit server proposes to the log (docs/cluster.md §1.2, §1.7): the first block's
 * start, its directory-block signature for each height, end-of-minute markers when its clock passes a
 * minute, fault votes against silent federated servers, and (as an audit server) heartbeats. Best effort:
 * apply (federation.ts) decides what counts. This is the only part of a node that reads its clock for the
 * federation, and it never feeds apply anything but records.
 */
import { publicKeyFromSeed } from "../crypto/ed25519.js";
import { bytesEqual, toHex } from "../protocol/bytes.js";
import { signDirectoryBlock } from "./dbSig.js";
import { faultRound, roundCandidate } from "./election.js";
import type { FederationDependencies, FederationOptions, HeightState } from "./federationTypes.js";
import { type ClusterRecord, encodeRecord, recordSubject, signRecord } from "./records.js";

/**
 * True when a server whose signing window is `w` signs for its identity at `height` (brain swap, docs/cluster.md
 * "Maintenance without downtime"): machine A stops at h (untilHeight h), machine B starts at h (fromHeight h),
 * so at every height exactly one of them signs and no height is signed twice.
 */
export function signsAt(w: { fromHeight: number; untilHeight: number } | undefined, height: number): boolean {
  if (w === undefined) return true;
  return height >= w.fromHeight && (w.untilHeight === 0 || height < w.untilHeight);
}

/** A proposal not applied after this long is sent again (same id: a stored one is not stored twice), ms. */
const REPROPOSE_MS = 2_000;

export class Proposer {
  private readonly minuteMs: number;
  /** this server's signing keys: its seed, and the next one a rotation names (FederationOptions.nextSeed) */
  private readonly keys: { seed: Uint8Array; publicKey: Uint8Array }[] = [];
  private readonly faultTimeoutMs: number;
  private readonly roundTimeoutMs: number;
  private readonly proposedAt = new Map<string, number>();
  /**
   * The voter's observation (its own clock, never part of apply's decisions): when each federated server's
   * signature was last applied here.
   */
  private readonly lastSigned = new Map<string, number>();
  /** the federated servers (hex) of the height opened before the open one */
  private federatedBefore = new Set<string>();
  /** the heights at which this server signs for its identity (brain swap) */
  private window: { fromHeight: number; untilHeight: number } | undefined;

  constructor(
    private readonly options: FederationOptions,
    private readonly deps: Pick<FederationDependencies, "ledger" | "log" | "logger" | "networkTesting">,
    private readonly now: () => number,
  ) {
    this.minuteMs = (options.blockTimeSeconds * 1000) / 10;
    if (options.role !== "follower") {
      if (options.identity?.length !== 32 || options.seed?.length !== 32)
        throw new RangeError(`a ${options.role} server needs a 32-byte identity and signing seed`);
      for (const seed of [options.seed, ...(options.nextSeed === undefined ? [] : [options.nextSeed])])
        this.keys.push({ seed, publicKey: publicKeyFromSeed(seed) });
    }
    this.faultTimeoutMs = (options.faultTimeoutSeconds ?? 120) * 1000;
    this.roundTimeoutMs = (options.roundTimeoutSeconds ?? 30) * 1000;
    this.window = options.signingWindow;
  }

  /** A new signing window (a reloaded configuration: a brain swap scheduled on a running server). */
  setSigningWindow(w: { fromHeight: number; untilHeight: number }): void {
    this.window = { ...w };
  }

  /** The signing window in force (0, 0: always). */
  signingWindow(): { fromHeight: number; untilHeight: number } {
    return { ...(this.window ?? { fromHeight: 0, untilHeight: 0 }) };
  }

  /** True when this server signs for its identity at `height`. */
  signsAt(height: number): boolean {
    return signsAt(this.window, height);
  }

  // ── observations, reported by apply ──

  /** A federated server's signature was applied here. */
  signed(identityHex: string): void {
    this.lastSigned.set(identityHex, this.now());
  }

  /**
   * A new open height: the voter's clock starts afresh for each server that was not federated at the
   * height before (newly added or promoted: a server demoted and promoted back keeps no old silence).
   */
  heightOpened(hs: HeightState): void {
    const before = this.federatedBefore;
    this.federatedBefore = new Set(hs.authorities.federated.map((f) => toHex(f.identity)));
    for (const id of this.federatedBefore) if (!before.has(id)) this.lastSigned.set(id, this.now());
  }

  // ── proposals ──

  /** As a federated (or audit) server of the open height: propose what is due. */
  propose(hs: HeightState): void {
    if (this.options.role === "follower") return;
    // brain swap: outside its window the other machine signs for this identity; never both at one height
    if (!signsAt(this.window, hs.height)) return;
    const me = this.options.identity!;
    const now = this.now();
    const net = this.options.networkId;
    const open = this.deps.ledger.openBlock();
    const auditMe = hs.authorities.audit.find((a) => bytesEqual(a.identity, me));
    const mine = hs.authorities.federated.find((a) => bytesEqual(a.identity, me));
    // sign only with the key the chain names for this server at this height (a rotation switches it at its
    // height; a server holding neither key stays silent rather than sign what every node would refuse)
    const chainKey = (auditMe ?? mine)?.publicKey;
    const key = chainKey === undefined ? undefined : this.keys.find((k) => bytesEqual(k.publicKey, chainKey));
    if (key === undefined) return;
    const seed = key.seed;
    if (auditMe !== undefined) {
      // an audit server says it is alive once a minute
      this.send(`hb/${hs.height}/${open.minute}/${toHex(me)}`, now, () =>
        signRecord(
          { kind: "heartbeat", height: hs.height, minute: open.minute, identity: me, signature: new Uint8Array(64) },
          net,
          seed,
        ),
      );
      return;
    }
    this.proposeFaultVotes(hs, now, seed);
    // each federated server proposes each boundary (heightMachine.ts: a majority makes it), under an id
    // of its own so the log's dedup keeps one per server
    const boundaryDone = hs.boundaryVotes.has(toHex(me));
    if (!hs.startFixed && !boundaryDone)
      this.send(`start/${hs.height}/${toHex(me)}`, now, () =>
        signRecord(
          { kind: "blockStart", height: hs.height, timeMs: now, proposer: me, signature: new Uint8Array(64) },
          net,
          seed,
        ),
      );
    if (!hs.sigs.has(toHex(me)))
      this.send(`dbsig/${hs.height}/${toHex(me)}`, now, () => ({
        kind: "dbSig",
        height: hs.height,
        identity: me,
        publicKey: key.publicKey,
        signature: signDirectoryBlock(seed, this.deps.ledger.lastDirectoryBlock()),
      }));
    if (
      hs.startFixed &&
      !boundaryDone &&
      hs.pendingMinuteZero === undefined &&
      now >= open.minuteStartMs + this.minuteMs
    )
      this.send(`eom/${hs.height}/${open.minute}/${toHex(me)}`, now, () =>
        signRecord(
          {
            kind: "endOfMinute",
            height: hs.height,
            minute: open.minute,
            timeMs: now,
            proposer: me,
            signature: new Uint8Array(64),
          },
          net,
          seed,
        ),
      );
  }

  /** Vote out each federated server silent (no signature applied here) for longer than the fault timeout. */
  private proposeFaultVotes(hs: HeightState, now: number, seed: Uint8Array): void {
    const me = this.options.identity!;
    for (const f of hs.authorities.federated) {
      const id = toHex(f.identity);
      if (bytesEqual(f.identity, me) || hs.sigs.has(id) || hs.election.decided.has(id) || hs.graced.has(id)) continue;
      const round = faultRound(now - (this.lastSigned.get(id) ?? now), this.faultTimeoutMs, this.roundTimeoutMs);
      if (round === undefined) continue;
      const candidate = this.candidateFor(hs, round);
      if (candidate === undefined) continue;
      this.send(`fault/${hs.height}/${round}/${id}/${toHex(me)}`, now, () =>
        signRecord(
          {
            kind: "faultVote",
            height: hs.height,
            round,
            faulted: f.identity,
            candidate,
            voter: me,
            signature: new Uint8Array(64),
          },
          this.options.networkId,
          seed,
        ),
      );
    }
  }

  /** The candidate of a round among the audit servers the log heard at this height (as apply requires). */
  private candidateFor(hs: HeightState, round: number): Uint8Array | undefined {
    return roundCandidate(
      hs.authorities.audit.map((a) => a.identity),
      (id) => hs.alive.has(toHex(id)),
      hs.height,
      round,
    );
  }

  /**
   * The voter's view of each federated server of the open height: online unless silent past the fault
   * timeout, and the audit server this node would vote to replace it with.
   */
  faultView(hs: HeightState): Map<string, { online: boolean; replace: string | undefined }> {
    const now = this.now();
    const out = new Map<string, { online: boolean; replace: string | undefined }>();
    for (const f of hs.authorities.federated) {
      const id = toHex(f.identity);
      const silent = hs.sigs.has(id) ? 0 : now - (this.lastSigned.get(id) ?? now);
      const round = faultRound(silent, this.faultTimeoutMs, this.roundTimeoutMs);
      const candidate = round === undefined ? undefined : this.candidateFor(hs, round);
      out.set(id, { online: round === undefined, replace: candidate === undefined ? undefined : toHex(candidate) });
    }
    return out;
  }

  /** Append a proposal under `id` unless it was sent less than REPROPOSE_MS ago. */
  private send(id: string, now: number, build: () => ClusterRecord): void {
    const last = this.proposedAt.get(id);
    if (last !== undefined && now - last < REPROPOSE_MS) return;
    this.proposedAt.set(id, now);
    if (this.proposedAt.size > 1024) this.proposedAt.delete(this.proposedAt.keys().next().value!);
    const rec = build();
    const testing = this.deps.networkTesting?.();
    // factomd exempts election messages from its drop rate; so do we
    if (testing !== undefined && rec.kind !== "faultVote" && Math.random() * 1000 < testing.dropRatePerMille) return;
    const netId = this.options.networkId.toString(16);
    const publish = (): void => {
      this.deps.log.append(recordSubject(rec.kind), encodeRecord(rec), `${netId}/${id}`).catch((e: unknown) => {
        this.deps.logger.warn("a proposal was not appended", { id, error: e instanceof Error ? e.message : String(e) });
      });
    };
    if (testing !== undefined && testing.delayMs > 0) setTimeout(publish, Math.random() * testing.delayMs).unref();
    else publish();
  }
}
