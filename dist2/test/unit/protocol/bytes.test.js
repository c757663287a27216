import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ByteReader, ByteWriter, encodeVarint, fromHex, toHex, U48_MAX, U64_MAX, varintSize, } from "../../../src/protocol/bytes.js";
import { expectProtocolError, fuzzDecoder } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";
const readVarint = (bytes) => {
    const r = new ByteReader(bytes, "test");
    const v = r.varint("v");
    r.end();
    return v;
};
describe("varint (wire-format §0.2)", () => {
    // Every example of wire-format §0.2.
    const examples = [
        [0n, "00"],
        [127n, "7f"],
        [128n, "8100"],
        [130n, "8102"],
        [65535n, "83ff7f"],
        [65536n, "848000"],
        [2n ** 32n, "9080808000"],
        [14000000n, "86d6bf00"],
        [U64_MAX, "81ffffffffffffffff7f"],
    ];
    test("encodes and decodes the documented examples", () => {
        for (const [value, hex] of examples) {
            assert.equal(toHex(encodeVarint(value)), hex, `encode ${value}`);
            assert.equal(readVarint(fromHex(hex)), value, `decode ${hex}`);
            assert.equal(varintSize(value), hex.length / 2);
        }
    });
    test("length bands: 7 bits per byte, 10 bytes above 2^63-1", () => {
        for (let bytes = 1; bytes <= 9; bytes++) {
            const top = 2n ** BigInt(7 * bytes) - 1n;
            assert.equal(encodeVarint(top).length, bytes, `2^${7 * bytes}-1`);
            assert.equal(encodeVarint(top + 1n).length, bytes + 1, `2^${7 * bytes}`);
        }
    });
    test("random values round-trip, at every bit length", () => {
        const rng = new Random(0x5eed01);
        for (let i = 0; i < 640; i++) {
            const bits = BigInt(i % 64) + 1n;
            const value = rng.u64() & ((1n << bits) - 1n);
            const enc = encodeVarint(value);
            assert.equal(enc.length, varintSize(value));
            assert.equal(readVarint(enc), value, `seed ${rng.seed} value ${value}`);
            assert.equal(enc.at(-1) & 0x80, 0, "last byte has the continuation bit clear");
            for (const b of enc.subarray(0, -1))
                assert.equal(b & 0x80, 0x80);
        }
    });
    test("non-minimal encodings are rejected (BAD_VARINT)", () => {
        for (const hex of ["8001", "8000", "808001", "807f", "80808080808080808001"])
            expectProtocolError(() => readVarint(fromHex(hex)), "BAD_VARINT", hex);
    });
    test("values above 2^64-1 and runs longer than 10 bytes are rejected", () => {
        expectProtocolError(() => readVarint(fromHex("82808080808080808000")), "BAD_VARINT", "2^64");
        expectProtocolError(() => readVarint(fromHex("ffffffffffffffffff7f")), "BAD_VARINT", "10 bytes over 64 bits");
        expectProtocolError(() => readVarint(fromHex("8181818181818181818101")), "BAD_VARINT", "11 bytes");
    });
    test("unterminated varints are TRUNCATED, naming the field", () => {
        const e = expectProtocolError(() => readVarint(fromHex("8181")), "TRUNCATED");
        assert.equal(e.field, "test.v");
        expectProtocolError(() => readVarint(new Uint8Array(0)), "TRUNCATED");
    });
    test("encoding refuses negative values and values above 2^64-1", () => {
        expectProtocolError(() => encodeVarint(-1), "BAD_VARINT");
        expectProtocolError(() => encodeVarint(U64_MAX + 1n), "BAD_VARINT");
    });
    test("fuzz: every accepted varint is the canonical encoding of its value", () => {
        const rng = new Random(0x5eed02);
        const seeds = [encodeVarint(0), encodeVarint(300), encodeVarint(U64_MAX), encodeVarint(2n ** 40n)];
        const accepted = fuzzDecoder(rng, (b) => [readVarint(b)], {
            seeds,
            maxRandomLength: 12,
            onAccept: ([v], bytes) => assert.deepEqual(encodeVarint(v), bytes),
        });
        assert.ok(accepted > 0);
    });
});
describe("fixed-width integers", () => {
    test("u8/u16/u32/u64/u48 round-trip big-endian", () => {
        const rng = new Random(0x5eed03);
        for (let i = 0; i < 300; i++) {
            const a = rng.int(0, 255);
            const b = rng.int(0, 0xffff);
            const c = rng.u32();
            const d = rng.u64();
            const e = rng.int(0, U48_MAX);
            const bytes = new ByteWriter(1).u8(a).u16(b).u32(c).u64(d).u48(e).finish();
            assert.equal(bytes.length, 1 + 2 + 4 + 8 + 6);
            const r = new ByteReader(bytes, "t");
            assert.equal(r.u8("a"), a);
            assert.equal(r.u16("b"), b);
            assert.equal(r.u32("c"), c);
            assert.equal(r.u64("d"), d);
            assert.equal(r.u48("e"), e);
            r.end();
        }
    });
    test("u48 is the 6-byte big-endian millisecond timestamp", () => {
        assert.equal(toHex(new ByteWriter().u48(1523151053000).finish()), "0162a2e0a0c8");
        assert.equal(toHex(new ByteWriter().u48(U48_MAX).finish()), "ffffffffffff");
        assert.equal(new ByteReader(fromHex("0162a2e0a0c8"), "t").u48("ms"), 1523151053000);
    });
    test("u48 refuses values outside 0..2^48-1 and non-integers", () => {
        for (const bad of [-1, U48_MAX + 1, 1.5, Number.NaN])
            expectProtocolError(() => new ByteWriter().u48(bad), "BAD_VALUE", String(bad));
    });
    test("reads past the end are TRUNCATED naming context and field; leftovers are TRAILING_BYTES", () => {
        const r = new ByteReader(fromHex("0102"), "thing");
        const e = expectProtocolError(() => r.u32("count"), "TRUNCATED");
        assert.equal(e.field, "thing.count");
        assert.equal(r.u8("x"), 1);
        expectProtocolError(() => r.end(), "TRAILING_BYTES");
        expectProtocolError(() => new ByteReader(new Uint8Array(5), "t").u48("ms"), "TRUNCATED");
        expectProtocolError(() => new ByteReader(new Uint8Array(7), "t").u64("n"), "TRUNCATED");
    });
    test("the writer grows past its initial capacity", () => {
        const rng = new Random(0x5eed04);
        const parts = Array.from({ length: 50 }, () => rng.bytes(rng.int(0, 100)));
        const w = new ByteWriter(1);
        for (const p of parts)
            w.bytes(p);
        assert.deepEqual(w.finish(), Uint8Array.from(parts.flatMap((p) => [...p])));
    });
});
describe("hex", () => {
    test("lowercase out, either case in", () => {
        assert.equal(toHex(fromHex("ABcd01")), "abcd01");
        assert.equal(toHex(new Uint8Array(0)), "");
    });
    test("bad hex is refused naming the field", () => {
        assert.equal(expectProtocolError(() => fromHex("abc", "message"), "BAD_HEX").field, "message");
        expectProtocolError(() => fromHex("zz"), "BAD_HEX");
        expectProtocolError(() => fromHex("0x00"), "BAD_HEX");
        expectProtocolError(() => fromHex(undefined), "BAD_HEX");
        expectProtocolError(() => fromHex("00", "hash", 32), "BAD_LENGTH");
    });
});
//# sourceMappingURL=bytes.test.js.map