/** Decoded addresses remembered by text: the same key as decoding, errors never remembered, kinds apart, bounded. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { encodeAddress } from "../../../src/protocol/address.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { AddressCache } from "../../../src/rpc/addressCache.js";
import { RpcError } from "../../../src/rpc/errors.js";
import { addressFromText } from "../../../src/rpc/params.js";

const key = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + n) & 0xff);

test("a remembered address gives the key decoding gives, and the same object again", () => {
  const cache = new AddressCache(8);
  const fa = encodeAddress("FA", key(1));
  const first = cache.key(fa, "address", "FA");
  assert.equal(toHex(first), toHex(addressFromText(fa, "address", "FA", true)));
  assert.equal(cache.key(fa, "address", "FA"), first);
  // 64 hex characters are accepted as a key, as addressFromText does
  assert.equal(toHex(cache.key(toHex(key(2)), "address", "EC")), toHex(key(2)));
});

test("a malformed or wrong-kind address throws the same error every time", () => {
  const cache = new AddressCache(8);
  const fa = encodeAddress("FA", key(3));
  const bad = `${fa.slice(0, -1)}${fa.endsWith("1") ? "2" : "1"}`;
  for (let i = 0; i < 2; i++) {
    assert.throws(
      () => cache.key(bad, "address", "FA"),
      (e: unknown) => e instanceof RpcError && /checksum/.test(String(e.data)),
    );
    // a valid FA address asked as EC is refused even after it was remembered as FA
    cache.key(fa, "address", "FA");
    assert.throws(() => cache.key(fa, "address", "EC"), RpcError);
  }
});

test("holds at most its size, the least recently used leaving first", () => {
  const cache = new AddressCache(2);
  const [a, b, c] = [1, 2, 3].map((n) => encodeAddress("EC", key(n)));
  const ka = cache.key(a!, "address", "EC");
  cache.key(b!, "address", "EC");
  assert.equal(cache.key(a!, "address", "EC"), ka); // a used again: b is now the oldest
  cache.key(c!, "address", "EC"); // evicts b
  assert.equal(cache.key(a!, "address", "EC"), ka);
  const kb = cache.key(b!, "address", "EC");
  assert.notEqual(kb, undefined);
  assert.equal(toHex(kb), toHex(key(2)));
});
