import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { publicKeyFromSeed, verifyEd25519Noble } from "../../../src/crypto/ed25519.js";
import { rcd1, rcd1Hash } from "../../../src/protocol/address.js";
import { concat, fromHex, toHex } from "../../../src/protocol/bytes.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { assetTransactionJson, jsonInteger } from "../../../src/protocol/json/transactionJson.js";
import { AMOUNT_LIMIT, buildTransaction, decodeTransaction, decodeTransactionAt, encodeTransaction, encodeTransactionSignedPart, MAX_TRANSACTION_SIZE, transactionFeeEC, transactionFullHash, transactionId, transactionSignatureChecks, validateTransaction, verifyTransactionSignatures, } from "../../../src/protocol/transaction.js";
import { expectProtocolError, fuzzDecoder } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";
import { loadVectorFiles } from "../../support/vectors.js";
const vectors = new Map([...loadVectorFiles().values()].flat().map((v) => [v.id, v]));
const txHex = (id) => fromHex(vectors.get(id).input.txHex);
/** A random amount: mostly small, sometimes near the 2^63 limit. */
function amount(rng, max = AMOUNT_LIMIT - 1n) {
    const v = rng.chance(0.2) ? rng.u64() % (max + 1n) : BigInt(rng.int(0, 2 ** 40));
    return v > max ? max : v;
}
function ios(rng, n, max) {
    return Array.from({ length: n }, () => ({ amount: amount(rng, max), address: rng.bytes(32) }));
}
function randomTx(rng, inputs = rng.int(0, 4)) {
    return buildTransaction({
        milliTimestamp: rng.int(0, 2 ** 48 - 1),
        inputs: Array.from({ length: inputs }, () => ({
            seed: rng.bytes(32),
            amount: amount(rng, (AMOUNT_LIMIT - 1n) / 8n),
        })),
        outputs: ios(rng, rng.int(0, 5)),
        ecOutputs: ios(rng, rng.int(0, 3)),
    });
}
/** A transaction that passes validateTransaction at `rate`: inputs cover outputs + fee exactly + `extra`. */
function fundedTx(rng, rate, extra = 0n) {
    const seeds = [rng.bytes(32), rng.bytes(32)];
    const outputs = ios(rng, 2, 10n ** 12n);
    const ecOutputs = ios(rng, 1, 10n ** 12n);
    const out = [...outputs, ...ecOutputs].reduce((s, o) => s + o.amount, 0n);
    const draft = buildTransaction({
        milliTimestamp: 1_700_000_000_000,
        inputs: seeds.map((seed) => ({ seed, amount: 0n })),
        outputs,
        ecOutputs,
    });
    const need = out + BigInt(transactionFeeEC(draft)) * rate + extra;
    // Amounts change the varint sizes but the fee stays (size < 1 KiB).
    return buildTransaction({
        milliTimestamp: 1_700_000_000_000,
        inputs: [
            { seed: seeds[0], amount: need / 2n },
            { seed: seeds[1], amount: need - need / 2n },
        ],
        outputs,
        ecOutputs,
    });
}
/** Re-marshal a decoded tx after changing fields (signatures stay as they were). */
function remarshal(tx, change) {
    return decodeTransaction(encodeTransaction({ ...tx, ...change }));
}
describe("transaction round trip (property, seeded)", () => {
    test("300 random signed transactions decode to themselves and re-encode byte-exactly", () => {
        const rng = new Random(0x7a11);
        for (let i = 0; i < 300; i++) {
            const tx = randomTx(rng);
            const decoded = decodeTransaction(tx.raw);
            assert.deepEqual(decoded, tx, `seed ${rng.seed} case ${i}`);
            assert.equal(toHex(encodeTransaction(decoded)), toHex(tx.raw));
            assert.equal(toHex(encodeTransactionSignedPart(decoded)), toHex(tx.signedPart));
            assert.equal(toHex(transactionId(decoded)), toHex(sha256(tx.signedPart)));
            assert.equal(toHex(transactionFullHash(decoded)), toHex(sha256(tx.raw)));
            assert.equal(tx.raw.length, tx.signedPart.length + 97 * tx.inputs.length, "one RCD1 (33) + signature (64) per input");
            assert.ok(verifyTransactionSignatures(decoded), `case ${i}: signatures verify`);
            // Embedded in a larger buffer, decodeTransactionAt finds the same transaction and its size.
            const junk = rng.bytes(rng.int(0, 20));
            const at = decodeTransactionAt(concat(junk, tx.raw, rng.bytes(5)), junk.length);
            assert.equal(at.size, tx.raw.length);
            assert.deepEqual(at.tx, tx);
        }
    });
    test("coinbase: no inputs → txid == full hash; the factomd vector decodes with its timestamp", () => {
        const tx = decodeTransaction(txHex("tx-factomd-empty-coinbase"));
        assert.equal(tx.milliTimestamp, 1441137675547);
        assert.equal(toHex(transactionId(tx)), toHex(transactionFullHash(tx)));
        const rng = new Random(5);
        const cb = randomTx(rng, 0);
        assert.equal(toHex(transactionId(cb)), toHex(transactionFullHash(cb)));
    });
});
describe("transaction rejections", () => {
    const good = txHex("tx-golib-mainnet-20002-1");
    test("every truncation is TRUNCATED", () => {
        for (let n = 0; n < good.length; n++)
            expectProtocolError(() => decodeTransaction(good.subarray(0, n)), "TRUNCATED", `length ${n}`);
    });
    test("trailing bytes are rejected by decodeTransaction, not by decodeTransactionAt", () => {
        expectProtocolError(() => decodeTransaction(concat(good, Uint8Array.of(0))), "TRAILING_BYTES");
        assert.equal(decodeTransactionAt(concat(good, Uint8Array.of(0)), 0).size, good.length);
    });
    test("wrong version, non-minimal version varint", () => {
        for (const v of [0x00, 0x01, 0x03, 0x7f]) {
            const bad = good.slice();
            bad[0] = v;
            expectProtocolError(() => decodeTransaction(bad), "BAD_VERSION", `version ${v}`);
        }
        expectProtocolError(() => decodeTransaction(concat(Uint8Array.of(0x80), good)), "BAD_VARINT");
        expectProtocolError(() => encodeTransaction({ ...decodeTransaction(good), version: 3 }), "BAD_VERSION");
    });
    test("oversized: > 10240 bytes is TOO_LARGE for decodeTransaction and validateTransaction", () => {
        const rng = new Random(11);
        const tx = buildTransaction({
            milliTimestamp: 1,
            inputs: [{ seed: rng.bytes(32), amount: 1n }],
            outputs: Array.from({ length: 255 }, () => ({ amount: AMOUNT_LIMIT - 1n, address: rng.bytes(32) })),
            ecOutputs: [],
        });
        assert.ok(tx.raw.length > MAX_TRANSACTION_SIZE, `${tx.raw.length} bytes`);
        expectProtocolError(() => decodeTransaction(tx.raw), "TOO_LARGE");
        expectProtocolError(() => validateTransaction(tx, 0n), "TOO_LARGE");
        // In a block body the size rule is not a decoding rule.
        assert.equal(decodeTransactionAt(tx.raw, 0).size, tx.raw.length);
    });
    test("RCD types other than 1 are BAD_RCD", () => {
        const tx = decodeTransaction(good);
        for (const type of [0x00, 0x02, 0x03, 0xff]) {
            const bad = good.slice();
            bad[tx.signedPart.length] = type;
            expectProtocolError(() => decodeTransaction(bad), "BAD_RCD", `type ${type}`);
        }
        expectProtocolError(() => encodeTransaction({ ...tx, rcds: [Uint8Array.of(2, ...tx.rcds[0].subarray(1))] }), "BAD_RCD");
        expectProtocolError(() => encodeTransaction({ ...tx, rcds: [] }), "BAD_RCD");
        expectProtocolError(() => transactionSignatureChecks({ ...tx, rcds: [Uint8Array.of(2)] }), "BAD_RCD");
        assert.equal(verifyTransactionSignatures({ ...tx, rcds: [Uint8Array.of(2)] }), false);
    });
    test("amounts ≥ 2^63 are BAD_VALUE when decoded and when encoded", () => {
        const rng = new Random(3);
        const address = rng.bytes(32);
        const tx = buildTransaction({
            milliTimestamp: 1,
            inputs: [],
            outputs: [{ amount: AMOUNT_LIMIT - 1n, address }],
            ecOutputs: [],
        });
        // 02 ‖ ts(6) ‖ counts(3), then the output: the 9-byte varint of 2^63−1, replaced by the 10-byte one of 2^63.
        assert.equal(toHex(tx.raw.subarray(10, 19)), "ffffffffffffffff7f");
        const big = Uint8Array.of(0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00);
        const bytes = concat(tx.raw.subarray(0, 10), big, address);
        const e = expectProtocolError(() => decodeTransaction(bytes), "BAD_VALUE");
        assert.equal(e.field, "transaction.outputs[0].amount");
        expectProtocolError(() => encodeTransaction({ ...tx, outputs: [{ amount: AMOUNT_LIMIT, address }] }), "BAD_VALUE");
        expectProtocolError(() => encodeTransaction({ ...tx, outputs: [{ amount: -1n, address }] }), "BAD_VALUE");
    });
    test("encoder guards: counts, address sizes, signature blocks", () => {
        const tx = decodeTransaction(good);
        expectProtocolError(() => encodeTransaction({ ...tx, outputs: Array.from({ length: 256 }, () => tx.outputs[0]) }), "TOO_LARGE");
        expectProtocolError(() => encodeTransaction({ ...tx, outputs: [{ amount: 1n, address: new Uint8Array(31) }] }), "BAD_LENGTH");
        expectProtocolError(() => encodeTransaction({ ...tx, signatures: [[]] }), "BAD_SIGNATURE");
        expectProtocolError(() => encodeTransaction({ ...tx, signatures: [[new Uint8Array(63)]] }), "BAD_SIGNATURE");
        expectProtocolError(() => encodeTransaction({ ...tx, milliTimestamp: 2 ** 48 }), "BAD_VALUE");
    });
    test("bad signatures: a flipped bit, a signature over another message, a non-canonical S", () => {
        const tx = decodeTransaction(good);
        assert.ok(verifyTransactionSignatures(tx));
        const flipped = good.slice();
        flipped[flipped.length - 1] ^= 0x01;
        assert.equal(verifyTransactionSignatures(decodeTransaction(flipped)), false);
        const otherTime = remarshal(tx, { milliTimestamp: tx.milliTimestamp + 1 });
        assert.equal(verifyTransactionSignatures(otherTime), false, "signature does not cover a changed signed part");
        // S + L: same point equation, but not canonical — the reference (VerifyCanonical) refuses it.
        const sig = tx.signatures[0][0];
        let s = 0n;
        for (let i = 63; i >= 32; i--)
            s = (s << 8n) | BigInt(sig[i]);
        s += (1n << 252n) + 27742317777372353535851937790883648493n;
        const high = sig.slice();
        for (let i = 32; i < 64; i++) {
            high[i] = Number(s & 0xffn);
            s >>= 8n;
        }
        const nonCanonical = remarshal(tx, { signatures: [[high]] });
        assert.equal(verifyTransactionSignatures(nonCanonical), false);
        assert.equal(verifyEd25519Noble(tx.rcds[0].subarray(1), tx.signedPart, high), false);
    });
});
describe("validateTransaction and fees", () => {
    test("fee: size KiB + 10 per output + 1 per RCD1 (factom.js example: 23 EC)", () => {
        const rng = new Random(21);
        const tx = fundedTx(rng, 1000n);
        assert.equal(transactionFeeEC(tx), 1 + 10 * 3 + 2);
        // A transaction over 1 KiB pays 2 EC for its size.
        const big = buildTransaction({
            milliTimestamp: 1,
            inputs: [{ seed: rng.bytes(32), amount: 1n }],
            outputs: ios(rng, 30, 1000n),
            ecOutputs: [],
        });
        assert.ok(big.raw.length > 1024 && big.raw.length <= 2048);
        assert.equal(transactionFeeEC(big), 2 + 300 + 1);
        assert.equal(transactionFeeEC(decodeTransaction(txHex("tx-factomd-empty-coinbase"))), 1, "coinbase: size only");
    });
    test("inputs == outputs + fee is valid; one base unit less is not", () => {
        const rng = new Random(22);
        for (const rate of [1n, 1000n, 666600n]) {
            validateTransaction(fundedTx(rng, rate), rate);
            validateTransaction(fundedTx(rng, rate, 5n), rate); // surplus is burned, allowed
            const e = expectProtocolError(() => validateTransaction(fundedTx(rng, rate, -1n), rate), "BAD_VALUE");
            assert.equal(e.field, "transaction.inputs");
            assert.match(e.detail, /do not cover/);
        }
    });
    test("structural rules: ≥ 1 input, RCD hash == input address, sums < 2^63", () => {
        const rng = new Random(23);
        const coinbase = decodeTransaction(txHex("tx-factomd-empty-coinbase"));
        assert.equal(expectProtocolError(() => validateTransaction(coinbase, 0n), "BAD_VALUE").field, "transaction.inputs");
        const tx = fundedTx(rng, 1n);
        const swapped = remarshal(tx, { inputs: [tx.inputs[1], tx.inputs[0]] });
        assert.equal(expectProtocolError(() => validateTransaction(swapped, 1n), "BAD_RCD").field, "transaction.inputs[0].address");
        // Two inputs of 2^62 from one key: their sum reaches 2^63.
        const seed = rng.bytes(32);
        const overflow = buildTransaction({
            milliTimestamp: 1,
            inputs: [
                { seed, amount: 1n << 62n },
                { seed, amount: 1n << 62n },
            ],
            outputs: [],
            ecOutputs: [],
        });
        assert.match(expectProtocolError(() => validateTransaction(overflow, 0n), "BAD_VALUE").detail, /2\^63/);
        expectProtocolError(() => validateTransaction({ ...tx, rcds: [tx.rcds[0]] }, 1n), "BAD_RCD");
        expectProtocolError(() => validateTransaction(tx, -1n), "BAD_VALUE");
    });
    test("signature checks are one (pubkey, signed part, signature) per input", () => {
        const rng = new Random(24);
        const tx = randomTx(rng, 3);
        const checks = transactionSignatureChecks(tx);
        assert.equal(checks.length, 3);
        checks.forEach((c, i) => {
            assert.equal(toHex(rcd1Hash(c.publicKey)), toHex(tx.inputs[i].address));
            assert.equal(toHex(c.message), toHex(tx.signedPart));
            assert.equal(toHex(c.signature), toHex(tx.signatures[i][0]));
        });
    });
    test("buildTransaction: inputs are RCD1 hashes of the seeds' keys, signed over the signed part", () => {
        const seed = fromHex("00".repeat(32));
        const tx = buildTransaction({ milliTimestamp: 5, inputs: [{ seed, amount: 7n }], outputs: [], ecOutputs: [] });
        const pub = publicKeyFromSeed(seed);
        assert.equal(toHex(tx.rcds[0]), toHex(rcd1(pub)));
        assert.equal(toHex(tx.inputs[0].address), toHex(rcd1Hash(pub)));
        assert.ok(verifyEd25519Noble(pub, tx.signedPart, tx.signatures[0][0]));
        expectProtocolError(() => buildTransaction({
            milliTimestamp: 5,
            inputs: [{ seed: new Uint8Array(31), amount: 1n }],
            outputs: [],
            ecOutputs: [],
        }), "BAD_LENGTH");
    });
});
describe("transaction JSON", () => {
    test("shape and key order of the reference; [] never null; EC outputs as EC addresses", () => {
        const rng = new Random(31);
        const tx = fundedTx(rng, 1000n);
        const json = assetTransactionJson(tx, 7);
        assert.deepEqual(Object.keys(json), [
            "txid",
            "blockheight",
            "millitimestamp",
            "inputs",
            "outputs",
            "outecs",
            "rcds",
            "sigblocks",
        ]);
        assert.equal(json.blockheight, 7);
        assert.equal(assetTransactionJson(tx).blockheight, 0);
        assert.match(json.inputs[0].useraddress, /^FA/);
        assert.match(json.outputs[0].useraddress, /^FA/);
        assert.match(json.outecs[0].useraddress, /^EC/);
        assert.deepEqual(Object.keys(json.inputs[0]), ["amount", "address", "useraddress"]);
        assert.equal(json.rcds[0], toHex(tx.rcds[0]));
        assert.deepEqual(json.sigblocks[1], { signatures: [toHex(tx.signatures[1][0])] });
        const text = JSON.stringify(json);
        assert.ok(!text.includes("null"));
        assert.deepEqual(JSON.parse(text), json, "plain JSON.stringify suffices for real amounts");
    });
    test("jsonInteger keeps numbers exact up to 2^53−1 and hands larger values over as bigint", () => {
        assert.equal(jsonInteger(0n), 0);
        assert.equal(jsonInteger(9007199254740991n), 9007199254740991);
        assert.equal(jsonInteger(9007199254740992n), 9007199254740992n);
        assert.equal(jsonInteger(AMOUNT_LIMIT - 1n), AMOUNT_LIMIT - 1n);
    });
});
describe("transaction decoder fuzz", () => {
    test("2000 random and mutated inputs: a ProtocolError or a canonical transaction, nothing else", () => {
        const rng = new Random(0xf022);
        const seeds = [
            txHex("tx-factomd-empty-coinbase"),
            txHex("tx-factomd-1in-1ec"),
            txHex("tx-golib-mainnet-20002-1"),
            txHex("tx-local-genesis-funding"),
            ...Array.from({ length: 6 }, () => randomTx(rng).raw),
        ];
        const accepted = fuzzDecoder(rng, decodeTransaction, {
            seeds,
            cases: 2000,
            onAccept: (tx, bytes) => {
                assert.equal(toHex(tx.raw), toHex(bytes));
                assert.equal(toHex(encodeTransaction(tx)), toHex(bytes), "accepted input is canonical");
            },
        });
        assert.ok(accepted > 0, "some mutations stay valid (e.g. a changed amount byte)");
        fuzzDecoder(rng, (b) => decodeTransactionAt(b, rng.int(0, b.length)), { seeds, cases: 500 });
    });
    test("decodeTransactionAt rejects an offset outside the buffer with a ProtocolError", () => {
        const good = txHex("tx-golib-mainnet-20002-1");
        expectProtocolError(() => decodeTransactionAt(good, -1), "BAD_VALUE");
        expectProtocolError(() => decodeTransactionAt(good, good.length + 1), "BAD_VALUE");
        expectProtocolError(() => decodeTransactionAt(good, 0.5), "BAD_VALUE");
        expectProtocolError(() => decodeTransactionAt(good, good.length), "TRUNCATED");
    });
});
//# sourceMappingURL=transaction.test.js.map