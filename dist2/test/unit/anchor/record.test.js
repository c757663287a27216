import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { anchorCalldata, decodeAnchorCalldata } from "../../../src/anchor/ethereum.js";
import { anchorChainFirstEntry, anchorRecordEntry, decodeAnchorRecord, ETHEREUM_ANCHOR_CHAIN_ID, encodeAnchorRecord, recordPublicKey, verifiedAnchorRecord, } from "../../../src/anchor/record.js";
import { verifyWindowBranch, windowBranch, windowRoot } from "../../../src/anchor/window.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { chainIdFromExtIds } from "../../../src/protocol/entry.js";
const record = {
    dbHeightMin: 0,
    dbHeightMax: 9,
    windowMR: fromHex("ab".repeat(32)),
    recordHeight: 11,
    ethereum: {
        contractAddress: "0x8a8fbabbec1e99148083e9314dffd82395dd8f18",
        txId: `0x${"12".repeat(32)}`,
        blockHeight: 6_000_000,
        blockHash: `0x${"34".repeat(32)}`,
        txIndex: 3,
    },
};
describe("anchor records (reference anchorRecord.go v2)", () => {
    test("the Ethereum anchor chain is the reference's 6e4540d0…0bfe, named by its first entry", () => {
        assert.equal(toHex(ETHEREUM_ANCHOR_CHAIN_ID), "6e4540d08d5ac6a1a394e982fb6a2ab8b516ee751c37420055141b94fe070bfe");
        assert.equal(toHex(chainIdFromExtIds(anchorChainFirstEntry().extIds)), toHex(ETHEREUM_ANCHOR_CHAIN_ID));
    });
    test("JSON as Go writes the struct: declaration order, a zero DBHeightMin omitted", () => {
        const text = new TextDecoder().decode(encodeAnchorRecord(record));
        assert.equal(text, `{"AnchorRecordVer":2,"DBHeightMax":9,"WindowMR":"${"ab".repeat(32)}","RecordHeight":11,"Ethereum":{"ContractAddress":"0x8a8fbabbec1e99148083e9314dffd82395dd8f18","TxID":"0x${"12".repeat(32)}","BlockHeight":6000000,"BlockHash":"0x${"34".repeat(32)}","TxIndex":3}}`);
        const later = new TextDecoder().decode(encodeAnchorRecord({ ...record, dbHeightMin: 5 }));
        assert.match(later, /"DBHeightMax":9,"DBHeightMin":5,"WindowMR"/);
        assert.deepEqual(decodeAnchorRecord(encodeAnchorRecord(record)), record);
    });
    test("bad records name the field", () => {
        const bad = (o) => new TextEncoder().encode(JSON.stringify(o));
        assert.throws(() => decodeAnchorRecord(bad({ AnchorRecordVer: 1 })), /AnchorRecordVer/);
        assert.throws(() => decodeAnchorRecord(bad({ AnchorRecordVer: 2, WindowMR: "zz", Ethereum: {} })), /WindowMR/);
        assert.throws(() => decodeAnchorRecord(bad({ AnchorRecordVer: 2, WindowMR: "ab".repeat(32), Ethereum: { ContractAddress: "0x1", TxID: "" } })), /Ethereum.ContractAddress/);
        assert.throws(() => decodeAnchorRecord(new Uint8Array([0xff, 0xfe])), /not UTF-8 JSON/);
    });
    test("only records signed by an accepted key count", () => {
        const seed = randomBytes(32);
        const other = randomBytes(32);
        const entry = anchorRecordEntry(record, seed);
        assert.equal(toHex(entry.chainId), toHex(ETHEREUM_ANCHOR_CHAIN_ID));
        assert.deepEqual(verifiedAnchorRecord(entry, [recordPublicKey(seed)]), record);
        assert.equal(verifiedAnchorRecord(entry, [recordPublicKey(other)]), undefined);
        const tampered = { ...entry, content: encodeAnchorRecord({ ...record, dbHeightMax: 10 }) };
        assert.equal(verifiedAnchorRecord(tampered, [recordPublicKey(seed)]), undefined);
        assert.equal(verifiedAnchorRecord({ ...entry, extIds: [] }, [recordPublicKey(seed)]), undefined);
    });
});
describe("anchor windows and calldata", () => {
    test("a window of one block anchors its keyMR itself (anchormaker-eth)", () => {
        const k = randomBytes(32);
        assert.equal(toHex(windowRoot([k])), toHex(k));
        assert.deepEqual(windowBranch([k], 0), []);
        assert.ok(verifyWindowBranch(k, [], k));
        assert.ok(!verifyWindowBranch(k, [], randomBytes(32)));
    });
    test("every keyMR of a window leads to its root; a wrong keyMR or root does not", () => {
        for (const size of [2, 3, 7, 10]) {
            const keys = Array.from({ length: size }, () => new Uint8Array(randomBytes(32)));
            const root = windowRoot(keys);
            keys.forEach((k, i) => {
                const branch = windowBranch(keys, i);
                assert.ok(verifyWindowBranch(k, branch, root), `size ${size} index ${i}`);
                assert.ok(!verifyWindowBranch(randomBytes(32), branch, root));
                assert.ok(!verifyWindowBranch(k, branch, randomBytes(32)));
            });
        }
    });
    test("calldata is setAnchor(uint256,uint256) (selector of the reference contract) and decodes back", () => {
        const root = fromHex(`00${"cd".repeat(31)}`);
        const data = anchorCalldata(1234, root);
        // keccak256("setAnchor(uint256,uint256)")[0:4]: the selector the reference contract's bytecode dispatches
        // (anchormaker-eth ethereum/factomAnchor.go), then 2 × 32 bytes of arguments
        assert.ok(data.startsWith("0xbbcc0c80"), data.slice(0, 10));
        assert.equal(data.length, 2 + 2 * (4 + 64));
        const back = decodeAnchorCalldata(data);
        assert.equal(back?.dbHeightMax, 1234);
        assert.equal(toHex(back.windowMR), toHex(root));
        assert.equal(decodeAnchorCalldata("0x12345678"), undefined);
    });
});
//# sourceMappingURL=record.test.js.map