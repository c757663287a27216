import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { InvariantError } from "../../../src/errors.js";
import { ZERO_HASH } from "../../../src/protocol/bytes.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { merkleRoot } from "../../../src/protocol/merkle.js";
import { WorkerPoolError } from "../../../src/workers/errors.js";
import { MERKLE_MIN_SUBTREE, MERKLE_POOL_THRESHOLD, MerkleHasher, subtreeShape } from "../../../src/workers/merkle.js";
import { subtreeRoot } from "../../../src/workers/merkleTask.js";
import { createWorkerPool, PoolVerifier } from "../../../src/workers/pool.js";

/** n distinct 32-byte leaves. */
function leavesOf(n: number, salt = 0): Uint8Array[] {
  return Array.from({ length: n }, (_, i) => sha256(Uint8Array.of(salt, i & 0xff, (i >> 8) & 0xff, (i >> 16) & 0xff)));
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

const T = MERKLE_POOL_THRESHOLD;
/** Sizes around every boundary: tiny trees, powers of two ± 1, the threshold, subtree sizes, above-threshold. */
const SMALL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 31, 33, 100];
const LARGE = [255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 2047, 2049, 3000, 4096, 4097, 10_000];
const SIZES = [...new Set([...SMALL, ...LARGE, T - 1, T, T + 1])].sort((a, b) => a - b);

test("MERKLE_POOL_THRESHOLD is a real boundary (≥ 2 leaves)", () => {
  assert.ok(Number.isInteger(T) && T >= 2);
});

for (const mode of [
  { name: "default threshold", threshold: undefined, threads: 2 },
  { name: "always the pool (threshold 0), 2 threads", threshold: 0, threads: 2 },
  { name: "always the pool (threshold 0), 3 threads", threshold: 0, threads: 3 },
]) {
  describe(`MerkleHasher, ${mode.name}`, () => {
    let hasher: MerkleHasher;
    before(() => {
      hasher = new MerkleHasher(
        mode.threshold === undefined ? { threads: mode.threads } : { threads: mode.threads, threshold: mode.threshold },
      );
    });
    after(async () => {
      await hasher.close();
    });

    for (const n of SIZES) {
      test(`${n} leaves: equals protocol merkleRoot`, async () => {
        const leaves = leavesOf(n, n % 7);
        const expected = merkleRoot(leaves);
        const got = await hasher.root(leaves);
        assert.equal(hex(got), hex(expected));
        if (n === 0) assert.equal(hex(got), hex(ZERO_HASH));
        if (n === 1) assert.equal(hex(got), hex(leaves[0]!));
      });
    }

    test("the leaves are not modified (the pool gets copies)", async () => {
      const leaves = leavesOf(3000, 9);
      const before = leaves.map(hex);
      await hasher.root(leaves);
      assert.deepEqual(leaves.map(hex), before);
    });

    test("concurrent roots of different trees each get their own root", async () => {
      const trees = [700, 5, 2500, T, 1].map((n, i) => leavesOf(n, i + 20));
      const roots = await Promise.all(trees.map((t) => hasher.root(t)));
      for (let i = 0; i < trees.length; i++) assert.equal(hex(roots[i]!), hex(merkleRoot(trees[i]!)));
    });

    test("a leaf that is not 32 bytes is an InvariantError naming it", async () => {
      const leaves = leavesOf(600);
      leaves[417] = new Uint8Array(31);
      await assert.rejects(
        hasher.root(leaves),
        (e: unknown) => e instanceof InvariantError && /leaves\[417\]: expected 32 bytes, got 31/.test(e.message),
      );
    });
  });
}

describe("subtrees", () => {
  test("subtreeShape: one subtree holds everything for small trees, else aligned powers of two", () => {
    assert.deepEqual(subtreeShape(2, 2), { subtreeLeaves: 2, height: 1 });
    assert.deepEqual(subtreeShape(MERKLE_MIN_SUBTREE, 2), { subtreeLeaves: MERKLE_MIN_SUBTREE, height: 8 });
    assert.deepEqual(subtreeShape(MERKLE_MIN_SUBTREE + 1, 1), { subtreeLeaves: MERKLE_MIN_SUBTREE, height: 8 });
    assert.deepEqual(subtreeShape(10_000, 2), { subtreeLeaves: 2048, height: 11 });
    for (let n = 2; n < 20_000; n += 97) {
      for (const threads of [1, 2, 4]) {
        const { subtreeLeaves, height } = subtreeShape(n, threads);
        assert.ok(subtreeLeaves <= 2 ** height, `n ${n}`);
        if (subtreeLeaves < n)
          assert.equal(subtreeLeaves, 2 ** height, `n ${n}: split subtrees are full powers of two`);
        else assert.ok(2 ** (height - 1) < n, `n ${n}: a single subtree has the tree's own height`);
      }
    }
  });

  test("subtreeRoot lifts a partial subtree as the whole tree does", () => {
    // 5 leaves = one full subtree of 4 and a lone leaf that the tree pairs with itself twice.
    const leaves = leavesOf(5, 3);
    const pack = (ls: Uint8Array[]): Uint8Array => {
      const out = new Uint8Array(ls.length * 32);
      for (let i = 0; i < ls.length; i++) out.set(ls[i]!, i * 32);
      return out;
    };
    const left = subtreeRoot({ leaves: pack(leaves.slice(0, 4)), height: 2 });
    const right = subtreeRoot({ leaves: pack(leaves.slice(4)), height: 2 });
    assert.equal(hex(left), hex(merkleRoot(leaves.slice(0, 4))));
    assert.equal(hex(merkleRoot([left, right])), hex(merkleRoot(leaves)));
    assert.notEqual(hex(right), hex(leaves[4]!), "the lone leaf was hashed up, not passed through");
    assert.throws(() => subtreeRoot({ leaves: pack(leaves), height: 2 }), InvariantError);
    assert.throws(() => subtreeRoot({ leaves: new Uint8Array(33), height: 1 }), InvariantError);
  });
});

describe("MerkleHasher: pool lifecycle", () => {
  test("after close() a pool-sized root rejects with POOL_CLOSED", async () => {
    const hasher = new MerkleHasher({ threads: 1, threshold: 0 });
    assert.equal(hex(await hasher.root(leavesOf(9))), hex(merkleRoot(leavesOf(9))));
    await hasher.close();
    await assert.rejects(
      hasher.root(leavesOf(9)),
      (error: unknown) => error instanceof WorkerPoolError && error.type.code === "POOL_CLOSED",
    );
  });

  test("a worker dying mid-root rejects with TASK_FAILED; the pool then recovers", async () => {
    const pool = createWorkerPool({ threads: 1 });
    const hasher = new MerkleHasher({ threads: 1, threshold: 0 }, { pool });
    try {
      await hasher.root(leavesOf(4)); // the worker is up
      const big = leavesOf(200_000);
      const doomed = hasher.root(big);
      await new Promise((resolve) => setImmediate(resolve)); // the subtree tasks are posted
      for (const worker of pool.threads) void worker.terminate();
      await assert.rejects(doomed, (error: unknown) => {
        assert.ok(error instanceof WorkerPoolError);
        assert.equal(error.type.code, "TASK_FAILED");
        assert.match(error.message, /Merkle root: worker task failed/);
        return true;
      });
      const leaves = leavesOf(1000, 5);
      assert.equal(hex(await hasher.root(leaves)), hex(merkleRoot(leaves)));
    } finally {
      await hasher.close();
      await pool.destroy();
    }
  });

  test("one shared pool serves the verifier and the hasher", async () => {
    const pool = createWorkerPool({ threads: 2 });
    try {
      const hasher = new MerkleHasher({ threads: 2, threshold: 0 }, { pool });
      const verifier = new PoolVerifier({ threads: 2 }, { pool });
      const leaves = leavesOf(5000, 1);
      const [root, results] = await Promise.all([
        hasher.root(leaves),
        verifier.verify([{ publicKey: new Uint8Array(32), message: new Uint8Array(1), signature: new Uint8Array(64) }]),
      ]);
      assert.equal(hex(root), hex(merkleRoot(leaves)));
      assert.deepEqual(results, [false]);
      await hasher.close();
      await verifier.close();
      assert.equal(pool.threads.length, 2, "the shared pool is still running");
    } finally {
      await pool.destroy();
    }
  });
});
