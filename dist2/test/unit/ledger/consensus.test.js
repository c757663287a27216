/**
 * Consensus rules a mutation audit found unprotected (issue 20): each test states one rule and fails when
 * that rule is broken. Multi-input transactions (every input's signature checked; one address used twice is
 * charged the sum of its inputs), a chain commit that pays for a different chain ID than the one revealed,
 * both edges of the ±1 h timestamp window, the end of a paid commit's lifetime (its second hour), and the
 * entry-size limit at the ledger. Real LMDB, real keys, real signatures; the signature rules run over every
 * Verifier (STYLE §7).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { signEd25519 } from "../../../src/crypto/ed25519.js";
import { AckStatus } from "../../../src/ledger/api.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { CHAIN_COMMIT_SIGNED_SIZE, decodeChainCommit, encodeCommit, } from "../../../src/protocol/commit.js";
import { entryHash as entryHashOf, MAX_ENTRY_SIZE, marshalEntry, weld } from "../../../src/protocol/entry.js";
import { sha256d } from "../../../src/protocol/hash.js";
import { buildTransaction, decodeTransaction } from "../../../src/protocol/transaction.js";
import { assetKey, buyEC, chainCommit, cleanup, closeNode, ecKey, entryCommit, entryRaw, feeOf, finishBlock, firstEntry, openNode, payment, rcdHashOf, SAND_GENESIS_BALANCE, sand, tempDir, UNIT, VERIFIERS, } from "./harness.js";
import { rejectedWithoutChange, rejectsWith } from "./support.js";
/**
 * A transaction spending `inputs` (in order, one RCD1 and signature each) to `outputs`; the minimum fee at
 * the LOCAL rate is added to the first input.
 */
function multiInput(milliTime, inputs, outputs) {
    const build = (fee) => buildTransaction({
        milliTimestamp: milliTime,
        inputs: inputs.map((i, k) => ({ seed: i.from.seed, amount: i.amount + (k === 0 ? fee : 0n) })),
        outputs: outputs.map((o) => ({ address: rcdHashOf(o.to), amount: o.amount })),
        ecOutputs: [],
    });
    // The fee depends on the size, which depends on the first input's amount varint: build until stable.
    let fee = 0n;
    for (let i = 0; i < 3; i++)
        fee = feeOf(build(fee));
    return build(fee);
}
/** Byte offset of signature `index` in a transaction whose inputs all carry RCD1 (33 + 64 bytes each). */
function signatureOffset(tx, index) {
    return tx.signedPart.length + index * (33 + 64) + 33;
}
/** A copy of `tx` with one bit of input `index`'s signature flipped (re-decoded, so raw and fields agree). */
function withBadSignature(tx, index) {
    const raw = tx.raw.slice();
    raw[signatureOffset(tx, index) + 10] ^= 0x01;
    return decodeTransaction(raw);
}
/**
 * A correctly signed chain commit for the first entry `raw` whose ChainIDHash (and weld) name `payFor`
 * instead of the entry's own chain ID: the commit pays for another chain.
 */
function chainCommitFor(raw, entryHashBytes, payFor, milliTime) {
    const fields = {
        kind: "chain",
        version: 0,
        milliTime,
        chainIdHash: sha256d(payFor),
        weld: weld(entryHashBytes, payFor),
        entryHash: entryHashBytes,
        credits: 11,
        ecPublicKey: ecKey.publicKey,
        signature: new Uint8Array(64),
        raw,
    };
    const unsigned = encodeCommit(fields);
    const signature = signEd25519(ecKey.seed, unsigned.subarray(0, CHAIN_COMMIT_SIGNED_SIZE));
    return decodeChainCommit(encodeCommit({ ...fields, signature }));
}
/**
 * The rules' times, written out rather than imported: a test that reads the constant it checks cannot see
 * the constant change. ±1 h is the reference node's replay window (state/replay.go); a paid commit is
 * remembered for two of them (ledger/constants.ts COMMIT_LIFETIME_MS).
 */
const WINDOW_MS = 60 * 60 * 1000;
const LIFETIME_MS = 2 * WINDOW_MS;
let seq = 0;
/** A distinct chain's first entry per call. */
function newChain(tag) {
    return firstEntry(["consensus", tag, String(seq++)], "first entry");
}
/** Fresh node over a temp directory; `ec` entry credits bought for ecKey first (0 = none). */
async function fresh(verifier, ec = 0n) {
    const n = openNode(tempDir(), verifier ? { verifier } : {});
    if (ec > 0n)
        await buyEC(n, ecKey, ec);
    return n;
}
async function done(n) {
    await closeNode(n);
    cleanup(n.dir);
}
for (const v of VERIFIERS) {
    describe(`multi-input transactions (${v.name})`, () => {
        let verifier;
        before(() => {
            verifier = v.make();
        });
        after(async () => {
            await verifier.close();
        });
        /** A node where assetKey(1) holds 100 units besides the genesis-funded sand address. */
        async function funded() {
            const n = await fresh(verifier);
            const other = assetKey(1);
            await n.ledger.submitTransaction(payment({ milliTime: n.clock.ms, outputs: [{ to: other, amount: 100n * UNIT }] }));
            return { n, other, otherBalance: 100n * UNIT };
        }
        test("two inputs from two addresses, both signed: accepted, each input debited", async () => {
            const { n, other, otherBalance } = await funded();
            try {
                const sandBefore = n.ledger.assetBalance(rcdHashOf(sand)).ack;
                const to = assetKey(2);
                const tx = multiInput(n.clock.ms, [
                    { from: sand, amount: 10n * UNIT },
                    { from: other, amount: 30n * UNIT },
                ], [{ to, amount: 40n * UNIT }]);
                await n.ledger.submitTransaction(tx);
                assert.equal(n.ledger.assetBalance(rcdHashOf(sand)).ack, sandBefore - 10n * UNIT - feeOf(tx));
                assert.equal(n.ledger.assetBalance(rcdHashOf(other)).ack, otherBalance - 30n * UNIT);
                assert.equal(n.ledger.assetBalance(rcdHashOf(to)).ack, 40n * UNIT);
            }
            finally {
                await done(n);
            }
        });
        test("every input's signature is checked: a bad second (or first) signature → BAD_SIGNATURE naming the input", async () => {
            const { n, other } = await funded();
            try {
                const tx = multiInput(n.clock.ms, [
                    { from: sand, amount: 10n * UNIT },
                    { from: other, amount: 30n * UNIT },
                ], [{ to: assetKey(2), amount: 40n * UNIT }]);
                const second = await rejectedWithoutChange(n, () => n.ledger.submitTransaction(withBadSignature(tx, 1)), "BAD_SIGNATURE");
                assert.equal(second.what, "transaction input 1");
                const first = await rejectedWithoutChange(n, () => n.ledger.submitTransaction(withBadSignature(tx, 0)), "BAD_SIGNATURE");
                assert.equal(first.what, "transaction input 0");
                // the intact transaction still goes through: only the signatures were wrong
                await n.ledger.submitTransaction(tx);
            }
            finally {
                await done(n);
            }
        });
        test("one address in two inputs: both signatures checked, and the inputs are summed against its balance", async () => {
            const n = await fresh(verifier);
            try {
                const to = assetKey(3);
                // each input alone is covered by the 20,000-unit balance; together they are not
                const over = multiInput(n.clock.ms, [
                    { from: sand, amount: 12000n * UNIT },
                    { from: sand, amount: 9000n * UNIT },
                ], [{ to, amount: 21000n * UNIT }]);
                const low = await rejectedWithoutChange(n, () => n.ledger.submitTransaction(over), "ASSET_BALANCE_LOW");
                assert.equal(low.address, sand.publicAddress);
                assert.equal(low.need, 21000n * UNIT + feeOf(over));
                assert.equal(low.have, SAND_GENESIS_BALANCE);
                const within = multiInput(n.clock.ms, [
                    { from: sand, amount: 12000n * UNIT },
                    { from: sand, amount: 7000n * UNIT },
                ], [{ to, amount: 19000n * UNIT }]);
                const bad = await rejectedWithoutChange(n, () => n.ledger.submitTransaction(withBadSignature(within, 1)), "BAD_SIGNATURE");
                assert.equal(bad.what, "transaction input 1");
                await n.ledger.submitTransaction(within);
                assert.equal(n.ledger.assetBalance(rcdHashOf(sand)).ack, SAND_GENESIS_BALANCE - 19000n * UNIT - feeOf(within));
                // what is left cannot be spent twice over either
                const rest = SAND_GENESIS_BALANCE - 19000n * UNIT - feeOf(within);
                const again = multiInput(n.clock.ms, [
                    { from: sand, amount: rest / 2n },
                    { from: sand, amount: rest / 2n },
                ], [{ to, amount: (rest / 2n) * 2n }]);
                await rejectedWithoutChange(n, () => n.ledger.submitTransaction(again), "ASSET_BALANCE_LOW");
                await finishBlock(n);
                assert.equal(n.ledger.assetBalance(rcdHashOf(to)).saved, 19000n * UNIT);
            }
            finally {
                await done(n);
            }
        });
    });
}
describe("a chain commit pays for one chain ID", () => {
    test("reveal after the commit: a first entry whose chain ID does not hash to the commit's → CHAIN_ID_MISMATCH", async () => {
        const n = await fresh(undefined, 100n);
        try {
            const c = newChain("mismatch");
            const other = newChain("other").chainId;
            const { entryHash } = await n.ledger.submitCommit(chainCommitFor(c.raw, entryHashOf(c.raw), other, n.clock.ms));
            assert.equal(toHex(entryHash), toHex(entryHashOf(c.raw)));
            const t = await rejectedWithoutChange(n, () => n.ledger.submitReveal(c.raw), "CHAIN_ID_MISMATCH");
            assert.equal(t.chainId, toHex(c.chainId));
            assert.equal(t.info, "the chain commit pays for a different chain ID");
            // declared as a chain's first entry it is refused the same way
            await rejectedWithoutChange(n, () => n.ledger.submitReveal(c.raw, { kind: "chain" }), "CHAIN_ID_MISMATCH");
            await finishBlock(n);
            assert.deepEqual(n.ledger.chainHead(c.chainId), { head: undefined, inProcessList: false });
            assert.deepEqual(n.ledger.chainHead(other), { head: undefined, inProcessList: false });
        }
        finally {
            await done(n);
        }
    });
    test("reveal held before the commit: the commit for another chain ID is refused, nothing charged", async () => {
        const n = await fresh(undefined, 100n);
        try {
            const c = newChain("held");
            await n.ledger.submitReveal(c.raw);
            assert.equal(n.ledger.holdingQueue().length, 1);
            const wrong = chainCommitFor(c.raw, entryHashOf(c.raw), newChain("elsewhere").chainId, n.clock.ms);
            const t = await rejectedWithoutChange(n, () => n.ledger.submitCommit(wrong), "CHAIN_ID_MISMATCH");
            assert.equal(t.info, "the chain commit pays for a different chain ID");
            // the right commit still releases it
            await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
            assert.equal(n.ledger.entryAck(entryHashOf(c.raw)).entry.status, AckStatus.TransactionACK);
        }
        finally {
            await done(n);
        }
    });
});
describe("the ±1 h timestamp window, both edges", () => {
    test("commits: exactly 1 h old or 1 h ahead are accepted; 1 ms beyond either edge is refused", async () => {
        const n = await fresh(undefined, 100n);
        try {
            const now = n.clock.ms;
            for (const edge of [-WINDOW_MS, WINDOW_MS]) {
                const raw = newChain("window").raw;
                const beyond = edge + Math.sign(edge);
                const t = await rejectedWithoutChange(n, () => n.ledger.submitCommit(chainCommit(raw, now + beyond)), "TIMESTAMP_OUT_OF_WINDOW");
                assert.deepEqual([t.timestampMs, t.nowMs, t.windowMs], [now + beyond, now, WINDOW_MS]);
                await n.ledger.submitCommit(chainCommit(raw, now + edge));
            }
        }
        finally {
            await done(n);
        }
    });
    test("transactions: exactly 1 h old or 1 h ahead are accepted; 1 ms beyond either edge is refused", async () => {
        const n = await fresh();
        try {
            const now = n.clock.ms;
            for (const edge of [-WINDOW_MS, WINDOW_MS]) {
                const beyond = edge + Math.sign(edge);
                const out = payment({ milliTime: now + beyond, outputs: [{ to: assetKey(4), amount: UNIT }] });
                const t = await rejectedWithoutChange(n, () => n.ledger.submitTransaction(out), "TIMESTAMP_OUT_OF_WINDOW");
                assert.equal(t.what, "transaction");
                await n.ledger.submitTransaction(payment({ milliTime: now + edge, outputs: [{ to: assetKey(4), amount: UNIT }] }));
            }
        }
        finally {
            await done(n);
        }
    });
});
describe("a paid commit lives 2 h after its own timestamp", () => {
    for (const where of ["in the process list", "saved in a block"]) {
        test(`${where}: at exactly 2 h a new commit is a repeat; 1 ms later it pays again`, async () => {
            const n = await fresh(undefined, 100n);
            try {
                const raw = newChain("lifetime").raw;
                const t0 = n.clock.ms;
                await n.ledger.submitCommit(chainCommit(raw, t0));
                if (where === "saved in a block")
                    await finishBlock(n);
                n.clock.ms = t0 + LIFETIME_MS;
                await rejectedWithoutChange(n, () => n.ledger.submitCommit(chainCommit(raw, n.clock.ms)), "REPEATED_COMMIT");
                n.clock.ms = t0 + LIFETIME_MS + 1;
                await n.ledger.submitCommit(chainCommit(raw, n.clock.ms));
                assert.equal(n.ledger.ecBalance(ecKey.publicKey).ack, 100n - 22n);
            }
            finally {
                await done(n);
            }
        });
        test(`${where}: a reveal at exactly 2 h is paid; 1 ms later it waits for a commit`, async () => {
            const n = await fresh(undefined, 100n);
            try {
                const t0 = n.clock.ms;
                const paid = newChain("paid");
                const late = newChain("late");
                await n.ledger.submitCommit(chainCommit(paid.raw, t0));
                await n.ledger.submitCommit(chainCommit(late.raw, t0));
                if (where === "saved in a block")
                    await finishBlock(n);
                n.clock.ms = t0 + LIFETIME_MS;
                await n.ledger.submitReveal(paid.raw);
                assert.equal(n.ledger.entryAck(entryHashOf(paid.raw)).entry.status, AckStatus.TransactionACK);
                n.clock.ms = t0 + LIFETIME_MS + 1;
                await n.ledger.submitReveal(late.raw);
                assert.equal(n.ledger.entryAck(entryHashOf(late.raw)).entry.status, AckStatus.NotConfirmed);
                assert.equal(n.ledger.holdingQueue().length, 1);
            }
            finally {
                await done(n);
            }
        });
    }
    test("the lifetime counts from the commit's timestamp, not its arrival (a commit 1 h old lives 1 h more)", async () => {
        const n = await fresh(undefined, 100n);
        try {
            const arrival = n.clock.ms;
            const stamp = arrival - WINDOW_MS;
            const a = newChain("old-a");
            const b = newChain("old-b");
            await n.ledger.submitCommit(chainCommit(a.raw, stamp));
            await n.ledger.submitCommit(chainCommit(b.raw, stamp));
            n.clock.ms = stamp + LIFETIME_MS;
            assert.equal(n.clock.ms, arrival + LIFETIME_MS - WINDOW_MS);
            await n.ledger.submitReveal(a.raw);
            assert.equal(n.ledger.entryAck(entryHashOf(a.raw)).entry.status, AckStatus.TransactionACK);
            n.clock.advance(1);
            await n.ledger.submitReveal(b.raw);
            assert.equal(n.ledger.entryAck(entryHashOf(b.raw)).entry.status, AckStatus.NotConfirmed);
        }
        finally {
            await done(n);
        }
    });
});
describe("entry size at the ledger", () => {
    test("an entry of MAX_ENTRY_SIZE is accepted; one byte more → INVALID naming the limit (not a missing chain)", async () => {
        const n = await fresh(undefined, 100n);
        try {
            const c = newChain("size");
            await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
            await n.ledger.submitReveal(c.raw);
            const largest = entryRaw(c.chainId, [], "");
            const content = "x".repeat(MAX_ENTRY_SIZE - largest.length);
            const max = entryRaw(c.chainId, [], content);
            assert.equal(max.length, MAX_ENTRY_SIZE);
            await n.ledger.submitCommit(entryCommit(max, n.clock.ms));
            await n.ledger.submitReveal(max);
            // one byte more: the length prefix would still describe a valid header, so only the size rule refuses it
            const over = new Uint8Array(MAX_ENTRY_SIZE + 1);
            over.set(marshalEntry({ version: 0, chainId: c.chainId, extIds: [], content: new Uint8Array(0) }));
            const t = await rejectedWithoutChange(n, () => n.ledger.submitReveal(over), "INVALID");
            assert.match(t.info, /10241 bytes, the limit is 10240/);
            await rejectsWith(n.ledger.submitReveal(over, { kind: "chain" }), "INVALID");
        }
        finally {
            await done(n);
        }
    });
});
//# sourceMappingURL=consensus.test.js.map