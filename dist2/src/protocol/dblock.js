// Directory blocks: wire-format §5.2 (factomd common/directoryBlock/directoryBlockHeader.go, directoryBlock.go).
import { ByteReader, ByteWriter, bytesEqual, compareBytes, concat } from "./bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, DIRECTORY_CHAIN_ID, EC_CHAIN_ID } from "./chains.js";
import { ProtocolError } from "./errors.js";
import { sha256 } from "./hash.js";
import { merkleRoot } from "./merkle.js";
/** Bytes of the marshalled header (what directory block signatures sign). */
export const DIRECTORY_BLOCK_HEADER_SIZE = 113;
/** Bytes of one body entry: chain ID ‖ keyMR. */
export const DIRECTORY_BLOCK_ENTRY_SIZE = 64;
/** Most entries a directory block may hold (factomd panics above this on unmarshal). */
export const MAX_DIRECTORY_BLOCK_ENTRIES = 100_000;
/** The chain IDs that must open every directory block body, in this order. */
export const DIRECTORY_BLOCK_FIRST_CHAINS = [ADMIN_CHAIN_ID, EC_CHAIN_ID, ASSET_CHAIN_ID];
/** The chain ID the API reports for directory blocks (…0d). */
export { DIRECTORY_CHAIN_ID };
const FIRST_NAMES = ["admin", "EC", "asset"];
function checkFirstThree(entries) {
    if (entries.length < 3)
        throw new ProtocolError("BAD_VALUE", "directoryBlock.entries", `needs at least the admin, EC and asset entries, got ${entries.length}`);
    for (let i = 0; i < 3; i++)
        if (!bytesEqual(entries[i].chainId, DIRECTORY_BLOCK_FIRST_CHAINS[i]))
            throw new ProtocolError("BAD_VALUE", `directoryBlock.entries[${i}].chainId`, `expected the ${FIRST_NAMES[i]} chain ID`);
}
function checkEntry(e, i) {
    if (!(e.chainId instanceof Uint8Array) || e.chainId.length !== 32)
        throw new ProtocolError("BAD_LENGTH", `directoryBlock.entries[${i}].chainId`, "expected 32 bytes");
    if (!(e.keyMR instanceof Uint8Array) || e.keyMR.length !== 32)
        throw new ProtocolError("BAD_LENGTH", `directoryBlock.entries[${i}].keyMR`, "expected 32 bytes");
}
/** BodyMR: Merkle root over sha256(chainId ‖ keyMR), one leaf per entry, in body order. */
export function directoryBlockBodyMR(entries) {
    return merkleRoot(entries.map((e, i) => {
        checkEntry(e, i);
        return sha256(concat(e.chainId, e.keyMR));
    }));
}
/** Build a directory block: sorts entries 3.. by chain ID and computes bodyMR. */
export function buildDirectoryBlock(fields) {
    checkFirstThree(fields.entries);
    const rest = fields.entries.slice(3).sort((a, b) => compareBytes(a.chainId, b.chainId));
    const entries = [...fields.entries.slice(0, 3), ...rest];
    return { ...fields, entries, bodyMR: directoryBlockBodyMR(entries) };
}
function checkU32(v, field) {
    if (!Number.isInteger(v) || v < 0 || v > 0xffffffff)
        throw new ProtocolError("BAD_VALUE", `directoryBlock.${field}`, `${v} outside u32`);
    return v;
}
function checkHash(h, field) {
    if (!(h instanceof Uint8Array) || h.length !== 32)
        throw new ProtocolError("BAD_LENGTH", `directoryBlock.${field}`, "expected 32 bytes");
    return h;
}
/** The 113-byte header (what directory block signatures sign). */
export function encodeDirectoryBlockHeader(block) {
    if (!Number.isInteger(block.version) || block.version < 0 || block.version > 0xff)
        throw new ProtocolError("BAD_VALUE", "directoryBlock.version", `${block.version} outside u8`);
    return new ByteWriter(DIRECTORY_BLOCK_HEADER_SIZE)
        .u8(block.version)
        .u32(checkU32(block.networkId, "networkId"))
        .bytes(checkHash(block.bodyMR, "bodyMR"))
        .bytes(checkHash(block.prevKeyMR, "prevKeyMR"))
        .bytes(checkHash(block.prevFullHash, "prevFullHash"))
        .u32(checkU32(block.timestamp, "timestamp"))
        .u32(checkU32(block.dbHeight, "dbHeight"))
        .u32(block.entries.length)
        .finish()
        .slice();
}
/** Header ‖ body (chainId ‖ keyMR per entry, in the block's order). */
export function encodeDirectoryBlock(block) {
    const w = new ByteWriter(DIRECTORY_BLOCK_HEADER_SIZE + DIRECTORY_BLOCK_ENTRY_SIZE * block.entries.length);
    w.bytes(encodeDirectoryBlockHeader(block));
    block.entries.forEach((e, i) => {
        checkEntry(e, i);
        w.bytes(e.chainId).bytes(e.keyMR);
    });
    return w.finish().slice();
}
/** Decode; requires ≥ 3 entries with the admin/EC/asset chain IDs first; rejects trailing bytes. */
export function decodeDirectoryBlock(bytes) {
    const r = new ByteReader(bytes, "directoryBlock");
    const version = r.u8("version");
    const networkId = r.u32("networkId");
    const bodyMR = r.bytesN(32, "bodyMR").slice();
    const prevKeyMR = r.bytesN(32, "prevKeyMR").slice();
    const prevFullHash = r.bytesN(32, "prevFullHash").slice();
    const timestamp = r.u32("timestamp");
    const dbHeight = r.u32("dbHeight");
    const count = r.u32("blockCount");
    if (count > MAX_DIRECTORY_BLOCK_ENTRIES)
        throw new ProtocolError("TOO_LARGE", "directoryBlock.blockCount", `${count} entries, at most ${MAX_DIRECTORY_BLOCK_ENTRIES}`);
    if (count * DIRECTORY_BLOCK_ENTRY_SIZE > r.remaining)
        throw new ProtocolError("TRUNCATED", "directoryBlock.entries", `${count} entries need ${count * 64} bytes, only ${r.remaining} left`);
    const entries = [];
    for (let i = 0; i < count; i++)
        entries.push({
            chainId: r.bytesN(32, `entries[${i}].chainId`).slice(),
            keyMR: r.bytesN(32, `entries[${i}].keyMR`).slice(),
        });
    r.end();
    checkFirstThree(entries);
    if (!bytesEqual(directoryBlockBodyMR(entries), bodyMR))
        throw new ProtocolError("BAD_VALUE", "directoryBlock.bodyMR", "does not match the Merkle root of the entries");
    return { version, networkId, bodyMR, prevKeyMR, prevFullHash, timestamp, dbHeight, entries };
}
/** KeyMR = sha256(sha256(header) ‖ bodyMR); fullHash = sha256(whole block); headerHash = sha256(header). */
export function directoryBlockHashes(block) {
    const raw = encodeDirectoryBlock(block);
    const headerHash = sha256(raw.subarray(0, DIRECTORY_BLOCK_HEADER_SIZE));
    return { keyMR: sha256(concat(headerHash, block.bodyMR)), fullHash: sha256(raw), headerHash };
}
/** Flat list [chain0, key0, chain1, key1, …] whose Merkle root is bodyMR (receipts). */
export function directoryBlockBranchLeaves(block) {
    const out = [];
    block.entries.forEach((e, i) => {
        checkEntry(e, i);
        out.push(e.chainId, e.keyMR);
    });
    return out;
}
//# sourceMappingURL=dblock.js.map