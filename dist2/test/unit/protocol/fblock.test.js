import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ByteWriter, concat, fromHex, toHex, ZERO_HASH } from "../../../src/protocol/bytes.js";
import { ASSET_CHAIN_ID } from "../../../src/protocol/chains.js";
import { assetBlockBodyMR, assetBlockHashes, assetBlockLedgerMR, assetBlockTransactions, buildAssetBlock, decodeAssetBlock, emptyCoinbase, encodeAssetBlock, encodeAssetBlockHeader, PERIOD_MARKER_HASH, } from "../../../src/protocol/fblock.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { assetBlockJson } from "../../../src/protocol/json/assetBlockJson.js";
import { merkleRoot } from "../../../src/protocol/merkle.js";
import { buildTransaction, transactionFullHash, transactionId, } from "../../../src/protocol/transaction.js";
import { expectProtocolError, fuzzDecoder } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";
import { loadVectorFiles } from "../../support/vectors.js";
const vectors = new Map([...loadVectorFiles().values()].flat().map((v) => [v.id, v]));
const static2 = fromHex(vectors.get("fblock-factomd-static-2").input.fblockHex);
const mainnet20002 = fromHex(vectors.get("fblock-golib-mainnet-20002").input.rawDataHex);
/** A pool of signed transactions (signing is the slow part; blocks pick from it). */
function txPool(rng, n) {
    return Array.from({ length: n }, () => buildTransaction({
        milliTimestamp: rng.int(0, 2 ** 48 - 1),
        inputs: Array.from({ length: rng.int(1, 2) }, () => ({
            seed: rng.bytes(32),
            amount: BigInt(rng.int(0, 2 ** 40)),
        })),
        outputs: Array.from({ length: rng.int(0, 3) }, () => ({
            amount: BigInt(rng.int(0, 2 ** 40)),
            address: rng.bytes(32),
        })),
        ecOutputs: Array.from({ length: rng.int(0, 1) }, () => ({
            amount: BigInt(rng.int(0, 2 ** 40)),
            address: rng.bytes(32),
        })),
    }));
}
function randomBlock(rng, pool) {
    const periods = Array.from({ length: 10 }, () => []);
    periods[0].push(emptyCoinbase(rng.int(0, 2 ** 48 - 1)));
    const count = rng.int(0, 12);
    for (let i = 0; i < count; i++)
        periods[rng.int(0, 9)].push(rng.pick(pool));
    return buildAssetBlock({
        prevKeyMR: rng.bytes(32),
        prevLedgerKeyMR: rng.bytes(32),
        exchangeRate: rng.chance(0.5) ? BigInt(rng.int(0, 1_000_000)) : rng.u64(),
        dbHeight: rng.int(0, 2 ** 32 - 1),
        headerExpansion: rng.chance(0.1) ? rng.bytes(rng.int(1, 5)) : new Uint8Array(0),
        periods,
    });
}
/** The block with its header rewritten: `mutate` gets the header fields (tx count, body size) to change. */
function withHeader(block, fields, body) {
    const txs = assetBlockTransactions(block);
    return concat(new ByteWriter()
        .bytes(fields.chainId ?? ASSET_CHAIN_ID)
        .bytes(block.bodyMR)
        .bytes(block.prevKeyMR)
        .bytes(block.prevLedgerKeyMR)
        .u64(block.exchangeRate)
        .u32(block.dbHeight)
        .varint(0)
        .u32(fields.txCount ?? txs.length)
        .u32(fields.bodySize ?? body.length)
        .finish(), body);
}
function bodyOf(periods) {
    return concat(...periods.flatMap((p) => [...p.map((tx) => tx.raw), Uint8Array.of(0)]));
}
describe("asset block round trip (property, seeded)", () => {
    test("300 random blocks: decode(encode(b)) == b, hashes per the rules", () => {
        const rng = new Random(0xfb10);
        const pool = txPool(rng, 24);
        for (let i = 0; i < 300; i++) {
            const block = randomBlock(rng, pool);
            const raw = encodeAssetBlock(block);
            const decoded = decodeAssetBlock(raw);
            assert.deepEqual(decoded, block, `seed ${rng.seed} case ${i}`);
            assert.equal(toHex(encodeAssetBlock(decoded)), toHex(raw));
            const txs = assetBlockTransactions(block);
            const leaves = (f) => block.periods.flatMap((p) => [...p.map(f), PERIOD_MARKER_HASH]);
            assert.equal(toHex(block.bodyMR), toHex(merkleRoot(leaves(transactionFullHash))));
            const h = assetBlockHashes(block);
            const headerHash = sha256(encodeAssetBlockHeader(block));
            assert.equal(toHex(h.headerHash), toHex(headerHash));
            assert.equal(toHex(h.keyMR), toHex(sha256(concat(headerHash, block.bodyMR))));
            assert.equal(toHex(h.ledgerMR), toHex(merkleRoot(leaves(transactionId))));
            assert.equal(toHex(h.ledgerKeyMR), toHex(sha256(concat(h.ledgerMR, headerHash))), "ledgerMR first, then the header hash");
            assert.equal(raw.length, encodeAssetBlockHeader(block).length + txs.reduce((n, tx) => n + tx.raw.length, 0) + 10);
        }
    });
    test("marker hash is sha256(00) = 6e340b9c…a01d", () => {
        assert.equal(toHex(PERIOD_MARKER_HASH), "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
    });
    test("emptyCoinbase is the 10 bytes 02 ‖ ts ‖ 00 00 00 (mainnet block 20002's coinbase)", () => {
        const cb = emptyCoinbase(1453149000985);
        assert.equal(toHex(cb.raw), vectors.get("tx-golib-mainnet-20002-coinbase").input.txHex);
        assert.equal(toHex(transactionId(cb)), toHex(transactionFullHash(cb)));
        assert.equal(toHex(cb.signedPart), toHex(cb.raw));
        expectProtocolError(() => emptyCoinbase(-1), "BAD_VALUE");
    });
    test("transactions keep their period: mainnet 90050 places txs before markers 1 and 3", () => {
        const block = decodeAssetBlock(static2);
        assert.deepEqual(block.periods.map((p) => p.length), [4, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
        assert.equal(assetBlockTransactions(block).length, 5);
    });
});
describe("asset block rejections", () => {
    const block = decodeAssetBlock(mainnet20002);
    test("every truncation is rejected", () => {
        for (let n = 0; n < mainnet20002.length; n++)
            expectProtocolError(() => decodeAssetBlock(mainnet20002.subarray(0, n)), undefined, `length ${n}`);
        expectProtocolError(() => decodeAssetBlock(mainnet20002.subarray(0, 100)), "TRUNCATED");
    });
    test("trailing bytes after the body", () => {
        expectProtocolError(() => decodeAssetBlock(concat(mainnet20002, Uint8Array.of(0))), "TRAILING_BYTES");
    });
    test("marker count must be exactly 10", () => {
        const body = bodyOf(block.periods);
        const nine = body.subarray(0, body.length - 1);
        assert.match(expectProtocolError(() => decodeAssetBlock(withHeader(block, {}, nine)), "BAD_VALUE").detail, /10 period markers, found 9/);
        const eleven = concat(body, Uint8Array.of(0));
        assert.match(expectProtocolError(() => decodeAssetBlock(withHeader(block, {}, eleven)), "BAD_VALUE").detail, /found 11/);
        const afterTenth = concat(body, block.periods[0][1].raw);
        assert.match(expectProtocolError(() => decodeAssetBlock(withHeader(block, { txCount: 3 }, afterTenth)), "BAD_VALUE").detail, /after the tenth/);
        expectProtocolError(() => buildAssetBlock({ ...block, periods: block.periods.slice(0, 9) }), "BAD_VALUE");
    });
    test("header counts must match the body", () => {
        const body = bodyOf(block.periods);
        expectProtocolError(() => decodeAssetBlock(withHeader(block, { txCount: 1 }, body)), "BAD_VALUE");
        expectProtocolError(() => decodeAssetBlock(withHeader(block, { txCount: 3 }, body)), "BAD_VALUE");
        expectProtocolError(() => decodeAssetBlock(withHeader(block, { bodySize: body.length + 1 }, body)), "TRUNCATED");
        expectProtocolError(() => decodeAssetBlock(withHeader(block, { bodySize: body.length - 1 }, body)), undefined);
    });
    test("wrong chain ID, wrong stored bodyMR, coinbase with inputs", () => {
        const body = bodyOf(block.periods);
        expectProtocolError(() => decodeAssetBlock(withHeader(block, { chainId: ZERO_HASH }, body)), "BAD_VALUE");
        const badMR = mainnet20002.slice();
        badMR[40] ^= 1;
        assert.equal(expectProtocolError(() => decodeAssetBlock(badMR), "BAD_VALUE").field, "assetBlock.bodyMR");
        const spend = block.periods[0][1];
        const periods = [[spend], ...block.periods.slice(1)];
        const noCoinbase = { ...block, periods, bodyMR: assetBlockBodyMR(periods) };
        expectProtocolError(() => decodeAssetBlock(withHeader(noCoinbase, { txCount: 1 }, bodyOf(periods))), "BAD_VALUE");
        expectProtocolError(() => buildAssetBlock({ ...block, periods }), "BAD_VALUE");
        expectProtocolError(() => buildAssetBlock({ ...block, periods: Array.from({ length: 10 }, () => []) }), "BAD_VALUE");
    });
    test("a broken transaction inside the body names its index", () => {
        const body = bodyOf(block.periods).slice();
        body[10] = 0x03; // version byte of transaction 1
        const e = expectProtocolError(() => decodeAssetBlock(withHeader(block, {}, body)), "BAD_VERSION");
        assert.equal(e.field, "assetBlock.transactions[1].version");
    });
});
describe("asset block JSON", () => {
    test("shape and key order of the reference fblock", () => {
        const block = decodeAssetBlock(mainnet20002);
        const json = assetBlockJson(block);
        assert.deepEqual(Object.keys(json), [
            "bodymr",
            "prevkeymr",
            "prevledgerkeymr",
            "exchrate",
            "dbheight",
            "transactions",
            "chainid",
            "keymr",
            "ledgerkeymr",
        ]);
        assert.equal(json.exchrate, 90900);
        assert.equal(json.dbheight, 20002);
        assert.equal(json.prevkeymr, toHex(block.prevKeyMR));
        assert.equal(json.prevledgerkeymr, toHex(block.prevLedgerKeyMR));
        assert.equal(json.transactions.length, 2);
        assert.deepEqual(json.transactions[0].inputs, []);
        assert.equal(json.transactions[1].inputs[0].useraddress, "FA2SCdYb8iBYmMcmeUjHB8NhKx6DqH3wDovkumgbKt4oNkD3TJMg");
        assert.ok(json.transactions.every((t) => t.blockheight === 0));
    });
    test("ledgerMR ≠ bodyMR once a transaction has signatures", () => {
        const block = decodeAssetBlock(mainnet20002);
        assert.notEqual(toHex(assetBlockLedgerMR(block.periods)), toHex(block.bodyMR));
        const onlyCoinbase = buildAssetBlock({
            ...block,
            periods: [[emptyCoinbase(1)], ...block.periods.slice(1).map(() => [])],
        });
        assert.equal(toHex(assetBlockLedgerMR(onlyCoinbase.periods)), toHex(onlyCoinbase.bodyMR), "coinbase txid == full hash");
    });
});
describe("asset block decoder fuzz", () => {
    test("2000 random and mutated inputs: a ProtocolError or a block that re-encodes to the input", () => {
        const rng = new Random(0xfbf2);
        const pool = txPool(rng, 6);
        const seeds = [
            mainnet20002,
            static2,
            fromHex(vectors.get("fblock-factomd-static-1").input.fblockHex),
            fromHex(vectors.get("fblock-genesis-local").input.fblockHex),
            ...Array.from({ length: 4 }, () => encodeAssetBlock(randomBlock(rng, pool))),
        ];
        fuzzDecoder(rng, decodeAssetBlock, {
            seeds,
            cases: 2000,
            maxRandomLength: 400,
            onAccept: (block, bytes) => assert.equal(toHex(encodeAssetBlock(block)), toHex(bytes)),
        });
    });
});
//# sourceMappingURL=fblock.test.js.map