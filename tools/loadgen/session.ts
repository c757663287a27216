/**
 * One load session against one node: the untimed setup (buy entry credits from the LOCAL genesis key,
 * create the chains), pre-signing, the clients, resource accounting and the post-run checks that
 * every acknowledged entry reached a saved block.
 */
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { keyPairFromPrivate, keyPairFromSeed } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { type DiskCounters, diskCounters, machineCpuTicks } from "./machineStats.js";
import type { ProcessMonitor } from "./nodeProcess.js";
import {
  type ChainCreation,
  EntryCommitSigner,
  type EntryPlan,
  fundingTransaction,
  type PresignedEntry,
  presignChain,
  presignEntries,
  rpcBody,
} from "./presign.js";
import { RpcClient, type RpcReply } from "./rpcClient.js";

/**
 * The LOCAL sandbox key: LOCAL genesis gives its address 20,000 asset units (wire-format §3.3, §6.3).
 * Setup pays for the run's entry credits from it.
 */
export const LOCAL_GENESIS_PRIVATE_KEY = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";

/** Ack status names (spec §3). */
export const STATUS = {
  unknown: "Unknown",
  notConfirmed: "NotConfirmed",
  ack: "TransactionACK",
  confirmed: "DBlockConfirmed",
} as const;

/** Shapes of the node's answers that the session reads. */
interface HeightsResult {
  directoryblockheight: number;
  leaderheight: number;
}
interface DBlockResult {
  dblock: { dbentries: { chainid: string; keymr: string }[] };
}
interface EntryBlockResult {
  entrylist: { entryhash: string }[];
}
interface EntryAckResult {
  entrydata?: { status?: string };
  commitdata?: { status?: string };
}

export interface SessionOptions {
  url: string;
  /** requests in flight during timed phases (sockets of the load client) */
  concurrency: number;
  /** chains the entries are spread over */
  chains: number;
  /** content bytes per entry */
  contentBytes: number;
  /** entry credits to buy for the whole session */
  credits: number;
  /** per-request timeout, ms */
  requestTimeoutMs: number;
  /** found entries whose status is also asked with `ack` after each phase (0 = every entry) */
  ackSample: number;
  /** wait for the chains to be saved in a block (true) or only acknowledged */
  waitChainsConfirmed: boolean;
}

export interface SessionDependencies {
  /** /proc view of the node process when its pid is known */
  monitor: ProcessMonitor | undefined;
  log: (line: string) => void;
}

/** CPU and memory use over a stretch of wall time. */
export interface ResourceUse {
  wallSeconds: number;
  /** node CPU seconds (user + system) / wall seconds: 1.0 = one core busy */
  nodeCpuCores: number | undefined;
  nodeCpuSeconds: number | undefined;
  /** the node's main thread alone / wall: 1.0 = the event loop never waited */
  nodeMainThreadCores: number | undefined;
  /** the node's main thread CPU seconds (user + system), unrounded: ÷ entries = its µs per entry */
  nodeMainCpuSeconds: number | undefined;
  /** the load generator's own CPU / wall */
  loadgenCpuCores: number;
  /** busy CPU of the whole machine / wall (cores): minus node and generator = other work on the machine */
  machineBusyCores: number | undefined;
  /** machine's disk: fraction of the wall time with I/O in flight, writes/s and their mean ms */
  disk: { busy: number; writesPerSecond: number; writeMs: number } | undefined;
  /** node resident memory at the end, MiB */
  nodeRssMiB: number | undefined;
  /** of the node's RSS: anonymous memory (JS heap, buffers), MiB; the rest is mostly LMDB's memory map */
  nodeRssAnonMiB: number | undefined;
  /** node peak resident memory so far, MiB */
  nodePeakRssMiB: number | undefined;
  /** largest anonymous RSS sampled during the phase (every MEMORY_SAMPLE_MS), MiB */
  nodePeakRssAnonMiB: number | undefined;
}

/** How often RssAnon is sampled during a phase for its peak, ms (one /proc read, ~20 µs). */
const MEMORY_SAMPLE_MS = 250;

/** A point to measure resources from. */
export interface ResourceMark {
  wallMs: number;
  nodeMainCpuSeconds: number | undefined;
  machine: { busy: number; total: number } | undefined;
  disk: DiskCounters | undefined;
  nodeCpuSeconds: number | undefined;
  loadgenCpu: NodeJS.CpuUsage;
  /** RssAnon peak so far, bytes, and the timer sampling it (stopped by usageSince) */
  memory: { peakAnonBytes: number; timer: NodeJS.Timeout | undefined };
}

/** What the post-run check found. */
export interface ConfirmationResult {
  /** acknowledged entries looked for */
  checked: number;
  /** acknowledged entries in no saved entry block of their chain after waiting an extra block */
  lost: number;
  /** `ack` status → count of the lost ones */
  lostStatuses: Record<string, number>;
  /** first few lost entry hashes */
  lostSamples: string[];
  /** found entries whose status was also asked with `ack` */
  ackSampled: number;
  /** `ack` status → count over the sample (all DBlockConfirmed when the node agrees with its blocks) */
  ackSampleStatuses: Record<string, number>;
  /** waiting for blocks and checking, seconds */
  checkSeconds: number;
  /** of which: waiting for the blocks and reading them */
  blocksSeconds: number;
  /** of which: the `ack` calls */
  ackSeconds: number;
}

export class LoadSession {
  /** setup and checks (not timed) */
  control: RpcClient;
  /** timed traffic: maxSockets = concurrency */
  load: RpcClient;
  readonly runId = randomBytes(6).toString("hex");
  readonly signer = new EntryCommitSigner(new Uint8Array(randomBytes(32)));
  readonly ecAddress: string;
  readonly genesis = keyPairFromPrivate(LOCAL_GENESIS_PRIVATE_KEY);
  chains: ChainCreation[] = [];
  plan: EntryPlan;
  /** seconds per block as the node reports it */
  blockTimeSeconds = 6;
  /** entries known to be saved in a block (read targets) */
  readonly confirmed: PresignedEntry[] = [];
  private nextEntry = 0;

  constructor(
    readonly options: SessionOptions,
    readonly deps: SessionDependencies,
  ) {
    this.control = new RpcClient({ url: options.url, maxSockets: 16, timeoutMs: options.requestTimeoutMs });
    this.load = new RpcClient({
      url: options.url,
      maxSockets: options.concurrency,
      timeoutMs: options.requestTimeoutMs,
    });
    this.ecAddress = keyPairFromSeed("EC", this.signer.seed).publicAddress;
    this.plan = { chains: [], runId: this.runId, contentBytes: options.contentBytes };
  }

  /** Point the clients at a (restarted) node. */
  reconnect(url: string, monitor: ProcessMonitor | undefined): void {
    this.control.close();
    this.load.close();
    this.control = new RpcClient({ url, maxSockets: 16, timeoutMs: this.options.requestTimeoutMs });
    this.load = new RpcClient({ url, maxSockets: this.options.concurrency, timeoutMs: this.options.requestTimeoutMs });
    this.deps.monitor = monitor;
  }

  close(): void {
    this.control.close();
    this.load.close();
  }

  /**
   * New keep-alive sockets for a timed phase. The server closes connections idle for 10 s (uWebSockets);
   * after an untimed pause (pre-signing, checks) a request sent on such a socket would fail with
   * "socket hang up" and count as an error of the node.
   */
  freshLoadClient(): void {
    this.load.close();
    this.load = new RpcClient({
      url: this.load.url,
      maxSockets: this.options.concurrency,
      timeoutMs: this.options.requestTimeoutMs,
    });
  }

  /** Untimed setup: buy entry credits, create the chains and wait for them. */
  async setup(): Promise<void> {
    const minute = await this.control.call<{ directoryblockinseconds?: number }>("current-minute");
    if (typeof minute.directoryblockinseconds === "number" && minute.directoryblockinseconds > 0)
      this.blockTimeSeconds = minute.directoryblockinseconds;
    await this.buyCredits();
    await this.createChains();
  }

  private async buyCredits(): Promise<void> {
    const { log } = this.deps;
    const rate = BigInt((await this.control.call<{ rate: number }>("entry-credit-rate")).rate);
    const credits = BigInt(this.options.credits);
    const tx = fundingTransaction({
      fromSeed: this.genesis.seed,
      ecPublicKey: this.signer.publicKey,
      credits,
      rate,
      milliTimestamp: Date.now(),
    });
    const cost = tx.inputs[0]!.amount;
    log(
      `setup: buying ${credits} EC for ${this.ecAddress} at ${rate} base units/EC (input ${cost} base units incl. fee ${cost - credits * rate}) from ${this.genesis.publicAddress}`,
    );
    await this.control.call("asset-submit", { transaction: toHex(tx.raw) }, "/v2", 0);
    const deadline = performance.now() + this.blockWaitMs(5);
    for (;;) {
      const { balance } = await this.control.call<{ balance: number }>("entry-credit-balance", {
        address: this.ecAddress,
      });
      if (BigInt(balance) >= credits) break;
      if (performance.now() > deadline)
        throw new Error(`setup: EC balance still ${balance} after ${this.blockWaitMs(5)} ms`);
      await sleep(100);
    }
    log(`setup: EC balance shows ${credits}`);
  }

  private async createChains(): Promise<void> {
    const { log } = this.deps;
    const now = Date.now();
    this.chains = Array.from({ length: this.options.chains }, (_, i) =>
      presignChain(this.runId, i, this.signer.seed, now),
    );
    this.plan = {
      chains: this.chains.map((c) => c.chainId),
      runId: this.runId,
      contentBytes: this.options.contentBytes,
    };
    await forEachLimit(this.chains, 8, async (c) => {
      expectOk(await this.control.post(c.commitBody), "commit-chain");
      expectOk(await this.control.post(c.revealBody), "reveal-chain");
    });
    const want = this.options.waitChainsConfirmed ? [STATUS.confirmed] : [STATUS.ack, STATUS.confirmed];
    const deadline = performance.now() + this.blockWaitMs(4);
    let pending = this.chains;
    while (pending.length > 0) {
      const statuses = await mapLimit(pending, 16, (c) => this.entryStatus(c.entryHash, toHex(c.chainId)));
      pending = pending.filter((_, i) => !want.includes(statuses[i] as (typeof want)[number]));
      if (pending.length === 0) break;
      if (performance.now() > deadline)
        throw new Error(
          `setup: ${pending.length} of ${this.chains.length} chains not ${want.join("/")} after ${this.blockWaitMs(4)} ms`,
        );
      await sleep(200);
    }
    log(
      `setup: ${this.chains.length} chains ${this.options.waitChainsConfirmed ? "saved in a block" : "acknowledged"}`,
    );
  }

  /** ms to wait for `blocks` block closes, plus a margin for a loaded node. */
  blockWaitMs(blocks: number): number {
    return blocks * this.blockTimeSeconds * 1000 + 30_000;
  }

  /** Pre-sign the next `count` entries of the session (never reused across phases). */
  presign(count: number): PresignedEntry[] {
    const t0 = performance.now();
    const out = presignEntries(this.plan, this.signer, this.nextEntry, count, Date.now());
    this.nextEntry += count;
    this.deps.log(`presign: ${count} commit+reveal pairs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return out;
  }

  /** `entrydata.status` of an entry (ack with its chain ID). */
  async entryStatus(entryHash: string, chainId: string): Promise<string> {
    const r = await this.control.call<EntryAckResult>("ack", { hash: entryHash, chainid: chainId });
    return r.entrydata?.status ?? "";
  }

  async heights(): Promise<HeightsResult> {
    return this.control.call<HeightsResult>("heights");
  }

  /** The height of the block being built now (entries sent now go into it). */
  async openHeight(): Promise<number> {
    return (await this.heights()).leaderheight;
  }

  /** Wait until the block the node is building now is saved; returns that height. */
  async waitForOpenBlockSaved(): Promise<number> {
    const target = (await this.heights()).leaderheight;
    const deadline = performance.now() + this.blockWaitMs(3);
    for (;;) {
      const h = await this.heights();
      if (h.directoryblockheight >= target) return target;
      if (performance.now() > deadline) throw new Error(`block ${target} not saved after ${this.blockWaitMs(3)} ms`);
      await sleep(100);
    }
  }

  /**
   * Entries of the session's chains in the saved directory blocks `from`…`to`: their hashes and the count
   * per height (dblock-by-height → the load chains' entry blocks → entry-block lists).
   */
  async chainEntries(from: number, to: number): Promise<{ hashes: Set<string>; perHeight: Record<string, number> }> {
    const ours = new Set(this.chains.map((c) => toHex(c.chainId)));
    const hashes = new Set<string>();
    const perHeight: Record<string, number> = {};
    for (let height = Math.max(0, from); height <= to; height++) {
      const r = await this.control.call<DBlockResult>("dblock-by-height", { height });
      const blocks = r.dblock.dbentries.filter((e) => ours.has(e.chainid));
      const lists = await mapLimit(blocks, 16, (e) =>
        this.control.call<EntryBlockResult>("entry-block", { keymr: e.keymr }),
      );
      let n = 0;
      for (const eb of lists)
        for (const item of eb.entrylist) {
          hashes.add(item.entryhash);
          n++;
        }
      perHeight[String(height)] = n;
    }
    return { hashes, perHeight };
  }

  /**
   * After a phase that started while block `fromHeight` was open: wait until the open block is saved,
   * then look for every acknowledged entry in the saved entry blocks of the load chains. Entries not
   * found get one more block before they count as lost. `ack` is asked for each lost entry and for an
   * even sample of the found ones (`ackSample`; 0 = all of them): asking it for all is not practical
   * while the node decodes a whole EC block per confirmed ack (~80 acks/s at 8,000 entries per block).
   * Found entries become read targets.
   */
  async confirm(entries: readonly PresignedEntry[], fromHeight: number): Promise<ConfirmationResult> {
    const t0 = performance.now();
    const inBlocks = new Set<string>();
    let walked = fromHeight - 1;
    const walkTo = async (to: number) => {
      if (to <= walked) return;
      for (const h of (await this.chainEntries(walked + 1, to)).hashes) inBlocks.add(h);
      walked = to;
    };
    await walkTo(await this.waitForOpenBlockSaved());
    let missing = entries.filter((e) => !inBlocks.has(e.entryHash));
    if (missing.length > 0) {
      this.deps.log(`confirm: ${missing.length} not in a saved block yet; waiting one more block`);
      await walkTo(await this.waitForOpenBlockSaved());
      missing = missing.filter((e) => !inBlocks.has(e.entryHash));
    }
    const blocksSeconds = (performance.now() - t0) / 1000;
    const found = entries.filter((e) => inBlocks.has(e.entryHash));
    for (const e of found) if (this.confirmed.length < 20_000) this.confirmed.push(e);

    const t1 = performance.now();
    const deadline = t1 + ACK_CHECK_SECONDS * 1000;
    const lostStatus = await this.ackStatuses(missing, deadline);
    const sample = evenSample(found, this.options.ackSample);
    const sampleStatus = await this.ackStatuses(sample, deadline);
    const count = (list: (string | undefined)[]) => {
      const out: Record<string, number> = {};
      for (const st of list) out[st ?? "not asked (time bound)"] = (out[st ?? "not asked (time bound)"] ?? 0) + 1;
      return out;
    };
    const asked = sampleStatus.filter((x) => x !== undefined);
    return {
      checked: entries.length,
      lost: missing.length,
      lostStatuses: count(lostStatus),
      lostSamples: missing.slice(0, 3).map((e) => e.entryHash),
      ackSampled: asked.length,
      ackSampleStatuses: count(asked),
      checkSeconds: round2((performance.now() - t0) / 1000),
      blocksSeconds: round2(blocksSeconds),
      ackSeconds: round2((performance.now() - t1) / 1000),
    };
  }

  /** `entrydata.status` of each entry by `ack`, `concurrency` at a time, none started after `deadline`. */
  private async ackStatuses(entries: readonly PresignedEntry[], deadline: number): Promise<(string | undefined)[]> {
    return mapLimit(entries, this.options.concurrency, async (e) => {
      if (performance.now() > deadline) return undefined;
      const reply = await this.control.post(rpcBody("ack", { hash: e.entryHash, chainid: e.chainId }));
      if (reply.error !== undefined) return `error ${reply.error.code}`;
      return (reply.result as EntryAckResult).entrydata?.status ?? "";
    });
  }

  /** Start measuring CPU (node and generator). */
  mark(): ResourceMark {
    return {
      wallMs: performance.now(),
      machine: machineCpuTicks(),
      disk: diskCounters(),
      nodeCpuSeconds: this.deps.monitor?.cpuSeconds(),
      nodeMainCpuSeconds: this.deps.monitor?.mainThreadCpuSeconds(),
      loadgenCpu: process.cpuUsage(),
      memory: this.sampleMemory(),
    };
  }

  /** Sample the node's RssAnon every MEMORY_SAMPLE_MS until usageSince stops it; keeps the peak. */
  private sampleMemory(): ResourceMark["memory"] {
    const monitor = this.deps.monitor;
    const state: ResourceMark["memory"] = { peakAnonBytes: Number.NaN, timer: undefined };
    if (monitor === undefined) return state;
    const sample = () => {
      const anon = monitor.memory()?.anonBytes;
      if (anon !== undefined && !(anon <= state.peakAnonBytes)) state.peakAnonBytes = anon;
    };
    sample();
    state.timer = setInterval(sample, MEMORY_SAMPLE_MS);
    state.timer.unref();
    return state;
  }

  /** CPU and memory since `mark`. */
  usageSince(mark: ResourceMark): ResourceUse {
    const wallSeconds = (performance.now() - mark.wallMs) / 1000;
    const cpuNow = this.deps.monitor?.cpuSeconds();
    const nodeCpuSeconds =
      cpuNow !== undefined && mark.nodeCpuSeconds !== undefined ? cpuNow - mark.nodeCpuSeconds : undefined;
    const own = process.cpuUsage(mark.loadgenCpu);
    const mainNow = this.deps.monitor?.mainThreadCpuSeconds();
    const nodeMainCpuSeconds =
      mainNow === undefined || mark.nodeMainCpuSeconds === undefined ? undefined : mainNow - mark.nodeMainCpuSeconds;
    const nodeMainThreadCores = nodeMainCpuSeconds === undefined ? undefined : round2(nodeMainCpuSeconds / wallSeconds);
    const mem = this.deps.monitor?.memory();
    clearInterval(mark.memory.timer);
    mark.memory.timer = undefined;
    const anonSamples = [mark.memory.peakAnonBytes, mem?.anonBytes ?? Number.NaN].filter(Number.isFinite);
    const peakAnon = anonSamples.length === 0 ? undefined : Math.max(...anonSamples);
    const machineNow = machineCpuTicks();
    const diskNow = diskCounters();
    let disk: ResourceUse["disk"];
    if (diskNow !== undefined && mark.disk !== undefined) {
      const writes = diskNow.writes - mark.disk.writes;
      disk = {
        busy: round2((diskNow.busyMs - mark.disk.busyMs) / 1000 / wallSeconds),
        writesPerSecond: Math.round(writes / wallSeconds),
        writeMs: writes === 0 ? 0 : round2((diskNow.writeMs - mark.disk.writeMs) / writes),
      };
    }
    const machineBusyCores =
      machineNow === undefined || mark.machine === undefined || machineNow.total === mark.machine.total
        ? undefined
        : round2(
            ((machineNow.busy - mark.machine.busy) / (machineNow.total - mark.machine.total)) * availableParallelism(),
          );
    const mib = (b: number | undefined) =>
      b === undefined || Number.isNaN(b) ? undefined : Math.round((b / 2 ** 20) * 10) / 10;
    return {
      wallSeconds,
      nodeCpuSeconds,
      nodeCpuCores: nodeCpuSeconds === undefined ? undefined : round2(nodeCpuSeconds / wallSeconds),
      nodeMainThreadCores,
      nodeMainCpuSeconds,
      loadgenCpuCores: round2((own.user + own.system) / 1e6 / wallSeconds),
      machineBusyCores,
      disk,
      nodeRssMiB: mib(mem?.rssBytes),
      nodeRssAnonMiB: mib(mem?.anonBytes),
      nodePeakRssMiB: mib(mem?.peakRssBytes),
      nodePeakRssAnonMiB: mib(peakAnon),
    };
  }
}

/** The ack checks after a phase stop starting new calls after this many seconds. */
const ACK_CHECK_SECONDS = 60;

/** Up to `n` items spread evenly over `items` (all of them when n is 0 or ≥ the length). */
export function evenSample<T>(items: readonly T[], n: number): T[] {
  if (n <= 0 || n >= items.length) return [...items];
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]!);
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Throw when a setup request failed. */
function expectOk(reply: RpcReply, what: string): void {
  if (reply.error !== undefined)
    throw new Error(
      `setup: ${what} failed: ${reply.error.code} ${reply.error.message} ${JSON.stringify(reply.error.data ?? "")}`,
    );
}

/** Run `fn` over `items` with at most `limit` at a time. */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Map `items` through `fn` with at most `limit` at a time, keeping the order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  await forEachLimit(items, limit, async (item, i) => {
    out[i] = await fn(item, i);
  });
  return out;
}
