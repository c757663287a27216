/**
 * One load session against one node: the untimed setup (buy entry credits from the LOCAL genesis key,
 * create the chains), pre-signing, the clients, resource accounting and the post-run checks that
 * every acknowledged entry reached a saved block.
 */
import { randomBytes } from "node:crypto";
import { keyPairFromPrivate, keyPairFromSeed } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { type ProcessMonitor, sleep } from "./nodeProcess.js";
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
  /** the load generator's own CPU / wall */
  loadgenCpuCores: number;
  /** node resident memory at the end, MiB */
  nodeRssMiB: number | undefined;
  /** node peak resident memory so far, MiB */
  nodePeakRssMiB: number | undefined;
}

/** A point to measure resources from. */
export interface ResourceMark {
  wallMs: number;
  nodeCpuSeconds: number | undefined;
  loadgenCpu: NodeJS.CpuUsage;
}

/** What the post-run check found. */
export interface ConfirmationResult {
  checked: number;
  /** acknowledged entries not DBlockConfirmed after waiting */
  lost: number;
  /** status → count of the lost ones */
  lostStatuses: Record<string, number>;
  /** first few lost entry hashes */
  lostSamples: string[];
  /** time spent waiting for blocks and checking, seconds */
  checkSeconds: number;
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
    await this.control.call("asset-submit", { transaction: toHex(tx.raw) });
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
   * After a phase: wait until the open block is saved, then ask `ack` for every acknowledged entry.
   * Entries not yet DBlockConfirmed get one more block before they count as lost. Confirmed ones
   * become read targets.
   */
  async confirm(entries: readonly PresignedEntry[]): Promise<ConfirmationResult> {
    const t0 = performance.now();
    await this.waitForOpenBlockSaved();
    let notConfirmed = await this.unconfirmed(entries);
    if (notConfirmed.length > 0) {
      this.deps.log(`confirm: ${notConfirmed.length} not yet confirmed; waiting one more block`);
      await this.waitForOpenBlockSaved();
      notConfirmed = await this.unconfirmed(notConfirmed.map((x) => x.entry));
    }
    const lostSet = new Set(notConfirmed.map((x) => x.entry));
    for (const e of entries) if (!lostSet.has(e) && this.confirmed.length < 20_000) this.confirmed.push(e);
    const lostStatuses: Record<string, number> = {};
    for (const x of notConfirmed) lostStatuses[x.status] = (lostStatuses[x.status] ?? 0) + 1;
    return {
      checked: entries.length,
      lost: notConfirmed.length,
      lostStatuses,
      lostSamples: notConfirmed.slice(0, 3).map((x) => x.entry.entryHash),
      checkSeconds: (performance.now() - t0) / 1000,
    };
  }

  private async unconfirmed(entries: readonly PresignedEntry[]): Promise<{ entry: PresignedEntry; status: string }[]> {
    const statuses = await mapLimit(entries, this.options.concurrency, async (e) => {
      const reply = await this.load.post(rpcBody("ack", { hash: e.entryHash, chainid: e.chainId }));
      if (reply.error !== undefined) return `error ${reply.error.code}`;
      return (reply.result as EntryAckResult).entrydata?.status ?? "";
    });
    const out: { entry: PresignedEntry; status: string }[] = [];
    statuses.forEach((s, i) => {
      if (s !== STATUS.confirmed) out.push({ entry: entries[i]!, status: s });
    });
    return out;
  }

  /** Start measuring CPU (node and generator). */
  mark(): ResourceMark {
    return {
      wallMs: performance.now(),
      nodeCpuSeconds: this.deps.monitor?.cpuSeconds(),
      loadgenCpu: process.cpuUsage(),
    };
  }

  /** CPU and memory since `mark`. */
  usageSince(mark: ResourceMark): ResourceUse {
    const wallSeconds = (performance.now() - mark.wallMs) / 1000;
    const cpuNow = this.deps.monitor?.cpuSeconds();
    const nodeCpuSeconds =
      cpuNow !== undefined && mark.nodeCpuSeconds !== undefined ? cpuNow - mark.nodeCpuSeconds : undefined;
    const own = process.cpuUsage(mark.loadgenCpu);
    const mem = this.deps.monitor?.memory();
    const mib = (b: number | undefined) =>
      b === undefined || Number.isNaN(b) ? undefined : Math.round((b / 2 ** 20) * 10) / 10;
    return {
      wallSeconds,
      nodeCpuSeconds,
      nodeCpuCores: nodeCpuSeconds === undefined ? undefined : round2(nodeCpuSeconds / wallSeconds),
      loadgenCpuCores: round2((own.user + own.system) / 1e6 / wallSeconds),
      nodeRssMiB: mib(mem?.rssBytes),
      nodePeakRssMiB: mib(mem?.peakRssBytes),
    };
  }
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
