/**
 * The open block's byte arena (byteArena.ts; docs/testing.md §Mutation testing): a copy holds the bytes
 * given and is independent of them; copies share 256 KiB chunks without overlapping, a copy that does not
 * fit starts a new chunk and leaves the earlier copies intact; a copy larger than a quarter chunk gets its own
 * buffer; `bytes` counts what was copied into the chunks.
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
  assert.deepEqual([...a], [...pattern(100, 1)]);
  assert.deepEqual([...b], [...pattern(50, 2)]);
  assert.equal(empty.length, 0);
  assert.equal(a.buffer, b.buffer, "one chunk");
  assert.equal(a.buffer.byteLength, ARENA_CHUNK_BYTES);
  assert.equal(b.byteOffset, a.byteOffset + 100, "side by side");
  assert.equal(arena.bytes, 150);
});

test("a copy that does not fit starts a new chunk; the earlier copies stay intact", () => {
  const arena = new ByteArena();
  const quarter = ARENA_CHUNK_BYTES / 4;
  const parts = [0, 1, 2, 3].map((i) => arena.copy(pattern(quarter, i)));
  assert.ok(
    parts.every((p) => p.buffer === parts[0]!.buffer),
    "four quarters fill one chunk exactly",
  );
  const next = arena.copy(pattern(1, 9));
  assert.notEqual(next.buffer, parts[0]!.buffer);
  assert.equal(next.byteOffset, 0);
  for (const [i, p] of parts.entries()) assert.deepEqual([...p], [...pattern(quarter, i)]);
  assert.equal(arena.bytes, ARENA_CHUNK_BYTES + 1);
});

test("a copy of more than a quarter chunk gets its own buffer; exactly a quarter goes into the chunk", () => {
  const arena = new ByteArena();
  const quarter = ARENA_CHUNK_BYTES / 4;
  const small = arena.copy(pattern(10, 3));
  const bigSource = pattern(quarter + 1, 4);
  const big = arena.copy(bigSource);
  bigSource.fill(0); // its own buffer, still a copy
  assert.equal(big.buffer.byteLength, quarter + 1);
  assert.deepEqual([...big], [...pattern(quarter + 1, 4)]);
  const exact = arena.copy(pattern(quarter, 5));
  assert.equal(exact.buffer, small.buffer);
  assert.equal(exact.byteOffset, 10, "after the small copy: the big one took no room in the chunk");
});
