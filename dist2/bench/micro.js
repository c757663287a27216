/**
 * The micro-benchmark suite (tinybench): crypto ceilings, protocol functions, the worker pool, LMDB.
 * `make bench` runs it through bench/run.ts; figures and what bounds them: docs/performance.md.
 */
import { cryptoRows } from "./crypto.bench.js";
import { protocolRows } from "./protocol.bench.js";
import { storeRows } from "./store.bench.js";
import { workersRows } from "./workers.bench.js";
/** Run every micro benchmark, one after another, and return one row per case (sections in table order). */
export async function runMicro() {
    const rows = [];
    rows.push(...(await cryptoRows()));
    rows.push(...(await protocolRows()));
    rows.push(...(await workersRows()));
    rows.push(...(await storeRows()));
    return rows;
}
//# sourceMappingURL=micro.js.map