/**
 * End-to-end load generator: starts a node (or uses one at `url`), prepares it untimed, runs the chosen
 * scenarios and reports throughput, latency, errors, lost entries and the node's CPU and memory.
 * `runLoad()` is what `make bench` calls (bench/run.ts); the CLI is cli.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, loadavg, platform, release, tmpdir, totalmem } from "node:os";
import path from "node:path";
import type { BenchRow } from "../../bench/row.js";
import { blockCloseScenario } from "./blockClose.js";
import type { BlockClose, CloseFigures } from "./closeMonitor.js";
import { freeLoopbackPort, NodeProcess, ProcessMonitor } from "./nodeProcess.js";
import { restartScenario } from "./restart.js";
import { round, type ScenarioResult } from "./result.js";
import { mixedScenario, readsScenario, writesScenario } from "./scenarios.js";
import { LoadSession } from "./session.js";

export { formatResults, type ScenarioResult } from "./result.js";

export const SCENARIOS = ["writes", "reads", "mixed", "blockclose", "restart"] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface LoadOptions {
  /** a running node to load (loopback only); absent = spawn one on a free port with a temp data directory */
  url?: string;
  /** pid of the node at `url`, to read its CPU and memory from /proc */
  pid?: number;
  scenarios: Scenario[];
  /** requests in flight */
  concurrency: number;
  /** seconds of the write phase */
  writesSeconds: number;
  /** seconds of all read phases together (one phase per method) */
  readsSeconds: number;
  /** seconds of the mixed phase */
  mixedSeconds: number;
  /** pre-signed entries of the write phase (default: WRITE_ENTRIES_PER_SECOND per second of it) */
  writeEntries?: number;
  /** entries that fill the block of the block-close scenario */
  blockEntries: number;
  /** entries stored before the restart scenario restarts the node */
  restartEntries: number;
  /** SIGTERM (graceful) or SIGKILL (crash recovery) for the restart scenario */
  restartSignal: NodeJS.Signals;
  chains: number;
  /** after each write phase, acknowledged entries found in blocks whose `ack` status is also asked (0 = all) */
  ackSample: number;
  /** content bytes of each entry */
  contentBytes: number;
  /** -blktime of a spawned node, seconds */
  blockTimeSeconds: number;
  /** ms between light reads of the block-close scenario */
  probeIntervalMs: number;
  /** extra flags for a spawned node (e.g. -verifythreads=1) */
  nodeFlags: string[];
  /** extra node.js flags for a spawned node (e.g. --cpu-prof --cpu-prof-dir=DIR) */
  nodeArgs: string[];
  /** data directory of a spawned node (default: a new temp directory, removed at the end) */
  homeDir?: string;
  keepHome: boolean;
  /** progress lines */
  log: (line: string) => void;
}

/**
 * Pre-signed entries per second of a write phase, above the fastest rate seen so the phase never runs dry (a phase
 * that runs dry measures less than its duration). 5,000 ran out after 13.6 s of a 20-s phase at 7,352 entries/s
 * (00:55, 2026-11-28); 10,000 (1.25× issue 16's 8,000 entries/s) ran out after 57.4 s of `make bench`'s 60-s phase
 * at 10,458 entries/s (2026-12-01 00:10). ~1.1 KB of generator memory and ~27 µs of pre-signing per entry, so the
 * 60-s phase costs ~0.9 GB and ~23 s before the clock starts.
 */
const WRITE_ENTRIES_PER_SECOND = 14_000;
/** Pre-signed entries per second of the mixed phase (half the workers write). */
const MIXED_ENTRIES_PER_SECOND = 2000;

/** Defaults: the durations, or a few seconds each with `quick` (tests, smoke runs). */
export function defaultLoadOptions(quick = false): LoadOptions {
  return {
    scenarios: ["writes", "reads", "mixed", "blockclose"],
    concurrency: 64,
    writesSeconds: quick ? 3 : 60,
    readsSeconds: quick ? 2.5 : 20,
    mixedSeconds: quick ? 2 : 20,
    blockEntries: quick ? 1000 : 10_000,
    restartEntries: quick ? 2000 : 100_000,
    restartSignal: "SIGTERM",
    chains: quick ? 10 : 50,
    ackSample: 500,
    contentBytes: 64,
    blockTimeSeconds: 6,
    probeIntervalMs: 10,
    nodeFlags: [],
    nodeArgs: [],
    keepHome: false,
    log: (line) => console.error(`loadgen: ${line}`),
  };
}

/** The machine the figures belong to. */
export interface MachineInfo {
  cpuModel: string;
  cpus: number;
  memoryGiB: number;
  node: string;
  os: string;
  /** 1-minute load average when the run started: other work on a shared machine shows here */
  loadAverage1m: number;
}

export function describeMachine(): MachineInfo {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    cpus: availableParallelism(),
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    node: process.version,
    os: `${platform()} ${release()}`,
    loadAverage1m: round(loadavg()[0]!, 2),
  };
}

export interface LoadReport {
  date: string;
  machine: MachineInfo;
  node: { url: string; spawned: boolean; pid?: number; startMs?: number; blockTimeSeconds: number; version?: string };
  options: Omit<LoadOptions, "log">;
  results: ScenarioResult[];
  /** scenarios that threw, with the message */
  failures: string[];
}

/** Run the scenarios of `options`; never leaves a spawned node running. */
export async function runLoadScenarios(options: LoadOptions): Promise<LoadReport> {
  const { log } = options;
  const machine = describeMachine();
  let node: NodeProcess | undefined;
  let homeDir: string | undefined;
  const failures: string[] = [];
  const results: ScenarioResult[] = [];
  let session: LoadSession | undefined;
  let nodeVersion: string | undefined;
  const killOnExit = () => {
    if (node?.running === true) node.killNow();
  };
  const report = (): LoadReport => {
    const { log: _log, ...rest } = options;
    return {
      date: new Date().toISOString(),
      machine,
      node: {
        url: node?.url ?? options.url ?? "",
        spawned: node !== undefined,
        pid: node?.pid ?? options.pid,
        startMs: node === undefined ? undefined : round(node.readyMs),
        blockTimeSeconds: session?.blockTimeSeconds ?? options.blockTimeSeconds,
        version: nodeVersion,
      },
      options: rest,
      results,
      failures,
    };
  };
  try {
    if (options.url === undefined) {
      homeDir = options.homeDir ?? mkdtempSync(path.join(tmpdir(), "ledgerd-load-"));
      const port = await freeLoopbackPort();
      log(`starting ledgerd on 127.0.0.1:${port}, data in ${homeDir}, -blktime=${options.blockTimeSeconds}`);
      node = await NodeProcess.start({
        homeDir,
        port,
        blockTimeSeconds: options.blockTimeSeconds,
        extraArgs: options.nodeFlags,
        nodeArgs: options.nodeArgs,
        logPath: path.join(homeDir, "ledgerd.log"),
        startTimeoutMs: 60_000,
      });
      log(`ledgerd pid ${node.pid} serving after ${round(node.readyMs)} ms`);
    }
    // If the generator exits early (Ctrl-C, a timeout's SIGTERM: the CLI turns both into exit), the node
    // it started must not outlive it. `node` changes when the restart scenario restarts it.
    process.on("exit", killOnExit);
    const url = node?.url ?? options.url!;
    const monitor = node?.monitor ?? (options.pid === undefined ? undefined : new ProcessMonitor(options.pid));
    const writeEntries = options.writeEntries ?? Math.ceil(options.writesSeconds * WRITE_ENTRIES_PER_SECOND);
    const mixedEntries = Math.ceil(options.mixedSeconds * MIXED_ENTRIES_PER_SECOND);
    const has = (s: Scenario) => options.scenarios.includes(s);
    const credits =
      options.chains * 20 +
      1000 + // read seed
      (has("writes") ? writeEntries : 0) +
      (has("mixed") ? mixedEntries : 0) +
      (has("blockclose") ? options.blockEntries : 0) +
      (has("restart") ? options.restartEntries : 0) +
      10_000;
    session = new LoadSession(
      {
        url,
        concurrency: options.concurrency,
        chains: options.chains,
        contentBytes: options.contentBytes,
        credits,
        requestTimeoutMs: 30_000,
        waitChainsConfirmed: true,
        ackSample: options.ackSample,
      },
      { monitor, log },
    );
    try {
      nodeVersion = (await session.control.call<{ nodeversion?: string }>("properties")).nodeversion;
    } catch {
      nodeVersion = undefined;
    }
    await session.setup();
    for (const scenario of options.scenarios) {
      try {
        switch (scenario) {
          case "writes":
            results.push(
              await writesScenario(session, {
                concurrency: options.concurrency,
                durationSeconds: options.writesSeconds,
                entries: writeEntries,
              }),
            );
            break;
          case "reads":
            results.push(
              ...(await readsScenario(session, {
                concurrency: options.concurrency,
                durationSeconds: options.readsSeconds,
              })),
            );
            break;
          case "mixed":
            results.push(
              await mixedScenario(session, {
                concurrency: options.concurrency,
                durationSeconds: options.mixedSeconds,
                entries: mixedEntries,
              }),
            );
            break;
          case "blockclose":
            results.push(
              await blockCloseScenario(session, {
                entries: options.blockEntries,
                concurrency: options.concurrency,
                probeIntervalMs: options.probeIntervalMs,
              }),
            );
            break;
          case "restart": {
            if (node === undefined) {
              failures.push("restart: needs a node started by the load generator (not --url)");
              break;
            }
            const r = await restartScenario(session, node, {
              entries: options.restartEntries,
              concurrency: options.concurrency,
              chunk: 50_000,
              signal: options.restartSignal,
              maxWriteSeconds: 3600,
            });
            node = r.node;
            results.push(r.result);
            break;
          }
        }
      } catch (e) {
        const message = `${scenario}: ${(e as Error).stack ?? String(e)}`;
        failures.push(message);
        log(`FAILED ${message}`);
        if (node !== undefined && !node.running) {
          failures.push(`ledgerd exited (${node.exitDescription}); remaining scenarios skipped`);
          break;
        }
      }
    }
  } finally {
    process.off("exit", killOnExit);
    session?.close();
    if (node !== undefined) {
      await node.stop("SIGTERM");
      log(`ledgerd stopped`);
    }
    if (homeDir !== undefined && options.homeDir === undefined && !options.keepHome)
      rmSync(homeDir, { recursive: true, force: true });
  }
  return report();
}

const µs = (ms: number) => (Number.isNaN(ms) ? 0 : Math.round(ms * 1000));

/** Bench rows (section "load") of a report: one per scenario phase. */
export function benchRows(report: LoadReport): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const r of report.results) {
    const misses = r.targets.filter((t) => !t.pass).map((t) => `${t.name} ${t.measured} (want ${t.want})`);
    const res = r.resources;
    const perEntry =
      r.entries === undefined || r.entries === 0 || res.nodeCpuSeconds === undefined
        ? ""
        : ` = ${Math.round((res.nodeCpuSeconds / r.entries) * 1e6)} µs per entry` +
          (res.nodeMainCpuSeconds === undefined
            ? ""
            : ` (main thread ${Math.round((res.nodeMainCpuSeconds / r.entries) * 1e6)} µs)`);
    const quiet =
      r.restQuiet === undefined
        ? ""
        : `, ${r.restQuiet.rssAnonMiB} MiB after ${r.restQuiet.secondsQuiet} s more without requests`;
    const rest =
      r.rest === undefined
        ? ""
        : `, ${r.rest.rssAnonMiB} MiB ${r.rest.secondsAfter} s after the load (its check done)${quiet}`;
    const cpu =
      `node cpu ${res.nodeCpuCores ?? "?"} cores (main thread ${res.nodeMainThreadCores ?? "?"})${perEntry}, ` +
      `generator ${res.loadgenCpuCores}, machine ${res.machineBusyCores ?? "?"} cores busy; ` +
      `node RssAnon peak ${res.nodePeakRssAnonMiB ?? "?"} MiB${rest}`;
    const base = {
      section: "load",
      meanUs: µs(r.latency.meanMs),
      p99Us: µs(r.latency.p99Ms),
      samples: r.requests,
    };
    const lost = r.confirmation === undefined ? "" : `, ${r.confirmation.lost} lost of ${r.confirmation.checked}`;
    const closeFigures = r.details?.nodeBlockCloses as CloseFigures | undefined;
    const closes = closeFigures?.maxCloseMs;
    const turn = closeFigures?.maxLongestTurnMs;
    const write = closeFigures?.maxWriteMs;
    const extra = [
      r.details?.readsPerSecond === undefined ? "" : `; reads ${String(r.details.readsPerSecond)}/s`,
      closes === undefined ? "" : `; node block close ≤ ${round(closes)} ms`,
      turn === undefined ? "" : ` (longest turn ≤ ${round(turn)} ms)`,
      write === undefined ? "" : `; writer-thread save ≤ ${round(write)} ms`,
      misses.length > 0 ? `; MISS ${misses.join("; ")}` : "",
    ].join("");
    const tail = `p99 ${r.latency.p99Ms} ms, max ${r.latency.maxMs} ms, ${r.errors} errors${lost}; ${cpu}${extra}`;
    if (r.name === "blockclose") {
      const d = r.details ?? {};
      const probe = r.byMethod["probe (all)"];
      rows.push({
        id: "load.blockclose.probe",
        section: "load",
        name: `block close: light reads every 10 ms while ${r.entries} entries close (max wait)`,
        opsPerSec: probe === undefined ? 0 : round(probe.count / Number(d.probeSeconds)),
        meanUs: µs(probe?.meanMs ?? Number.NaN),
        p99Us: µs(probe?.p99Ms ?? Number.NaN),
        samples: probe?.count ?? 0,
        note: `max ${probe?.maxMs} ms (target ≤ 100), ${String(d.probesOver100ms)} over 100 ms; entries per block ${JSON.stringify(d.perBlock)}; node block close ${JSON.stringify((d.nodeCloseMsOfLoadedBlocks as BlockClose[] | undefined)?.map((c) => round(c.closeMs)) ?? [])} ms; ${cpu}`,
      });
      continue;
    }
    const entryRow = r.entries !== undefined && r.requests > 0;
    rows.push({
      id: `load.${r.name.replace("/", ".")}`,
      ...base,
      name: `${r.name} (${r.concurrency} in flight, ${r.seconds} s)`,
      opsPerSec: r.requestsPerSecond,
      ...(entryRow
        ? { itemsPerOp: round(r.entries! / r.requests, 3), itemsPerSec: r.entriesPerSecond!, itemUnit: "entry" }
        : {}),
      note: tail,
    });
    if (r.entries !== undefined && r.entries > 0) {
      const usPerEntry = round(((res.nodeCpuSeconds ?? 0) / r.entries) * 1e6);
      /** The write figure against one of its two units (issue 35): around the phase, or beside the writes. */
      const figureRow = (idSuffix: string, name: string, unitText: string, figure: number | undefined): void => {
        if (figure === undefined) return;
        rows.push({
          id: `load.${r.name.replace("/", ".")}.${idSuffix}`,
          section: "load",
          name: `${r.name}: ${name}`,
          opsPerSec: r.entriesPerSecond ?? 0,
          meanUs: usPerEntry,
          p99Us: µs(r.latency.p99Ms),
          samples: r.entries!,
          itemUnit: "entry",
          note: `${usPerEntry} µs of node CPU per entry ÷ ${unitText} = ${figure}`,
          budget: { value: figure, limit: 3, unit: "verifies/entry" },
        });
      };
      figureRow(
        "signatureChecks",
        "node CPU per entry in single-thread libsodium verifies (target ≤ 3.0)",
        `${r.verifyUs} µs per verify`,
        r.signatureChecksPerEntry,
      );
      figureRow(
        "signatureChecksInRun",
        "the same in libsodium verifies measured beside the writes (verifyUnitDuring.ts)",
        `${r.verifyUsInRun} µs per verify beside the writes`,
        r.signatureChecksPerEntryInRun,
      );
    }
  }
  for (const f of report.failures)
    rows.push({
      id: "load.failure",
      section: "load",
      name: "load scenario failed",
      opsPerSec: 0,
      meanUs: 0,
      p99Us: 0,
      samples: 0,
      note: `skipped: ${f.split("\n")[0]}`,
    });
  return rows;
}

/**
 * `make bench`: spawn a node (free loopback port, temp data directory, -blktime=6), run writes 60 s (issue
 * 16's write target is a rate held for 60 s), reads 15 s (3 s per method), mixed 10 s and the 10,000-entry
 * block close, stop the node, return rows. Reads and mixed are shorter than the CLI defaults so the whole
 * bench finishes in a few minutes; `opts` overrides.
 */
export async function runLoad(opts: Partial<LoadOptions> = {}): Promise<BenchRow[]> {
  const options: LoadOptions = {
    ...defaultLoadOptions(false),
    writesSeconds: 60,
    readsSeconds: 15,
    mixedSeconds: 10,
    ...opts,
  };
  try {
    return benchRows(await runLoadScenarios(options));
  } catch (e) {
    // bench/README.md: a load benchmark that cannot run returns a skipped row instead of rejecting
    const reason = (e as Error).message.split("\n")[0]!;
    return [
      {
        id: "load.setup",
        section: "load",
        name: "end-to-end load",
        opsPerSec: 0,
        meanUs: 0,
        p99Us: 0,
        samples: 0,
        note: `skipped: ${reason}`,
      },
    ];
  }
}
