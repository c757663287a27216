/**
 * Caches registered with idleRelease.ts hold nothing once released, and answer as before: the ledger's cache
 * of decoded blocks decodes again, the rpc layer's kept entry answers are built again.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { releaseIdleCaches } from "../../src/idleRelease.js";
import { DecodedBlockCache } from "../../src/ledger/decodedBlockCache.js";
import { AnswerCache } from "../../src/rpc/answerCache.js";

test("a released block cache holds nothing and decodes the same block again", () => {
  const cache = new DecodedBlockCache<{ len: number }>({ maxBlocks: 4, maxRawBytes: 1000 });
  let decodes = 0;
  const decode = (raw: Uint8Array) => {
    decodes++;
    return { len: raw.length };
  };
  const before = cache.get("a", new Uint8Array(10), decode);
  assert.ok(releaseIdleCaches() >= 1);
  assert.equal(cache.peek("a"), undefined);
  const after = cache.get("a", new Uint8Array(10), decode);
  assert.deepEqual(after, before);
  assert.equal(decodes, 2);
});

test("a released answer cache keeps no answer and keeps new ones again", () => {
  const cache = new AnswerCache<{ heldBytes: number }>(1 << 20);
  cache.set("k", { heldBytes: 10 });
  releaseIdleCaches();
  assert.equal(cache.get("k"), undefined);
  assert.deepEqual(cache.size, { answers: 0, bytes: 0 });
  const again = { heldBytes: 10 };
  cache.set("k", again);
  assert.equal(cache.get("k"), again);
});

test("every live registered cache is released, and the count says how many", () => {
  const caches = [1, 2, 3].map(() => new DecodedBlockCache<number>({ maxBlocks: 2, maxRawBytes: 100 }));
  for (const c of caches) c.get("x", new Uint8Array(1), () => 1);
  assert.ok(releaseIdleCaches() >= caches.length);
  for (const c of caches) assert.equal(c.peek("x"), undefined);
});

test("a released block cache counts its bytes from zero again: a full budget fits after the release", () => {
  const cache = new DecodedBlockCache<number>({ maxBlocks: 10, maxRawBytes: 100 });
  cache.get("old1", new Uint8Array(60), () => 1);
  cache.get("old2", new Uint8Array(40), () => 2);
  releaseIdleCaches();
  // 100 bytes again, in two blocks: both kept only if the released blocks' 100 bytes no longer count
  cache.get("new1", new Uint8Array(50), () => 3);
  cache.get("new2", new Uint8Array(50), () => 4);
  assert.equal(cache.peek("new1"), 3);
  assert.equal(cache.peek("new2"), 4);
});
