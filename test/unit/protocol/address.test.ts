import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  ADDRESS_LENGTH,
  type AddressKind,
  decodeAddress,
  encodeAddress,
  isValidAddress,
  keyPairFromPrivate,
  keyPairFromSeed,
  rcd1,
  rcd1Hash,
} from "../../../src/protocol/address.js";
import { base58Decode, base58Encode } from "../../../src/protocol/base58.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { expectProtocolError } from "../../support/fuzz.js";
import { Random } from "../../support/random.js";

const KINDS: AddressKind[] = ["FA", "Fs", "EC", "Es"];
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** `text` with the character at `i` replaced by a different base58 character. */
function replaceChar(rng: Random, text: string, i: number): string {
  let c = rng.pick([...ALPHABET]);
  while (c === text[i]) c = rng.pick([...ALPHABET]);
  return text.slice(0, i) + c + text.slice(i + 1);
}

describe("addresses (wire-format §3)", () => {
  const rng = new Random(0xadd7);

  test("random 32-byte payloads round-trip under every prefix, 52 characters, prefix letters as named", () => {
    for (let i = 0; i < 300; i++) {
      const key = rng.bytes(32);
      for (const kind of KINDS) {
        const text = encodeAddress(kind, key);
        assert.equal(text.length, ADDRESS_LENGTH);
        assert.ok(text.startsWith(kind), `${kind} address starts with ${kind}: ${text}`);
        const back = decodeAddress(text, kind);
        assert.equal(back.kind, kind);
        assert.deepEqual(back.key, key);
        assert.ok(isValidAddress(text) && isValidAddress(text, kind));
      }
    }
  });

  test("key pairs: FA holds sha256d(01 ‖ pubkey), EC the raw pubkey; private strings give the pair back", () => {
    for (let i = 0; i < 100; i++) {
      const seed = rng.bytes(32);
      const fa = keyPairFromSeed("FA", seed);
      const ec = keyPairFromSeed("EC", seed);
      assert.deepEqual(fa.publicKey, ec.publicKey);
      assert.deepEqual(decodeAddress(fa.publicAddress, "FA").key, rcd1Hash(fa.publicKey));
      assert.deepEqual(rcd1(fa.publicKey), Uint8Array.from([1, ...fa.publicKey]));
      assert.deepEqual(rcd1Hash(fa.publicKey), sha256(sha256(rcd1(fa.publicKey))));
      assert.deepEqual(decodeAddress(ec.publicAddress, "EC").key, ec.publicKey);
      assert.deepEqual(keyPairFromPrivate(fa.privateAddress), fa);
      assert.deepEqual(keyPairFromPrivate(ec.privateAddress), ec);
    }
  });

  test("a changed checksum character is BAD_CHECKSUM", () => {
    for (let i = 0; i < 200; i++) {
      const text = encodeAddress(rng.pick(KINDS), rng.bytes(32));
      const bad = replaceChar(rng, text, rng.int(47, 51));
      const e = expectProtocolError(() => decodeAddress(bad), undefined, bad);
      assert.ok(e.code === "BAD_CHECKSUM" || e.code === "BAD_LENGTH", `${bad}: ${e.code}`);
      assert.equal(isValidAddress(bad), false);
    }
  });

  test("any changed character makes the address invalid", () => {
    for (let i = 0; i < 300; i++) {
      const text = encodeAddress(rng.pick(KINDS), rng.bytes(32));
      const bad = replaceChar(rng, text, rng.int(0, 51));
      expectProtocolError(() => decodeAddress(bad), undefined, bad);
    }
  });

  test("the wrong kind is BAD_PREFIX; a public key string is not a private key", () => {
    const key = rng.bytes(32);
    expectProtocolError(() => decodeAddress(encodeAddress("FA", key), "EC"), "BAD_PREFIX");
    expectProtocolError(() => decodeAddress(encodeAddress("Es", key), "Fs"), "BAD_PREFIX");
    expectProtocolError(() => keyPairFromPrivate(encodeAddress("EC", key)), "BAD_PREFIX");
    // A well-formed string (length, checksum) under a prefix that is none of the four.
    const body = Uint8Array.from([0x5f, 0xb2, ...key]);
    const unknownPrefix = base58Encode(Uint8Array.from([...body, ...sha256(sha256(body)).subarray(0, 4)]));
    assert.equal(unknownPrefix.length, 52);
    expectProtocolError(() => decodeAddress(unknownPrefix), "BAD_PREFIX");
  });

  test("wrong lengths and non-strings are refused", () => {
    const text = encodeAddress("EC", rng.bytes(32));
    expectProtocolError(() => decodeAddress(text.slice(0, 51)), "BAD_LENGTH");
    expectProtocolError(() => decodeAddress(`${text}1`), "BAD_LENGTH");
    expectProtocolError(() => decodeAddress(""), "BAD_LENGTH");
    expectProtocolError(() => decodeAddress(42 as unknown as string), "BAD_VALUE");
    expectProtocolError(() => encodeAddress("FA", new Uint8Array(31)), "BAD_LENGTH");
    expectProtocolError(() => decodeAddress(`0${text.slice(1)}`), "BAD_VALUE", "'0' is not base58");
  });

  test("base58 round-trips random bytes, leading zeros included", () => {
    for (let i = 0; i < 300; i++) {
      const bytes = Uint8Array.from([...new Uint8Array(rng.int(0, 3)), ...rng.bytes(rng.int(0, 40))]);
      assert.equal(toHex(base58Decode(base58Encode(bytes), "t")), toHex(bytes));
    }
  });

  test("base58 decodes any string of the alphabet as the number it spells (a BigInt reference)", () => {
    const reference = (text: string): string => {
      let n = 0n;
      for (const c of text) n = n * 58n + BigInt(ALPHABET.indexOf(c));
      const hex = n === 0n ? "" : n.toString(16);
      const zeros = text.length - text.replace(/^1+/, "").length;
      return "00".repeat(zeros) + (hex.length % 2 === 1 ? `0${hex}` : hex);
    };
    for (const text of ["", "1", "111", "2", "z", "1z", "5Q", "5R", "LUw", "zzzzzzzzzzzzzzzzzzzz"])
      assert.equal(toHex(base58Decode(text, "t")), reference(text), text);
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: rng.int(0, 60) }, () => ALPHABET[rng.int(0, 57)]!).join("");
      assert.equal(toHex(base58Decode(text, "t")), reference(text), text);
    }
    const emoji = expectProtocolError(() => base58Decode("ab\u{1F600}c", "t"), "BAD_VALUE", "emoji");
    assert.match(emoji.message, /'\u{1F600}' is not a base58 character/u);
    assert.match(expectProtocolError(() => base58Decode("abé", "t"), "BAD_VALUE").message, /'é' is not a base58/);
  });

  test("fuzz: random and mutated strings are valid addresses or ProtocolErrors, nothing else", () => {
    const chars = `${ALPHABET}0OIl+/= é`;
    const seeds = KINDS.map((k) => encodeAddress(k, rng.bytes(32)));
    let accepted = 0;
    for (let i = 0; i < 2000; i++) {
      let text: string;
      if (i % 2 === 0) {
        const n = rng.chance(0.5) ? 52 : rng.int(0, 60);
        text = Array.from({ length: n }, () => rng.pick([...chars])).join("");
      } else {
        text = rng.pick(seeds);
        for (let k = rng.int(1, 3); k > 0; k--) {
          const at = rng.int(0, text.length - 1);
          text = text.slice(0, at) + rng.pick([...chars]) + text.slice(at + rng.int(0, 1));
        }
      }
      try {
        const { kind, key } = decodeAddress(text);
        assert.equal(encodeAddress(kind, key), text, "an accepted string is the canonical encoding");
        accepted++;
      } catch (e) {
        assert.ok(e instanceof ProtocolError, `case ${i} "${text}": ${String(e)}`);
      }
    }
    assert.ok(accepted < 2000);
  });
});
