/**
 * The read comparison of `make bench` (issue 16): each read method of the node against a bare uWebSockets.js
 * server (bareServer.ts) that parses the same JSON-RPC request and answers a fixed result, both driven by
 * the same generator (wrk, one thread, 64 connections; worker threads where wrk is absent — httpLoad.ts)
 * in the same run, on a node holding a realistic store (a write run of `fillSeconds` first).
 *
 * Per method: `seconds` of the bare server and `seconds` of the node (after an untimed warm-up), each in two
 * halves run in the order bare, node, node, bare (ABBA); the method's ratio is the node's req/s over the bare
 * server's, both summed over their halves. Bare and node runs share the same minutes, and a host that speeds
 * up or slows down steadily across them moves both sides alike: the order cancels that drift, where one bare
 * run then one node run took all of it into the ratio (the light reads' ratios moved 0.80–1.09 between runs
 * of the same build; docs/performance.md §Reads). Read targets are taken from the saved blocks the fill
 * wrote (entries, their chains and entry blocks, the loaded directory blocks), cycled through.
 *
 *   node dist/bench/reads.js [--fill-seconds=30] [--fill-chains=50] [--seconds=4] [--methods=heights,entry]
 *                            [--generator=wrk|threads] [--home=DIR] [--node-arg=--cpu-prof ...] [--ledgerd-arg=-httpfront ...]
 * With --home the data directory is kept and a second run can skip the fill (--fill-seconds=0).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { keyPairFromPrivate } from "../src/protocol/address.js";
import { freeLoopbackPort, NodeProcess, ProcessMonitor } from "../tools/loadgen/nodeProcess.js";
import { rpcBody } from "../tools/loadgen/presign.js";
import { writesScenario } from "../tools/loadgen/scenarios.js";
import { LOCAL_GENESIS_PRIVATE_KEY, LoadSession } from "../tools/loadgen/session.js";
import { findWrk, type HttpLoadOptions, type HttpLoadResult, threadLoad, wrkRun } from "./httpLoad.js";
import type { BenchRow } from "./row.js";

/**
 * The methods compared, in the order they run, with the target ratio to the bare server: issue 35's (issue
 * 16's were 0.8 / 0.6 / 0.4). The light reads are the bare stack plus the JSON-RPC envelope; the others
 * add a store read and a larger answer.
 */
export const READ_TARGETS = {
  heights: 0.9,
  properties: 0.9,
  "chain-head": 0.9,
  "asset-balance": 0.7,
  "entry-credit-balance": 0.7,
  entry: 0.7,
  "dblock-by-height": 0.7,
  "entry-block": 0.7,
} as const;
export type ComparedMethod = keyof typeof READ_TARGETS;

/** The latency target at 64 connections, µs. */
export const READ_P99_TARGET_US = 5000;

/**
 * Answers at least this long (the median of a method's targets, bytes) are also compared with a bare server
 * sending answers of the same lengths (bareServer.ts `FixedAnswer`): for `entry-block` and `dblock-by-height`
 * the fill's blocks make answers of tens of KB, and sending them, not the node's work, is most of their cost.
 * That server answers the request for target `i` (its id) with exactly as many bytes as the node does, each
 * target's from a buffer of its own, so it sends the same bytes per request, from memory as cold as the node's
 * remembered answers.
 * The target is judged against the small fixed result, as issue 35 states it; the second ratio says how much
 * of the gap is the node's own.
 */
const SAME_BYTES_FROM = 4096;
/** Targets of a method whose answers are fetched to measure their median length (spread over its targets). */
const SIZE_SAMPLES = 25;

/** Most distinct request bodies per method (the wrk script holds them all). */
const MAX_BODIES = 10_000;
/** Saved directory blocks read for targets, newest first. */
const MAX_TARGET_HEIGHTS = 200;

export interface ReadBenchOptions {
  /** seconds of the write run that fills the store first; 0 = use the store as it is */
  fillSeconds: number;
  /**
   * chains the fill's entries are spread over (default 50, `make bench`'s): at a given rate, more chains make smaller
   * entry blocks, so `entry-block`'s answers shrink (at 50 chains and ~10,000 entries/s, 6-s blocks: 129–140 KB)
   */
  fillChains: number;
  /** seconds of load on each side (bare and node, per method), run as two halves of whole seconds each: bare, node, node, bare */
  seconds: number;
  /** untimed seconds of load on the node before each timed run */
  warmupSeconds: number;
  connections: number;
  methods: ComparedMethod[];
  generator: "auto" | "wrk" | "threads";
  /** data directory (kept); absent = a temp directory, removed at the end */
  home?: string;
  /** extra node.js flags of the node (e.g. --cpu-prof --cpu-prof-dir=DIR) */
  nodeArgs: string[];
  /** extra ledgerd flags (e.g. -httpfront) */
  ledgerdArgs: string[];
  log: (line: string) => void;
}

export function defaultReadBenchOptions(): ReadBenchOptions {
  return {
    fillSeconds: 30,
    fillChains: 50,
    seconds: 4,
    warmupSeconds: 1,
    connections: 64,
    methods: Object.keys(READ_TARGETS) as ComparedMethod[],
    generator: "auto",
    nodeArgs: [],
    ledgerdArgs: [],
    log: (line) => console.error(`reads: ${line}`),
  };
}

/** One method's comparison. */
export interface MethodComparison {
  method: ComparedMethod;
  bare: HttpLoadResult;
  node: HttpLoadResult;
  /** node req/s ÷ bare req/s */
  ratio: number;
  target: number;
  /** node CPU over the node's run, cores (all threads; 1 = one core), and its main thread alone */
  nodeCpuCores: number | undefined;
  nodeMainThreadCores: number | undefined;
  /** the bare server's CPU over its run, cores */
  bareCpuCores: number | undefined;
  /** distinct request bodies cycled through */
  targets: number;
  /** CPU µs per request, all threads: the node's and the bare server's */
  nodeCpuUs: number | undefined;
  bareCpuUs: number | undefined;
  /** the median length of the method's answers (over SIZE_SAMPLES of its targets; over all when ≥ SAME_BYTES_FROM), bytes */
  answerBytes: number;
  /** a bare server sending each target's answer as long as the node's (only when `answerBytes` ≥ SAME_BYTES_FROM) */
  bareSameBytes?: HttpLoadResult;
  /** node req/s ÷ bareSameBytes req/s */
  ratioSameBytes?: number;
  /**
   * bare CPU per request ÷ node CPU per request: the ratio the node would reach with a core of its own,
   * steadier than `ratio` while other work takes turns on the cores
   */
  cpuRatio: number | undefined;
}

export interface ReadComparison {
  generator: string;
  entriesStored: number;
  savedHeight: number;
  loadAverage1m: number;
  methods: MethodComparison[];
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Bodies of one method from the node's saved blocks. */
async function readTargets(
  session: LoadSession,
  ecAddress: string,
): Promise<{ bodies: Record<ComparedMethod, string[]>; savedHeight: number }> {
  const c = session.control;
  const { directoryblockheight: top } = await session.heights();
  const chains = new Set<string>();
  const entryBlocks: string[] = [];
  const entries: string[] = [];
  const heights: number[] = [];
  for (let h = top; h >= Math.max(0, top - MAX_TARGET_HEIGHTS + 1); h--) {
    const d = await c.call<{ dblock: { dbentries: { chainid: string; keymr: string }[] } }>("dblock-by-height", {
      height: h,
    });
    const ebs = d.dblock.dbentries.filter((e) => !/^0{63}[0-9a-f]$/.test(e.chainid));
    if (ebs.length > 0) heights.push(h);
    for (const e of ebs) {
      chains.add(e.chainid);
      entryBlocks.push(e.keymr);
      if (entries.length >= MAX_BODIES) continue;
      const eb = await c.call<{ entrylist: { entryhash: string }[] }>("entry-block", { keymr: e.keymr });
      for (const item of eb.entrylist) if (entries.length < MAX_BODIES) entries.push(item.entryhash);
    }
  }
  if (entries.length === 0) throw new Error("the node holds no entries to read (run with --fill-seconds > 0)");
  const genesis = keyPairFromPrivate(LOCAL_GENESIS_PRIVATE_KEY).publicAddress;
  const many = <T>(list: readonly T[], f: (x: T, i: number) => string) => list.slice(0, MAX_BODIES).map(f);
  return {
    savedHeight: top,
    bodies: {
      heights: [rpcBody("heights", undefined)],
      properties: [rpcBody("properties", undefined)],
      "chain-head": many([...chains], (chainid, i) => rpcBody("chain-head", { chainid }, i)),
      "asset-balance": [rpcBody("asset-balance", { address: genesis })],
      "entry-credit-balance": [rpcBody("entry-credit-balance", { address: ecAddress })],
      entry: many(entries, (hash, i) => rpcBody("entry", { hash }, i)),
      "dblock-by-height": many(heights, (height, i) => rpcBody("dblock-by-height", { height }, i)),
      "entry-block": many(entryBlocks, (keymr, i) => rpcBody("entry-block", { keymr }, i)),
    },
  };
}

/** The length in bytes of the node's answer to each of `bodies`, in their order, from `url`. */
async function answerLengths(url: string, bodies: readonly string[]): Promise<number[]> {
  const lengths: number[] = [];
  for (const body of bodies) {
    const reply = await fetch(`${url}/v2`, { method: "POST", body });
    lengths.push((await reply.arrayBuffer()).byteLength);
  }
  return lengths;
}

/** Up to SIZE_SAMPLES of `bodies`, spread over them: enough for a median, without asking for every target. */
function sampled(bodies: readonly string[]): string[] {
  const step = Math.max(1, Math.floor(bodies.length / SIZE_SAMPLES));
  return bodies.filter((_, i) => i % step === 0).slice(0, SIZE_SAMPLES);
}

/** The median of `values` (0 when there are none). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Start bareServer.js as a child process on a free loopback port, answering id `i` with `lengths[i]` bytes (none: small). */
async function startBare(lengths: readonly number[] = []): Promise<{ child: ChildProcess; port: number }> {
  const port = await freeLoopbackPort();
  const file = fileURLToPath(new URL("./bareServer.js", import.meta.url));
  const child = spawn(process.execPath, [file, String(port), lengths.join(",")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`bare server exited (${code}) before listening`)));
    child.once("error", reject);
  });
  return { child, port };
}

/** What a run gave, with the CPU cores the measured process used meanwhile (all threads, and its main thread). */
type Measured<T> = { value: T; cores?: number; mainCores?: number };

/** One side's load over its runs, as the runs were one. */
type MeasuredLoad = Measured<HttpLoadResult>;

/** CPU cores a process used while `run` ran. */
async function withCpu<T>(monitor: ProcessMonitor | undefined, run: () => Promise<T>): Promise<Measured<T>> {
  const t0 = performance.now();
  const cpu0 = monitor?.cpuSeconds();
  const main0 = monitor?.mainThreadCpuSeconds();
  const value = await run();
  const wall = (performance.now() - t0) / 1000;
  const cpu1 = monitor?.cpuSeconds();
  const main1 = monitor?.mainThreadCpuSeconds();
  return {
    value,
    cores: cpu0 === undefined || cpu1 === undefined ? undefined : round((cpu1 - cpu0) / wall),
    mainCores: main0 === undefined || main1 === undefined ? undefined : round((main1 - main0) / wall),
  };
}

/**
 * Two runs of one side as one: requests, seconds and errors summed; the mean weighted by requests; p50, p99
 * and max the larger of the two (a percentile of the union is not kept by either generator: the larger is
 * the cautious reading of the p99 target); cores weighted by seconds (undefined when either run lacks them).
 */
export function bothHalves(a: MeasuredLoad, b: MeasuredLoad): MeasuredLoad {
  const x = a.value;
  const y = b.value;
  const requests = x.requests + y.requests;
  const seconds = x.seconds + y.seconds;
  const value: HttpLoadResult = {
    requests,
    seconds,
    errors: x.errors + y.errors,
    p50Us: Math.max(x.p50Us, y.p50Us),
    p99Us: Math.max(x.p99Us, y.p99Us),
    maxUs: Math.max(x.maxUs, y.maxUs),
    meanUs: requests === 0 ? 0 : (x.meanUs * x.requests + y.meanUs * y.requests) / requests,
  };
  const weighted = (p: number | undefined, q: number | undefined) =>
    p === undefined || q === undefined || seconds === 0 ? undefined : round((p * x.seconds + q * y.seconds) / seconds);
  const cores = weighted(a.cores, b.cores);
  const mainCores = weighted(a.mainCores, b.mainCores);
  return {
    value,
    ...(cores === undefined ? {} : { cores }),
    ...(mainCores === undefined ? {} : { mainCores }),
  };
}

/** Run the comparison; never leaves a process it started running. */
export async function compareReads(options: ReadBenchOptions): Promise<ReadComparison> {
  const { log } = options;
  const wrk = options.generator === "threads" ? undefined : findWrk();
  if (options.generator === "wrk" && wrk === undefined) throw new Error("wrk is not installed");
  const generator =
    wrk === undefined ? "worker threads (wrk not found)" : `wrk, 1 thread, ${options.connections} connections`;
  const load = (o: HttpLoadOptions) => (wrk === undefined ? threadLoad(o) : wrkRun(wrk, o));
  const home = options.home ?? mkdtempSync(path.join(tmpdir(), "ledgerd-reads-"));
  mkdirSync(home, { recursive: true });
  let node: NodeProcess | undefined;
  let bare: { child: ChildProcess; port: number } | undefined;
  let session: LoadSession | undefined;
  const kill = () => {
    if (node?.running === true) node.killNow();
    bare?.child.kill("SIGKILL");
  };
  process.on("exit", kill);
  try {
    const port = await freeLoopbackPort();
    node = await NodeProcess.start({
      homeDir: home,
      port,
      blockTimeSeconds: 6,
      extraArgs: options.ledgerdArgs,
      nodeArgs: options.nodeArgs,
      logPath: path.join(home, "ledgerd.log"),
      startTimeoutMs: 60_000,
    });
    log(`ledgerd pid ${node.pid} on port ${port}, data in ${home}`);
    const entries = Math.ceil(options.fillSeconds * 5000);
    session = new LoadSession(
      {
        url: node.url,
        concurrency: 64,
        chains: options.fillChains,
        contentBytes: 64,
        credits: options.fillChains * 20 + entries + 10_000,
        requestTimeoutMs: 30_000,
        waitChainsConfirmed: true,
        ackSample: 20,
      },
      { monitor: node.monitor, log },
    );
    let entriesStored = 0;
    if (options.fillSeconds > 0) {
      await session.setup();
      const w = await writesScenario(session, { concurrency: 64, durationSeconds: options.fillSeconds, entries });
      entriesStored = w.entries ?? 0;
      log(`fill: ${entriesStored} entries in ${w.seconds} s (${w.entriesPerSecond} entries/s), saved`);
    }
    const { bodies, savedHeight } = await readTargets(session, session.ecAddress);
    bare = await startBare();
    const bareMonitor = new ProcessMonitor(bare.child.pid!);
    const loadAverage1m = round(loadavg()[0]!);
    log(`generator: ${generator}; saved height ${savedHeight}; load average ${loadAverage1m}`);
    const methods: MethodComparison[] = [];
    for (const method of options.methods) {
      const list = bodies[method];
      // every body is a success before it is load (a 400 would be counted by wrk only as a status error)
      const probe = await session.control.post(list[0]!);
      if (probe.error !== undefined) throw new Error(`${method}: ${JSON.stringify(probe.error)}`);
      const run = (p: number, seconds: number) =>
        load({ port: p, path: "/v2", bodies: list, connections: options.connections, seconds });
      // whole seconds: wrk's -d takes them
      const half = Math.max(1, Math.round(options.seconds / 2));
      const b1 = await withCpu(bareMonitor, () => run(bare!.port, half));
      if (options.warmupSeconds > 0) await run(port, options.warmupSeconds);
      const n1 = await withCpu(node.monitor, () => run(port, half));
      const n2 = await withCpu(node.monitor, () => run(port, half));
      const b2 = await withCpu(bareMonitor, () => run(bare!.port, half));
      const b = bothHalves(b1, b2);
      const n = bothHalves(n1, n2);
      // every target's length only for a method compared with a bare server answering as long (entry-block's
      // 250 targets, not entry's 10,000)
      let answerBytes = median(await answerLengths(node.url, sampled(list)));
      const lengths = answerBytes >= SAME_BYTES_FROM ? await answerLengths(node.url, list) : [];
      if (lengths.length > 0) answerBytes = median(lengths);
      let bareSameBytes: HttpLoadResult | undefined;
      if (lengths.length > 0) {
        // each target's answer exactly as long as the node's (by the body's id, its index), each from a buffer of
        // its own: the same bytes per request, as cold in the caches (docs/performance.md §Reads)
        const same = await startBare(lengths);
        try {
          bareSameBytes = await run(same.port, options.seconds);
        } finally {
          same.child.kill("SIGTERM");
        }
      }
      const perSec = (r: HttpLoadResult) => r.requests / r.seconds;
      const ratio = round(perSec(n.value) / perSec(b.value));
      const ratioSameBytes = bareSameBytes === undefined ? undefined : round(perSec(n.value) / perSec(bareSameBytes));
      const perRequest = (r: HttpLoadResult, cores: number | undefined) =>
        cores === undefined || r.requests === 0 ? undefined : round((cores * r.seconds * 1e6) / r.requests, 1);
      const nodeCpuUs = perRequest(n.value, n.cores);
      const bareCpuUs = perRequest(b.value, b.cores);
      const cpuRatio =
        nodeCpuUs === undefined || bareCpuUs === undefined || nodeCpuUs === 0
          ? undefined
          : round(bareCpuUs / nodeCpuUs);
      methods.push({
        method,
        bare: b.value,
        node: n.value,
        ratio,
        answerBytes,
        ...(bareSameBytes === undefined ? {} : { bareSameBytes, ratioSameBytes }),
        target: READ_TARGETS[method],
        nodeCpuCores: n.cores,
        nodeMainThreadCores: n.mainCores,
        bareCpuCores: b.cores,
        targets: list.length,
        nodeCpuUs,
        bareCpuUs,
        cpuRatio,
      });
      log(
        `${method}: ${Math.round(n.value.requests / n.value.seconds)} req/s = ${ratio} of bare ${Math.round(b.value.requests / b.value.seconds)} (target ${READ_TARGETS[method]}); p99 ${round(n.value.p99Us / 1000)} ms; node ${n.cores} cores (main ${n.mainCores}); CPU per request ${nodeCpuUs} µs, bare ${bareCpuUs} µs (${cpuRatio}); answers ${answerBytes} B${sameBytesText(ratioSameBytes, bareSameBytes)}`,
      );
    }
    return { generator, entriesStored, savedHeight, loadAverage1m, methods };
  } finally {
    process.off("exit", kill);
    session?.close();
    bare?.child.kill("SIGTERM");
    if (node !== undefined) await node.stop("SIGTERM");
    if (options.home === undefined) rmSync(home, { recursive: true, force: true });
  }
}

/** The comparison with the bare server sending answers of the node's length, for a log line or a note ("" when not run). */
function sameBytesText(ratio: number | undefined, bare: HttpLoadResult | undefined): string {
  if (ratio === undefined || bare === undefined) return "";
  return `, ${ratio} of a bare server sending answers as long (${Math.round(bare.requests / bare.seconds)} req/s)`;
}

/** Bench rows (section "reads"): one per method, and the bare server's median. */
export function readRows(c: ReadComparison): BenchRow[] {
  const perSecond = (r: HttpLoadResult) => Math.round(r.requests / r.seconds);
  const bareRates = c.methods.map((m) => perSecond(m.bare)).sort((a, b) => a - b);
  const median = c.methods.find((m) => perSecond(m.bare) === bareRates[Math.floor(bareRates.length / 2)])!;
  const rows: BenchRow[] = [
    {
      id: "reads.bare",
      section: "reads",
      name: "bare uWebSockets.js, fixed result (median of the runs)",
      opsPerSec: perSecond(median.bare),
      meanUs: round(median.bare.meanUs, 1),
      p99Us: median.bare.p99Us,
      samples: median.bare.requests,
      note: `${c.generator}; ${bareRates[0]}–${bareRates.at(-1)} req/s over ${c.methods.length} runs; bare server ${median.bareCpuCores ?? "?"} cores; load average ${c.loadAverage1m}`,
    },
  ];
  for (const m of c.methods) {
    const met = m.ratio >= m.target && m.node.p99Us < READ_P99_TARGET_US && m.node.errors === 0;
    rows.push({
      id: `reads.${m.method}`,
      section: "reads",
      name: `${m.method}: ${m.ratio} of bare (target ≥ ${m.target})`,
      opsPerSec: perSecond(m.node),
      meanUs: round(m.node.meanUs, 1),
      p99Us: m.node.p99Us,
      samples: m.node.requests,
      note:
        `${met ? "met" : "MISS"}: ratio ${m.ratio} of bare ${perSecond(m.bare)} req/s (target ≥ ${m.target}), ` +
        `p99 ${round(m.node.p99Us / 1000)} ms (target < 5), ${m.node.errors} errors; node ${m.nodeCpuCores ?? "?"} cores ` +
        `(main thread ${m.nodeMainThreadCores ?? "?"}), ${m.nodeCpuUs ?? "?"} µs CPU per request against bare ${m.bareCpuUs ?? "?"} µs (CPU ratio ${m.cpuRatio ?? "?"}); answers ${m.answerBytes} B (median)${sameBytesText(m.ratioSameBytes, m.bareSameBytes)}; ${m.targets} distinct targets; ${c.entriesStored} entries written, height ${c.savedHeight}; ${c.generator}`,
    });
  }
  return rows;
}

/** `make bench`'s read comparison; a skipped row, never a throw, when it cannot run. */
export async function readComparisonRows(opts: Partial<ReadBenchOptions> = {}): Promise<{
  rows: BenchRow[];
  ratios: Record<string, number>;
}> {
  try {
    const c = await compareReads({ ...defaultReadBenchOptions(), ...opts });
    return { rows: readRows(c), ratios: Object.fromEntries(c.methods.map((m) => [m.method, m.ratio])) };
  } catch (e) {
    const reason = (e as Error).message.split("\n")[0]!;
    return {
      rows: [
        {
          id: "reads.setup",
          section: "reads",
          name: "read comparison",
          opsPerSec: 0,
          meanUs: 0,
          p99Us: 0,
          samples: 0,
          note: `skipped: ${reason}`,
        },
      ],
      ratios: {},
    };
  }
}

/** The table of a comparison, as docs/performance.md shows it. */
export function formatComparison(c: ReadComparison): string {
  const lines = [
    `generator: ${c.generator}; ${c.entriesStored} entries written first; saved height ${c.savedHeight}; load average ${c.loadAverage1m}`,
    "| method | node req/s | bare req/s | ratio | target | p99 ms | errors | node cores (main) | node CPU µs/req | bare CPU µs/req | CPU ratio | answer B | ratio, bare as long |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const m of c.methods)
    lines.push(
      `| ${m.method} | ${Math.round(m.node.requests / m.node.seconds)} | ${Math.round(m.bare.requests / m.bare.seconds)} | ${m.ratio} | ${m.target} | ${round(m.node.p99Us / 1000)} | ${m.node.errors} | ${m.nodeCpuCores ?? "?"} (${m.nodeMainThreadCores ?? "?"}) | ${m.nodeCpuUs ?? "?"} | ${m.bareCpuUs ?? "?"} | ${m.cpuRatio ?? "?"} | ${m.answerBytes} | ${m.ratioSameBytes ?? "–"} |`,
    );
  return lines.join("\n");
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values } = parseArgs({
    options: {
      "fill-seconds": { type: "string" },
      "fill-chains": { type: "string" },
      seconds: { type: "string" },
      warmup: { type: "string" },
      methods: { type: "string" },
      generator: { type: "string" },
      home: { type: "string" },
      "node-arg": { type: "string", multiple: true },
      "ledgerd-arg": { type: "string", multiple: true },
    },
  });
  const o = defaultReadBenchOptions();
  if (values["fill-seconds"] !== undefined) o.fillSeconds = Number(values["fill-seconds"]);
  if (values["fill-chains"] !== undefined) {
    o.fillChains = Number(values["fill-chains"]);
    if (!Number.isInteger(o.fillChains) || o.fillChains < 1) throw new Error("--fill-chains: a whole number ≥ 1");
  }
  if (values.seconds !== undefined) o.seconds = Number(values.seconds);
  if (values.warmup !== undefined) o.warmupSeconds = Number(values.warmup);
  if (values.methods !== undefined) {
    const known = Object.keys(READ_TARGETS);
    o.methods = values.methods.split(",").map((m) => {
      if (!known.includes(m)) throw new Error(`--methods: unknown method ${m} (${known.join(", ")})`);
      return m as ComparedMethod;
    });
  }
  if (values.generator !== undefined) {
    if (!["auto", "wrk", "threads"].includes(values.generator)) throw new Error("--generator: auto, wrk or threads");
    o.generator = values.generator as ReadBenchOptions["generator"];
  }
  if (values.home !== undefined) o.home = path.resolve(values.home);
  o.nodeArgs = values["node-arg"] ?? [];
  o.ledgerdArgs = values["ledgerd-arg"] ?? [];
  const c = await compareReads(o);
  console.log(formatComparison(c));
}
