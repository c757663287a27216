import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { toHex } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import { buildDirectoryBlock, encodeDirectoryBlockHeader } from "../../../src/protocol/dblock.js";
import { buildEntryBlock, encodeEntryBlockHeader, entryBlockHashes, minuteMarker, } from "../../../src/protocol/eblock.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { receiptFromJson, receiptToJson } from "../../../src/protocol/json/receiptJson.js";
import { merkleParent } from "../../../src/protocol/merkle.js";
import { buildReceipt, verifyReceipt } from "../../../src/protocol/receipt.js";
import { expectProtocolError } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";
/** A directory block recording `chains` entry blocks (random runs of entries and markers) after the admin, EC and asset blocks. */
function scene(rng, chains) {
    const height = rng.int(1, 1_000_000);
    const eblocks = [];
    const minutes = [];
    for (let c = 0; c < chains; c++) {
        const items = [];
        const mins = [];
        let minute = 0;
        while (minute < 10 && (items.length === 0 || rng.chance(0.5))) {
            minute = rng.int(minute + 1, 10);
            for (let n = rng.int(1, 5); n > 0; n--) {
                items.push(rng.bytes(32));
                mins.push(minute);
            }
            items.push(minuteMarker(minute));
        }
        eblocks.push(buildEntryBlock({
            chainId: rng.bytes(32),
            prevKeyMR: rng.bytes(32),
            prevFullHash: rng.bytes(32),
            sequence: rng.int(0, 99),
            dbHeight: height,
            items,
        }));
        minutes.push(mins);
    }
    const dblock = buildDirectoryBlock({
        version: 0,
        networkId: 0xfa92e5a4,
        prevKeyMR: rng.bytes(32),
        prevFullHash: rng.bytes(32),
        timestamp: rng.int(24018960, 30_000_000),
        dbHeight: height,
        entries: [
            { chainId: ADMIN_CHAIN_ID, keyMR: rng.bytes(32) },
            { chainId: EC_CHAIN_ID, keyMR: rng.bytes(32) },
            { chainId: ASSET_CHAIN_ID, keyMR: rng.bytes(32) },
            ...eblocks.map((b) => ({ chainId: b.chainId, keyMR: entryBlockHashes(b).keyMR })),
        ],
    });
    return { eblocks, minutes, dblock };
}
const clone = (r) => receiptFromJson(JSON.parse(JSON.stringify(receiptToJson(r))));
describe("receipts (wire-format §5.6)", () => {
    const rng = new Random(0x7ec);
    test("every entry of every entry block gets a receipt that verifies and has the reference structure", () => {
        for (let s = 0; s < 25; s++) {
            const { eblocks, minutes, dblock } = scene(rng, rng.int(1, 9));
            const dHeader = encodeDirectoryBlockHeader(dblock);
            const dKeyMR = merkleParent(sha256(dHeader), dblock.bodyMR);
            eblocks.forEach((eb, b) => {
                const eHeaderHash = sha256(encodeEntryBlockHeader(eb));
                const eKeyMR = merkleParent(eHeaderHash, eb.bodyMR);
                let k = 0;
                eb.items.forEach((item, index) => {
                    if (item[31] <= 10 && item.subarray(0, 31).every((x) => x === 0))
                        return; // marker
                    const receipt = buildReceipt(item, eb, dblock);
                    assert.ok(verifyReceipt(receipt), `scene ${s} block ${b} item ${index}`);
                    assert.deepEqual(receipt.entryBlockKeyMR, eKeyMR);
                    assert.deepEqual(receipt.directoryBlockKeyMR, dKeyMR);
                    assert.equal(receipt.directoryBlockHeight, dblock.dbHeight);
                    assert.equal(receipt.entryTimestamp, dblock.timestamp * 60 + 60 * minutes[b][k]);
                    const branch = receipt.merkleBranch;
                    const first = Math.ceil(Math.log2(eb.items.length));
                    assert.deepEqual(index % 2 === 0 ? branch[0].left : branch[0].right, item, "the entry hash sits on its side of node 0");
                    assert.deepEqual(branch[first], { left: eHeaderHash, right: eb.bodyMR, top: eKeyMR }, "eblock node");
                    const dNode = branch[first + 1];
                    assert.deepEqual(dNode, { left: eb.chainId, right: eKeyMR, top: sha256(Uint8Array.from([...eb.chainId, ...eKeyMR])) }, "chain ‖ keyMR leaf pair");
                    assert.deepEqual(branch.at(-1), { left: sha256(dHeader), right: dblock.bodyMR, top: dKeyMR }, "dblock node");
                    k++;
                });
            });
        }
    });
    test("JSON: spec §2.8 fields, raw on request, anchors empty; reads back to the same receipt", () => {
        const { eblocks, dblock } = scene(rng, 3);
        const eb = eblocks[1];
        const receipt = buildReceipt(eb.items[0], eb, dblock);
        const raw = rng.bytes(50);
        const json = receiptToJson(receipt, { raw });
        assert.deepEqual(Object.keys(json).sort(), [
            "anchorblockhash",
            "anchortransactionhash",
            "directoryblockheight",
            "directoryblockkeymr",
            "entry",
            "entryblockkeymr",
            "merklebranch",
        ]);
        assert.deepEqual(json.entry, {
            entryhash: toHex(eb.items[0]),
            timestamp: receipt.entryTimestamp,
            raw: toHex(raw),
        });
        assert.equal(json.anchortransactionhash, "");
        assert.equal(json.anchorblockhash, "");
        assert.equal(json.directoryblockheight, dblock.dbHeight);
        assert.ok(json.merklebranch.every((n) => [n.left, n.right, n.top].every((h) => /^[0-9a-f]{64}$/.test(h))));
        assert.equal(receiptToJson(receipt).entry.raw, undefined, "no raw unless asked");
        assert.deepEqual(receiptFromJson(JSON.parse(JSON.stringify(json))), receipt);
    });
    test("contents that are not there are refused with BAD_VALUE", () => {
        const { eblocks, dblock } = scene(rng, 2);
        const [a, b] = eblocks;
        expectProtocolError(() => buildReceipt(rng.bytes(32), a, dblock), "BAD_VALUE", "unknown entry");
        expectProtocolError(() => buildReceipt(minuteMarker(a.items.at(-1)[31]), a, dblock), "BAD_VALUE", "a minute marker");
        expectProtocolError(() => buildReceipt(new Uint8Array(31), a, dblock), "BAD_VALUE", "short hash");
        const other = scene(rng, 1).dblock;
        expectProtocolError(() => buildReceipt(a.items[0], a, other), "BAD_VALUE", "eblock not in that dblock");
        // The eblock's keyMR under another chain ID does not count.
        const [e3, e4] = [dblock.entries[3], dblock.entries[4]];
        const swapped = buildDirectoryBlock({
            ...dblock,
            entries: [...dblock.entries.slice(0, 3), { ...e3, chainId: e4.chainId }, { ...e4, chainId: e3.chainId }],
        });
        const movedBlock = toHex(e3.chainId) === toHex(a.chainId) ? a : b;
        expectProtocolError(() => buildReceipt(movedBlock.items[0], movedBlock, swapped), "BAD_VALUE", "keyMR under another chain");
    });
    test("altered, reordered, truncated or re-targeted receipts do not verify", () => {
        for (let s = 0; s < 30; s++) {
            const { eblocks, dblock } = scene(rng, rng.int(1, 6));
            const eb = rng.pick(eblocks);
            const good = buildReceipt(eb.items[0], eb, dblock);
            assert.ok(verifyReceipt(good));
            const n = good.merkleBranch.length;
            const altered = clone(good);
            const node = altered.merkleBranch[rng.int(0, n - 1)];
            const side = rng.pick(["left", "right", "top"]);
            node[side][rng.int(0, 31)] ^= 1 << rng.int(0, 7);
            assert.equal(verifyReceipt(altered), false, "a changed hash");
            const swapped = clone(good);
            const i = rng.int(0, n - 2);
            [swapped.merkleBranch[i], swapped.merkleBranch[i + 1]] = [swapped.merkleBranch[i + 1], swapped.merkleBranch[i]];
            assert.equal(verifyReceipt(swapped), false, "two nodes swapped");
            assert.equal(verifyReceipt({ ...clone(good), merkleBranch: good.merkleBranch.slice(0, -1) }), false, "dblock node missing");
            assert.equal(verifyReceipt({ ...clone(good), merkleBranch: [] }), false, "empty branch");
            assert.equal(verifyReceipt({ ...clone(good), entryHash: rng.bytes(32) }), false, "another entry");
            assert.equal(verifyReceipt({ ...clone(good), entryBlockKeyMR: rng.bytes(32) }), false, "another entry block");
            assert.equal(verifyReceipt({ ...clone(good), directoryBlockKeyMR: rng.bytes(32) }), false, "another directory block");
            // A branch that ends at the entry block keyMR proves nothing about a directory block.
            const upToEblock = good.merkleBranch.findIndex((nd) => toHex(nd.top) === toHex(good.entryBlockKeyMR));
            assert.equal(verifyReceipt({
                ...clone(good),
                merkleBranch: good.merkleBranch.slice(0, upToEblock + 1),
                directoryBlockKeyMR: good.entryBlockKeyMR,
            }), false, "stops at the entry block");
            const short = clone(good);
            short.merkleBranch[0] = { ...short.merkleBranch[0], left: new Uint8Array(31) };
            assert.equal(verifyReceipt(short), false, "a 31-byte hash");
        }
    });
    test("receiptFromJson throws only ProtocolError on malformed JSON", () => {
        const { eblocks, dblock } = scene(rng, 2);
        const base = receiptToJson(buildReceipt(eblocks[0].items[0], eblocks[0], dblock));
        const junk = [null, 1, "x", [], {}, true, { entry: null }, { entry: {}, merklebranch: {} }];
        const paths = [
            (o) => delete o.entry,
            (o) => (o.entry.entryhash = "zz"),
            (o) => (o.entry.entryhash = 5),
            (o) => (o.entry.timestamp = "soon"),
            (o) => (o.merklebranch = "none"),
            (o) => (o.merklebranch[0] = null),
            (o) => (o.merklebranch[0].left = "ab"),
            (o) => delete o.merklebranch[0].top,
            (o) => (o.entryblockkeymr = null),
            (o) => (o.directoryblockkeymr = "0".repeat(63)),
            (o) => (o.directoryblockheight = -1),
            (o) => (o.directoryblockheight = "7"),
        ];
        for (const j of junk)
            expectProtocolError(() => receiptFromJson(j), "BAD_VALUE", JSON.stringify(j));
        // 2000 random leaf replacements: each result parses (and verifies without throwing) or is a ProtocolError.
        const junkValue = () => rng.pick([
            () => null,
            () => rng.int(-5, 5),
            () => Buffer.from(rng.bytes(rng.int(0, 40))).toString("hex"),
            () => Buffer.from(rng.bytes(32)).toString("hex").toUpperCase(),
            () => [],
            () => ({}),
            () => "zz".repeat(32),
        ])();
        for (let i = 0; i < 2000; i++) {
            const o = JSON.parse(JSON.stringify(base));
            for (let k = rng.int(1, 3); k > 0; k--) {
                const nodes = Array.isArray(o.merklebranch) && o.merklebranch.length > 0 ? o.merklebranch : [o];
                const target = rng.chance(0.5) ? o : rng.chance(0.5) ? o.entry : rng.pick(nodes);
                if (target === null || typeof target !== "object")
                    continue;
                const keys = Object.keys(target);
                target[keys.length > 0 && rng.chance(0.8) ? rng.pick(keys) : "extra"] = junkValue();
            }
            try {
                verifyReceipt(receiptFromJson(o));
            }
            catch (e) {
                assert.ok(e instanceof ProtocolError, `case ${i}: ${String(e)} on ${JSON.stringify(o)}`);
            }
        }
        paths.forEach((mutate, i) => {
            const o = JSON.parse(JSON.stringify(base));
            mutate(o);
            try {
                receiptFromJson(o);
                assert.fail(`mutation ${i} was accepted`);
            }
            catch (e) {
                assert.ok(e instanceof ProtocolError, `mutation ${i}: ${String(e)}`);
            }
        });
    });
});
//# sourceMappingURL=receipt.test.js.map