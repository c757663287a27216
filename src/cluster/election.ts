/**
 * Elections as deterministic log votes (docs/cluster.md §1.7; FEDERATION.md §4 "Losing a server").
 *
 * A federated server that has not signed the open height for `faulttimeout` seconds is voted out: each
 * live federated server appends a signed `faultVote{h, round, faulted, candidate}`. The votes are counted
 * at apply, by every node alike: the first (faulted, candidate) pair of one round that ⌊F/2⌋+1 distinct
 * federated servers of h voted for is decided, and the block gets `05 candidate` and `06 faulted`, active
 * from h+1 (factomd writes the same pair when an election promotes an audit server). Each `roundtimeout`
 * without a decision moves the voters to the next round, which names the next candidate.
 *
 * Everything here is a pure function of its arguments; the clock is read by the caller (the voter side),
 * never by the tally.
 */
import { bytesEqual, compareBytes, toHex } from "../protocol/bytes.js";
import { majority } from "./dbSig.js";

/** The votes of the open height. */
export interface ElectionState {
  /** `${round}/${faulted hex}/${candidate hex}` → voter hexes */
  votes: Map<string, Set<string>>;
  /** faulted servers already decided at this height (hex) */
  decided: Set<string>;
  /** servers whose role a decision of this height already changes (hex): never twice */
  changed: Set<string>;
}

export function newElectionState(): ElectionState {
  return { votes: new Map(), decided: new Set(), changed: new Set() };
}

export interface FaultVote {
  round: number;
  faulted: Uint8Array;
  candidate: Uint8Array;
  voter: Uint8Array;
}

/** Why a vote did not count (for logs and tests); undefined when it counted. */
export type VoteRejection =
  | "voter not federated"
  | "faulted not federated"
  | "self vote"
  | "candidate not an audit server"
  | "already decided"
  | "repeated vote";

/**
 * Count one vote (already checked to be signed by `voter`). Returns the new state (the given one is not
 * changed), and `decision` when this vote made a majority. `federated`/`audit` are the sets of the open
 * height, sorted by identity.
 */
export function tallyFaultVote(
  state: ElectionState,
  vote: FaultVote,
  federated: readonly Uint8Array[],
  audit: readonly Uint8Array[],
): { state: ElectionState; rejected?: VoteRejection; decision?: { faulted: Uint8Array; candidate: Uint8Array } } {
  const has = (list: readonly Uint8Array[], id: Uint8Array): boolean => list.some((x) => bytesEqual(x, id));
  if (!has(federated, vote.voter)) return { state, rejected: "voter not federated" };
  if (!has(federated, vote.faulted)) return { state, rejected: "faulted not federated" };
  if (bytesEqual(vote.voter, vote.faulted)) return { state, rejected: "self vote" };
  if (!has(audit, vote.candidate)) return { state, rejected: "candidate not an audit server" };
  const f = toHex(vote.faulted);
  const c = toHex(vote.candidate);
  if (state.decided.has(f) || state.changed.has(f) || state.changed.has(c))
    return { state, rejected: "already decided" };
  const key = `${vote.round}/${f}/${c}`;
  const voters = new Set(state.votes.get(key) ?? []);
  const v = toHex(vote.voter);
  if (voters.has(v)) return { state, rejected: "repeated vote" };
  voters.add(v);
  const votes = new Map(state.votes);
  votes.set(key, voters);
  const next: ElectionState = { votes, decided: state.decided, changed: state.changed };
  if (voters.size < majority(federated.length)) return { state: next };
  return {
    state: {
      votes,
      decided: new Set([...state.decided, f]),
      changed: new Set([...state.changed, f, c]),
    },
    decision: { faulted: vote.faulted, candidate: vote.candidate },
  };
}

/**
 * The voter side: the round a fault is in, or undefined while the server is not faulted. `silentMs` is how
 * long the voter has seen nothing from the server (ms); rounds start when it passes the fault timeout.
 */
export function faultRound(silentMs: number, faultTimeoutMs: number, roundTimeoutMs: number): number | undefined {
  if (silentMs < faultTimeoutMs) return undefined;
  return Math.floor((silentMs - faultTimeoutMs) / roundTimeoutMs);
}

/**
 * The candidate of a round: the audit servers seen online, sorted by identity, rotated by height + round (so
 * each round names the next one); undefined when none is online (a server cut off is never promoted).
 */
export function roundCandidate(
  audit: readonly Uint8Array[],
  online: (id: Uint8Array) => boolean,
  height: number,
  round: number,
): Uint8Array | undefined {
  const up = [...audit].sort(compareBytes).filter(online);
  if (up.length === 0) return undefined;
  return up[(height + round) % up.length];
}
