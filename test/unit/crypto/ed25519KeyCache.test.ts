import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import {
  KEY_CACHE_LIMIT,
  publicKeyCacheSize,
  publicKeyFromSeed,
  signEd25519,
  verifyEd25519,
} from "../../../src/crypto/ed25519.js";

// The public-key cache in front of node:crypto is bounded: hostile input (a flood of distinct keys) cannot
// grow it past KEY_CACHE_LIMIT, a key seen again takes no second place, and eviction never changes an answer.
test("a flood of distinct keys fills the key cache to its limit and no further; answers stay right", () => {
  const seed = new Uint8Array(createHash("sha256").update("key cache").digest());
  const pub = publicKeyFromSeed(seed);
  const msg = new TextEncoder().encode("key cache");
  const sig = signEd25519(seed, msg);
  assert.equal(verifyEd25519(pub, msg, sig), true);

  // 32-byte keys no one else uses (a tag in bytes 4..31), each with a canonical signature that is not its own
  const stranger = new Uint8Array(32).fill(0xa5);
  for (let i = 0; i <= KEY_CACHE_LIMIT; i++) {
    new DataView(stranger.buffer).setUint32(0, i, true);
    assert.equal(verifyEd25519(stranger, msg, sig), false);
    assert.ok(publicKeyCacheSize() <= KEY_CACHE_LIMIT, `after ${i + 1} keys`);
  }
  assert.equal(publicKeyCacheSize(), KEY_CACHE_LIMIT);

  // the newest key again: a cache hit, which evicts nothing
  assert.equal(verifyEd25519(stranger, msg, sig), false);
  assert.equal(publicKeyCacheSize(), KEY_CACHE_LIMIT);

  // the real key was evicted long ago: it is created again and still verifies (and still refuses a forgery)
  assert.equal(verifyEd25519(pub, msg, sig), true);
  assert.equal(verifyEd25519(pub, new TextEncoder().encode("key cachE"), sig), false);
  assert.equal(publicKeyCacheSize(), KEY_CACHE_LIMIT);
});
