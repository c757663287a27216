/**
 * `node dist/bench/calibrate.js`: the measurements behind two constants of src/workers/ —
 *   VERIFY_BATCH           signatures per worker task (sweep of maxBatch at a fixed call size), and
 *   MERKLE_POOL_THRESHOLD  leaf count from which MerkleHasher uses the pool (main thread vs pool by size).
 * Prints both sweeps and the values they suggest, and writes bench/results/calibrate.json.
 * Re-run it on the target machine before changing either constant; record the figures in the constant's comment.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256 } from "../src/protocol/hash.js";
import { merkleRoot } from "../src/protocol/merkle.js";
import { MerkleHasher } from "../src/workers/merkle.js";
import { PoolVerifier } from "../src/workers/pool.js";
import { benchSignatures } from "./crypto.bench.js";
import { describeMachine } from "./machine.js";
import { formatTable } from "./row.js";
import { runCases } from "./suite.js";
/** Signatures per verify() call in the batch sweep: 8 tasks at 64, so every size splits over the threads. */
const SWEEP_CALL = 512;
const BATCH_SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const LEAF_COUNTS = [64, 128, 256, 384, 512, 768, 1024, 2048, 4096];
/** A batch size is "as good as the best" within this fraction of the best throughput (run-to-run noise here). */
const WITHIN = 0.05;
const RESULTS = fileURLToPath(new URL("../../bench/results/calibrate.json", import.meta.url));
async function batchSweep(threads) {
    const sigs = benchSignatures();
    const checks = Array.from({ length: SWEEP_CALL }, (_, i) => sigs[i % sigs.length]);
    const verifiers = BATCH_SIZES.map((maxBatch) => new PoolVerifier({ threads, maxBatch }));
    // Pipelined as in bench/workers.bench.ts: the next call is queued before the previous one is awaited.
    const inFlight = verifiers.map(() => undefined);
    const cases = BATCH_SIZES.map((maxBatch, i) => ({
        id: `calibrate.batch.${maxBatch}`,
        name: `PoolVerifier ${threads} threads, ${SWEEP_CALL} sigs per call, ≤ ${maxBatch} per task, pipelined`,
        fn: () => {
            const done = inFlight[i] ?? verifiers[i].verify(checks);
            inFlight[i] = verifiers[i].verify(checks);
            return done;
        },
        itemsPerOp: SWEEP_CALL,
        itemUnit: "sig",
    }));
    try {
        return await runCases("batch", cases);
    }
    finally {
        await Promise.allSettled(inFlight);
        await Promise.all(verifiers.map((v) => v.close()));
    }
}
/** Calls per batch size and round in the main-thread cost measurement. */
const COST_CALLS = 10;
/** Rounds of the cost measurement; the minimum is kept, since contention only ever adds time. */
const COST_ROUNDS = 5;
/**
 * Main-thread time per signature by batch size: event-loop active time (packing, posting, receiving,
 * resolving) over COST_CALLS calls of SWEEP_CALL signatures, minimum of COST_ROUNDS interleaved rounds.
 * This is the ledger thread's share of verification, the scarce resource; throughput alone does not show it.
 */
async function mainThreadCost(threads) {
    const sigs = benchSignatures();
    const checks = Array.from({ length: SWEEP_CALL }, (_, i) => sigs[i % sigs.length]);
    const verifiers = BATCH_SIZES.map((maxBatch) => new PoolVerifier({ threads, maxBatch }));
    const best = BATCH_SIZES.map(() => Number.POSITIVE_INFINITY);
    try {
        for (const v of verifiers)
            for (let i = 0; i < 3; i++)
                await v.verify(checks);
        for (let round = 0; round < COST_ROUNDS; round++) {
            for (let b = 0; b < verifiers.length; b++) {
                const start = performance.eventLoopUtilization();
                for (let i = 0; i < COST_CALLS; i++)
                    await verifiers[b].verify(checks);
                const used = performance.eventLoopUtilization(start);
                best[b] = Math.min(best[b], (used.active * 1000) / (COST_CALLS * SWEEP_CALL));
            }
        }
    }
    finally {
        await Promise.all(verifiers.map((v) => v.close()));
    }
    return BATCH_SIZES.map((maxBatch, b) => ({ maxBatch, mainUsPerSig: Math.round(best[b] * 100) / 100 }));
}
async function thresholdSweep(threads) {
    const hasher = new MerkleHasher({ threads, threshold: 0 });
    const cases = [];
    for (const n of LEAF_COUNTS) {
        const leaves = Array.from({ length: n }, (_, i) => sha256(Uint8Array.of(i & 0xff, i >> 8, 0xca)));
        cases.push({
            id: `calibrate.merkle.main.${n}`,
            name: `Merkle root ${n} leaves, main thread`,
            fn: () => merkleRoot(leaves),
        });
        cases.push({
            id: `calibrate.merkle.pool.${n}`,
            name: `Merkle root ${n} leaves, pool (${threads} threads)`,
            fn: () => hasher.root(leaves),
        });
    }
    try {
        return await runCases("merkle", cases);
    }
    finally {
        await hasher.close();
    }
}
/** Smallest batch size whose throughput is within WITHIN of the best. */
function suggestBatch(rows) {
    const rates = BATCH_SIZES.map((b) => rows.find((r) => r.id === `calibrate.batch.${b}`)?.itemsPerSec ?? 0);
    const best = Math.max(...rates);
    const i = rates.findIndex((r) => r >= best * (1 - WITHIN));
    return best > 0 ? BATCH_SIZES[i] : undefined;
}
/** Smallest leaf count from which the pool is faster than the main thread at every larger count measured. */
function suggestThreshold(rows) {
    const mean = (kind, n) => rows.find((r) => r.id === `calibrate.merkle.${kind}.${n}`)?.meanUs ?? Number.NaN;
    let threshold;
    for (let i = LEAF_COUNTS.length - 1; i >= 0; i--) {
        const n = LEAF_COUNTS[i];
        if (mean("pool", n) < mean("main", n))
            threshold = n;
        else
            break;
    }
    return threshold;
}
async function main() {
    const threads = availableParallelism();
    const machine = describeMachine();
    console.log(`calibration — ${machine.cpus} × ${machine.cpuModel}, node ${machine.node}`);
    const batch = await batchSweep(threads);
    const cost = await mainThreadCost(threads);
    const merkle = await thresholdSweep(threads);
    const suggested = { verifyBatch: suggestBatch(batch), merklePoolThreshold: suggestThreshold(merkle) };
    console.log("");
    console.log(formatTable([...batch, ...merkle]));
    console.log("");
    console.log(`main-thread µs per signature by maxBatch: ${cost.map((c) => `${c.maxBatch} → ${c.mainUsPerSig}`).join(", ")}`);
    console.log(`suggested VERIFY_BATCH (smallest within ${WITHIN * 100}% of the best): ${suggested.verifyBatch}`);
    console.log(`suggested MERKLE_POOL_THRESHOLD (pool faster from here up): ${suggested.merklePoolThreshold}`);
    const report = {
        schema: 1,
        date: new Date().toISOString(),
        command: "node dist/bench/calibrate.js",
        machine,
        threads,
        rows: [...batch, ...merkle],
        mainThreadCost: cost,
        suggested,
    };
    mkdirSync(dirname(RESULTS), { recursive: true });
    writeFileSync(`${RESULTS}.tmp`, `${JSON.stringify(report, null, 2)}\n`);
    renameSync(`${RESULTS}.tmp`, RESULTS);
    console.log("written: bench/results/calibrate.json");
}
await main();
//# sourceMappingURL=calibrate.js.map