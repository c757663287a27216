// Admin blocks: wire-format §5.3 (factomd common/adminBlock/adminBlockHeader.go, adminBlock.go, Entry*.go,
// forwardCompatible.go; type codes in common/constants/constants.go).
import { ByteReader, ByteWriter, bytesEqual, concat } from "./bytes.js";
import { ADMIN_CHAIN_ID } from "./chains.js";
import { ProtocolError } from "./errors.js";
import { sha256, sha512half } from "./hash.js";
/** Admin entry type codes (constants.go TYPE_*). */
export const ADMIN_ENTRY_TYPES = {
    minuteNumber: 0x00,
    directoryBlockSignature: 0x01,
    revealMatryoshkaHash: 0x02,
    addReplaceMatryoshkaHash: 0x03,
    increaseServerCount: 0x04,
    addFederatedServer: 0x05,
    addAuditServer: 0x06,
    removeFederatedServer: 0x07,
    addFederatedServerSigningKey: 0x08,
    addFederatedServerAnchorKey: 0x09,
    serverFault: 0x0a,
    coinbaseDescriptor: 0x0b,
    coinbaseDescriptorCancel: 0x0c,
    addAuthorityAssetAddress: 0x0d,
    addAuthorityEfficiency: 0x0e,
};
/** Lowest type byte that is not defined: from here on entries are forward-compatible (`varint size ‖ data`). */
export const FIRST_FORWARD_COMPATIBLE_TYPE = 0x0f;
/** Bytes of an ECDSA (anchor) public key hash in a type-09 entry. */
const ECDSA_KEY_SIZE = 20;
/** Length prefix (varint 32) that types 0d/0e put before the identity chain ID (factomd PushIHash). */
const HASH_LENGTH_PREFIX = 0x20;
/** Read a server fault (the bytes after the type byte); advances `r`. */
function readServerFault(r, field) {
    const timestamp = r.u48(`${field}.timestamp`);
    const serverId = r.bytesN(32, `${field}.serverId`).slice();
    const auditServerId = r.bytesN(32, `${field}.auditServerId`).slice();
    const vmIndex = r.u8(`${field}.vmIndex`);
    const dbHeight = r.u32(`${field}.dbHeight`);
    const height = r.u32(`${field}.height`);
    const count = r.u32(`${field}.signatureCount`);
    if (count * 96 > r.remaining)
        throw new ProtocolError("TRUNCATED", `${r.context}.${field}.signatures`, `${count} signature(s) need ${count * 96} bytes, only ${r.remaining} left`);
    const signatures = [];
    for (let i = 0; i < count; i++)
        signatures.push({
            publicKey: r.bytesN(32, `${field}.signatures[${i}].publicKey`).slice(),
            signature: r.bytesN(64, `${field}.signatures[${i}].signature`).slice(),
        });
    return { timestamp, serverId, auditServerId, vmIndex, dbHeight, height, signatures };
}
/** Parse the bytes of a type-0a entry (after the type byte); throws ProtocolError if they are not exactly one server fault. */
export function decodeServerFault(raw) {
    const r = new ByteReader(raw, "serverFault");
    const fault = readServerFault(r, "body");
    r.end();
    return fault;
}
/** Read `varint size ‖ body` and return a reader over exactly the body. */
function readSizedBody(r, field) {
    const size = r.varint(`${field}.size`);
    if (size > BigInt(r.remaining))
        throw new ProtocolError("TRUNCATED", `${r.context}.${field}`, `body size ${size} but only ${r.remaining} byte(s) left`);
    return new ByteReader(r.bytesN(Number(size), `${field}.body`), `${r.context}.${field}`);
}
function readEntry(r, i) {
    const f = `entries[${i}]`;
    const type = r.u8(`${f}.type`);
    const hash = (name) => r.bytesN(32, `${f}.${name}`).slice();
    switch (type) {
        case 0x00:
            return { type, minute: r.u8(`${f}.minute`) };
        case 0x01:
            return {
                type,
                identityAdminChainId: hash("identityAdminChainId"),
                publicKey: hash("publicKey"),
                signature: r.bytesN(64, `${f}.signature`).slice(),
            };
        case 0x02:
        case 0x03:
            return { type, identityChainId: hash("identityChainId"), hash: hash("hash") };
        case 0x04:
            return { type, amount: r.u8(`${f}.amount`) };
        case 0x05:
        case 0x06:
        case 0x07:
            return { type, identityChainId: hash("identityChainId"), dbHeight: r.u32(`${f}.dbHeight`) };
        case 0x08:
            return {
                type,
                identityChainId: hash("identityChainId"),
                keyPriority: r.u8(`${f}.keyPriority`),
                publicKey: hash("publicKey"),
                dbHeight: r.u32(`${f}.dbHeight`),
            };
        case 0x09:
            return {
                type,
                identityChainId: hash("identityChainId"),
                keyPriority: r.u8(`${f}.keyPriority`),
                keyType: r.u8(`${f}.keyType`),
                ecdsaPublicKey: r.bytesN(ECDSA_KEY_SIZE, `${f}.ecdsaPublicKey`).slice(),
            };
        case 0x0a: {
            const start = r.offset;
            readServerFault(r, f);
            return { type, raw: r.bytes.slice(start, r.offset) };
        }
        case 0x0b: {
            const body = readSizedBody(r, f);
            const outputs = [];
            while (body.remaining > 0)
                outputs.push({
                    amount: body.varint(`outputs[${outputs.length}].amount`),
                    address: body.bytesN(32, `outputs[${outputs.length}].address`).slice(),
                });
            return { type, outputs };
        }
        case 0x0c: {
            const body = readSizedBody(r, f);
            const entry = {
                type,
                descriptorHeight: body.varint("descriptorHeight"),
                descriptorIndex: body.varint("descriptorIndex"),
            };
            body.end();
            return entry;
        }
        case 0x0d:
        case 0x0e: {
            const body = readSizedBody(r, f);
            const prefix = body.varint("identityChainId.length");
            if (prefix !== BigInt(HASH_LENGTH_PREFIX))
                throw new ProtocolError("BAD_LENGTH", `${body.context}.identityChainId`, `length prefix must be 32, got ${prefix}`);
            const identityChainId = body.bytesN(32, "identityChainId").slice();
            const entry = type === 0x0d
                ? { type, identityChainId, assetAddress: body.bytesN(32, "assetAddress").slice() }
                : { type, identityChainId, efficiency: body.u16("efficiency") };
            body.end();
            return entry;
        }
        default: {
            const body = readSizedBody(r, f);
            return { type, data: body.bytes.slice(), forwardCompatible: true };
        }
    }
}
function checkBytes(b, n, field) {
    if (!(b instanceof Uint8Array) || b.length !== n)
        throw new ProtocolError("BAD_LENGTH", field, `expected ${n} bytes`);
    return b;
}
function checkInt(v, max, field) {
    if (!Number.isInteger(v) || v < 0 || v > max)
        throw new ProtocolError("BAD_VALUE", field, `${v} outside 0..${max}`);
    return v;
}
function writeSized(w, body) {
    w.varint(body.length).bytes(body);
}
function writeEntry(w, e, i) {
    const f = `adminBlock.entries[${i}]`;
    if ("forwardCompatible" in e) {
        checkInt(e.type, 0xff, `${f}.type`);
        if (e.type < FIRST_FORWARD_COMPATIBLE_TYPE)
            throw new ProtocolError("BAD_VALUE", `${f}.type`, `type ${e.type} is defined; only types ≥ 0x0f are forward-compatible`);
        w.u8(e.type);
        writeSized(w, e.data);
        return;
    }
    w.u8(e.type);
    switch (e.type) {
        case 0x00:
            w.u8(checkInt(e.minute, 0xff, `${f}.minute`));
            return;
        case 0x01:
            w.bytes(checkBytes(e.identityAdminChainId, 32, `${f}.identityAdminChainId`))
                .bytes(checkBytes(e.publicKey, 32, `${f}.publicKey`))
                .bytes(checkBytes(e.signature, 64, `${f}.signature`));
            return;
        case 0x02:
        case 0x03:
            w.bytes(checkBytes(e.identityChainId, 32, `${f}.identityChainId`)).bytes(checkBytes(e.hash, 32, `${f}.hash`));
            return;
        case 0x04:
            w.u8(checkInt(e.amount, 0xff, `${f}.amount`));
            return;
        case 0x05:
        case 0x06:
        case 0x07:
            w.bytes(checkBytes(e.identityChainId, 32, `${f}.identityChainId`)).u32(checkInt(e.dbHeight, 0xffffffff, `${f}.dbHeight`));
            return;
        case 0x08:
            w.bytes(checkBytes(e.identityChainId, 32, `${f}.identityChainId`))
                .u8(checkInt(e.keyPriority, 0xff, `${f}.keyPriority`))
                .bytes(checkBytes(e.publicKey, 32, `${f}.publicKey`))
                .u32(checkInt(e.dbHeight, 0xffffffff, `${f}.dbHeight`));
            return;
        case 0x09:
            w.bytes(checkBytes(e.identityChainId, 32, `${f}.identityChainId`))
                .u8(checkInt(e.keyPriority, 0xff, `${f}.keyPriority`))
                .u8(checkInt(e.keyType, 0xff, `${f}.keyType`))
                .bytes(checkBytes(e.ecdsaPublicKey, ECDSA_KEY_SIZE, `${f}.ecdsaPublicKey`));
            return;
        case 0x0a:
            decodeServerFault(e.raw);
            w.bytes(e.raw);
            return;
        case 0x0b: {
            const body = new ByteWriter(41 * e.outputs.length + 1);
            e.outputs.forEach((o, k) => {
                body.varint(o.amount).bytes(checkBytes(o.address, 32, `${f}.outputs[${k}].address`));
            });
            writeSized(w, body.finish());
            return;
        }
        case 0x0c:
            writeSized(w, new ByteWriter(20).varint(e.descriptorHeight).varint(e.descriptorIndex).finish());
            return;
        case 0x0d:
            writeSized(w, new ByteWriter(66)
                .u8(HASH_LENGTH_PREFIX)
                .bytes(checkBytes(e.identityChainId, 32, `${f}.identityChainId`))
                .bytes(checkBytes(e.assetAddress, 32, `${f}.assetAddress`))
                .finish());
            return;
        case 0x0e:
            writeSized(w, new ByteWriter(36)
                .u8(HASH_LENGTH_PREFIX)
                .bytes(checkBytes(e.identityChainId, 32, `${f}.identityChainId`))
                .u16(checkInt(e.efficiency, 0xffff, `${f}.efficiency`))
                .finish());
            return;
        default:
            throw new ProtocolError("BAD_VALUE", `${f}.type`, `unknown type ${e.type} without forwardCompatible data`);
    }
}
/** The body: every entry, type byte first, back to back. */
function encodeBody(entries) {
    const w = new ByteWriter(128 * entries.length + 16);
    entries.forEach((e, i) => {
        writeEntry(w, e, i);
    });
    return w.finish();
}
/** Whole block: header (chain id …0a, prevBackRefHash, dbHeight, expansion, message count, body size) ‖ entries. */
export function encodeAdminBlock(block) {
    const body = encodeBody(block.entries);
    const header = new ByteWriter(96 + block.headerExpansion.length)
        .bytes(ADMIN_CHAIN_ID)
        .bytes(checkBytes(block.prevBackRefHash, 32, "adminBlock.prevBackRefHash"))
        .u32(checkInt(block.dbHeight, 0xffffffff, "adminBlock.dbHeight"))
        .varint(block.headerExpansion.length)
        .bytes(block.headerExpansion)
        .u32(block.entries.length)
        .u32(body.length)
        .finish();
    return concat(header, body);
}
/** Decode; rejects truncation and trailing bytes. */
export function decodeAdminBlock(bytes) {
    const r = new ByteReader(bytes, "adminBlock");
    if (!bytesEqual(r.bytesN(32, "chainId"), ADMIN_CHAIN_ID))
        throw new ProtocolError("BAD_VALUE", "adminBlock.chainId", "not the admin chain ID …0a");
    const prevBackRefHash = r.bytesN(32, "prevBackRefHash").slice();
    const dbHeight = r.u32("dbHeight");
    const expansionSize = r.varint("headerExpansionSize");
    if (expansionSize > BigInt(r.remaining))
        throw new ProtocolError("TRUNCATED", "adminBlock.headerExpansion", `needs ${expansionSize} byte(s), only ${r.remaining} left`);
    const headerExpansion = r.bytesN(Number(expansionSize), "headerExpansion").slice();
    const messageCount = r.u32("messageCount");
    const bodySize = r.u32("bodySize");
    if (bodySize > r.remaining)
        throw new ProtocolError("TRUNCATED", "adminBlock.body", `bodySize ${bodySize} but only ${r.remaining} byte(s) left`);
    // The smallest entry is 2 bytes (type + u8 or type + varint 0), as factomd's msgLimit check.
    if (messageCount > bodySize / 2)
        throw new ProtocolError("BAD_VALUE", "adminBlock.messageCount", `${messageCount} entries cannot fit in ${bodySize} bytes`);
    const body = new ByteReader(r.bytesN(bodySize, "body"), "adminBlock");
    const entries = [];
    for (let i = 0; i < messageCount; i++)
        entries.push(readEntry(body, i));
    if (body.remaining !== 0)
        throw new ProtocolError("BAD_VALUE", "adminBlock.bodySize", `${body.remaining} byte(s) of the body left after ${messageCount} entries`);
    r.end();
    return { prevBackRefHash, dbHeight, headerExpansion, entries };
}
/** lookupHash = sha256(whole block) (primary, the dblock entry); backReferenceHash = sha512half(whole block). */
export function adminBlockHashes(block) {
    const raw = encodeAdminBlock(block);
    return { lookupHash: sha256(raw), backReferenceHash: sha512half(raw) };
}
/** True for a directory block signature (01); its signature covers the 113-byte header of the previous directory block. */
export function isDirectoryBlockSignature(e) {
    return !("forwardCompatible" in e) && e.type === 0x01;
}
//# sourceMappingURL=ablock.js.map