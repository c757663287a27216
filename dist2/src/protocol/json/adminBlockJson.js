// JSON view of an admin block (spec §2.2; reference/api-behavior.md §5.4; wire-format §7.4): the `ablock` member
// of `ablock-by-height` and `admin-block`. Entry key names follow the reference node's Go structs exactly as
// clients (factom.js src/blocks.js) read them: lower-case for types 0–10, Go field names for 11–14.
import { decodeServerFault, encodeAdminBlock } from "../ablock.js";
import { encodeAddress } from "../address.js";
import { toHex, varintSize } from "../bytes.js";
import { ADMIN_CHAIN_ID } from "../chains.js";
import { sha256, sha512half } from "../hash.js";
import { jsonInteger } from "./transactionJson.js";
/** Bytes before the body: chain id, prevBackRefHash, dbHeight, expansion size + area, message count, body size. */
function headerSize(block) {
    return 32 + 32 + 4 + varintSize(block.headerExpansion.length) + block.headerExpansion.length + 4 + 4;
}
function base64(b) {
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString("base64");
}
/** One admin entry as the reference node serialises it. */
export function adminEntryJson(e) {
    if ("forwardCompatible" in e)
        return { adminidtype: e.type, Size: e.data.length, Data: base64(e.data) };
    switch (e.type) {
        case 0x00:
            return { adminidtype: e.type, minutenumber: e.minute };
        case 0x01:
            return {
                adminidtype: e.type,
                identityadminchainid: toHex(e.identityAdminChainId),
                prevdbsig: { pub: toHex(e.publicKey), sig: toHex(e.signature) },
            };
        case 0x02:
        case 0x03:
            return { adminidtype: e.type, identitychainid: toHex(e.identityChainId), mhash: toHex(e.hash) };
        case 0x04:
            return { adminidtype: e.type, amount: e.amount };
        case 0x05:
        case 0x06:
        case 0x07:
            return { adminidtype: e.type, identitychainid: toHex(e.identityChainId), dbheight: e.dbHeight };
        case 0x08:
            return {
                adminidtype: e.type,
                identitychainid: toHex(e.identityChainId),
                keypriority: e.keyPriority,
                publickey: toHex(e.publicKey),
                dbheight: e.dbHeight,
            };
        case 0x09:
            return {
                adminidtype: e.type,
                identitychainid: toHex(e.identityChainId),
                keypriority: e.keyPriority,
                keytype: e.keyType,
                ecdsapublickey: toHex(e.ecdsaPublicKey),
            };
        case 0x0a: {
            const f = decodeServerFault(e.raw);
            return {
                adminidtype: e.type,
                timestamp: f.timestamp, // ms since epoch
                serverid: toHex(f.serverId),
                auditserverid: toHex(f.auditServerId),
                vmindex: f.vmIndex,
                dbheight: f.dbHeight,
                height: f.height,
                signaturelist: {
                    Length: f.signatures.length,
                    List: f.signatures.map((s) => ({ pub: toHex(s.publicKey), sig: toHex(s.signature) })),
                },
            };
        }
        case 0x0b:
            return {
                adminidtype: e.type,
                Outputs: e.outputs.map((o) => ({
                    amount: jsonInteger(o.amount), // base units
                    address: toHex(o.address),
                    useraddress: encodeAddress("FA", o.address),
                })),
            };
        case 0x0c:
            // The reference emits `DescriptorIndex` (its struct tag is malformed) while factom.js reads
            // `descriptor_index`; both are given so that either reader works.
            return {
                adminidtype: e.type,
                descriptor_height: jsonInteger(e.descriptorHeight),
                DescriptorIndex: jsonInteger(e.descriptorIndex),
                descriptor_index: jsonInteger(e.descriptorIndex),
            };
        case 0x0d:
            // `FactoidAddress` is the reference's key and what factom.js reads: kept for client compatibility.
            return { adminidtype: e.type, IdentityChainID: toHex(e.identityChainId), FactoidAddress: toHex(e.assetAddress) };
        case 0x0e:
            return { adminidtype: e.type, IdentityChainID: toHex(e.identityChainId), Efficiency: e.efficiency }; // hundredths of a percent
    }
}
/** The admin block as the API shows it. */
export function adminBlockJson(block) {
    const raw = encodeAdminBlock(block); // hashed here as adminBlockHashes does, without encoding twice
    const adminChain = toHex(ADMIN_CHAIN_ID);
    return {
        header: {
            prevbackrefhash: toHex(block.prevBackRefHash),
            dbheight: block.dbHeight,
            headerexpansionsize: block.headerExpansion.length,
            headerexpansionarea: base64(block.headerExpansion),
            messagecount: block.entries.length,
            bodysize: raw.length - headerSize(block),
            adminchainid: adminChain,
            chainid: adminChain,
        },
        abentries: block.entries.map(adminEntryJson),
        backreferencehash: toHex(sha512half(raw)),
        lookuphash: toHex(sha256(raw)),
    };
}
//# sourceMappingURL=adminBlockJson.js.map