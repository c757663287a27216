/**
 * Anchor records (the reference's anchor/anchorRecord.go, version 2 as written by anchormaker-eth): a JSON
 * document naming a window of directory blocks, the Merkle root over their keyMRs and the Ethereum
 * transaction that carries that root. It is the content of an entry in the Ethereum anchor chain; the entry's
 * only external ID is the ed25519 signature of the content by the anchoring key. Pure: bytes in, bytes out.
 */
import { publicKeyFromSeed, signEd25519, verifyEd25519 } from "../crypto/ed25519.js";
import { fromHex, toHex } from "../protocol/bytes.js";
import { chainIdFromExtIds } from "../protocol/entry.js";
import { AnchorError } from "./errors.js";
/** The first entry of the reference's Ethereum anchor chain (anchormaker-eth CreateFirstEthereumAnchorEntry). */
export const ETHEREUM_ANCHOR_CHAIN_EXT_ID = "FactomEthereumAnchorChain";
export const ETHEREUM_ANCHOR_CHAIN_CONTENT = "This is the Factom Ethereum anchor chain, which records the anchors Factom puts on the Ethereum network.\n";
/** 6e4540d0…0bfe: the chain ID the reference node reads Ethereum anchor records from (databaseOverlay/anchorInfo.go). */
export const ETHEREUM_ANCHOR_CHAIN_ID = chainIdFromExtIds([
    new TextEncoder().encode(ETHEREUM_ANCHOR_CHAIN_EXT_ID),
]);
/** The reference node's Ethereum anchor record key (factomd util/config.go EthereumAnchorRecordPublicKeys default). */
export const REFERENCE_ETHEREUM_RECORD_KEY_HEX = "a4a7905ab2226f267c6b44e1d5db2c97638b7bbba72fd1823d053ccff2892455";
const HEX_HASH = /^0x[0-9a-f]{64}$/;
const HEX_ADDRESS = /^0x[0-9a-f]{40}$/;
/**
 * The record's JSON bytes exactly as Go's encoding/json writes the reference struct: fields in declaration
 * order, zero heights omitted (`omitempty`), DBHeight/KeyMR (version 1 fields) absent.
 */
export function encodeAnchorRecord(r) {
    const o = { AnchorRecordVer: 2 };
    if (r.dbHeightMax !== 0)
        o.DBHeightMax = r.dbHeightMax;
    if (r.dbHeightMin !== 0)
        o.DBHeightMin = r.dbHeightMin;
    o.WindowMR = toHex(r.windowMR);
    o.RecordHeight = r.recordHeight;
    o.Ethereum = {
        ContractAddress: r.ethereum.contractAddress,
        TxID: r.ethereum.txId,
        BlockHeight: r.ethereum.blockHeight,
        BlockHash: r.ethereum.blockHash,
        TxIndex: r.ethereum.txIndex,
    };
    return new TextEncoder().encode(JSON.stringify(o));
}
function isObject(v) {
    return typeof v === "object" && v !== null && !Array.isArray(v);
}
function uint(o, key, field) {
    const v = o[key] ?? 0;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
        throw new AnchorError({ code: "BAD_RECORD", field, reason: "expected a non-negative integer" });
    return v;
}
function text(o, key, field, pattern) {
    const v = o[key];
    if (typeof v !== "string" || !pattern.test(v.toLowerCase()))
        throw new AnchorError({ code: "BAD_RECORD", field, reason: `expected ${pattern.source}` });
    return v.toLowerCase();
}
/** Parse a version 2 Ethereum anchor record; throws AnchorError BAD_RECORD naming the field. */
export function decodeAnchorRecord(content) {
    let json;
    try {
        json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(content));
    }
    catch {
        throw new AnchorError({ code: "BAD_RECORD", field: "record", reason: "not UTF-8 JSON" });
    }
    if (!isObject(json))
        throw new AnchorError({ code: "BAD_RECORD", field: "record", reason: "expected an object" });
    if (json.AnchorRecordVer !== 2)
        throw new AnchorError({ code: "BAD_RECORD", field: "AnchorRecordVer", reason: "expected 2" });
    const eth = json.Ethereum;
    if (!isObject(eth))
        throw new AnchorError({ code: "BAD_RECORD", field: "Ethereum", reason: "expected an object" });
    const windowMR = json.WindowMR;
    if (typeof windowMR !== "string" || !/^[0-9a-fA-F]{64}$/.test(windowMR))
        throw new AnchorError({ code: "BAD_RECORD", field: "WindowMR", reason: "expected 64 hex characters" });
    const record = {
        dbHeightMin: uint(json, "DBHeightMin", "DBHeightMin"),
        dbHeightMax: uint(json, "DBHeightMax", "DBHeightMax"),
        windowMR: fromHex(windowMR, "WindowMR", 32),
        recordHeight: uint(json, "RecordHeight", "RecordHeight"),
        ethereum: {
            contractAddress: text(eth, "ContractAddress", "Ethereum.ContractAddress", HEX_ADDRESS),
            txId: text(eth, "TxID", "Ethereum.TxID", HEX_HASH),
            blockHeight: uint(eth, "BlockHeight", "Ethereum.BlockHeight"),
            blockHash: text(eth, "BlockHash", "Ethereum.BlockHash", HEX_HASH),
            txIndex: uint(eth, "TxIndex", "Ethereum.TxIndex"),
        },
    };
    if (record.dbHeightMin > record.dbHeightMax)
        throw new AnchorError({ code: "BAD_RECORD", field: "DBHeightMin", reason: "above DBHeightMax" });
    return record;
}
/** The anchor chain entry of a record: content = the record JSON, ext ID 0 = its signature by `seed`. */
export function anchorRecordEntry(record, seed) {
    const content = encodeAnchorRecord(record);
    return { version: 0, chainId: ETHEREUM_ANCHOR_CHAIN_ID, extIds: [signEd25519(seed, content)], content };
}
/** The anchor chain's first entry (the same bytes as the reference's, so the same chain ID). */
export function anchorChainFirstEntry() {
    const enc = new TextEncoder();
    return {
        version: 0,
        chainId: ETHEREUM_ANCHOR_CHAIN_ID,
        extIds: [enc.encode(ETHEREUM_ANCHOR_CHAIN_EXT_ID)],
        content: enc.encode(ETHEREUM_ANCHOR_CHAIN_CONTENT),
    };
}
/**
 * The record of an anchor chain entry when its only ext ID is a valid signature of its content by one of
 * `publicKeys` (UnmarshalAndValidateAnchorRecordV2); undefined for any other entry (the chain is open to
 * anyone who pays, so unsigned or badly signed entries are ignored, as the reference ignores them).
 */
export function verifiedAnchorRecord(entry, publicKeys) {
    if (entry.extIds.length !== 1 || entry.extIds[0].length !== 64)
        return undefined;
    const sig = entry.extIds[0];
    if (!publicKeys.some((k) => verifyEd25519(k, entry.content, sig)))
        return undefined;
    try {
        return decodeAnchorRecord(entry.content);
    }
    catch {
        return undefined;
    }
}
/** Public key of an anchoring seed (what other nodes list in EthereumAnchorRecordPublicKeys), 32 bytes. */
export function recordPublicKey(seed) {
    return publicKeyFromSeed(seed);
}
//# sourceMappingURL=record.js.map