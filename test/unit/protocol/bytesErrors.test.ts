/**
 * Edges of protocol/bytes.ts that the first mutation run left open (docs/testing.md): the exact errors of
 * fromHex, encodeVarint, the 48-bit timestamp (both ends) and over-long, non-minimal and too large varints
 * (what a client reads in `data`), equality of arrays that differ only in length, and byte ordering as Go's
 * bytes.Compare.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  ByteReader,
  ByteWriter,
  bytesEqual,
  compareBytes,
  encodeVarint,
  fromHex,
} from "../../../src/protocol/bytes.js";
import { expectProtocolError } from "../../support/fuzz.js";

/** `fn`'s ProtocolError as "CODE field: detail". */
function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

describe("bytes: exact errors", () => {
  test("fromHex names the field and the fault", () => {
    assert.equal(
      errorOf(() => fromHex(5 as unknown as string)),
      "BAD_HEX hex: expected a hex string",
    );
    assert.equal(
      errorOf(() => fromHex("abc", "chainid")),
      "BAD_HEX chainid: odd number of hex characters (3)",
    );
    assert.equal(
      errorOf(() => fromHex("zz", "entry")),
      "BAD_HEX entry: contains a character that is not hex",
    );
    assert.equal(
      errorOf(() => fromHex("abcd", "hash", 32)),
      "BAD_LENGTH hash: expected 64 hex characters, got 4",
    );
    assert.deepEqual(fromHex("aBcD", "x", 2), Uint8Array.of(0xab, 0xcd));
  });

  test("encodeVarint refuses values outside 0..2^64-1, naming the value", () => {
    assert.equal(
      errorOf(() => encodeVarint(-1n)),
      "BAD_VARINT varint: value -1 outside 0..2^64-1",
    );
    assert.equal(
      errorOf(() => encodeVarint(2n ** 64n)),
      `BAD_VARINT varint: value ${2n ** 64n} outside 0..2^64-1`,
    );
    assert.deepEqual(encodeVarint(2n ** 64n - 1n).length, 10);
  });

  test("a varint of 11 bytes is refused as longer than 10 bytes (not read on)", () => {
    const eleven = Uint8Array.of(...new Array(10).fill(0x81), 0x01);
    assert.equal(
      errorOf(() => new ByteReader(eleven, "t").varint("v")),
      "BAD_VARINT t.v: varint at offset 0 longer than 10 bytes",
    );
  });

  test("a non-minimal varint and one above 2^64-1 are refused, naming the field", () => {
    assert.equal(
      errorOf(() => new ByteReader(Uint8Array.of(0x80, 0x01), "tx").varint("amount")),
      "BAD_VARINT tx.amount: non-minimal varint (leading 0x80 group)",
    );
    // 10 groups: 2 · 2^63 + … > 2^64 - 1
    const above = Uint8Array.of(0x82, ...new Array(8).fill(0xff), 0x7f);
    assert.equal(
      errorOf(() => new ByteReader(above, "tx").varint("amount")),
      "BAD_VARINT tx.amount: varint exceeds 2^64-1",
    );
  });

  test("a timestamp outside 0..2^48-1 ms is refused, naming it; 0 and 2^48-1 are written", () => {
    assert.deepEqual(new ByteWriter().u48(0).finish(), new Uint8Array(6));
    assert.deepEqual(new ByteWriter().u48(2 ** 48 - 1).finish(), new Uint8Array(6).fill(0xff));
    assert.equal(
      errorOf(() => new ByteWriter().u48(2 ** 48)),
      `BAD_VALUE timestamp: milliseconds ${2 ** 48} outside 0..2^48-1`,
    );
    assert.equal(
      errorOf(() => new ByteWriter().u48(-1)),
      "BAD_VALUE timestamp: milliseconds -1 outside 0..2^48-1",
    );
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
