/**
 * `node dist/tools/loadgen/cli.js [--url URL] [--scenario writes|reads|mixed|blockclose|restart|all]
 *   [--concurrency N] [--duration S] [--quick] [--json out.json] …` — see `--help`.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { defaultLoadOptions, formatResults, runLoadScenarios, SCENARIOS, } from "./index.js";
const HELP = `ledgerd load generator

  node dist/tools/loadgen/cli.js [options]

  --url URL            load a running node (loopback only) instead of starting one
  --pid PID            pid of the node at --url, for its CPU and RSS (/proc)
  --scenario LIST      writes|reads|mixed|blockclose|restart|all, comma-separated
                       (default writes,reads,mixed,blockclose; all adds restart)
  --concurrency N      requests in flight (default 64)
  --duration S         seconds of each of writes, reads (all methods together) and mixed
                       (defaults 60, 20, 20)
  --quick              a few seconds per scenario, 1,000-entry block, 10 chains
  --entries N          pre-signed entries of the write phase; with restart: entries to store
  --block-entries N    entries that fill the block-close block (default 10000)
  --chains N           chains the entries are spread over (default 50)
  --content-bytes N    entry content size (default 64)
  --ack-sample N       after each write phase every acknowledged entry is looked up in the saved
                       entry blocks; N of them (default 500, 0 = all) are also asked with ack
  --blktime S          -blktime of a started node (default 6)
  --restart-signal SIG SIGTERM (default) or SIGKILL before the restart
  --node-flag F        extra ledgerd flag for a started node (repeatable), e.g. -verifythreads=1
  --node-arg A         extra node.js flag for a started node (repeatable), e.g. --cpu-prof
  --homedir DIR        data directory of a started node (kept)
  --keep-home          keep the temp data directory (its ledgerd.log has the node's output)
  --json FILE          write the full report (every figure, per-second timelines) as JSON
`;
function positiveNumber(name, v) {
    if (v === undefined)
        return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0)
        throw new Error(`--${name}: expected a positive number, got ${v}`);
    return n;
}
function parseScenarios(v, defaults) {
    if (v === undefined)
        return defaults;
    const out = [];
    for (const s of v.split(",").map((x) => x.trim())) {
        if (s === "all")
            out.push(...SCENARIOS);
        else if (SCENARIOS.includes(s))
            out.push(s);
        else
            throw new Error(`--scenario: unknown scenario ${s} (${SCENARIOS.join("|")}|all)`);
    }
    return [...new Set(out)];
}
async function main() {
    const { values } = parseArgs({
        options: {
            url: { type: "string" },
            pid: { type: "string" },
            scenario: { type: "string" },
            concurrency: { type: "string" },
            duration: { type: "string" },
            quick: { type: "boolean", default: false },
            entries: { type: "string" },
            "block-entries": { type: "string" },
            chains: { type: "string" },
            "content-bytes": { type: "string" },
            "ack-sample": { type: "string" },
            blktime: { type: "string" },
            "restart-signal": { type: "string" },
            "node-flag": { type: "string", multiple: true },
            "node-arg": { type: "string", multiple: true },
            homedir: { type: "string" },
            "keep-home": { type: "boolean", default: false },
            json: { type: "string" },
            help: { type: "boolean", short: "h", default: false },
        },
        strict: true,
    });
    if (values.help) {
        process.stdout.write(HELP);
        return;
    }
    const options = defaultLoadOptions(values.quick);
    options.scenarios = parseScenarios(values.scenario, options.scenarios);
    if (values.url !== undefined)
        options.url = values.url;
    const pid = positiveNumber("pid", values.pid);
    if (pid !== undefined)
        options.pid = pid;
    options.concurrency = Math.round(positiveNumber("concurrency", values.concurrency) ?? options.concurrency);
    const duration = positiveNumber("duration", values.duration);
    if (duration !== undefined) {
        options.writesSeconds = duration;
        options.readsSeconds = duration;
        options.mixedSeconds = duration;
    }
    const entries = positiveNumber("entries", values.entries);
    if (entries !== undefined) {
        options.writeEntries = Math.round(entries);
        options.restartEntries = Math.round(entries);
    }
    options.blockEntries = Math.round(positiveNumber("block-entries", values["block-entries"]) ?? options.blockEntries);
    options.chains = Math.round(positiveNumber("chains", values.chains) ?? options.chains);
    options.contentBytes = Math.round(positiveNumber("content-bytes", values["content-bytes"]) ?? options.contentBytes);
    if (values["ack-sample"] !== undefined) {
        const n = Number(values["ack-sample"]);
        if (!Number.isInteger(n) || n < 0)
            throw new Error(`--ack-sample: expected a whole number ≥ 0, got ${values["ack-sample"]}`);
        options.ackSample = n;
    }
    options.blockTimeSeconds = positiveNumber("blktime", values.blktime) ?? options.blockTimeSeconds;
    const signal = values["restart-signal"];
    if (signal !== undefined) {
        if (signal !== "SIGTERM" && signal !== "SIGKILL")
            throw new Error(`--restart-signal: SIGTERM or SIGKILL, got ${signal}`);
        options.restartSignal = signal;
    }
    options.nodeFlags = values["node-flag"] ?? [];
    options.nodeArgs = values["node-arg"] ?? [];
    if (values.homedir !== undefined)
        options.homeDir = values.homedir;
    options.keepHome = values["keep-home"];
    const report = await runLoadScenarios(options);
    const m = report.machine;
    console.log(`machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.os}, node ${m.node}, load average ${m.loadAverage1m} at start`);
    console.log(`node: ${report.node.url}${report.node.spawned ? ` (started by the generator, pid ${report.node.pid}, serving after ${report.node.startMs} ms)` : ""}, ${report.node.blockTimeSeconds} s blocks, version ${report.node.version ?? "?"}`);
    console.log(formatResults(report.results));
    for (const f of report.failures)
        console.log(`FAILED ${f}`);
    if (values.json !== undefined) {
        writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
        console.log(`written: ${values.json}`);
    }
    if (report.failures.length > 0)
        process.exitCode = 1;
}
// Exit on Ctrl-C / SIGTERM so that the 'exit' hook of runLoadScenarios stops a node it started.
for (const signal of ["SIGINT", "SIGTERM"])
    process.once(signal, () => {
        console.error(`loadgen: ${signal}: stopping`);
        process.exit(130);
    });
main().catch((e) => {
    console.error(e.stack ?? String(e));
    process.exitCode = 2;
});
//# sourceMappingURL=cli.js.map