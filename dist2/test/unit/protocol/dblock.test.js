import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ByteWriter, compareBytes, concat, fromHex, toHex } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import { buildDirectoryBlock, DIRECTORY_BLOCK_HEADER_SIZE, decodeDirectoryBlock, directoryBlockBodyMR, directoryBlockBranchLeaves, directoryBlockHashes, encodeDirectoryBlock, encodeDirectoryBlockHeader, MAX_DIRECTORY_BLOCK_ENTRIES, } from "../../../src/protocol/dblock.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { directoryBlockJson, directoryBlockSimpleJson } from "../../../src/protocol/json/directoryBlockJson.js";
import { merkleBranch, merkleRoot, verifyMerkleBranch } from "../../../src/protocol/merkle.js";
import { expectProtocolError, fuzzDecoder } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";
import { loadVectorFiles } from "../../support/vectors.js";
const vectors = new Map([...loadVectorFiles().values()].flat().map((v) => [v.id, v]));
const static2 = fromHex(vectors.get("dblock-factomd-static-2").input.dblockHex);
const mainnet100 = fromHex(vectors.get("dblock-golib-mainnet-100").input.rawDataHex);
function randomBlock(rng) {
    const entryBlocks = Array.from({ length: rng.int(0, 20) }, () => ({ chainId: rng.bytes(32), keyMR: rng.bytes(32) }));
    return buildDirectoryBlock({
        version: rng.chance(0.9) ? 0 : rng.int(0, 255),
        networkId: rng.u32(),
        prevKeyMR: rng.bytes(32),
        prevFullHash: rng.bytes(32),
        timestamp: rng.u32(),
        dbHeight: rng.u32(),
        entries: [
            { chainId: ADMIN_CHAIN_ID, keyMR: rng.bytes(32) },
            { chainId: EC_CHAIN_ID, keyMR: rng.bytes(32) },
            { chainId: ASSET_CHAIN_ID, keyMR: rng.bytes(32) },
            ...entryBlocks,
        ],
    });
}
/** Raw block with a replaced entry count and body (header otherwise from `block`). */
function withBody(block, count, body) {
    const header = encodeDirectoryBlockHeader(block).slice();
    new DataView(header.buffer, header.byteOffset).setUint32(109, count);
    return concat(header, body);
}
describe("directory block round trip (property, seeded)", () => {
    test("300 random blocks: sorted after the first three, decode(encode(b)) == b, hashes per the rules", () => {
        const rng = new Random(0xdb10);
        for (let i = 0; i < 300; i++) {
            const block = randomBlock(rng);
            const rest = block.entries.slice(3).map((e) => e.chainId);
            assert.deepEqual(rest, [...rest].sort(compareBytes), "entries 3.. ascending by chain ID");
            const raw = encodeDirectoryBlock(block);
            assert.equal(raw.length, DIRECTORY_BLOCK_HEADER_SIZE + 64 * block.entries.length);
            const decoded = decodeDirectoryBlock(raw);
            assert.deepEqual(decoded, block, `seed ${rng.seed} case ${i}`);
            assert.equal(toHex(encodeDirectoryBlock(decoded)), toHex(raw));
            const h = directoryBlockHashes(block);
            const header = raw.subarray(0, DIRECTORY_BLOCK_HEADER_SIZE);
            assert.equal(toHex(h.headerHash), toHex(sha256(header)));
            assert.equal(toHex(h.keyMR), toHex(sha256(concat(sha256(header), block.bodyMR))));
            assert.equal(toHex(h.keyMR), toHex(merkleRoot([sha256(header), block.bodyMR])), "keyMR = Merkle root of [headerHash, bodyMR]");
            assert.equal(toHex(h.fullHash), toHex(sha256(raw)));
            assert.equal(toHex(block.bodyMR), toHex(merkleRoot(block.entries.map((e) => sha256(concat(e.chainId, e.keyMR))))));
            // The flat [chain, keyMR, …] list has the same root, and proves any entry (receipt branch 2).
            const leaves = directoryBlockBranchLeaves(block);
            assert.equal(toHex(merkleRoot(leaves)), toHex(block.bodyMR));
            const k = 2 * rng.int(0, block.entries.length - 1) + 1;
            assert.ok(verifyMerkleBranch(leaves[k], merkleBranch(leaves, k), block.bodyMR));
        }
    });
    test("header layout: 113 bytes, timestamp in minutes at offset 101", () => {
        const block = decodeDirectoryBlock(mainnet100);
        const header = encodeDirectoryBlockHeader(block);
        assert.equal(header.length, 113);
        assert.equal(new DataView(header.buffer, header.byteOffset).getUint32(101), 24019950);
        assert.equal(block.dbHeight, 100);
    });
    test("buildDirectoryBlock keeps admin/EC/asset first and rejects blocks without them", () => {
        const rng = new Random(3);
        const other = { chainId: rng.bytes(32), keyMR: rng.bytes(32) };
        const base = {
            version: 0,
            networkId: 0,
            prevKeyMR: rng.bytes(32),
            prevFullHash: rng.bytes(32),
            timestamp: 0,
            dbHeight: 0,
        };
        const first = [ADMIN_CHAIN_ID, EC_CHAIN_ID, ASSET_CHAIN_ID].map((chainId) => ({ chainId, keyMR: rng.bytes(32) }));
        expectProtocolError(() => buildDirectoryBlock({ ...base, entries: first.slice(0, 2) }), "BAD_VALUE");
        expectProtocolError(() => buildDirectoryBlock({ ...base, entries: [first[1], first[0], first[2]] }), "BAD_VALUE");
        expectProtocolError(() => buildDirectoryBlock({ ...base, entries: [other, ...first] }), "BAD_VALUE");
        const built = buildDirectoryBlock({ ...base, entries: [...first, other] });
        assert.equal(toHex(built.entries[3].chainId), toHex(other.chainId));
        expectProtocolError(() => buildDirectoryBlock({ ...base, entries: [...first, { chainId: new Uint8Array(31), keyMR: rng.bytes(32) }] }), "BAD_LENGTH");
        expectProtocolError(() => encodeDirectoryBlockHeader({ ...built, timestamp: 2 ** 32 }), "BAD_VALUE");
        expectProtocolError(() => encodeDirectoryBlockHeader({ ...built, version: 256 }), "BAD_VALUE");
    });
});
describe("directory block rejections", () => {
    const block = decodeDirectoryBlock(static2);
    const body = static2.subarray(DIRECTORY_BLOCK_HEADER_SIZE);
    test("every truncation and trailing bytes", () => {
        for (let n = 0; n < mainnet100.length; n++)
            expectProtocolError(() => decodeDirectoryBlock(mainnet100.subarray(0, n)), "TRUNCATED", `length ${n}`);
        expectProtocolError(() => decodeDirectoryBlock(concat(static2, Uint8Array.of(0))), "TRAILING_BYTES");
    });
    test("count above 100000 is TOO_LARGE before reading; fewer than 3 or wrong first chains are BAD_VALUE", () => {
        expectProtocolError(() => decodeDirectoryBlock(withBody(block, MAX_DIRECTORY_BLOCK_ENTRIES + 1, body)), "TOO_LARGE");
        expectProtocolError(() => decodeDirectoryBlock(withBody(block, 0xffffffff, body)), "TOO_LARGE");
        expectProtocolError(() => decodeDirectoryBlock(withBody(block, 2, body.subarray(0, 128))), "BAD_VALUE");
        const swapped = concat(body.subarray(64, 128), body.subarray(0, 64), body.subarray(128));
        assert.match(expectProtocolError(() => decodeDirectoryBlock(withBody(block, 61, swapped)), "BAD_VALUE").field, /entries\[0\]\.chainId/);
    });
    test("a stored bodyMR that does not match the entries is BAD_VALUE", () => {
        const bad = static2.slice();
        bad[static2.length - 1] ^= 1; // last keyMR changes, bodyMR no longer matches
        assert.equal(expectProtocolError(() => decodeDirectoryBlock(bad), "BAD_VALUE").field, "directoryBlock.bodyMR");
    });
    test("the body order is kept as received (unsorted blocks still round-trip)", () => {
        const rng = new Random(8);
        const entries = [
            ...block.entries.slice(0, 3),
            { chainId: Uint8Array.from({ length: 32 }, () => 0xff), keyMR: rng.bytes(32) },
            ...block.entries.slice(3, 5),
        ];
        const unsorted = { ...block, entries, bodyMR: directoryBlockBodyMR(entries) };
        const raw = encodeDirectoryBlock(unsorted);
        assert.deepEqual(decodeDirectoryBlock(raw), unsorted);
    });
});
describe("directory block JSON", () => {
    test("dblock-by-height shape (minutes) and directory-block shape (seconds)", () => {
        const block = decodeDirectoryBlock(mainnet100);
        const json = directoryBlockJson(block);
        assert.deepEqual(Object.keys(json), ["dbhash", "keymr", "headerhash", "header", "dbentries"]);
        assert.deepEqual(json.header, {
            version: 0,
            networkid: 4203931042,
            bodymr: "d0d3ce18a3522d925d6445fc70a3e050d7586106200100c805e3c434c5f9ea35",
            prevkeymr: toHex(block.prevKeyMR),
            prevfullhash: toHex(block.prevFullHash),
            timestamp: 24019950,
            dbheight: 100,
            blockcount: 4,
            chainid: "000000000000000000000000000000000000000000000000000000000000000d",
        });
        assert.equal(json.keymr, "cde346e7ed87957edfd68c432c984f35596f29c7d23de6f279351cddecd5dc66");
        assert.equal(json.dbhash, "ba79704908f6e96a0aeeceeedd8591cf0949bc538cd5df69b1be7ea8095ed778");
        assert.deepEqual(json.dbentries[0], { chainid: toHex(ADMIN_CHAIN_ID), keymr: toHex(block.entries[0].keyMR) });
        const simple = directoryBlockSimpleJson(block);
        assert.deepEqual(Object.keys(simple), ["header", "entryblocklist"]);
        assert.deepEqual(simple.header, {
            prevblockkeymr: toHex(block.prevKeyMR),
            sequencenumber: 100,
            timestamp: 24019950 * 60,
        });
        assert.deepEqual(simple.entryblocklist, json.dbentries);
    });
});
describe("directory block decoder fuzz", () => {
    test("2000 random and mutated inputs: a ProtocolError or a block that re-encodes to the input", () => {
        const rng = new Random(0xdbf2);
        const seeds = [
            mainnet100,
            static2,
            fromHex(vectors.get("dblock-factomd-static-1").input.dblockHex),
            fromHex(vectors.get("dblock-factomd-timestamp-minutes").input.dblockHex),
            ...Array.from({ length: 4 }, () => encodeDirectoryBlock(randomBlock(rng))),
        ];
        const accepted = fuzzDecoder(rng, decodeDirectoryBlock, {
            seeds,
            cases: 2000,
            onAccept: (block, bytes) => assert.equal(toHex(encodeDirectoryBlock(block)), toHex(bytes)),
        });
        assert.ok(accepted > 0, "header-only mutations (version, timestamp, height) still decode");
        // A header claiming entries that are not there never reads past the end.
        fuzzDecoder(rng, (b) => decodeDirectoryBlock(concat(new ByteWriter().bytes(b.subarray(0, 109)).u32(rng.u32()).finish(), b.subarray(113))), {
            seeds,
            cases: 300,
        });
    });
});
//# sourceMappingURL=dblock.test.js.map