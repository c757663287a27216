/**
 * Edges of protocol/bytes.ts that the first mutation run left open (docs/testing.md): the exact errors of
 * fromHex, encodeVarint, the 48-bit timestamp and an over-long varint (what a client reads in `data`),
 * equality of arrays that differ only in length, and byte ordering as Go's bytes.Compare.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ByteReader, ByteWriter, bytesEqual, compareBytes, encodeVarint, fromHex, } from "../../../src/protocol/bytes.js";
import { expectProtocolError } from "../../support/fuzz.js";
/** `fn`'s ProtocolError as "CODE field: detail". */
function errorOf(fn) {
    const e = expectProtocolError(fn);
    return `${e.code} ${e.message}`;
}
describe("bytes: exact errors", () => {
    test("fromHex names the field and the fault", () => {
        assert.equal(errorOf(() => fromHex(5)), "BAD_HEX hex: expected a hex string");
        assert.equal(errorOf(() => fromHex("abc", "chainid")), "BAD_HEX chainid: odd number of hex characters (3)");
        assert.equal(errorOf(() => fromHex("zz", "entry")), "BAD_HEX entry: contains a character that is not hex");
        assert.equal(errorOf(() => fromHex("abcd", "hash", 32)), "BAD_LENGTH hash: expected 64 hex characters, got 4");
        assert.deepEqual(fromHex("aBcD", "x", 2), Uint8Array.of(0xab, 0xcd));
    });
    test("encodeVarint refuses values outside 0..2^64-1, naming the value", () => {
        assert.equal(errorOf(() => encodeVarint(-1n)), "BAD_VARINT varint: value -1 outside 0..2^64-1");
        assert.equal(errorOf(() => encodeVarint(2n ** 64n)), `BAD_VARINT varint: value ${2n ** 64n} outside 0..2^64-1`);
        assert.deepEqual(encodeVarint(2n ** 64n - 1n).length, 10);
    });
    test("a varint of 11 bytes is refused as longer than 10 bytes (not read on)", () => {
        const eleven = Uint8Array.of(...new Array(10).fill(0x81), 0x01);
        assert.equal(errorOf(() => new ByteReader(eleven, "t").varint("v")), "BAD_VARINT t.v: varint at offset 0 longer than 10 bytes");
    });
    test("a timestamp outside 0..2^48-1 ms is refused, naming it", () => {
        assert.equal(errorOf(() => new ByteWriter().u48(2 ** 48)), `BAD_VALUE timestamp: milliseconds ${2 ** 48} outside 0..2^48-1`);
        assert.equal(errorOf(() => new ByteWriter().u48(-1)), "BAD_VALUE timestamp: milliseconds -1 outside 0..2^48-1");
    });
});
describe("bytes: comparison", () => {
    test("bytesEqual: a prefix is not equal, in either order", () => {
        assert.equal(bytesEqual(Uint8Array.of(1), Uint8Array.of(1, 2)), false);
        assert.equal(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1)), false);
        assert.equal(bytesEqual(new Uint8Array(0), Uint8Array.of(0)), false);
        assert.equal(bytesEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2)), true);
    });
    test("compareBytes orders bytewise, a prefix first (Go bytes.Compare)", () => {
        assert.equal(compareBytes(Uint8Array.of(1, 2), Uint8Array.of(1, 3)), -1);
        assert.equal(compareBytes(Uint8Array.of(2), Uint8Array.of(1, 255)), 1);
        assert.equal(compareBytes(Uint8Array.of(1), Uint8Array.of(1, 0)), -1);
        assert.equal(compareBytes(Uint8Array.of(7, 7), Uint8Array.of(7, 7)), 0);
    });
});
//# sourceMappingURL=bytesEdges.test.js.map