/**
 * The open block's byte arena (byteArena.ts; docs/testing.md §Mutation testing): a region holds the bytes
 * written into it and is independent of the source; regions share 256 KiB chunks without overlapping, a region
 * that does not fit starts a new chunk and leaves the earlier regions intact; a region larger than a quarter
 * chunk gets its own buffer; `bytes` counts what was reserved.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ARENA_CHUNK_BYTES, ByteArena } from "../../../src/ledger/byteArena.js";

function pattern(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);
}

test("copies hold the bytes given, independent of them, side by side in one chunk", () => {
  assert.equal(ARENA_CHUNK_BYTES, 262_144);
  const arena = new ByteArena();
  assert.equal(arena.bytes, 0);
  const src = pattern(100, 1);
  const a = arena.copy(src);
  const b = arena.copy(pattern(50, 2));
  const empty = arena.copy(new Uint8Array(0));
  src.fill(0);
  assert.equal(a, 0);
  assert.equal(b, 100, "side by side: the handle is the offset in the first chunk");
  assert.equal(empty, 150);
  const va = arena.view(a, 0, 100);
  const vb = arena.view(b, 0, 50);
  assert.deepEqual([...va], [...pattern(100, 1)]);
  assert.deepEqual([...vb], [...pattern(50, 2)]);
  assert.equal(arena.view(empty, 0, 0).length, 0);
  assert.equal(va.buffer, vb.buffer, "one chunk");
  assert.equal(va.buffer.byteLength, ARENA_CHUNK_BYTES);
  assert.equal(vb.byteOffset, va.byteOffset + 100);
  assert.deepEqual([...arena.view(a, 98, 4)], [...pattern(100, 1).subarray(98), ...pattern(50, 2).subarray(0, 2)]);
  assert.equal(arena.bytes, 150);
});

test("an empty region first opens the first chunk: its handle names it", () => {
  const arena = new ByteArena();
  const empty = arena.copy(new Uint8Array(0));
  assert.equal(empty, 0);
  assert.equal(arena.view(empty, 0, 0).length, 0);
  assert.equal(arena.view(empty, 0, 0).buffer.byteLength, ARENA_CHUNK_BYTES);
  assert.equal(arena.copy(pattern(3, 1)), 0, "the next region starts where the empty one is");
  assert.equal(arena.bytes, 3);
});

test("a reserved region is written piece by piece, at offsets into it", () => {
  const arena = new ByteArena();
  arena.copy(pattern(7, 0));
  const r = arena.reserve(40);
  assert.deepEqual([...arena.view(r, 0, 40)], new Array(40).fill(0), "zeros until written");
  arena.write(r, 0, pattern(8, 3));
  arena.write(r, 32, pattern(8, 4));
  assert.deepEqual([...arena.view(r, 0, 8)], [...pattern(8, 3)]);
  assert.deepEqual([...arena.view(r, 8, 24)], new Array(24).fill(0));
  assert.deepEqual([...arena.view(r, 32, 8)], [...pattern(8, 4)]);
  assert.deepEqual([...arena.view(0, 0, 7)], [...pattern(7, 0)], "the region before is untouched");
  assert.equal(arena.bytes, 47);
});

test("a copy that does not fit starts a new chunk; the earlier copies stay intact", () => {
  const arena = new ByteArena();
  const quarter = ARENA_CHUNK_BYTES / 4;
  const parts = [0, 1, 2, 3].map((i) => arena.copy(pattern(quarter, i)));
  assert.deepEqual(parts, [0, quarter, 2 * quarter, 3 * quarter], "four quarters fill one chunk exactly");
  const next = arena.copy(pattern(1, 9));
  assert.equal(next, ARENA_CHUNK_BYTES, "offset 0 of the second chunk");
  assert.notEqual(arena.view(next, 0, 1).buffer, arena.view(parts[0]!, 0, 1).buffer);
  assert.equal(arena.view(next, 0, 1).byteOffset, 0);
  for (const [i, p] of parts.entries()) assert.deepEqual([...arena.view(p, 0, quarter)], [...pattern(quarter, i)]);
  assert.equal(arena.bytes, ARENA_CHUNK_BYTES + 1);
});

test("a copy of more than a quarter chunk gets its own buffer; exactly a quarter goes into the chunk", () => {
  const arena = new ByteArena();
  const quarter = ARENA_CHUNK_BYTES / 4;
  const small = arena.copy(pattern(10, 3));
  const bigSource = pattern(quarter + 1, 4);
  const big = arena.copy(bigSource);
  bigSource.fill(0); // its own buffer, still a copy
  assert.equal(big, ARENA_CHUNK_BYTES, "the second chunk, of its own size");
  assert.equal(arena.view(big, 0, 1).buffer.byteLength, quarter + 1);
  assert.deepEqual([...arena.view(big, 0, quarter + 1)], [...pattern(quarter + 1, 4)]);
  const exact = arena.copy(pattern(quarter, 5));
  assert.equal(exact, 10, "after the small copy, in the first chunk: the big one took no room in it");
  assert.equal(arena.view(exact, 0, 1).buffer, arena.view(small, 0, 1).buffer);
  assert.deepEqual([...arena.view(exact, 0, quarter)], [...pattern(quarter, 5)]);
  // the first chunk is filled to its end; the chunk after it is the third (the big region was the second)
  assert.equal(arena.copy(pattern(quarter, 6)), 10 + quarter);
  assert.equal(arena.copy(pattern(quarter, 7)), 10 + 2 * quarter);
  assert.equal(arena.copy(pattern(quarter, 8)), 2 * ARENA_CHUNK_BYTES, "10 bytes short in the first chunk");
  assert.deepEqual([...arena.view(big, quarter, 1)], [...pattern(quarter + 1, 4).subarray(quarter)]);
});
