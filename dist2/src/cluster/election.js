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
export function newElectionState() {
    return { votes: new Map(), decided: new Set(), changed: new Set() };
}
/**
 * Count one vote (already checked to be signed by `voter`). Returns the new state (the given one is not
 * changed), and `decision` when this vote made a majority. `federated`/`audit` are the sets of the open
 * height, sorted by identity.
 */
export function tallyFaultVote(state, vote, federated, audit) {
    const has = (list, id) => list.some((x) => bytesEqual(x, id));
    if (!has(federated, vote.voter))
        return { state, rejected: "voter not federated" };
    if (!has(federated, vote.faulted))
        return { state, rejected: "faulted not federated" };
    if (bytesEqual(vote.voter, vote.faulted))
        return { state, rejected: "self vote" };
    if (!has(audit, vote.candidate))
        return { state, rejected: "candidate not an audit server" };
    const f = toHex(vote.faulted);
    const c = toHex(vote.candidate);
    if (state.decided.has(f) || state.changed.has(f) || state.changed.has(c))
        return { state, rejected: "already decided" };
    const key = `${vote.round}/${f}/${c}`;
    const voters = new Set(state.votes.get(key) ?? []);
    const v = toHex(vote.voter);
    if (voters.has(v))
        return { state, rejected: "repeated vote" };
    voters.add(v);
    const votes = new Map(state.votes);
    votes.set(key, voters);
    const next = { votes, decided: state.decided, changed: state.changed };
    if (voters.size < majority(federated.length))
        return { state: next };
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
export function faultRound(silentMs, faultTimeoutMs, roundTimeoutMs) {
    if (silentMs < faultTimeoutMs)
        return undefined;
    return Math.floor((silentMs - faultTimeoutMs) / roundTimeoutMs);
}
/**
 * The candidate of a round: the audit servers sorted by identity, those seen online first, rotated by
 * height + round (so each round names the next one).
 */
export function roundCandidate(audit, online, height, round) {
    const sorted = [...audit].sort(compareBytes);
    const up = sorted.filter(online);
    const pool = up.length > 0 ? up : sorted;
    if (pool.length === 0)
        return undefined;
    return pool[(height + round) % pool.length];
}
//# sourceMappingURL=election.js.map