/**
 * Elections as log votes: the tally is a pure function of the votes in log order — every node reaches the
 * same decision at the same vote, whatever the order of voters; votes that do not fit never count.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { faultRound, newElectionState, roundCandidate, tallyFaultVote, } from "../../../src/cluster/election.js";
const id = (n) => new Uint8Array(32).fill(n);
const F = [id(1), id(2), id(3)];
const A = [id(8), id(9)];
function run(votes) {
    let state = newElectionState();
    const out = [];
    for (const v of votes) {
        const t = tallyFaultVote(state, { round: v.round, faulted: id(v.faulted), candidate: id(v.candidate), voter: id(v.voter) }, F, A);
        state = t.state;
        out.push(t.decision ? `swap ${t.decision.faulted[0]}->${t.decision.candidate[0]}` : t.rejected);
    }
    return out;
}
describe("fault votes", () => {
    it("a majority of federated servers for one (round, faulted, candidate) decides, at the majority-th vote", () => {
        assert.deepEqual(run([
            { round: 0, faulted: 3, candidate: 8, voter: 1 },
            { round: 0, faulted: 3, candidate: 8, voter: 2 },
        ]), [undefined, "swap 3->8"]);
        // the same votes in the other order: the same decision
        assert.deepEqual(run([
            { round: 0, faulted: 3, candidate: 8, voter: 2 },
            { round: 0, faulted: 3, candidate: 8, voter: 1 },
        ]), [undefined, "swap 3->8"]);
    });
    it("split votes (other round or candidate) do not add up; later votes of a decided fault do not count", () => {
        assert.deepEqual(run([
            { round: 0, faulted: 3, candidate: 8, voter: 1 },
            { round: 1, faulted: 3, candidate: 8, voter: 2 },
            { round: 0, faulted: 3, candidate: 9, voter: 2 },
            { round: 1, faulted: 3, candidate: 8, voter: 1 },
            { round: 1, faulted: 3, candidate: 8, voter: 1 },
            { round: 0, faulted: 3, candidate: 8, voter: 2 },
        ]), [undefined, undefined, undefined, "swap 3->8", "already decided", "already decided"]);
    });
    it("votes that do not fit never count", () => {
        assert.deepEqual(run([
            { round: 0, faulted: 3, candidate: 8, voter: 8 },
            { round: 0, faulted: 8, candidate: 9, voter: 1 },
            { round: 0, faulted: 1, candidate: 8, voter: 1 },
            { round: 0, faulted: 3, candidate: 2, voter: 1 },
            { round: 0, faulted: 3, candidate: 8, voter: 1 },
            { round: 0, faulted: 3, candidate: 8, voter: 1 },
        ]), [
            "voter not federated",
            "faulted not federated",
            "self vote",
            "candidate not an audit server",
            undefined,
            "repeated vote",
        ]);
    });
    it("one audit server replaces at most one federated server per height", () => {
        assert.deepEqual(run([
            { round: 0, faulted: 3, candidate: 8, voter: 1 },
            { round: 0, faulted: 3, candidate: 8, voter: 2 },
            { round: 0, faulted: 2, candidate: 8, voter: 1 },
        ]), [undefined, "swap 3->8", "already decided"]);
    });
    it("the tally does not change the state it was given", () => {
        const s = newElectionState();
        tallyFaultVote(s, { round: 0, faulted: id(3), candidate: id(8), voter: id(1) }, F, A);
        assert.equal(s.votes.size, 0);
    });
});
describe("the voter side", () => {
    it("rounds start at the fault timeout and advance every round timeout", () => {
        assert.equal(faultRound(4_999, 5_000, 3_000), undefined);
        assert.equal(faultRound(5_000, 5_000, 3_000), 0);
        assert.equal(faultRound(7_999, 5_000, 3_000), 0);
        assert.equal(faultRound(8_000, 5_000, 3_000), 1);
    });
    it("the candidate rotates with height + round, online audit servers first", () => {
        const audit = [id(9), id(7), id(8)];
        const all = () => true;
        assert.equal(roundCandidate(audit, all, 0, 0)[0], 7);
        assert.equal(roundCandidate(audit, all, 0, 1)[0], 8);
        assert.equal(roundCandidate(audit, all, 1, 1)[0], 9);
        const only9 = (x) => x[0] === 9;
        assert.equal(roundCandidate(audit, only9, 5, 3)[0], 9);
        assert.equal(roundCandidate([], all, 0, 0), undefined);
    });
});
//# sourceMappingURL=election.test.js.map