// JSON view of a receipt (spec §2.8; reference api-behavior §4.4, wire-format §5.6).
import { fromHex, toHex } from "../bytes.js";
import { ProtocolError } from "../errors.js";
function branchToJson(branch) {
    return branch.map((n) => ({ left: toHex(n.left), right: toHex(n.right), top: toHex(n.top) }));
}
/**
 * JSON of `receipt`; `raw` = the marshalled entry when the caller asked for it; `anchor` = the recorded anchor
 * of the receipt's directory block, when there is one.
 */
export function receiptToJson(receipt, options = {}) {
    const entry = { entryhash: toHex(receipt.entryHash) };
    if (receipt.entryTimestamp !== undefined && receipt.entryTimestamp !== 0)
        entry.timestamp = receipt.entryTimestamp;
    if (options.raw !== undefined)
        entry.raw = toHex(options.raw);
    const a = options.anchor;
    const out = {
        entry,
        merklebranch: branchToJson(receipt.merkleBranch),
        entryblockkeymr: toHex(receipt.entryBlockKeyMR),
        directoryblockkeymr: toHex(receipt.directoryBlockKeyMR),
        anchortransactionhash: a?.record.ethereum.txId ?? "",
        anchorblockhash: a?.record.ethereum.blockHash ?? "",
        directoryblockheight: receipt.directoryBlockHeight,
    };
    if (a !== undefined) {
        const r = a.record;
        out.ethereum = {
            dbheightmin: r.dbHeightMin,
            dbheightmax: r.dbHeightMax,
            windowmr: toHex(r.windowMR),
            recordheight: r.recordHeight,
            contractaddress: r.ethereum.contractAddress,
            txid: r.ethereum.txId,
            blockheight: r.ethereum.blockHeight,
            blockhash: r.ethereum.blockHash,
            txindex: r.ethereum.txIndex,
            merklebranch: branchToJson(a.windowBranch),
            anchorrecordentryhash: toHex(a.entryHash),
        };
    }
    return out;
}
function count(obj, key, field) {
    const v = obj[key];
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
        throw new ProtocolError("BAD_VALUE", field, "expected a non-negative integer");
    return v;
}
function ethHex(obj, key, field, hexChars) {
    const v = obj[key];
    if (typeof v !== "string" || !new RegExp(`^0x[0-9a-fA-F]{${hexChars}}$`).test(v))
        throw new ProtocolError("BAD_VALUE", field, `expected 0x and ${hexChars} hex characters`);
    return v.toLowerCase();
}
/**
 * The anchor part (`ethereum`) of a receipt in the JSON shape above; undefined when the receipt has none.
 * Throws ProtocolError naming the field on anything malformed.
 */
export function receiptAnchorFromJson(json) {
    if (!isObject(json) || json.ethereum === undefined)
        return undefined;
    const e = json.ethereum;
    const f = "receipt.ethereum";
    if (!isObject(e))
        throw new ProtocolError("BAD_VALUE", f, "expected an object");
    if (!Array.isArray(e.merklebranch))
        throw new ProtocolError("BAD_VALUE", `${f}.merklebranch`, "expected an array");
    const windowBranch = e.merklebranch.map((node, i) => {
        const field = `${f}.merklebranch[${i}]`;
        if (!isObject(node))
            throw new ProtocolError("BAD_VALUE", field, "expected an object");
        return {
            left: hash(node, "left", `${field}.left`),
            right: hash(node, "right", `${field}.right`),
            top: hash(node, "top", `${field}.top`),
        };
    });
    return {
        entryHash: hash(e, "anchorrecordentryhash", `${f}.anchorrecordentryhash`),
        windowBranch,
        record: {
            dbHeightMin: count(e, "dbheightmin", `${f}.dbheightmin`),
            dbHeightMax: count(e, "dbheightmax", `${f}.dbheightmax`),
            windowMR: hash(e, "windowmr", `${f}.windowmr`),
            recordHeight: count(e, "recordheight", `${f}.recordheight`),
            ethereum: {
                contractAddress: ethHex(e, "contractaddress", `${f}.contractaddress`, 40),
                txId: ethHex(e, "txid", `${f}.txid`, 64),
                blockHeight: count(e, "blockheight", `${f}.blockheight`),
                blockHash: ethHex(e, "blockhash", `${f}.blockhash`, 64),
                txIndex: count(e, "txindex", `${f}.txindex`),
            },
        },
    };
}
function isObject(v) {
    return typeof v === "object" && v !== null && !Array.isArray(v);
}
function hash(obj, key, field) {
    const v = obj[key];
    if (typeof v !== "string")
        throw new ProtocolError("BAD_VALUE", field, "expected a 64-character hex string");
    return fromHex(v, field, 32);
}
/**
 * Read a receipt in the JSON shape above (or the reference node's, whose full-detail nodes are the same and
 * whose anchor fields are ignored) so that it can be checked with verifyReceipt. Throws ProtocolError naming
 * the field on anything malformed; `directoryblockheight` defaults to 0 when absent (the reference omits 0).
 */
export function receiptFromJson(json) {
    if (!isObject(json))
        throw new ProtocolError("BAD_VALUE", "receipt", "expected an object");
    const entry = json.entry;
    if (!isObject(entry))
        throw new ProtocolError("BAD_VALUE", "receipt.entry", "expected an object");
    const branch = json.merklebranch;
    if (!Array.isArray(branch))
        throw new ProtocolError("BAD_VALUE", "receipt.merklebranch", "expected an array");
    const merkleBranch = branch.map((node, i) => {
        const field = `receipt.merklebranch[${i}]`;
        if (!isObject(node))
            throw new ProtocolError("BAD_VALUE", field, "expected an object");
        return {
            left: hash(node, "left", `${field}.left`),
            right: hash(node, "right", `${field}.right`),
            top: hash(node, "top", `${field}.top`),
        };
    });
    const height = json.directoryblockheight ?? 0;
    if (typeof height !== "number" || !Number.isSafeInteger(height) || height < 0)
        throw new ProtocolError("BAD_VALUE", "receipt.directoryblockheight", "expected a non-negative integer");
    const receipt = {
        entryHash: hash(entry, "entryhash", "receipt.entry.entryhash"),
        merkleBranch,
        entryBlockKeyMR: hash(json, "entryblockkeymr", "receipt.entryblockkeymr"),
        directoryBlockKeyMR: hash(json, "directoryblockkeymr", "receipt.directoryblockkeymr"),
        directoryBlockHeight: height,
    };
    if (entry.timestamp !== undefined) {
        if (typeof entry.timestamp !== "number" || !Number.isSafeInteger(entry.timestamp))
            throw new ProtocolError("BAD_VALUE", "receipt.entry.timestamp", "expected an integer (seconds)");
        receipt.entryTimestamp = entry.timestamp;
    }
    return receipt;
}
//# sourceMappingURL=receiptJson.js.map