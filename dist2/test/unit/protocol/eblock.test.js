import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { toHex } from "../../../src/protocol/bytes.js";
import { buildEntryBlock, decodeEntryBlock, encodeEntryBlock, encodeEntryBlockHeader, entriesWithMinutes, entryBlockHashes, markerMinute, minuteMarker, } from "../../../src/protocol/eblock.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { entryBlockToJson } from "../../../src/protocol/json/entryBlockJson.js";
import { merkleParent, merkleRoot } from "../../../src/protocol/merkle.js";
import { expectProtocolError, fuzzDecoder } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";
/**
 * Items as factomd lays them out: runs of entries, each run followed by the marker of the minute it arrived
 * in (increasing minutes), the last run's marker closing the block. Returns items and each entry's minute.
 */
function randomItems(rng) {
    const items = [];
    const minutes = [];
    let minute = rng.int(0, 3);
    do {
        minute = rng.int(minute + 1, Math.min(10, minute + 3));
        for (let n = rng.int(1, 6); n > 0; n--) {
            items.push(rng.bytes(32));
            minutes.push(minute);
        }
        items.push(minuteMarker(minute));
    } while (minute < 10 && rng.chance(0.6));
    return { items, minutes };
}
function randomBlock(rng) {
    const { items, minutes } = randomItems(rng);
    const block = buildEntryBlock({
        chainId: rng.bytes(32),
        prevKeyMR: rng.bytes(32),
        prevFullHash: rng.bytes(32),
        sequence: rng.u32(),
        dbHeight: rng.u32(),
        items,
    });
    return { block, minutes };
}
describe("entry blocks (wire-format §5.1)", () => {
    const rng = new Random(0xeb);
    test("minute markers are 31 zero bytes and the minute 1..10", () => {
        for (let m = 1; m <= 10; m++) {
            assert.equal(toHex(minuteMarker(m)), `${"00".repeat(31)}${m.toString(16).padStart(2, "0")}`);
            assert.equal(markerMinute(minuteMarker(m)), m);
        }
        for (const bad of [0, 11, 1.5, -1])
            expectProtocolError(() => minuteMarker(bad), "BAD_VALUE", String(bad));
        assert.equal(markerMinute(new Uint8Array(32)), 0, "the zero hash is not a marker");
        const m11 = new Uint8Array(32);
        m11[31] = 11;
        assert.equal(markerMinute(m11), 0);
        const notZero = minuteMarker(3);
        notZero[0] = 1;
        assert.equal(markerMinute(notZero), 0);
        assert.equal(markerMinute(rng.bytes(32)), 0);
    });
    test("random blocks: encode → decode → same block; hashes follow their definitions", () => {
        for (let i = 0; i < 300; i++) {
            const { block } = randomBlock(rng);
            const raw = encodeEntryBlock(block);
            assert.equal(raw.length, 140 + 32 * block.items.length);
            assert.deepEqual(raw.subarray(0, 140), encodeEntryBlockHeader(block));
            assert.deepEqual(decodeEntryBlock(raw), block, `seed ${rng.seed} case ${i}`);
            assert.deepEqual(block.bodyMR, merkleRoot(block.items));
            const h = entryBlockHashes(block);
            assert.deepEqual(h.headerHash, sha256(raw.subarray(0, 140)));
            assert.deepEqual(h.keyMR, sha256(Uint8Array.from([...h.headerHash, ...block.bodyMR])));
            assert.deepEqual(h.keyMR, merkleParent(h.headerHash, block.bodyMR));
            assert.deepEqual(h.fullHash, sha256(raw));
        }
    });
    test("each entry gets the minute of the marker after it; entry-block JSON gives seconds", () => {
        for (let i = 0; i < 100; i++) {
            const { block, minutes } = randomBlock(rng);
            const entries = entriesWithMinutes(block);
            assert.deepEqual(entries.map((e) => e.minute), minutes);
            const dblockMinutes = rng.int(24018960, 30_000_000);
            const json = entryBlockToJson(block, dblockMinutes);
            assert.deepEqual(json.header, {
                blocksequencenumber: block.sequence,
                chainid: toHex(block.chainId),
                prevkeymr: toHex(block.prevKeyMR),
                timestamp: dblockMinutes * 60,
                dbheight: block.dbHeight,
            });
            assert.deepEqual(json.entrylist, entries.map((e, k) => ({ entryhash: toHex(e.entryHash), timestamp: dblockMinutes * 60 + 60 * minutes[k] })));
            assert.ok(json.entrylist.every((e) => markerMinute(Buffer.from(e.entryhash, "hex")) === 0), "markers are not listed");
        }
    });
    test("entries after the last marker count as minute 10; a block of markers lists nothing", () => {
        const [a, b, c] = [rng.bytes(32), rng.bytes(32), rng.bytes(32)];
        const block = buildEntryBlock({
            chainId: rng.bytes(32),
            prevKeyMR: new Uint8Array(32),
            prevFullHash: new Uint8Array(32),
            sequence: 0,
            dbHeight: 7,
            items: [a, b, minuteMarker(2), c],
        });
        assert.deepEqual(entriesWithMinutes(block).map((e) => [toHex(e.entryHash), e.index, e.minute]), [
            [toHex(a), 0, 2],
            [toHex(b), 1, 2],
            [toHex(c), 3, 10],
        ]);
        const empty = { ...block, items: [minuteMarker(1)] };
        assert.deepEqual(entryBlockToJson(empty, 100).entrylist, []);
    });
    test("bad blocks are refused: truncation, trailing bytes, wrong BodyMR, bad fields", () => {
        const { block } = randomBlock(rng);
        const raw = encodeEntryBlock(block);
        for (const n of [0, 10, 139, 140, raw.length - 1])
            expectProtocolError(() => decodeEntryBlock(raw.subarray(0, n)), "TRUNCATED", `${n} bytes`);
        expectProtocolError(() => decodeEntryBlock(Uint8Array.from([...raw, 0])), "TRAILING_BYTES");
        const lying = raw.slice();
        lying[32] ^= 1; // BodyMR
        assert.equal(expectProtocolError(() => decodeEntryBlock(lying), "BAD_VALUE").field, "entry block.bodymr");
        assert.deepEqual(decodeEntryBlock(lying, { verifyBodyMR: false }).bodyMR, lying.subarray(32, 64));
        const huge = raw.slice();
        huge.set([0xff, 0xff, 0xff, 0xff], 136); // EntryCount
        expectProtocolError(() => decodeEntryBlock(huge), "TRUNCATED");
        expectProtocolError(() => buildEntryBlock({ ...block, items: [new Uint8Array(31)] }), "BAD_LENGTH");
        expectProtocolError(() => encodeEntryBlock({ ...block, sequence: 2 ** 32 }), "BAD_VALUE");
        expectProtocolError(() => encodeEntryBlock({ ...block, dbHeight: -1 }), "BAD_VALUE");
        expectProtocolError(() => encodeEntryBlock({ ...block, chainId: new Uint8Array(33) }), "BAD_LENGTH");
    });
    test("fuzz: decode throws only ProtocolError; accepted blocks re-encode to the same bytes", () => {
        const seeds = Array.from({ length: 10 }, () => encodeEntryBlock(randomBlock(rng).block));
        const onAccept = (b, bytes) => assert.deepEqual(encodeEntryBlock(b), bytes);
        fuzzDecoder(rng, (b) => decodeEntryBlock(b), { seeds, maxRandomLength: 400, onAccept });
        const loose = fuzzDecoder(rng, (b) => decodeEntryBlock(b, { verifyBodyMR: false }), {
            seeds,
            maxRandomLength: 400,
            onAccept,
        });
        assert.ok(loose > 0);
    });
});
//# sourceMappingURL=eblock.test.js.map