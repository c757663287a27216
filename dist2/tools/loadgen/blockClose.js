/**
 * Block-close scenario: fill one block with entries spread over the session's chains (10,000 in 50 chains
 * by default) and, while that block closes, send a light read every ~10 ms from a separate thread.
 * Target: no light read waits more than 100 ms.
 */
import { Worker } from "node:worker_threads";
import { toHex } from "../../src/protocol/bytes.js";
import { CloseMonitor } from "./closeMonitor.js";
import { LatencyHistogram } from "./histogram.js";
import { sleep } from "./nodeProcess.js";
import { PhaseRecorder, runWorkers } from "./phase.js";
import { rpcBody } from "./presign.js";
import { round, TARGETS } from "./result.js";
import { entryWriter } from "./scenarios.js";
/** Probes within this many ms of the first answer that shows the block saved count as "during the close". */
const CLOSE_WINDOW_MS = 1000;
/** Poll `heights` until a new block starts; returns its height (the block the entries go to). */
async function waitForNewBlock(session) {
    const first = (await session.heights()).leaderheight;
    const deadline = performance.now() + session.blockWaitMs(2);
    for (;;) {
        const h = await session.heights();
        if (h.leaderheight > first)
            return h.leaderheight;
        if (performance.now() > deadline)
            throw new Error(`blockclose: no new block after ${session.blockWaitMs(2)} ms`);
        await sleep(10);
    }
}
/** The probe thread: `stop` asks it for its samples; `terminate` ends it without them (error paths). */
function runProber(config) {
    // execArgv: [] so flags of the parent (e.g. --input-type, --cpu-prof) do not apply to the probe thread
    const worker = new Worker(new URL("./probeWorker.js", import.meta.url), { workerData: config, execArgv: [] });
    const result = new Promise((resolve, reject) => {
        worker.once("message", (m) => resolve(m));
        worker.once("error", reject);
        worker.once("exit", (code) => reject(new Error(`probe worker exited with code ${code} before reporting`)));
    });
    // A worker that fails while the entries are still being sent must not be an unhandled rejection (which
    // ends the process, make bench included); stop() awaits `result` and reports the failure.
    result.catch(() => { });
    return {
        stop: async () => {
            worker.postMessage("stop");
            const r = await result;
            await worker.terminate();
            return r;
        },
        terminate: async () => {
            await worker.terminate();
        },
    };
}
function summarize(samples) {
    const h = new LatencyHistogram();
    for (const s of samples)
        h.recordMs(s.ms);
    return h.summary();
}
export async function blockCloseScenario(session, options) {
    const { log } = session.deps;
    const entries = session.presign(options.entries);
    const probeTarget = session.confirmed[0];
    const requests = [["heights", rpcBody("heights", undefined)]];
    if (session.chains.length > 0)
        requests.push(["chain-head", rpcBody("chain-head", { chainid: toHex(session.chains[0].chainId) })]);
    if (probeTarget !== undefined)
        requests.push(["entry", rpcBody("entry", { hash: probeTarget.entryHash })]);
    log(`blockclose: waiting for a new block, then ${options.entries} entries in ${session.chains.length} chains`);
    session.freshLoadClient();
    const startHeight = await waitForNewBlock(session);
    const maxMs = session.blockWaitMs(6);
    const closes = new CloseMonitor(session.control);
    closes.start();
    let prober;
    try {
        const probeStart = performance.now();
        prober = runProber({ url: session.options.url, intervalMs: options.probeIntervalMs, maxMs, requests });
        const rec = new PhaseRecorder();
        const acked = [];
        const mark = session.mark();
        await runWorkers({ concurrency: options.concurrency, durationMs: maxMs, maxErrors: 10_000 }, rec, entryWriter(session, entries, rec, acked).step);
        const submitSeconds = rec.elapsedSeconds;
        const lastHeight = (await session.heights()).leaderheight;
        log(`blockclose: ${acked.length} entries acknowledged in ${round(submitSeconds, 2)} s (blocks ${startHeight}…${lastHeight}); waiting for the close`);
        await session.waitForOpenBlockSaved();
        await sleep(CLOSE_WINDOW_MS);
        const { samples, skipped } = await prober.stop();
        const probeSeconds = (performance.now() - probeStart) / 1000;
        const nodeCloses = await closes.stop();
        const resources = session.usageSince(mark);
        // The first heights probe that saw the entries' first block saved marks the close.
        const closeSeen = samples
            .filter((s) => s.savedHeight !== undefined && s.savedHeight >= startHeight)
            .sort((a, b) => a.sentAt - b.sentAt)[0];
        const closeAt = closeSeen === undefined ? undefined : closeSeen.sentAt + closeSeen.ms;
        const during = closeAt === undefined ? [] : samples.filter((s) => Math.abs(s.sentAt - closeAt) <= CLOSE_WINDOW_MS);
        const all = summarize(samples);
        const near = summarize(during);
        const over = samples.filter((s) => s.ms > TARGETS.blockCloseMaxWaitMs).length;
        const probeErrors = samples.filter((s) => !s.ok).length;
        const confirmation = await session.confirm(acked, startHeight);
        const { perHeight: perBlock } = await session.chainEntries(startHeight, Math.max(startHeight, lastHeight));
        const largestBlock = Math.max(0, ...Object.values(perBlock));
        const seconds = round(rec.elapsedSeconds, 2);
        const result = {
            name: "blockclose",
            concurrency: options.concurrency,
            seconds,
            requests: rec.requests,
            requestsPerSecond: round(rec.requests / rec.elapsedSeconds),
            entries: acked.length,
            entriesPerSecond: round(acked.length / rec.elapsedSeconds),
            latency: rec.latency.summary(),
            byMethod: { ...rec.methodSummaries(), "probe (all)": all, "probe (±1 s of close)": near },
            errors: rec.errors + probeErrors,
            errorSamples: [...rec.errorSamples],
            confirmation,
            resources,
            targets: [
                {
                    name: "light-read max wait ms",
                    want: `≤ ${TARGETS.blockCloseMaxWaitMs}`,
                    measured: String(all.maxMs),
                    pass: samples.length > 0 && all.maxMs <= TARGETS.blockCloseMaxWaitMs,
                },
                {
                    name: "entries in one block",
                    want: `${options.entries}`,
                    measured: String(largestBlock),
                    pass: largestBlock >= options.entries,
                },
            ],
            notes: [
                `${samples.length} light reads (${requests.map((r) => r[0]).join("/")}) every ${options.probeIntervalMs} ms from a worker thread; ${over} over ${TARGETS.blockCloseMaxWaitMs} ms; ${skipped} skipped (32 already in flight)`,
                `entries of the load chains per block: ${JSON.stringify(perBlock)}`,
                ...nodeCloses.closes
                    .filter((c) => c.height >= startHeight && c.height <= lastHeight)
                    .map((c) => `node close of height ${c.height}: ${round(c.closeMs, 1)} ms of main thread, longest turn ${c.longestTurnMs === undefined ? "?" : round(c.longestTurnMs, 1)} ms; writer thread ${c.writeMs === undefined ? "?" : round(c.writeMs, 1)} ms`),
            ],
            details: {
                submitSeconds: round(submitSeconds, 2),
                startHeight,
                lastHeight,
                perBlock,
                probes: samples.length,
                probeSeconds: round(probeSeconds, 2),
                probesOver100ms: over,
                probeErrors,
                probeMaxMs: all.maxMs,
                probeMaxNearCloseMs: near.maxMs,
                closeObserved: closeAt !== undefined,
                nodeBlockCloses: nodeCloses,
                nodeCloseMsOfLoadedBlocks: nodeCloses.closes.filter((c) => c.height >= startHeight && c.height <= lastHeight),
            },
        };
        if (options.entries > TARGETS.blockEntries / 2 && largestBlock < options.entries)
            result.notes.push(`the ${options.entries} entries did not fit one ${session.blockTimeSeconds} s block: the write rate (${result.entriesPerSecond}/s) bounds the block size`);
        return result;
    }
    finally {
        await closes.stop(); // never leave the poller or the probe thread running when the scenario throws
        await prober?.terminate();
    }
}
//# sourceMappingURL=blockClose.js.map