/**
 * The open block's digest tables (digestIndex.ts; docs/testing.md §Mutation testing): dense ids in the order
 * keys were added, the same id for a key added again, -1 for a key not held or not 32 bytes, the caller's value
 * per id, keys that stay readable, and every key still found after the table has grown many times — including
 * keys that share their first 8 bytes (the bytes the probe start is mixed from) and differ only at the end.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { toHex } from "../../../src/protocol/bytes.js";
import { DigestIndex } from "../../../src/protocol/digestIndex.js";

function digest(i: number): Uint8Array {
  return createHash("sha256").update(`key ${i}`).digest();
}

test("ids are dense in the order keys were added; a key added again keeps its id", () => {
  const t = new DigestIndex();
  assert.equal(t.size, 0);
  assert.equal(t.find(digest(0)), -1);
  assert.equal(t.add(digest(0)), 0);
  assert.equal(t.add(digest(1)), 1);
  assert.equal(t.add(Uint8Array.from(digest(0))), 0, "the bytes decide, not the array");
  assert.equal(t.size, 2);
  assert.equal(t.find(digest(1)), 1);
  assert.equal(t.find(digest(2)), -1);
  assert.equal(toHex(t.key(1)), toHex(digest(1)));
  assert.equal(t.value(1), 0, "a new id's value is 0");
  t.setValue(1, 77);
  t.setValue(0, -5);
  assert.equal(t.value(1), 77);
  assert.equal(t.value(0), -5);
  assert.equal(t.add(digest(1)), 1);
  assert.equal(t.value(1), 77, "adding a held key keeps its value");
});

test("a key that is not 32 bytes is never found and cannot be added", () => {
  const t = new DigestIndex();
  t.add(digest(3));
  assert.equal(t.find(digest(3).subarray(0, 31)), -1);
  assert.equal(t.find(new Uint8Array(33)), -1);
  assert.equal(t.find(new Uint8Array(0)), -1);
  assert.throws(() => t.add(new Uint8Array(31)), /32 bytes, got 31/);
  assert.equal(t.size, 1);
});

test("every key is found after the table has grown, with its value and bytes", () => {
  const t = new DigestIndex(1);
  const n = 20_000;
  for (let i = 0; i < n; i++) t.setValue(t.add(digest(i)), i * 3);
  assert.equal(t.size, n);
  for (let i = 0; i < n; i++) {
    const id = t.find(digest(i));
    assert.equal(id, i);
    if (t.value(id) !== i * 3 || toHex(t.key(id)) !== toHex(digest(i))) assert.fail(`key ${i}`);
  }
  for (let i = n; i < n + 1000; i++) assert.equal(t.find(digest(i)), -1);
  // the zero key (the unused ids' bytes) was never added: a grown table holds no slot for an id not yet given
  assert.equal(t.find(new Uint8Array(32)), -1);
  assert.equal(t.add(new Uint8Array(32)), n);
  assert.equal(t.find(new Uint8Array(32)), n);
});

test("forEachKey visits every key once, in id order, after growth too, and no id beyond them", () => {
  const t = new DigestIndex(1);
  const seen: string[] = [];
  t.forEachKey(() => {
    seen.push("none expected");
  });
  assert.equal(seen.length, 0);
  for (let i = 0; i < 600; i++) t.add(digest(i));
  t.forEachKey((bytes, at, id) => {
    seen.push(`${id}:${toHex(bytes.subarray(at, at + 32))}`);
  });
  assert.deepEqual(
    seen,
    Array.from({ length: 600 }, (_, i) => `${i}:${toHex(digest(i))}`),
  );
});

test("keys sharing their first 8 bytes (one probe start) are told apart by the rest", () => {
  const t = new DigestIndex();
  const keys = Array.from({ length: 600 }, (_, i) => {
    const k = new Uint8Array(32).fill(0xab);
    k[31] = i & 0xff;
    k[30] = i >> 8;
    return k;
  });
  for (const k of keys) t.add(k);
  assert.equal(t.size, 600);
  for (const [i, k] of keys.entries()) assert.equal(t.find(k), i);
  const other = new Uint8Array(32).fill(0xab);
  other[29] = 1;
  assert.equal(t.find(other), -1);
});

test("two tables place keys apart (their own seeds) and answer alike", () => {
  const a = new DigestIndex();
  const b = new DigestIndex();
  for (let i = 0; i < 500; i++) {
    assert.equal(a.add(digest(i)), i);
    assert.equal(b.add(digest(i)), i);
  }
  for (let i = 0; i < 600; i++) assert.equal(a.find(digest(i)), b.find(digest(i)));
});
