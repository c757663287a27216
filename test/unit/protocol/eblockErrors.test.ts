/**
 * Edges of protocol/eblock.ts that the mutation run of 054f450 left open (docs/testing.md): the exact errors
 * of minuteMarker, a bodyMR of the wrong size and a stored bodyMR that is not the body's root; markerMinute
 * on items that are not markers (a 33-byte item, a 32-byte item ending in 0 or 11..255); the u32 fields at
 * their maximum.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { toHex } from "../../../src/protocol/bytes.js";
import {
  buildEntryBlock,
  decodeEntryBlock,
  type EntryBlock,
  encodeEntryBlock,
  encodeEntryBlockHeader,
  entriesWithMinutes,
  markerMinute,
  minuteMarker,
} from "../../../src/protocol/eblock.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { merkleRoot } from "../../../src/protocol/merkle.js";
import { expectProtocolError } from "../../support/fuzz.js";

function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

const h = (label: string): Uint8Array => sha256(new TextEncoder().encode(label));

function block(overrides: Partial<Omit<EntryBlock, "bodyMR">> = {}): EntryBlock {
  return buildEntryBlock({
    chainId: h("chain"),
    prevKeyMR: h("prev key"),
    prevFullHash: h("prev full"),
    sequence: 3,
    dbHeight: 40,
    items: [h("e1"), minuteMarker(2), h("e2"), minuteMarker(10)],
    ...overrides,
  });
}

/** A 32-byte item of zeros ending in `last`. */
function endingIn(last: number): Uint8Array {
  const item = new Uint8Array(32);
  item[31] = last;
  return item;
}

describe("entry block edges", () => {
  test("minuteMarker refuses 0 and 11 with the exact error", () => {
    assert.equal(
      errorOf(() => minuteMarker(0)),
      "BAD_VALUE minute: must be 1..10, got 0",
    );
    assert.equal(
      errorOf(() => minuteMarker(11)),
      "BAD_VALUE minute: must be 1..10, got 11",
    );
    assert.deepEqual(minuteMarker(10), endingIn(10));
  });

  test("markerMinute: only 32 bytes of zeros ending in 1..10 are markers", () => {
    for (let m = 1; m <= 10; m++) assert.equal(markerMinute(endingIn(m)), m);
    for (const last of [0, 11, 12, 0x80, 0xff]) assert.equal(markerMinute(endingIn(last)), 0, `ends in ${last}`);
    const longer = new Uint8Array(33);
    longer[31] = 5;
    assert.equal(markerMinute(longer), 0, "33 bytes whose byte 31 is 5");
    const withNonZero = endingIn(5);
    withNonZero[0] = 1;
    assert.equal(markerMinute(withNonZero), 0);
    // an entry hash ending in 11 is an entry, not a marker: it takes the minute of the marker after it
    const hashLike = endingIn(11);
    const minutes = entriesWithMinutes({ items: [hashLike, minuteMarker(4)] });
    assert.deepEqual(
      minutes.map((e) => [e.index, e.minute]),
      [[0, 4]],
    );
  });

  test("sequence and height encode at the u32 maximum and refuse one more", () => {
    for (const field of ["sequence", "dbHeight"] as const) {
      const raw = encodeEntryBlock(block({ [field]: 0xffffffff }));
      assert.equal(decodeEntryBlock(raw)[field], 0xffffffff);
      assert.equal(
        errorOf(() => encodeEntryBlock(block({ [field]: 0x1_0000_0000 }))),
        `BAD_VALUE entry block.${field.toLowerCase()}: must be a u32, got 4294967296`,
      );
    }
  });

  test("a bodyMR of the wrong size and one that is not the body's root: the exact errors", () => {
    const b = block();
    assert.equal(
      errorOf(() => encodeEntryBlockHeader({ ...b, bodyMR: new Uint8Array(31) })),
      "BAD_LENGTH entry block.bodymr: expected 32 bytes, got 31",
    );
    const wrong = h("not the root");
    const raw = encodeEntryBlock({ ...b, bodyMR: wrong });
    assert.equal(
      errorOf(() => decodeEntryBlock(raw)),
      `BAD_VALUE entry block.bodymr: stored ${toHex(wrong)} is not the body's Merkle root ${toHex(merkleRoot(b.items))}`,
    );
    assert.deepEqual(decodeEntryBlock(raw, { verifyBodyMR: false }).bodyMR, wrong);
  });
});
