/** Decoded addresses remembered by text: the same key as decoding, its hex, errors never remembered, kinds apart, bounded. */
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
  const first = cache.known(fa, "address", "FA").key;
  assert.equal(toHex(first), toHex(addressFromText(fa, "address", "FA", true)));
  assert.equal(cache.known(fa, "address", "FA").key, first);
  // 64 hex characters are accepted as a key, as addressFromText does
  assert.equal(toHex(cache.known(toHex(key(2)), "address", "EC").key), toHex(key(2)));
});

test("a malformed or wrong-kind address throws the same error every time", () => {
  const cache = new AddressCache(8);
  const fa = encodeAddress("FA", key(3));
  const bad = `${fa.slice(0, -1)}${fa.endsWith("1") ? "2" : "1"}`;
  for (let i = 0; i < 2; i++) {
    assert.throws(
      () => cache.known(bad, "address", "FA").key,
      (e: unknown) => e instanceof RpcError && /checksum/.test(String(e.data)),
    );
    // a valid FA address asked as EC is refused even after it was remembered as FA
    cache.known(fa, "address", "FA");
    assert.throws(() => cache.known(fa, "address", "EC").key, RpcError);
  }
});

test("the hex is the key's, in lower case, also for a key given in upper-case hex", () => {
  const cache = new AddressCache(8);
  const ec = encodeAddress("EC", key(4));
  assert.deepEqual(cache.known(ec, "address", "EC").hex, toHex(key(4)));
  const upper = toHex(key(5)).toUpperCase();
  const k = cache.known(upper, "address", "FA");
  assert.equal(k.hex, toHex(key(5)));
  assert.equal(toHex(k.key), k.hex);
});

test("holds at most its size per kind in two generations: one used again since the last turnover stays", () => {
  const cache = new AddressCache(4); // two generations of 2
  const [a, b, c, d] = [1, 2, 3, 4].map((n) => encodeAddress("EC", key(n)));
  const ka = cache.known(a!, "address", "EC");
  const kb = cache.known(b!, "address", "EC");
  cache.known(c!, "address", "EC"); // young full: a and b become the old generation
  assert.equal(cache.known(a!, "address", "EC"), ka); // found in the old generation, moved to the young one
  cache.known(d!, "address", "EC"); // young (c, a) full: it becomes the old one, b is dropped
  assert.equal(cache.known(a!, "address", "EC"), ka);
  const kb2 = cache.known(b!, "address", "EC");
  assert.notEqual(kb2, kb, "b was dropped and decoded again");
  assert.equal(kb2.hex, kb.hex);
  // the other kind has generations of its own: FA addresses do not push EC ones out
  for (let n = 10; n < 20; n++) cache.known(encodeAddress("FA", key(n)), "address", "FA");
  assert.equal(cache.known(b!, "address", "EC"), kb2);
});

test("a size of 1 still remembers the last address", () => {
  const cache = new AddressCache(1);
  const a = encodeAddress("FA", key(7));
  const ka = cache.known(a, "address", "FA");
  assert.equal(cache.known(a, "address", "FA"), ka);
});
