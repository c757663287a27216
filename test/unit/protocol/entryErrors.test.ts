/**
 * The exact errors of protocol/entry.ts (what a client reads in `data`), which the first mutation run found
 * unchecked: the size limit on both sides (marshal, unmarshal, cost), the version, an ext ID length cut
 * inside its section, and the smallest entry the cost rule accepts.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { fromHex } from "../../../src/protocol/bytes.js";
import { entryCreditCost, entryKSize, marshalEntry, unmarshalEntry } from "../../../src/protocol/entry.js";
import { expectProtocolError } from "../../support/fuzz.js";

/** `fn`'s ProtocolError as "CODE field: detail". */
function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

const chainId = new Uint8Array(32).fill(7);

describe("entry errors", () => {
  test("the payload limit is named with the payload's size, on every side", () => {
    const over = { version: 0, chainId, extIds: [], content: new Uint8Array(10241) };
    assert.equal(
      errorOf(() => marshalEntry(over)),
      "TOO_LARGE entry: payload is 10241 bytes, the limit is 10240",
    );
    assert.equal(
      errorOf(() => unmarshalEntry(new Uint8Array(35 + 10241))),
      "TOO_LARGE entry: payload is 10241 bytes, the limit is 10240",
    );
    assert.equal(
      errorOf(() => entryCreditCost(35 + 10242, false)),
      "TOO_LARGE entry: payload is 10242 bytes, the limit is 10240",
    );
  });

  test("version, an ext ID length cut inside its section, and the smallest entry", () => {
    const v = marshalEntry({ version: 0, chainId, extIds: [], content: new Uint8Array(0) });
    v[0] = 1;
    assert.equal(
      errorOf(() => unmarshalEntry(v)),
      "BAD_VERSION entry.version: expected 0, got 1",
    );
    // an ext ID section of 3 bytes: one ext ID of length 0, then a length with one byte
    const cut = fromHex(`00${"07".repeat(32)}0003000001`);
    assert.equal(
      errorOf(() => unmarshalEntry(cut)),
      "TRUNCATED entry.extids[1] length: needs 2 byte(s) at offset 2, only 1 left",
    );
    assert.equal(
      errorOf(() => entryKSize(34)),
      "BAD_LENGTH entry: a marshalled entry has at least 35 bytes, got 34",
    );
    assert.equal(entryKSize(35), 0);
  });
});
