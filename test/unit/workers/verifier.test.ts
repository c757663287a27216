import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { publicKeyFromSeed, signEd25519, verifyEd25519Noble } from "../../../src/crypto/ed25519.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { WorkerPoolError } from "../../../src/workers/errors.js";
import {
  createWorkerPool,
  MIN_TASK_BATCH,
  PoolVerifier,
  taskCount,
  VERIFY_BATCH,
  VERIFY_BATCH_WINDOW_MS,
} from "../../../src/workers/pool.js";
import { InlineVerifier, type SignatureCheck, type Verifier } from "../../../src/workers/verifier.js";

/**
 * One suite over every Verifier (STYLE §7): real keys, real signatures, real worker threads. The expected
 * answer of each check is stated by the test and cross-checked with @noble/ed25519, an independent
 * implementation, so every implementation must also agree with every other.
 */

/** Group order L of ed25519. */
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

function seedOf(label: string): Uint8Array {
  return sha256(new TextEncoder().encode(label));
}

interface Signer {
  seed: Uint8Array;
  publicKey: Uint8Array;
}

const signers: Signer[] = Array.from({ length: 8 }, (_, i) => {
  const seed = seedOf(`verifier test key ${i}`);
  return { seed, publicKey: publicKeyFromSeed(seed) };
});

/** Message i: deterministic bytes, lengths from 0 to 10 KiB (the largest transaction). */
function messageOf(i: number): Uint8Array {
  const lengths = [0, 1, 40, 136, 200, 1024, 10240];
  const out = new Uint8Array(lengths[i % lengths.length]!);
  for (let k = 0; k < out.length; k++) out[k] = (i * 31 + k * 7) & 0xff;
  return out;
}

function validCheck(i: number): SignatureCheck {
  const signer = signers[i % signers.length]!;
  const message = messageOf(i);
  return { publicKey: signer.publicKey, message, signature: signEd25519(signer.seed, message) };
}

/** S' = S + L (little-endian bytes 32..63): the same point equation holds, but the reference rejects it. */
function withSPlusL(signature: Uint8Array): Uint8Array {
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(signature[i]!);
  s += L;
  const out = Uint8Array.from(signature);
  for (let i = 32; i < 64; i++) {
    out[i] = Number(s & 0xffn);
    s >>= 8n;
  }
  assert.equal(s, 0n, "S + L fits in 32 bytes");
  return out;
}

/** A labelled check with the answer the canonical rule requires. */
interface Case {
  label: string;
  check: SignatureCheck;
  expected: boolean;
}

/** Every kind of check, valid and not, `round` varying keys and messages. */
function cases(round: number): Case[] {
  const v = validCheck(round);
  const other = validCheck(round + 1);
  const flipped = Uint8Array.from(v.signature);
  flipped[5]! ^= 0x01;
  const high = Uint8Array.from(v.signature);
  high[63]! |= 0x80;
  const high20 = Uint8Array.from(v.signature);
  high20[63]! |= 0x20;
  const changedMessage = v.message.length > 0 ? Uint8Array.from(v.message) : Uint8Array.of(0);
  if (v.message.length > 0) changedMessage[changedMessage.length - 1]! ^= 0x01;
  return [
    { label: "valid", check: v, expected: true },
    { label: "wrong message", check: { ...v, message: changedMessage }, expected: false },
    { label: "message of another signature", check: { ...v, message: other.message }, expected: false },
    {
      label: "wrong key",
      check: { ...v, publicKey: signers[(round + 3) % signers.length]!.publicKey },
      expected: false,
    },
    { label: "flipped signature bit", check: { ...v, signature: flipped }, expected: false },
    { label: "non-canonical S (S + L)", check: { ...v, signature: withSPlusL(v.signature) }, expected: false },
    { label: "sig[63] bit 0x80 set", check: { ...v, signature: high }, expected: false },
    { label: "sig[63] bit 0x20 set", check: { ...v, signature: high20 }, expected: false },
    { label: "key 31 bytes", check: { ...v, publicKey: v.publicKey.subarray(0, 31) }, expected: false },
    { label: "key 33 bytes", check: { ...v, publicKey: Uint8Array.of(...v.publicKey, 0) }, expected: false },
    { label: "signature 63 bytes", check: { ...v, signature: v.signature.subarray(0, 63) }, expected: false },
    { label: "signature 65 bytes", check: { ...v, signature: Uint8Array.of(...v.signature, 0) }, expected: false },
    {
      label: "empty key and signature",
      check: { ...v, publicKey: new Uint8Array(0), signature: new Uint8Array(0) },
      expected: false,
    },
    { label: "all-zero key", check: { ...v, publicKey: new Uint8Array(32) }, expected: false },
    { label: "valid again", check: other, expected: true },
  ];
}

/** The corpus used for batch tests: `rounds` × every case, interleaved. */
function corpus(rounds: number): Case[] {
  const out: Case[] = [];
  for (let r = 0; r < rounds; r++) out.push(...cases(r));
  return out;
}

test("the expected answers agree with @noble/ed25519 (independent implementation)", () => {
  for (const c of corpus(7)) {
    assert.equal(verifyEd25519Noble(c.check.publicKey, c.check.message, c.check.signature), c.expected, c.label);
  }
});

const implementations: { name: string; make: () => Verifier }[] = [
  { name: "InlineVerifier", make: () => new InlineVerifier() },
  { name: "PoolVerifier (2 threads)", make: () => new PoolVerifier({ threads: 2 }) },
  { name: "PoolVerifier (1 thread, maxBatch 3)", make: () => new PoolVerifier({ threads: 1, maxBatch: 3 }) },
  { name: "PoolVerifier (1 thread, no batch window)", make: () => new PoolVerifier({ threads: 1, batchWindowMs: 0 }) },
];

/** Results of the shared corpus by implementation, compared after all suites ran. */
const corpusResults = new Map<string, boolean[]>();
const SHARED = corpus(14);

for (const { name, make } of implementations) {
  describe(`Verifier: ${name}`, () => {
    let verifier: Verifier;
    before(() => {
      verifier = make();
    });
    after(async () => {
      await verifier.close();
    });

    for (const c of cases(0)) {
      test(`${c.label} → ${c.expected}`, async () => {
        assert.deepEqual(await verifier.verify([c.check]), [c.expected]);
      });
    }

    test("empty list → empty results", async () => {
      assert.deepEqual(await verifier.verify([]), []);
    });

    test("one call with every kind of check: results in order", async () => {
      const all = corpus(3);
      assert.deepEqual(
        await verifier.verify(all.map((c) => c.check)),
        all.map((c) => c.expected),
      );
    });

    test("many concurrent callers in one tick each get their own results, in order", async () => {
      const pool = SHARED;
      const calls: Case[][] = [];
      for (let i = 0; i < 60; i++) {
        // Sizes 0..29, some callers sharing check objects, offsets varying so neighbours differ.
        const size = (i * 7) % 30;
        const from = (i * 13) % (pool.length - size);
        calls.push(i % 11 === 5 ? [...pool.slice(from, from + size)].reverse() : pool.slice(from, from + size));
      }
      const promises = calls.map((cs) => verifier.verify(cs.map((c) => c.check)));
      const results = await Promise.all(promises);
      for (let i = 0; i < calls.length; i++) {
        assert.deepEqual(
          results[i],
          calls[i]!.map((c) => c.expected),
          `caller ${i}`,
        );
      }
    });

    test("callers in different ticks are answered independently", async () => {
      const first = verifier.verify([validCheck(1)]);
      await new Promise((resolve) => setImmediate(resolve));
      const bad = cases(2)[1]!;
      const second = verifier.verify([bad.check, validCheck(3)]);
      assert.deepEqual(await first, [true]);
      assert.deepEqual(await second, [false, true]);
    });

    test("large batch (2,100 checks, keys and messages up to 10 KiB)", async () => {
      const results = await verifier.verify(SHARED.map((c) => c.check));
      assert.deepEqual(
        results,
        SHARED.map((c) => c.expected),
      );
      corpusResults.set(name, results);
    });

    test("a result array is the caller's own (mutating it does not affect others)", async () => {
      const checks = [validCheck(4), validCheck(5)];
      const [a, b] = await Promise.all([verifier.verify(checks), verifier.verify(checks)]);
      a![0] = false;
      assert.deepEqual(b, [true, true]);
    });
  });
}

test("every implementation gave identical results for the shared corpus", () => {
  assert.equal(corpusResults.size, implementations.length, "each suite stored its corpus results");
  const [reference, ...others] = [...corpusResults.values()];
  assert.equal(reference!.length, SHARED.length);
  assert.ok(reference!.includes(true) && reference!.includes(false), "the corpus has both answers");
  for (const other of others) assert.deepEqual(other, reference);
});

describe("PoolVerifier: batching", () => {
  test("taskCount: no task above maxBatch; a tick with ≥ 16 per thread uses every thread; small ticks stay whole", () => {
    assert.equal(MIN_TASK_BATCH, 16);
    assert.equal(taskCount(1, 64, 2), 1);
    assert.equal(taskCount(20, 64, 2), 1); // 10 per thread would be below MIN_TASK_BATCH
    assert.equal(taskCount(32, 64, 2), 2);
    assert.equal(taskCount(64, 64, 4), 4);
    assert.equal(taskCount(65, 64, 1), 2);
    assert.equal(taskCount(1000, 64, 2), 16);
    assert.equal(taskCount(1000, 1, 2), 1000);
    assert.equal(taskCount(10, 4, 8), 3);
    for (let total = 1; total <= 300; total++) {
      for (const maxBatch of [1, 3, 16, VERIFY_BATCH]) {
        for (const threads of [1, 2, 3]) {
          const tasks = taskCount(total, maxBatch, threads);
          assert.ok(Math.ceil(total / tasks) <= maxBatch, `total ${total} maxBatch ${maxBatch} threads ${threads}`);
          assert.ok(tasks <= total);
        }
      }
    }
  });

  test("rejects invalid options", () => {
    assert.throws(() => new PoolVerifier({ threads: 0 }), RangeError);
    assert.throws(() => new PoolVerifier({ threads: 1, maxBatch: 0 }), RangeError);
    assert.throws(() => new PoolVerifier({ threads: 1.5 }), RangeError);
    assert.throws(() => new PoolVerifier({ threads: 1, batchWindowMs: -1 }), RangeError);
    assert.throws(() => new PoolVerifier({ threads: 1, batchWindowMs: Number.NaN }), RangeError);
  });

  test("the batch window: checks of several turns within it go in one task, sent once it has passed", async () => {
    assert.equal(VERIFY_BATCH_WINDOW_MS, 1);
    const pool = createWorkerPool({ threads: 1 });
    // a window far longer than a few turns take, even on a loaded machine
    const windowMs = 1000;
    const verifier = new PoolVerifier({ threads: 1, batchWindowMs: windowMs }, { pool });
    try {
      const before = performance.now();
      assert.deepEqual(await verifier.verify([validCheck(0)]), [true]); // the first send: at its turn's end
      const tasks = pool.completed;
      const calls = [verifier.verify([validCheck(1)])];
      await new Promise((resolve) => setImmediate(resolve));
      calls.push(verifier.verify([cases(1)[1]!.check, validCheck(2)]));
      await new Promise((resolve) => setImmediate(resolve));
      calls.push(verifier.verify([validCheck(3)]));
      assert.deepEqual(await Promise.all(calls), [[true], [false, true], [true]]);
      // (libuv's timers count from its cached loop time: a few ms of slack)
      assert.ok(performance.now() - before >= windowMs - 20, "sent only after the window");
      assert.equal(pool.completed - tasks, 1, "three turns' checks in one task");
    } finally {
      await verifier.close();
      await pool.destroy();
    }
  });
});

describe("PoolVerifier: failure and close", () => {
  test("a worker dying mid-task rejects its callers with TASK_FAILED; the pool then recovers", async () => {
    const pool = createWorkerPool({ threads: 2 });
    // no batch window: the next call's tasks are posted at the end of its turn
    const verifier = new PoolVerifier({ threads: 2, batchWindowMs: 0 }, { pool });
    try {
      assert.deepEqual(await verifier.verify([validCheck(0), validCheck(1)]), [true, true]); // workers are up
      const big = Array.from({ length: 4000 }, (_, i) => SHARED[i % SHARED.length]!.check);
      const doomed = verifier.verify(big);
      await new Promise((resolve) => setImmediate(resolve)); // the flush has posted the tasks
      for (const worker of pool.threads) void worker.terminate();
      await assert.rejects(doomed, (error: unknown) => {
        assert.ok(error instanceof WorkerPoolError);
        assert.equal(error.type.code, "TASK_FAILED");
        assert.match(error.message, /signature verification: worker task failed: worker exited/);
        return true;
      });
      // Replacement workers serve the next calls.
      assert.deepEqual(await verifier.verify([validCheck(2), cases(2)[1]!.check]), [true, false]);
    } finally {
      await verifier.close();
      await pool.destroy();
    }
  });

  test("close() rejects calls still waiting and every later call with POOL_CLOSED", async () => {
    const verifier = new PoolVerifier({ threads: 1 });
    const isClosed = (error: unknown): boolean => {
      assert.ok(error instanceof WorkerPoolError);
      assert.equal(error.type.code, "POOL_CLOSED");
      return true;
    };
    const waiting = assert.rejects(verifier.verify([validCheck(0)]), isClosed);
    await verifier.close();
    await waiting;
    await assert.rejects(verifier.verify([validCheck(1)]), isClosed);
    await verifier.close(); // twice is harmless
  });

  test("close() while batches are in the workers rejects their callers with POOL_CLOSED", async () => {
    const verifier = new PoolVerifier({ threads: 2, batchWindowMs: 0 });
    assert.deepEqual(await verifier.verify([validCheck(0)]), [true]); // workers are up
    const inFlight = assert.rejects(
      verifier.verify(Array.from({ length: 2000 }, (_, i) => validCheck(i % 7))),
      (error: unknown) => error instanceof WorkerPoolError && error.type.code === "POOL_CLOSED",
    );
    await new Promise((resolve) => setImmediate(resolve)); // the flush has posted the tasks
    await verifier.close();
    await inFlight;
  });

  test("close() with a shared pool leaves the pool running for its other users", async () => {
    const pool = createWorkerPool({ threads: 1 });
    try {
      const a = new PoolVerifier({ threads: 1 }, { pool });
      const b = new PoolVerifier({ threads: 1 }, { pool });
      assert.deepEqual(await a.verify([validCheck(0)]), [true]);
      await a.close();
      assert.deepEqual(await b.verify([validCheck(1), cases(1)[3]!.check]), [true, false]);
      await b.close();
    } finally {
      await pool.destroy();
    }
  });
});
