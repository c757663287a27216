import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { adminBlockHashes, decodeAdminBlock, decodeServerFault, encodeAdminBlock, FIRST_FORWARD_COMPATIBLE_TYPE, } from "../../../src/protocol/ablock.js";
import { encodeAddress } from "../../../src/protocol/address.js";
import { ByteWriter, concat, fromHex, toHex } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID } from "../../../src/protocol/chains.js";
import { sha256, sha512 } from "../../../src/protocol/hash.js";
import { adminBlockJson, adminEntryJson } from "../../../src/protocol/json/adminBlockJson.js";
import { expectProtocolError, fuzzDecoder } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";
import { loadVectorFiles } from "../../support/vectors.js";
const vectors = new Map([...loadVectorFiles().values()].flat().map((v) => [v.id, v]));
const vectorBytes = (id, key) => fromHex(vectors.get(id).input[key]);
/** Bytes of a server fault (type 0a) after its type byte. */
function serverFaultBytes(rng, sigs) {
    const w = new ByteWriter()
        .u48(rng.int(0, 2 ** 48 - 1))
        .bytes(rng.bytes(32))
        .bytes(rng.bytes(32))
        .u8(rng.int(0, 255))
        .u32(rng.u32())
        .u32(rng.u32())
        .u32(sigs);
    for (let i = 0; i < sigs; i++)
        w.bytes(rng.bytes(96));
    return w.finish().slice();
}
/** One random entry of the given type (every type of §5.3, forward-compatible for ≥ 0x0f). */
function randomEntry(rng, type) {
    const h = () => rng.bytes(32);
    switch (type) {
        case 0x00:
            return { type, minute: rng.int(0, 255) };
        case 0x01:
            return { type, identityAdminChainId: h(), publicKey: h(), signature: rng.bytes(64) };
        case 0x02:
        case 0x03:
            return { type, identityChainId: h(), hash: h() };
        case 0x04:
            return { type, amount: rng.int(0, 255) };
        case 0x05:
        case 0x06:
        case 0x07:
            return { type, identityChainId: h(), dbHeight: rng.u32() };
        case 0x08:
            return { type, identityChainId: h(), keyPriority: rng.int(0, 255), publicKey: h(), dbHeight: rng.u32() };
        case 0x09:
            return {
                type,
                identityChainId: h(),
                keyPriority: rng.int(0, 255),
                keyType: rng.int(0, 255),
                ecdsaPublicKey: rng.bytes(20),
            };
        case 0x0a:
            return { type, raw: serverFaultBytes(rng, rng.int(0, 3)) };
        case 0x0b:
            return {
                type,
                outputs: Array.from({ length: rng.int(0, 4) }, () => ({
                    amount: rng.chance(0.3) ? rng.u64() : BigInt(rng.int(0, 1e9)),
                    address: h(),
                })),
            };
        case 0x0c:
            return {
                type,
                descriptorHeight: rng.chance(0.5) ? rng.u64() : BigInt(rng.int(0, 1e6)),
                descriptorIndex: BigInt(rng.int(0, 300)),
            };
        case 0x0d:
            return { type, identityChainId: h(), assetAddress: h() };
        case 0x0e:
            return { type, identityChainId: h(), efficiency: rng.int(0, 0xffff) };
        default:
            return { type, data: rng.bytes(rng.int(0, 40)), forwardCompatible: true };
    }
}
function randomBlock(rng) {
    return {
        prevBackRefHash: rng.bytes(32),
        dbHeight: rng.u32(),
        headerExpansion: rng.chance(0.1) ? rng.bytes(rng.int(1, 6)) : new Uint8Array(0),
        entries: Array.from({ length: rng.int(0, 12) }, () => randomEntry(rng, rng.chance(0.8) ? rng.int(0, 0x0e) : rng.int(0x0f, 0xff))),
    };
}
/** An admin block around an already-marshalled body (to craft invalid bodies). */
function wrap(body, messageCount, bodySize = body.length) {
    return concat(new ByteWriter()
        .bytes(ADMIN_CHAIN_ID)
        .bytes(new Uint8Array(32))
        .u32(7)
        .varint(0)
        .u32(messageCount)
        .u32(bodySize)
        .finish(), body);
}
describe("admin block round trip (property, seeded)", () => {
    test("300 random blocks with every entry type: decode(encode(b)) == b", () => {
        const rng = new Random(0xab10);
        const seen = new Set();
        for (let i = 0; i < 300; i++) {
            const block = randomBlock(rng);
            for (const e of block.entries)
                seen.add(e.type);
            const raw = encodeAdminBlock(block);
            const decoded = decodeAdminBlock(raw);
            assert.deepEqual(decoded, block, `seed ${rng.seed} case ${i}`);
            assert.equal(toHex(encodeAdminBlock(decoded)), toHex(raw));
            const h = adminBlockHashes(block);
            assert.equal(toHex(h.lookupHash), toHex(sha256(raw)));
            assert.equal(toHex(h.backReferenceHash), toHex(sha512(raw).subarray(0, 32)));
            const json = adminBlockJson(block);
            assert.equal(json.abentries.length, block.entries.length);
            assert.equal(json.lookuphash, toHex(h.lookupHash));
        }
        for (let t = 0; t <= 0x0e; t++)
            assert.ok(seen.has(t), `type ${t} exercised`);
    });
    test("every defined entry type has its wire size", () => {
        const rng = new Random(2);
        const sizes = {
            0: 2,
            1: 129,
            2: 65,
            3: 65,
            4: 2,
            5: 37,
            6: 37,
            7: 37,
            8: 70,
            9: 55,
            13: 67,
            14: 37,
        };
        for (const [type, size] of Object.entries(sizes)) {
            const raw = encodeAdminBlock({
                prevBackRefHash: new Uint8Array(32),
                dbHeight: 0,
                headerExpansion: new Uint8Array(0),
                entries: [randomEntry(rng, Number(type))],
            });
            assert.equal(raw.length - 77, size, `type ${type}`);
        }
        // 0d/0e: varint body size, then varint 32 before the identity chain ID.
        const e = encodeAdminBlock({
            prevBackRefHash: new Uint8Array(32),
            dbHeight: 0,
            headerExpansion: new Uint8Array(0),
            entries: [randomEntry(rng, 0x0e)],
        });
        assert.equal(toHex(e.subarray(77, 80)), "0e2320");
    });
    test("empty block: 77-byte header, the factomd TestAdminBlockHash vector", () => {
        const raw = vectorBytes("ablock-factomd-TestAdminBlockHash", "ablockHex");
        const block = decodeAdminBlock(raw);
        assert.equal(raw.length, 77);
        assert.equal(block.dbHeight, 5);
        assert.equal(block.entries.length, 0);
    });
});
describe("admin block rejections", () => {
    const good = vectorBytes("ablock-factomd-static-1", "ablockHex");
    test("every truncation and trailing bytes", () => {
        for (let n = 0; n < good.length; n++)
            expectProtocolError(() => decodeAdminBlock(good.subarray(0, n)), undefined, `length ${n}`);
        expectProtocolError(() => decodeAdminBlock(good.subarray(0, 50)), "TRUNCATED");
        expectProtocolError(() => decodeAdminBlock(concat(good, Uint8Array.of(0))), "TRAILING_BYTES");
    });
    test("wrong chain ID; message count that cannot fit; body bytes left over", () => {
        const bad = good.slice();
        bad[31] = 0x0b;
        expectProtocolError(() => decodeAdminBlock(bad), "BAD_VALUE");
        expectProtocolError(() => decodeAdminBlock(wrap(new Uint8Array(4), 3)), "BAD_VALUE");
        assert.match(expectProtocolError(() => decodeAdminBlock(wrap(Uint8Array.of(0, 1, 0, 2), 1)), "BAD_VALUE").detail, /left after 1 entries/);
    });
    test("sized bodies: overrunning size, wrong 0x20 prefix, leftover bytes in 0c/0d/0e", () => {
        expectProtocolError(() => decodeAdminBlock(wrap(Uint8Array.of(0x0b, 0x05, 1, 2), 1)), "TRUNCATED");
        const id = new Uint8Array(32);
        expectProtocolError(() => decodeAdminBlock(wrap(concat(Uint8Array.of(0x0d, 65, 0x1f), id, id), 1)), "BAD_LENGTH");
        expectProtocolError(() => decodeAdminBlock(wrap(concat(Uint8Array.of(0x0e, 36, 0x20), id, Uint8Array.of(0, 1, 9)), 1)), "TRAILING_BYTES");
        expectProtocolError(() => decodeAdminBlock(wrap(Uint8Array.of(0x0c, 3, 1, 2, 3), 1)), "TRAILING_BYTES");
        expectProtocolError(() => decodeAdminBlock(wrap(Uint8Array.of(0x0c, 1, 1), 1)), "TRUNCATED");
        // 0b outputs must fill the body exactly.
        expectProtocolError(() => decodeAdminBlock(wrap(concat(Uint8Array.of(0x0b, 10, 1), new Uint8Array(9)), 1)), "TRUNCATED");
    });
    test("server fault: a signature count beyond the bytes is TRUNCATED before any allocation", () => {
        const rng = new Random(9);
        const fault = serverFaultBytes(rng, 2);
        const huge = fault.slice(0, 83);
        const withCount = concat(huge.subarray(0, 79), Uint8Array.of(0xff, 0xff, 0xff, 0xff));
        expectProtocolError(() => decodeAdminBlock(wrap(concat(Uint8Array.of(0x0a), withCount), 1)), "TRUNCATED");
        expectProtocolError(() => decodeServerFault(concat(fault, Uint8Array.of(1))), "TRAILING_BYTES");
        expectProtocolError(() => encodeAdminBlock({
            prevBackRefHash: new Uint8Array(32),
            dbHeight: 0,
            headerExpansion: new Uint8Array(0),
            entries: [{ type: 0x0a, raw: fault.subarray(1) }],
        }), undefined);
    });
    test("encoder guards: forward-compatible types below 0x0f, sizes and ranges", () => {
        const base = { prevBackRefHash: new Uint8Array(32), dbHeight: 0, headerExpansion: new Uint8Array(0) };
        assert.equal(FIRST_FORWARD_COMPATIBLE_TYPE, 0x0f);
        expectProtocolError(() => encodeAdminBlock({ ...base, entries: [{ type: 0x05, data: new Uint8Array(0), forwardCompatible: true }] }), "BAD_VALUE");
        expectProtocolError(() => encodeAdminBlock({ ...base, entries: [{ type: 0x100, data: new Uint8Array(0), forwardCompatible: true }] }), "BAD_VALUE");
        expectProtocolError(() => encodeAdminBlock({ ...base, entries: [{ type: 0x00, minute: 256 }] }), "BAD_VALUE");
        expectProtocolError(() => encodeAdminBlock({
            ...base,
            entries: [{ type: 0x02, identityChainId: new Uint8Array(31), hash: new Uint8Array(32) }],
        }), "BAD_LENGTH");
        expectProtocolError(() => encodeAdminBlock({ ...base, dbHeight: -1, entries: [] }), "BAD_VALUE");
        expectProtocolError(() => encodeAdminBlock({ ...base, prevBackRefHash: new Uint8Array(3), entries: [] }), "BAD_LENGTH");
    });
});
describe("admin block JSON", () => {
    /** Keys of each entry type's JSON, in the reference node's order. */
    const KEYS = {
        0: ["adminidtype", "minutenumber"],
        1: ["adminidtype", "identityadminchainid", "prevdbsig"],
        2: ["adminidtype", "identitychainid", "mhash"],
        3: ["adminidtype", "identitychainid", "mhash"],
        4: ["adminidtype", "amount"],
        5: ["adminidtype", "identitychainid", "dbheight"],
        6: ["adminidtype", "identitychainid", "dbheight"],
        7: ["adminidtype", "identitychainid", "dbheight"],
        8: ["adminidtype", "identitychainid", "keypriority", "publickey", "dbheight"],
        9: ["adminidtype", "identitychainid", "keypriority", "keytype", "ecdsapublickey"],
        10: ["adminidtype", "timestamp", "serverid", "auditserverid", "vmindex", "dbheight", "height", "signaturelist"],
        11: ["adminidtype", "Outputs"],
        12: ["adminidtype", "descriptor_height", "DescriptorIndex", "descriptor_index"],
        13: ["adminidtype", "IdentityChainID", "FactoidAddress"],
        14: ["adminidtype", "IdentityChainID", "Efficiency"],
        66: ["adminidtype", "Size", "Data"],
    };
    test("every entry type serialises with the reference's key names", () => {
        const rng = new Random(41);
        for (const [type, keys] of Object.entries(KEYS)) {
            const json = adminEntryJson(randomEntry(rng, Number(type)));
            assert.deepEqual(Object.keys(json), keys, `type ${type}`);
            assert.equal(json.adminidtype, Number(type));
        }
    });
    test("values: signatures, FA addresses of coinbase outputs and authority addresses, base64 for opaque bytes", () => {
        const rng = new Random(42);
        const sig = randomEntry(rng, 0x01);
        assert.deepEqual(adminEntryJson(sig).prevdbsig, { pub: toHex(sig.publicKey), sig: toHex(sig.signature) });
        const address = rng.bytes(32);
        const cb = { type: 0x0b, outputs: [{ amount: 320000000n, address }] };
        assert.deepEqual(adminEntryJson(cb).Outputs, [
            { amount: 320000000, address: toHex(address), useraddress: encodeAddress("FA", address) },
        ]);
        assert.deepEqual(adminEntryJson({ type: 0x0b, outputs: [] }).Outputs, []);
        const fa = randomEntry(rng, 0x0d);
        assert.equal(adminEntryJson(fa).FactoidAddress, toHex(fa.assetAddress));
        assert.deepEqual(adminEntryJson({ type: 0x0c, descriptorHeight: 46460n, descriptorIndex: 8n }), {
            adminidtype: 12,
            descriptor_height: 46460,
            DescriptorIndex: 8,
            descriptor_index: 8,
        });
        assert.deepEqual(adminEntryJson({ type: 0x20, data: Uint8Array.of(1, 2, 3), forwardCompatible: true }), {
            adminidtype: 32,
            Size: 3,
            Data: "AQID",
        });
        const fault = serverFaultBytes(rng, 1);
        const fj = adminEntryJson({ type: 0x0a, raw: fault });
        assert.equal(fj.signaturelist.Length, 1);
        assert.deepEqual(fj.signaturelist.List[0], {
            pub: toHex(fault.subarray(83, 115)),
            sig: toHex(fault.subarray(115, 179)),
        });
    });
    test('header of a real block (mainnet 30895): counts, sizes, chain ids, empty expansion as ""', () => {
        const block = decodeAdminBlock(vectorBytes("ablock-factomjs-json-30895", "reencodedHex"));
        const json = adminBlockJson(block);
        assert.deepEqual(Object.keys(json), ["header", "abentries", "backreferencehash", "lookuphash"]);
        assert.deepEqual(json.header, {
            prevbackrefhash: "ef3b0eeb6ba4553d41db22089b1a1b0bda882250d7bbe3b67fcbfb49f75b35e3",
            dbheight: 30895,
            headerexpansionsize: 0,
            headerexpansionarea: "",
            messagecount: 16,
            bodysize: 1828,
            adminchainid: toHex(ADMIN_CHAIN_ID),
            chainid: toHex(ADMIN_CHAIN_ID),
        });
        assert.equal(json.lookuphash, "8a0a37bd123b0e210eeed8a6cad22fb742bd52d123d9b42af4e9901052a66a0d");
        const efficiency = json.abentries.find((e) => e.adminidtype === 14);
        assert.equal(efficiency.Efficiency, 5000);
        const ecdsa = json.abentries.find((e) => e.adminidtype === 9);
        assert.equal(ecdsa.ecdsapublickey.length, 40);
    });
});
describe("admin block decoder fuzz", () => {
    test("2000 random and mutated inputs: a ProtocolError or a block that re-encodes to the input", () => {
        const rng = new Random(0xabf2);
        const seeds = [
            vectorBytes("ablock-factomd-static-1", "ablockHex"),
            vectorBytes("ablock-factomd-static-3", "ablockHex"),
            vectorBytes("ablock-factomjs-json-30895", "reencodedHex"),
            vectorBytes("ablock-factomjs-json-46523", "reencodedHex"),
            ...Array.from({ length: 6 }, () => encodeAdminBlock(randomBlock(rng))),
        ];
        fuzzDecoder(rng, decodeAdminBlock, {
            seeds,
            cases: 2000,
            onAccept: (block, bytes) => {
                assert.equal(toHex(encodeAdminBlock(block)), toHex(bytes));
                adminBlockJson(block); // every decodable block has a JSON view
            },
        });
    });
});
//# sourceMappingURL=ablock.test.js.map