/**
 * The decoded-block LRU at its bounds, exactly (decodedBlockCache.ts; docs/testing.md §Mutation testing): a
 * block of exactly the byte bound is kept, one byte more is not and evicts nothing, a total of exactly the
 * bound stays; `peek` answers a miss with undefined and a hit with the block, marking it most recently used.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DecodedBlockCache } from "../../../src/ledger/decodedBlockCache.js";

function counting() {
  const calls: string[] = [];
  const decode = (raw: Uint8Array) => {
    calls.push(`${raw.length}`);
    return { len: raw.length };
  };
  return { calls, decode };
}

test("a block of exactly the byte bound is kept; a larger one is not kept and evicts nothing", () => {
  const c = new DecodedBlockCache<{ len: number }>({ maxBlocks: 10, maxRawBytes: 100 });
  const d = counting();
  c.get("small", new Uint8Array(10), d.decode);
  const big = c.get("big", new Uint8Array(101), d.decode);
  assert.deepEqual(big, { len: 101 });
  assert.deepEqual(c.peek("small"), { len: 10 }, "the small block is still kept");
  assert.equal(c.peek("big"), undefined);
  const c2 = new DecodedBlockCache<{ len: number }>({ maxBlocks: 10, maxRawBytes: 100 });
  const exact = c2.get("exact", new Uint8Array(100), d.decode);
  assert.equal(c2.peek("exact"), exact);
});

test("a total of exactly the byte bound, or exactly the block bound, is kept whole", () => {
  const d = counting();
  const bytes = new DecodedBlockCache<{ len: number }>({ maxBlocks: 10, maxRawBytes: 100 });
  bytes.get("a", new Uint8Array(40), d.decode);
  bytes.get("b", new Uint8Array(60), d.decode);
  assert.deepEqual([bytes.peek("a"), bytes.peek("b")], [{ len: 40 }, { len: 60 }]);
  bytes.get("c", new Uint8Array(1), d.decode); // 101: the least recently used (a) goes
  assert.deepEqual([bytes.peek("a"), bytes.peek("b"), bytes.peek("c")], [undefined, { len: 60 }, { len: 1 }]);
  const count = new DecodedBlockCache<{ len: number }>({ maxBlocks: 2, maxRawBytes: 100 });
  count.get("a", new Uint8Array(1), d.decode);
  count.get("b", new Uint8Array(2), d.decode);
  assert.deepEqual([count.peek("a"), count.peek("b")], [{ len: 1 }, { len: 2 }]);
});

test("peek: undefined on a miss, the block on a hit, and the hit becomes the most recently used", () => {
  const c = new DecodedBlockCache<{ len: number }>({ maxBlocks: 2, maxRawBytes: 1000 });
  const d = counting();
  assert.equal(c.peek("a"), undefined);
  const a = c.get("a", new Uint8Array(1), d.decode);
  c.get("b", new Uint8Array(2), d.decode);
  assert.equal(c.peek("a"), a); // a is now the most recent: c evicts b
  c.get("c", new Uint8Array(3), d.decode);
  assert.equal(c.peek("b"), undefined);
  assert.equal(c.peek("a"), a);
  assert.deepEqual(d.calls, ["1", "2", "3"]);
});
