import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { publicKeyFromSeed } from "../../../src/crypto/ed25519.js";
import { keyPairFromPrivate } from "../../../src/protocol/address.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { buildEntryCommit, commitTxId, decodeChainCommit, decodeEntryCommit, verifyCommitSignature, } from "../../../src/protocol/commit.js";
import { chainIdFromExtIds, entryCreditCost, entryHash, marshalEntry, unmarshalEntry, } from "../../../src/protocol/entry.js";
import { decodeTransaction, transactionFeeEC, validateTransaction, verifyTransactionSignatures, } from "../../../src/protocol/transaction.js";
import { EntryCommitSigner, fundingTransaction, presignChain, presignEntries, } from "../../../tools/loadgen/presign.js";
import { LOCAL_GENESIS_PRIVATE_KEY } from "../../../tools/loadgen/session.js";
import { Random } from "../../support/random.js";
function parse(body) {
    return JSON.parse(body);
}
describe("loadgen pre-signed entry commits", () => {
    test("EntryCommitSigner is byte-identical to protocol buildEntryCommit and verifies", () => {
        const rng = new Random(0x51);
        for (let i = 0; i < 40; i++) {
            const seed = rng.bytes(32);
            const signer = new EntryCommitSigner(seed);
            assert.deepEqual(signer.publicKey, publicKeyFromSeed(seed));
            const raw = marshalEntry({
                version: 0,
                chainId: rng.bytes(32),
                extIds: [rng.bytes(rng.int(0, 20))],
                content: rng.bytes(rng.chance(0.2) ? rng.int(1000, 9000) : rng.int(0, 200)),
            });
            const milliTime = rng.int(0, 2 ** 48 - 1);
            const mine = signer.sign(raw, milliTime);
            const reference = buildEntryCommit({ entryRaw: raw, milliTime, ecSeed: seed });
            assert.equal(toHex(mine), toHex(reference.raw), `case ${i}`);
            const decoded = decodeEntryCommit(mine);
            assert.equal(verifyCommitSignature(decoded), true);
            assert.deepEqual(decoded.entryHash, entryHash(raw));
            assert.equal(decoded.credits, entryCreditCost(raw.length, false));
            assert.equal(decoded.milliTime, milliTime);
        }
    });
    test("a changed byte in a pre-signed commit no longer verifies", () => {
        const signer = new EntryCommitSigner(new Uint8Array(32).fill(9));
        const raw = marshalEntry({
            version: 0,
            chainId: new Uint8Array(32).fill(1),
            extIds: [],
            content: Buffer.from("x"),
        });
        const good = signer.sign(raw, Date.now());
        for (const at of [1, 10, 39, 50, 100]) {
            const bad = good.slice();
            bad[at] ^= 0x02; // credits 1 → 3 stays in range at byte 39
            assert.equal(verifyCommitSignature(decodeEntryCommit(bad)), false, `byte ${at}`);
        }
    });
    test("presignEntries: JSON-RPC bodies whose commits decode and verify and match their reveals", () => {
        const chains = [1, 2, 3].map((k) => new Uint8Array(32).fill(k));
        const seed = new Uint8Array(32).fill(0x42);
        const signer = new EntryCommitSigner(seed);
        const milliTime = Date.now();
        const plan = { chains, runId: "a1b2c3", contentBytes: 64 };
        const entries = presignEntries(plan, signer, 10, 200, milliTime);
        assert.equal(entries.length, 200);
        const hashes = new Set();
        entries.forEach((e, k) => {
            const commitReq = parse(e.commitBody);
            const revealReq = parse(e.revealBody);
            assert.equal(commitReq.jsonrpc, "2.0");
            assert.equal(commitReq.method, "commit-entry");
            assert.equal(revealReq.method, "reveal-entry");
            const commit = decodeEntryCommit(fromHex(commitReq.params.message));
            assert.equal(verifyCommitSignature(commit), true, `entry ${k}`);
            assert.deepEqual(commit.ecPublicKey, signer.publicKey);
            assert.equal(commit.milliTime, milliTime);
            const raw = fromHex(revealReq.params.entry);
            assert.equal(toHex(commit.entryHash), toHex(entryHash(raw)));
            assert.equal(e.entryHash, toHex(entryHash(raw)));
            const entry = unmarshalEntry(raw);
            assert.equal(toHex(entry.chainId), e.chainId);
            assert.equal(e.chainId, toHex(chains[(10 + k) % 3]), "round robin over the chains");
            assert.equal(entry.content.length, 64);
            assert.equal(commit.credits, 1);
            hashes.add(e.entryHash);
            // the body is sent as is: ids follow the entry index
            assert.equal(commitReq.id, 10 + k);
            assert.equal(toHex(commitTxId(commit)).length, 64);
        });
        assert.equal(hashes.size, 200, "every entry hash differs");
        // another run's entries differ even at the same indexes
        const other = presignEntries({ ...plan, runId: "ffffff" }, signer, 10, 5, milliTime);
        for (const e of other)
            assert.ok(!hashes.has(e.entryHash));
    });
    test("presignChain: a chain commit that decodes, verifies and names the first entry's chain", () => {
        const seed = new Uint8Array(32).fill(0x17);
        const c = presignChain("run1", 7, seed, Date.now());
        const commit = decodeChainCommit(fromHex(parse(c.commitBody).params.message));
        assert.equal(verifyCommitSignature(commit), true);
        const raw = fromHex(parse(c.revealBody).params.entry);
        const entry = unmarshalEntry(raw);
        assert.deepEqual(entry.chainId, chainIdFromExtIds(entry.extIds));
        assert.deepEqual(c.chainId, entry.chainId);
        assert.equal(toHex(commit.entryHash), c.entryHash);
        assert.equal(commit.credits, entryCreditCost(raw.length, true));
        assert.equal(parse(c.commitBody).method, "commit-chain");
        assert.equal(parse(c.revealBody).method, "reveal-chain");
    });
});
describe("loadgen funding transaction", () => {
    test("buys exactly the credits, pays the exact fee and verifies", () => {
        const genesis = keyPairFromPrivate(LOCAL_GENESIS_PRIVATE_KEY);
        assert.equal(genesis.publicAddress, "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q");
        const ecPublicKey = publicKeyFromSeed(new Uint8Array(32).fill(3));
        for (const [credits, rate] of [
            [250000n, 1000n],
            [1n, 1000n],
            [20000000n, 100000n],
        ]) {
            const tx = fundingTransaction({
                fromSeed: genesis.seed,
                ecPublicKey,
                credits,
                rate,
                milliTimestamp: 1_700_000_000_000,
            });
            const decoded = decodeTransaction(tx.raw);
            assert.equal(decoded.inputs.length, 1);
            assert.equal(decoded.outputs.length, 0);
            assert.equal(decoded.ecOutputs.length, 1);
            assert.equal(decoded.ecOutputs[0].amount, credits * rate);
            assert.deepEqual(decoded.ecOutputs[0].address, ecPublicKey);
            const fee = BigInt(transactionFeeEC(decoded)) * rate;
            assert.equal(decoded.inputs[0].amount, credits * rate + fee, "input = EC output + fee, nothing burned");
            validateTransaction(decoded, rate);
            assert.equal(verifyTransactionSignatures(decoded), true);
            // validated at a higher rate the fee falls short: the protocol rule the exact input relies on
            assert.throws(() => validateTransaction(fundingTransaction({
                fromSeed: genesis.seed,
                ecPublicKey,
                credits,
                rate: rate + 1n,
                milliTimestamp: 1_700_000_000_000,
            }), rate + 2n));
        }
    });
});
//# sourceMappingURL=presign.test.js.map