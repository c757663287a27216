// Asset (factoid) blocks: wire-format §5.5 (factomd common/factoid/fblock.go).
import { ByteReader, ByteWriter, bytesEqual, concat } from "./bytes.js";
import { ASSET_CHAIN_ID } from "./chains.js";
import { ProtocolError } from "./errors.js";
import { sha256 } from "./hash.js";
import { merkleRoot } from "./merkle.js";
import { decodeTransactionIn, TRANSACTION_VERSION, transactionFullHash, transactionId, } from "./transaction.js";
/** Period markers per block: one per minute of the directory block (constants.MARKER = 0x00). */
export const PERIOD_COUNT = 10;
/** The marker byte between periods; never the first byte of a transaction (those start with varint 02). */
export const PERIOD_MARKER = 0x00;
/** Merkle leaf that stands for a period marker in both the body and the ledger tree: sha256(00) = 6e340b9c…a01d. */
export const PERIOD_MARKER_HASH = sha256(Uint8Array.of(PERIOD_MARKER));
function checkPeriods(periods) {
    if (periods.length !== PERIOD_COUNT)
        throw new ProtocolError("BAD_VALUE", "assetBlock.periods", `expected ${PERIOD_COUNT} periods, got ${periods.length}`);
    const coinbase = periods[0][0];
    if (coinbase === undefined || coinbase.inputs.length !== 0)
        throw new ProtocolError("BAD_VALUE", "assetBlock.transactions[0]", "the first transaction must be the coinbase (no inputs)");
}
/** Body leaves in body order: per transaction `leaf(tx)`, per marker sha256(00). */
function leaves(periods, leaf) {
    const out = [];
    for (const period of periods) {
        for (const tx of period)
            out.push(leaf(tx));
        out.push(PERIOD_MARKER_HASH);
    }
    return out;
}
/** BodyMR: Merkle root over the full hash of every transaction and sha256(00) per marker, in body order. */
export function assetBlockBodyMR(periods) {
    return merkleRoot(leaves(periods, transactionFullHash));
}
/** LedgerMR: the same tree over txids (signed parts) instead of full hashes. */
export function assetBlockLedgerMR(periods) {
    return merkleRoot(leaves(periods, transactionId));
}
/** Build an asset block, computing bodyMR. */
export function buildAssetBlock(fields) {
    checkPeriods(fields.periods);
    return { ...fields, bodyMR: assetBlockBodyMR(fields.periods) };
}
function checkHash(h, field) {
    if (!(h instanceof Uint8Array) || h.length !== 32)
        throw new ProtocolError("BAD_LENGTH", `assetBlock.${field}`, "expected 32 bytes");
}
/** Header bytes (chain id … body size) as hashed for the keyMR. */
export function encodeAssetBlockHeader(block) {
    checkHash(block.bodyMR, "bodyMR");
    checkHash(block.prevKeyMR, "prevKeyMR");
    checkHash(block.prevLedgerKeyMR, "prevLedgerKeyMR");
    if (block.exchangeRate < 0n || block.exchangeRate >= 1n << 64n)
        throw new ProtocolError("BAD_VALUE", "assetBlock.exchangeRate", `${block.exchangeRate} outside u64`);
    if (!Number.isInteger(block.dbHeight) || block.dbHeight < 0 || block.dbHeight > 0xffffffff)
        throw new ProtocolError("BAD_VALUE", "assetBlock.dbHeight", `${block.dbHeight} outside u32`);
    let txCount = 0;
    let bodySize = block.periods.length;
    for (const period of block.periods)
        for (const tx of period) {
            txCount++;
            bodySize += tx.raw.length;
        }
    return new ByteWriter(160 + block.headerExpansion.length)
        .bytes(ASSET_CHAIN_ID)
        .bytes(block.bodyMR)
        .bytes(block.prevKeyMR)
        .bytes(block.prevLedgerKeyMR)
        .u64(block.exchangeRate)
        .u32(block.dbHeight)
        .varint(block.headerExpansion.length)
        .bytes(block.headerExpansion)
        .u32(txCount)
        .u32(bodySize)
        .finish()
        .slice();
}
/** Whole block: header, then each period's transactions (full signed form) followed by a 00 marker. */
export function encodeAssetBlock(block) {
    checkPeriods(block.periods);
    const parts = [encodeAssetBlockHeader(block)];
    const marker = Uint8Array.of(PERIOD_MARKER);
    for (const period of block.periods) {
        for (const tx of period)
            parts.push(tx.raw);
        parts.push(marker);
    }
    return concat(...parts);
}
/** Decode; rejects truncation, marker count ≠ 10, trailing bytes. */
export function decodeAssetBlock(bytes) {
    const r = new ByteReader(bytes, "assetBlock");
    const chainId = r.bytesN(32, "chainId");
    if (!bytesEqual(chainId, ASSET_CHAIN_ID))
        throw new ProtocolError("BAD_VALUE", "assetBlock.chainId", "not the asset chain ID …0f");
    const bodyMR = r.bytesN(32, "bodyMR").slice();
    const prevKeyMR = r.bytesN(32, "prevKeyMR").slice();
    const prevLedgerKeyMR = r.bytesN(32, "prevLedgerKeyMR").slice();
    const exchangeRate = r.u64("exchangeRate");
    const dbHeight = r.u32("dbHeight");
    const expansionSize = r.varint("headerExpansionSize");
    if (expansionSize > BigInt(r.remaining))
        throw new ProtocolError("TRUNCATED", "assetBlock.headerExpansion", `needs ${expansionSize} byte(s), only ${r.remaining} left`);
    const headerExpansion = r.bytesN(Number(expansionSize), "headerExpansion").slice();
    const txCount = r.u32("transactionCount");
    const bodySize = r.u32("bodySize");
    if (bodySize > r.remaining)
        throw new ProtocolError("TRUNCATED", "assetBlock.body", `bodySize ${bodySize} but only ${r.remaining} byte(s) left`);
    const bodyEnd = r.offset + bodySize;
    const body = bytes.subarray(0, bodyEnd);
    const periods = [[]];
    let markers = 0;
    let count = 0;
    let offset = r.offset;
    while (offset < bodyEnd) {
        if (body[offset] === PERIOD_MARKER) {
            markers++;
            offset++;
            if (markers < PERIOD_COUNT)
                periods.push([]);
            continue;
        }
        if (markers >= PERIOD_COUNT)
            throw new ProtocolError("BAD_VALUE", `assetBlock.transactions[${count}]`, "transaction after the tenth period marker");
        if (count >= txCount)
            throw new ProtocolError("BAD_VALUE", "assetBlock.transactionCount", `header says ${txCount}, the body holds more`);
        const { tx, size } = decodeTransactionIn(body, offset, `assetBlock.transactions[${count}]`);
        periods[markers].push(tx);
        offset += size;
        count++;
    }
    if (markers !== PERIOD_COUNT)
        throw new ProtocolError("BAD_VALUE", "assetBlock.body", `expected ${PERIOD_COUNT} period markers, found ${markers}`);
    if (count !== txCount)
        throw new ProtocolError("BAD_VALUE", "assetBlock.transactionCount", `header says ${txCount}, the body holds ${count}`);
    r.offset = bodyEnd;
    r.end();
    checkPeriods(periods);
    if (!bytesEqual(assetBlockBodyMR(periods), bodyMR))
        throw new ProtocolError("BAD_VALUE", "assetBlock.bodyMR", "does not match the Merkle root of the body");
    return { bodyMR, prevKeyMR, prevLedgerKeyMR, exchangeRate, dbHeight, headerExpansion, periods };
}
/**
 * keyMR = sha256(sha256(header) ‖ bodyMR); ledgerKeyMR = sha256(ledgerMR ‖ sha256(header)).
 * Also returns the header hash and ledgerMR.
 */
export function assetBlockHashes(block) {
    const headerHash = sha256(encodeAssetBlockHeader(block));
    const ledgerMR = assetBlockLedgerMR(block.periods);
    return {
        keyMR: sha256(concat(headerHash, block.bodyMR)),
        ledgerKeyMR: sha256(concat(ledgerMR, headerHash)),
        ledgerMR,
        headerHash,
    };
}
/** All transactions in body order. */
export function assetBlockTransactions(block) {
    return block.periods.flat();
}
/** The 10-byte coinbase `02 ‖ ts ‖ 00 00 00` for a block started at `milliTimestamp` (ms since epoch). */
export function emptyCoinbase(milliTimestamp) {
    const raw = new ByteWriter(10).varint(TRANSACTION_VERSION).u48(milliTimestamp).u8(0).u8(0).u8(0).finish().slice();
    return {
        version: TRANSACTION_VERSION,
        milliTimestamp,
        inputs: [],
        outputs: [],
        ecOutputs: [],
        rcds: [],
        signatures: [],
        raw,
        signedPart: raw,
    };
}
//# sourceMappingURL=fblock.js.map