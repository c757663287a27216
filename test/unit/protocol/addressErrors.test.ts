/**
 * The exact errors of address handling (what a client reads in `data`), which the first mutation run of
 * protocol/address.ts found unchecked: each rule of decodeAddress, encodeAddress and keyPairFromPrivate.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { decodeAddress, encodeAddress, keyPairFromPrivate } from "../../../src/protocol/address.js";
import { base58Encode } from "../../../src/protocol/base58.js";
import { concat } from "../../../src/protocol/bytes.js";
import { expectProtocolError } from "../../support/fuzz.js";

const FA = "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q";
const FS = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";

/** `fn`'s ProtocolError as "CODE field: detail". */
function errorOf(fn: () => unknown): string {
  const e = expectProtocolError(fn);
  return `${e.code} ${e.message}`;
}

describe("address errors", () => {
  test("decodeAddress names each rule, with the caller's field name", () => {
    assert.equal(
      errorOf(() => decodeAddress(7 as unknown as string)),
      "BAD_VALUE address: expected an address string",
    );
    assert.equal(
      errorOf(() => decodeAddress(FA.slice(1), undefined, "to")),
      "BAD_LENGTH to: expected 52 characters, got 51",
    );
    // 52 characters of base58 that are not 38 bytes: each leading "1" is a zero byte
    assert.equal(
      errorOf(() => decodeAddress("1".repeat(52))),
      "BAD_LENGTH address: decodes to 52 bytes, expected 38",
    );
    const unknownPrefix = base58Encode(concat(Uint8Array.of(0xfe, 0xfe), new Uint8Array(36).fill(0xfe)));
    assert.equal(unknownPrefix.length, 52);
    assert.equal(
      errorOf(() => decodeAddress(unknownPrefix)),
      "BAD_PREFIX address: unknown address prefix",
    );
    assert.equal(
      errorOf(() => decodeAddress(FA, "EC")),
      "BAD_PREFIX address: expected an EC address, got FA",
    );
    const flipped = FA.slice(0, 51) + (FA[51] === "Q" ? "R" : "Q");
    assert.equal(
      errorOf(() => decodeAddress(flipped)),
      "BAD_CHECKSUM address: address checksum does not match",
    );
    assert.equal(
      errorOf(() => decodeAddress(`0${FA.slice(1)}`, undefined, "from")),
      "BAD_VALUE from: '0' is not a base58 character",
    );
  });

  test("encodeAddress needs a 32-byte payload", () => {
    assert.equal(
      errorOf(() => encodeAddress("FA", new Uint8Array(31))),
      "BAD_LENGTH address: payload must be 32 bytes, got 31",
    );
  });

  test("keyPairFromPrivate takes Fs or Es only, and gives the matching public kind", () => {
    assert.equal(
      errorOf(() => keyPairFromPrivate(FA)),
      "BAD_PREFIX private key: expected Fs or Es, got FA",
    );
    assert.equal(
      errorOf(() => keyPairFromPrivate("x")),
      "BAD_LENGTH private key: expected 52 characters, got 1",
    );
    assert.ok(keyPairFromPrivate(FS).publicAddress.startsWith("FA"));
  });
});
