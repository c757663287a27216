/**
 * The worker pool: verification throughput with and without batching (the lever of DESIGN §1), and
 * Merkle roots of a large tree on the main thread vs MerkleHasher.
 */
import { availableParallelism } from "node:os";
import { sha256 } from "../src/protocol/hash.js";
import { merkleRoot } from "../src/protocol/merkle.js";
import { MerkleHasher } from "../src/workers/merkle.js";
import { PoolVerifier, VERIFY_BATCH } from "../src/workers/pool.js";
import { InlineVerifier } from "../src/workers/verifier.js";
import { benchSignatures } from "./crypto.bench.js";
import { runCases } from "./suite.js";
/** Signatures per verify() call: enough for several tasks per thread at VERIFY_BATCH. */
export const POOL_CALL_SIGNATURES = 256;
/** Leaves of the large Merkle tree (brief: 10,000 — an entry credit block of a busy minute). */
export const MERKLE_BENCH_LEAVES = 10_000;
export async function workersRows() {
    const threads = availableParallelism();
    const sigs = benchSignatures();
    const checks = Array.from({ length: POOL_CALL_SIGNATURES }, (_, i) => sigs[i % sigs.length]);
    const inline = new InlineVerifier();
    const batched = new PoolVerifier({ threads });
    const single = new PoolVerifier({ threads, maxBatch: 1 });
    const leaves = Array.from({ length: MERKLE_BENCH_LEAVES }, (_, i) => sha256(Uint8Array.of(i & 0xff, i >> 8, 0x3e)));
    const hasher = new MerkleHasher({ threads });
    const verifyAll = (verifier) => async () => {
        const results = await verifier.verify(checks);
        if (results.length !== checks.length || !results.every(Boolean))
            throw new Error("a valid signature did not verify");
        return results;
    };
    /**
     * Steady state of a loaded node: the next call is already queued when one completes, so the workers
     * never drain between calls. One operation = one completed call.
     */
    const inFlight = new Map();
    const pipelined = (verifier) => async () => {
        const done = inFlight.get(verifier) ?? verifyAll(verifier)();
        inFlight.set(verifier, verifyAll(verifier)());
        return done;
    };
    const cases = [
        {
            id: "workers.verify.inline",
            name: `InlineVerifier, ${POOL_CALL_SIGNATURES} sigs per call (main thread)`,
            fn: verifyAll(inline),
            itemsPerOp: POOL_CALL_SIGNATURES,
            itemUnit: "sig",
        },
        {
            id: "workers.verify.pool.oneatatime",
            name: `PoolVerifier ${threads} threads, ${POOL_CALL_SIGNATURES} sigs per call, ≤ ${VERIFY_BATCH} per task, one call at a time`,
            fn: verifyAll(batched),
            itemsPerOp: POOL_CALL_SIGNATURES,
            itemUnit: "sig",
            note: "workers idle while the main thread packs the next call and while the last task finishes",
        },
        {
            id: "workers.verify.pool.batched",
            name: `PoolVerifier ${threads} threads, ${POOL_CALL_SIGNATURES} sigs per call, ≤ ${VERIFY_BATCH} per task, pipelined`,
            fn: pipelined(batched),
            itemsPerOp: POOL_CALL_SIGNATURES,
            itemUnit: "sig",
            note: `${threads} worker threads on ${threads} cores; bounded by cores × verify ceiling minus the main thread's share`,
        },
        {
            id: "workers.verify.pool.single",
            name: `PoolVerifier ${threads} threads, ${POOL_CALL_SIGNATURES} sigs per call, 1 per task, pipelined`,
            fn: pipelined(single),
            itemsPerOp: POOL_CALL_SIGNATURES,
            itemUnit: "sig",
            note: "one round trip per signature: bounded by the main thread posting and receiving tasks",
        },
        {
            id: "workers.merkle.main",
            name: `Merkle root ${MERKLE_BENCH_LEAVES} leaves, main thread (protocol merkleRoot)`,
            fn: () => merkleRoot(leaves),
        },
        {
            id: "workers.merkle.pool",
            name: `Merkle root ${MERKLE_BENCH_LEAVES} leaves, MerkleHasher ${threads} threads`,
            fn: () => hasher.root(leaves),
        },
    ];
    try {
        return await runCases("workers", cases);
    }
    finally {
        await Promise.allSettled(inFlight.values());
        await Promise.all([inline.close(), batched.close(), single.close(), hasher.close()]);
    }
}
//# sourceMappingURL=workers.bench.js.map