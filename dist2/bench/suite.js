/**
 * Runs a list of benchmark cases with tinybench and turns the results into BenchRows.
 */
import { Bench } from "tinybench";
import { skippedRow } from "./row.js";
/**
 * Time budget per case, ms, split over ROUNDS. 500 ms + 100 ms warmup keeps the micro suite (16 cases)
 * at ~12 s on 2 cores and gives ≥ 20 samples to the slowest case (a ~23 ms call of 256 one-per-task verifies).
 */
export const CASE_TIME_MS = 500;
/** Warmup per case before its first round, ms: JIT, key caches, worker threads started. */
export const CASE_WARMUP_MS = 100;
/** Fewest samples per case and round even when one operation takes longer than the budget allows. */
export const CASE_MIN_SAMPLES = 8;
/**
 * Rounds per case, interleaved (every case once, then every case again…); a case reports its median
 * round. The cores here are shared with other tenants: a two-thread CPU loop measured 1.0–3.6× its
 * usual time in bursts of a few seconds, so one uninterrupted measurement per case can land entirely
 * in a burst. Three short rounds put a burst into one round, which the median discards.
 */
export const ROUNDS = 3;
/**
 * Measure each case in turn (never concurrently: they would share the 2 cores), ROUNDS times,
 * and report each case's median round; `roundOpsPerSec` keeps every round (the spread shows contention).
 */
export async function runCases(section, cases, rounds = ROUNDS) {
    const live = cases.filter((c) => !("skipped" in c));
    const figures = new Map(live.map((c) => [c.id, []]));
    const failures = new Map();
    for (let round = 0; round < rounds; round++) {
        const bench = new Bench({
            time: CASE_TIME_MS / rounds,
            warmup: round === 0,
            warmupTime: CASE_WARMUP_MS,
            warmupIterations: 2,
            iterations: CASE_MIN_SAMPLES,
            throws: false,
        });
        for (const c of live)
            if (!failures.has(c.id))
                bench.add(c.id, c.fn);
        await bench.run();
        for (const c of live) {
            if (failures.has(c.id))
                continue;
            const result = bench.getTask(c.id)?.result;
            if (result === undefined || (result.state !== "completed" && result.state !== "aborted-with-statistics")) {
                failures.set(c.id, result?.state === "errored" ? result.error.message : (result?.state ?? "no result"));
                continue;
            }
            figures.get(c.id).push({
                opsPerSec: 1000 / result.period,
                meanUs: result.latency.mean * 1000,
                p99Us: result.latency.p99 * 1000,
                samples: result.latency.samplesCount,
            });
        }
    }
    return cases.map((c) => {
        if ("skipped" in c)
            return skippedRow(c.id, section, c.name, c.skipped);
        const failure = failures.get(c.id);
        if (failure !== undefined)
            return skippedRow(c.id, section, c.name, failure);
        const all = figures.get(c.id);
        const median = [...all].sort((a, b) => a.opsPerSec - b.opsPerSec)[all.length >> 1];
        const row = { id: c.id, section, name: c.name, ...median, roundOpsPerSec: all.map((f) => f.opsPerSec) };
        if (c.itemsPerOp !== undefined) {
            row.itemsPerOp = c.itemsPerOp;
            row.itemsPerSec = median.opsPerSec * c.itemsPerOp;
            row.itemUnit = c.itemUnit ?? "item";
        }
        if (c.note !== undefined)
            row.note = c.note;
        return row;
    });
}
/**
 * A case whose inputs come from code that may not exist yet or may fail (a protocol function still a
 * stub, a native module that does not load): `setup` builds the case and its `fn` is called once;
 * any failure becomes a skipped row instead of stopping the suite.
 */
export async function guarded(id, name, setup) {
    try {
        const c = await setup();
        await c.fn();
        return { id, name, ...c };
    }
    catch (error) {
        return { id, name, skipped: error instanceof Error ? error.message : String(error) };
    }
}
//# sourceMappingURL=suite.js.map