/**
 * Restart scenario (optional, own node only): store N entries, stop the node, start it on the same data
 * directory and measure the time until it serves again and its memory. N = 1,000,000 is the issue's
 * figure; at this machine's write rate that takes many minutes, so N is a flag.
 */
import { execFileSync } from "node:child_process";
import { NodeProcess } from "./nodeProcess.js";
import { PhaseRecorder, runWorkers } from "./phase.js";
import { rpcBody } from "./presign.js";
import { round } from "./result.js";
/** Bytes under `dir` (du -sb), undefined when du is missing. */
function diskBytes(dir) {
    try {
        return Number(execFileSync("du", ["-sb", dir], { encoding: "utf8" }).split(/\s/)[0]);
    }
    catch {
        return undefined;
    }
}
export async function restartScenario(session, node, options) {
    const { log } = session.deps;
    const rec = new PhaseRecorder();
    let stored = 0;
    const writeStart = performance.now();
    const mark = session.mark();
    let lastEntry;
    while (stored < options.entries && (performance.now() - writeStart) / 1000 < options.maxWriteSeconds) {
        const entries = session.presign(Math.min(options.chunk, options.entries - stored));
        session.freshLoadClient();
        let next = 0;
        // one recorder over all chunks: its error budget (1000) is the whole scenario's
        await runWorkers({ concurrency: options.concurrency, durationMs: options.maxWriteSeconds * 1000, maxErrors: 1000 }, rec, async () => {
            const i = next++;
            if (i >= entries.length)
                return false;
            const e = entries[i];
            const c = await session.load.post(e.commitBody, "/v2", false);
            rec.record("commit-entry", c);
            if (c.error !== undefined)
                return true;
            const r = await session.load.post(e.revealBody, "/v2", false);
            if (rec.record("reveal-entry", r)) {
                stored++;
                lastEntry = e;
            }
            return true;
        });
        log(`restart: ${stored} entries stored (${round(stored / ((performance.now() - writeStart) / 1000))} entries/s)`);
        if (rec.errors > 1000)
            break;
    }
    const writeSeconds = (performance.now() - writeStart) / 1000;
    const writeUse = session.usageSince(mark);
    const savedBefore = await session.waitForOpenBlockSaved();
    const before = node.monitor.memory();
    const disk = diskBytes(node.options.homeDir);
    log(`restart: stopping the node (${options.signal}) with ${stored} entries; data directory ${disk ?? "?"} bytes`);
    await node.stop(options.signal);
    const restarted = await NodeProcess.start({ ...node.options, startTimeoutMs: 600_000 });
    session.reconnect(restarted.url, restarted.monitor);
    const servingMs = restarted.readyMs;
    const atReady = restarted.monitor.memory();
    // First data read after the restart: the last stored entry.
    let firstEntryMs;
    if (lastEntry !== undefined) {
        const t0 = performance.now();
        for (let i = 0; i < 500; i++) {
            const reply = await session.control.post(rpcBody("entry", { hash: lastEntry.entryHash }));
            if (reply.error === undefined) {
                firstEntryMs = performance.now() - t0;
                break;
            }
            await new Promise((r) => setTimeout(r, 20));
        }
    }
    const settled = restarted.monitor.memory();
    const savedAfter = (await session.heights()).directoryblockheight;
    const mib = (b) => (b === undefined ? undefined : round(b / 2 ** 20, 1));
    const result = {
        name: "restart",
        concurrency: options.concurrency,
        seconds: round(writeSeconds, 2),
        requests: rec.requests,
        requestsPerSecond: round(rec.requests / writeSeconds),
        entries: stored,
        entriesPerSecond: round(stored / writeSeconds),
        latency: rec.latency.summary(),
        byMethod: rec.methodSummaries(),
        errors: rec.errors,
        errorSamples: [...rec.errorSamples],
        resources: {
            ...writeUse,
            nodeRssMiB: mib(settled?.rssBytes),
            nodeRssAnonMiB: mib(settled?.anonBytes),
            nodePeakRssMiB: mib(settled?.peakRssBytes),
        },
        targets: [],
        notes: [
            `${stored} entries stored (asked ${options.entries}); ${options.signal} then start: serving (heights answers) after ${round(servingMs)} ms, first entry read ${firstEntryMs === undefined ? "failed" : `${round(firstEntryMs, 1)} ms`} later`,
            `node RSS before stop ${mib(before?.rssBytes)} MiB (anonymous ${mib(before?.anonBytes)}, mapped files ${mib(before?.fileBytes)}); after the restart ${mib(atReady?.rssBytes)} MiB at ready, ${mib(settled?.rssBytes)} MiB after the first entry read`,
        ],
        details: {
            storedEntries: stored,
            savedHeightBeforeStop: savedBefore,
            savedHeightAfterRestart: savedAfter,
            signal: options.signal,
            restartToServingMs: round(servingMs),
            firstEntryReadMs: firstEntryMs === undefined ? undefined : round(firstEntryMs, 1),
            rssBeforeStopMiB: mib(before?.rssBytes),
            rssAnonBeforeStopMiB: mib(before?.anonBytes),
            rssAtReadyMiB: mib(atReady?.rssBytes),
            dataDirectoryBytes: disk,
        },
    };
    return { result, node: restarted };
}
//# sourceMappingURL=restart.js.map