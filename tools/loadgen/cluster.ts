/**
 * The cluster scenario of `make bench` (issue 15 "Benchmark"; issue 28): a devnet of 3 nats-servers, 3
 * federated servers, an audit server and a follower on this machine (every node checks every client
 * signature it applies; node CPU per applied entry is reported), entries written with the workers spread over the 3 nodes, one
 * federated server killed (SIGKILL) mid-run and later the nats-server leading the log stream; entries/s,
 * p99, the longest pause in acknowledgements after each kill, and lost (acknowledged but not in a saved
 * block). The single node runs the same write phase
 * (same concurrency, same seconds) in the same run, beside it.
 *
 * A worker whose node stops answering (connection refused or reset) moves to the next node, as a client
 * with a list of servers would; its write in flight counts as an error, never as acknowledged.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BenchRow } from "../../bench/row.js";
import { Devnet, LOCAL_STREAM } from "../devnet/devnet.js";
import { natsServerVersion } from "../devnet/natsCluster.js";
import { killAllAttached } from "../devnet/process.js";
import { defaultLoadOptions, runLoadScenarios } from "./index.js";
import { ProcessMonitor } from "./nodeProcess.js";
import { PhaseRecorder, runWorkers } from "./phase.js";
import type { PresignedEntry } from "./presign.js";
import { round } from "./result.js";
import { RpcClient, TRANSPORT_ERROR } from "./rpcClient.js";
import { LoadSession } from "./session.js";

export interface ClusterBenchOptions {
  /** seconds of the timed write phase (cluster and single node each) */
  seconds: number;
  /** requests in flight, spread evenly over the nodes */
  concurrency: number;
  /** seconds into the phase at which fed2 is killed */
  killAtSeconds: number;
  /** seconds into the phase at which the nats-server leading the log stream is killed */
  killNatsAtSeconds: number;
  /** -blktime of every node */
  blockTimeSeconds: number;
  log: (line: string) => void;
}

/**
 * Pre-signed entries per second of the phase: 2× the 1,000 entries/s target of the cluster on this
 * machine, so the phase does not run dry; the single node gets the same count.
 */
const ENTRIES_PER_SECOND = 2500;
/** Errors after which the phase stops (far above the few hundred a killed node causes). */
const MAX_ERRORS = 50_000;

export interface ClusterBenchResult {
  entries: number;
  entriesPerSecond: number;
  requests: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  errors: number;
  lost: number;
  checked: number;
  /** longest time without an acknowledged entry between the federated server's kill and the nats kill, ms */
  pauseAfterKillMs: number;
  /** longest time without an acknowledged entry after the stream leader's kill (the Raft election), ms */
  pauseAfterNatsKillMs: number;
  /** node CPU (all threads) per acknowledged entry during the phase, µs, by node name (fed2 left out: killed) */
  cpuPerEntryUs: Record<string, number>;
  /** which nats-server led the stream and was killed */
  natsKilled: string;
  seconds: number;
}

/** Run the cluster phase: start the devnet, write, kill fed2, check, stop everything. */
export async function runClusterPhase(options: ClusterBenchOptions): Promise<ClusterBenchResult> {
  const { log } = options;
  const dir = mkdtempSync(path.join(tmpdir(), "ledgerd-bench-cluster-"));
  const clients: RpcClient[] = [];
  let session: LoadSession | undefined;
  try {
    log(
      `cluster: starting 3 nats-servers, 3 federated servers, 1 audit server, 1 follower (-blktime=${options.blockTimeSeconds})`,
    );
    const devnet = await Devnet.up(
      { dir, federated: 3, audit: 1, followers: 1, nats: 3, blockTimeSeconds: options.blockTimeSeconds },
      false,
    );
    const nodes = devnet.nodesWithRole("federated");
    const count = Math.ceil(options.seconds * ENTRIES_PER_SECOND);
    session = new LoadSession(
      {
        url: nodes[0]!.url,
        concurrency: options.concurrency,
        chains: 10,
        contentBytes: 64,
        credits: count + 10_000,
        requestTimeoutMs: 30_000,
        ackSample: 200,
        waitChainsConfirmed: true,
      },
      { monitor: undefined, log },
    );
    await session.setup();
    const entries = session.presign(count);
    for (const n of nodes)
      clients.push(
        new RpcClient({
          url: n.url,
          maxSockets: Math.ceil(options.concurrency / nodes.length),
          timeoutMs: 30_000,
        }),
      );
    const rec = new PhaseRecorder();
    const acked: PresignedEntry[] = [];
    const ackTimes: number[] = [];
    const preferred = Array.from({ length: options.concurrency }, (_, w) => w % nodes.length);
    let next = 0;
    const unreachable = (code: number) => code === TRANSPORT_ERROR.code;
    const step = async (w: number): Promise<boolean> => {
      const e = entries[next++];
      if (e === undefined) return false;
      const client = clients[preferred[w]!]!;
      const commit = await client.post(e.commitBody, "/v2", false);
      if (!rec.record("commit-entry", commit)) {
        if (unreachable(commit.error!.code)) preferred[w] = (preferred[w]! + 1) % clients.length;
        return true;
      }
      const reveal = await client.post(e.revealBody, "/v2", false);
      if (rec.record("reveal-entry", reveal)) {
        acked.push(e);
        ackTimes.push(performance.now());
      } else if (unreachable(reveal.error!.code)) preferred[w] = (preferred[w]! + 1) % clients.length;
      return true;
    };
    const fromHeight = await session.openHeight();
    // every node applies every entry and checks its signature (docs/cluster.md §1.12): CPU per applied entry of
    // the nodes that run the whole phase (fed2 is killed in it)
    const measured = devnet.nodes.filter((n) => n.name !== "fed2" && n.pid !== undefined);
    const monitors = measured.map((n) => ({ name: n.name, monitor: new ProcessMonitor(n.pid!) }));
    const cpuBefore = monitors.map((m) => m.monitor.cpuSeconds() ?? Number.NaN);
    let killedAt = Number.NaN;
    let natsKilledAt = Number.NaN;
    let natsKilled = "";
    const killTimer = setTimeout(() => {
      killedAt = performance.now();
      log(`cluster: kill -9 fed2 at ${options.killAtSeconds} s`);
      devnet.kill9("fed2").catch((e: unknown) => log(`cluster: kill failed: ${String(e)}`));
    }, options.killAtSeconds * 1000);
    const natsTimer = setTimeout(() => {
      devnet.nats
        .streamLeader(LOCAL_STREAM)
        .then(async (leader) => {
          if (leader === undefined) throw new Error("no stream leader to kill");
          natsKilled = leader;
          natsKilledAt = performance.now();
          log(`cluster: kill -9 ${leader} (leads ${LOCAL_STREAM}) at ${options.killNatsAtSeconds} s`);
          await devnet.kill9(leader);
        })
        .catch((e: unknown) => log(`cluster: nats kill failed: ${String(e)}`));
    }, options.killNatsAtSeconds * 1000);
    log(`cluster: writes for ${options.seconds} s, ${options.concurrency} in flight over ${nodes.length} nodes`);
    try {
      await runWorkers(
        { concurrency: options.concurrency, durationMs: options.seconds * 1000, maxErrors: MAX_ERRORS },
        rec,
        step,
      );
    } finally {
      clearTimeout(killTimer);
      clearTimeout(natsTimer);
    }
    /** Longest gap between acknowledgements in [from, to), counting from `from`, ms. */
    const longestGap = (from: number, to: number): number => {
      let gap = 0;
      let last = from;
      for (const t of ackTimes) {
        if (t < from) continue;
        if (t >= to) break;
        gap = Math.max(gap, t - last);
        last = t;
      }
      return Math.max(gap, Math.min(to, rec.endedAt) - last);
    };
    const cpuAfter = monitors.map((m) => m.monitor.cpuSeconds() ?? Number.NaN);
    const cpuPerEntryUs = Object.fromEntries(
      monitors.map((m, i) => [m.name, round(((cpuAfter[i]! - cpuBefore[i]!) / Math.max(1, acked.length)) * 1e6, 0)]),
    );
    log(`cluster: ${acked.length} entries acknowledged; checking that each reached a saved block`);
    const confirmation = await session.confirm(acked, fromHeight);
    const lat = rec.latency.summary();
    await devnet.down();
    return {
      entries: acked.length,
      entriesPerSecond: round(acked.length / rec.elapsedSeconds),
      requests: rec.requests,
      p99Ms: lat.p99Ms,
      meanMs: lat.meanMs,
      maxMs: lat.maxMs,
      errors: rec.errors,
      lost: confirmation.lost,
      checked: confirmation.checked,
      pauseAfterKillMs: round(longestGap(killedAt, Number.isNaN(natsKilledAt) ? rec.endedAt : natsKilledAt)),
      pauseAfterNatsKillMs: Number.isNaN(natsKilledAt) ? Number.NaN : round(longestGap(natsKilledAt, rec.endedAt)),
      natsKilled,
      cpuPerEntryUs,
      seconds: round(rec.elapsedSeconds, 1),
    };
  } finally {
    for (const c of clients) c.close();
    session?.close();
    await killAllAttached();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `make bench` rows: the cluster phase, then the single node with the same write phase. Never rejects:
 * a phase that cannot run gives a skipped row with the reason.
 */
export async function clusterBenchRows(opts: Partial<ClusterBenchOptions> = {}): Promise<BenchRow[]> {
  const options: ClusterBenchOptions = {
    seconds: 28,
    concurrency: 48,
    killAtSeconds: 8,
    killNatsAtSeconds: 16,
    blockTimeSeconds: 6,
    log: (line) => console.error(`loadgen: ${line}`),
    ...opts,
  };
  const skipped = (id: string, name: string, reason: string): BenchRow => ({
    id,
    section: "load",
    name,
    opsPerSec: 0,
    meanUs: 0,
    p99Us: 0,
    samples: 0,
    note: `skipped: ${reason}`,
  });
  const rows: BenchRow[] = [];
  const clusterName = `cluster: 3 federated + 1 audit + 1 follower + 3 nats, writes spread over the federated, fed2 kill -9 at ${options.killAtSeconds} s, stream-leader nats kill -9 at ${options.killNatsAtSeconds} s (${options.concurrency} in flight, ${options.seconds} s)`;
  try {
    natsServerVersion();
    const r = await runClusterPhase(options);
    rows.push({
      id: "load.cluster.writes",
      section: "load",
      name: clusterName,
      opsPerSec: round(r.requests / r.seconds),
      meanUs: Math.round(r.meanMs * 1000),
      p99Us: Math.round(r.p99Ms * 1000),
      samples: r.requests,
      itemsPerOp: r.requests > 0 ? round(r.entries / r.requests, 3) : 0,
      itemsPerSec: r.entriesPerSecond,
      itemUnit: "entry",
      note: `p99 ${r.p99Ms} ms, max ${r.maxMs} ms, ${r.errors} errors, ${r.lost} lost of ${r.checked} acknowledged; longest pause in acknowledgements after the fed2 kill ${r.pauseAfterKillMs} ms, after the ${r.natsKilled || "nats"} (stream leader) kill ${r.pauseAfterNatsKillMs} ms; node CPU per entry (µs, every node checks every signature): ${Object.entries(
        r.cpuPerEntryUs,
      )
        .map(([n, us]) => `${n} ${us}`)
        .join(", ")}`,
    });
  } catch (e) {
    // the row keeps the first line; the log keeps the whole message (a node's log tail: its home is gone after)
    options.log(`cluster: skipped: ${(e as Error).message}`);
    rows.push(skipped("load.cluster.writes", clusterName, (e as Error).message.split("\n")[0]!));
  }
  const singleName = `cluster beside: single node, same writes (${options.concurrency} in flight, ${options.seconds} s)`;
  try {
    const report = await runLoadScenarios({
      ...defaultLoadOptions(false),
      scenarios: ["writes"],
      writesSeconds: options.seconds,
      concurrency: options.concurrency,
      writeEntries: Math.ceil(options.seconds * ENTRIES_PER_SECOND),
      blockTimeSeconds: options.blockTimeSeconds,
      log: options.log,
    });
    const w = report.results.find((x) => x.name === "writes");
    if (w === undefined) throw new Error(report.failures[0] ?? "the write phase did not run");
    rows.push({
      id: "load.cluster.single",
      section: "load",
      name: singleName,
      opsPerSec: w.requestsPerSecond,
      meanUs: Math.round(w.latency.meanMs * 1000),
      p99Us: Math.round(w.latency.p99Ms * 1000),
      samples: w.requests,
      itemsPerOp: round((w.entries ?? 0) / Math.max(1, w.requests), 3),
      itemsPerSec: w.entriesPerSecond ?? 0,
      itemUnit: "entry",
      note: `p99 ${w.latency.p99Ms} ms, max ${w.latency.maxMs} ms, ${w.errors} errors, ${w.confirmation?.lost ?? "?"} lost of ${w.confirmation?.checked ?? "?"}`,
    });
  } catch (e) {
    options.log(`cluster beside: skipped: ${(e as Error).message}`);
    rows.push(skipped("load.cluster.single", singleName, (e as Error).message.split("\n")[0]!));
  }
  return rows;
}
