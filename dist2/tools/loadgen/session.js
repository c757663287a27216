/**
 * One load session against one node: the untimed setup (buy entry credits from the LOCAL genesis key,
 * create the chains), pre-signing, the clients, resource accounting and the post-run checks that
 * every acknowledged entry reached a saved block.
 */
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import { keyPairFromPrivate, keyPairFromSeed } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { diskCounters, machineCpuTicks, sleep } from "./nodeProcess.js";
import { EntryCommitSigner, fundingTransaction, presignChain, presignEntries, rpcBody, } from "./presign.js";
import { RpcClient } from "./rpcClient.js";
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
};
export class LoadSession {
    options;
    deps;
    /** setup and checks (not timed) */
    control;
    /** timed traffic: maxSockets = concurrency */
    load;
    runId = randomBytes(6).toString("hex");
    signer = new EntryCommitSigner(new Uint8Array(randomBytes(32)));
    ecAddress;
    genesis = keyPairFromPrivate(LOCAL_GENESIS_PRIVATE_KEY);
    chains = [];
    plan;
    /** seconds per block as the node reports it */
    blockTimeSeconds = 6;
    /** entries known to be saved in a block (read targets) */
    confirmed = [];
    nextEntry = 0;
    constructor(options, deps) {
        this.options = options;
        this.deps = deps;
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
    reconnect(url, monitor) {
        this.control.close();
        this.load.close();
        this.control = new RpcClient({ url, maxSockets: 16, timeoutMs: this.options.requestTimeoutMs });
        this.load = new RpcClient({ url, maxSockets: this.options.concurrency, timeoutMs: this.options.requestTimeoutMs });
        this.deps.monitor = monitor;
    }
    close() {
        this.control.close();
        this.load.close();
    }
    /**
     * New keep-alive sockets for a timed phase. The server closes connections idle for 10 s (uWebSockets);
     * after an untimed pause (pre-signing, checks) a request sent on such a socket would fail with
     * "socket hang up" and count as an error of the node.
     */
    freshLoadClient() {
        this.load.close();
        this.load = new RpcClient({
            url: this.load.url,
            maxSockets: this.options.concurrency,
            timeoutMs: this.options.requestTimeoutMs,
        });
    }
    /** Untimed setup: buy entry credits, create the chains and wait for them. */
    async setup() {
        const minute = await this.control.call("current-minute");
        if (typeof minute.directoryblockinseconds === "number" && minute.directoryblockinseconds > 0)
            this.blockTimeSeconds = minute.directoryblockinseconds;
        await this.buyCredits();
        await this.createChains();
    }
    async buyCredits() {
        const { log } = this.deps;
        const rate = BigInt((await this.control.call("entry-credit-rate")).rate);
        const credits = BigInt(this.options.credits);
        const tx = fundingTransaction({
            fromSeed: this.genesis.seed,
            ecPublicKey: this.signer.publicKey,
            credits,
            rate,
            milliTimestamp: Date.now(),
        });
        const cost = tx.inputs[0].amount;
        log(`setup: buying ${credits} EC for ${this.ecAddress} at ${rate} base units/EC (input ${cost} base units incl. fee ${cost - credits * rate}) from ${this.genesis.publicAddress}`);
        await this.control.call("asset-submit", { transaction: toHex(tx.raw) }, "/v2", 0);
        const deadline = performance.now() + this.blockWaitMs(5);
        for (;;) {
            const { balance } = await this.control.call("entry-credit-balance", {
                address: this.ecAddress,
            });
            if (BigInt(balance) >= credits)
                break;
            if (performance.now() > deadline)
                throw new Error(`setup: EC balance still ${balance} after ${this.blockWaitMs(5)} ms`);
            await sleep(100);
        }
        log(`setup: EC balance shows ${credits}`);
    }
    async createChains() {
        const { log } = this.deps;
        const now = Date.now();
        this.chains = Array.from({ length: this.options.chains }, (_, i) => presignChain(this.runId, i, this.signer.seed, now));
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
            pending = pending.filter((_, i) => !want.includes(statuses[i]));
            if (pending.length === 0)
                break;
            if (performance.now() > deadline)
                throw new Error(`setup: ${pending.length} of ${this.chains.length} chains not ${want.join("/")} after ${this.blockWaitMs(4)} ms`);
            await sleep(200);
        }
        log(`setup: ${this.chains.length} chains ${this.options.waitChainsConfirmed ? "saved in a block" : "acknowledged"}`);
    }
    /** ms to wait for `blocks` block closes, plus a margin for a loaded node. */
    blockWaitMs(blocks) {
        return blocks * this.blockTimeSeconds * 1000 + 30_000;
    }
    /** Pre-sign the next `count` entries of the session (never reused across phases). */
    presign(count) {
        const t0 = performance.now();
        const out = presignEntries(this.plan, this.signer, this.nextEntry, count, Date.now());
        this.nextEntry += count;
        this.deps.log(`presign: ${count} commit+reveal pairs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        return out;
    }
    /** `entrydata.status` of an entry (ack with its chain ID). */
    async entryStatus(entryHash, chainId) {
        const r = await this.control.call("ack", { hash: entryHash, chainid: chainId });
        return r.entrydata?.status ?? "";
    }
    async heights() {
        return this.control.call("heights");
    }
    /** The height of the block being built now (entries sent now go into it). */
    async openHeight() {
        return (await this.heights()).leaderheight;
    }
    /** Wait until the block the node is building now is saved; returns that height. */
    async waitForOpenBlockSaved() {
        const target = (await this.heights()).leaderheight;
        const deadline = performance.now() + this.blockWaitMs(3);
        for (;;) {
            const h = await this.heights();
            if (h.directoryblockheight >= target)
                return target;
            if (performance.now() > deadline)
                throw new Error(`block ${target} not saved after ${this.blockWaitMs(3)} ms`);
            await sleep(100);
        }
    }
    /**
     * Entries of the session's chains in the saved directory blocks `from`…`to`: their hashes and the count
     * per height (dblock-by-height → the load chains' entry blocks → entry-block lists).
     */
    async chainEntries(from, to) {
        const ours = new Set(this.chains.map((c) => toHex(c.chainId)));
        const hashes = new Set();
        const perHeight = {};
        for (let height = Math.max(0, from); height <= to; height++) {
            const r = await this.control.call("dblock-by-height", { height });
            const blocks = r.dblock.dbentries.filter((e) => ours.has(e.chainid));
            const lists = await mapLimit(blocks, 16, (e) => this.control.call("entry-block", { keymr: e.keymr }));
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
    async confirm(entries, fromHeight) {
        const t0 = performance.now();
        const inBlocks = new Set();
        let walked = fromHeight - 1;
        const walkTo = async (to) => {
            if (to <= walked)
                return;
            for (const h of (await this.chainEntries(walked + 1, to)).hashes)
                inBlocks.add(h);
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
        for (const e of found)
            if (this.confirmed.length < 20_000)
                this.confirmed.push(e);
        const t1 = performance.now();
        const deadline = t1 + ACK_CHECK_SECONDS * 1000;
        const lostStatus = await this.ackStatuses(missing, deadline);
        const sample = evenSample(found, this.options.ackSample);
        const sampleStatus = await this.ackStatuses(sample, deadline);
        const count = (list) => {
            const out = {};
            for (const st of list)
                out[st ?? "not asked (time bound)"] = (out[st ?? "not asked (time bound)"] ?? 0) + 1;
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
    async ackStatuses(entries, deadline) {
        return mapLimit(entries, this.options.concurrency, async (e) => {
            if (performance.now() > deadline)
                return undefined;
            const reply = await this.control.post(rpcBody("ack", { hash: e.entryHash, chainid: e.chainId }));
            if (reply.error !== undefined)
                return `error ${reply.error.code}`;
            return reply.result.entrydata?.status ?? "";
        });
    }
    /** Start measuring CPU (node and generator). */
    mark() {
        return {
            wallMs: performance.now(),
            machine: machineCpuTicks(),
            disk: diskCounters(),
            nodeCpuSeconds: this.deps.monitor?.cpuSeconds(),
            nodeMainCpuSeconds: this.deps.monitor?.mainThreadCpuSeconds(),
            loadgenCpu: process.cpuUsage(),
        };
    }
    /** CPU and memory since `mark`. */
    usageSince(mark) {
        const wallSeconds = (performance.now() - mark.wallMs) / 1000;
        const cpuNow = this.deps.monitor?.cpuSeconds();
        const nodeCpuSeconds = cpuNow !== undefined && mark.nodeCpuSeconds !== undefined ? cpuNow - mark.nodeCpuSeconds : undefined;
        const own = process.cpuUsage(mark.loadgenCpu);
        const mainNow = this.deps.monitor?.mainThreadCpuSeconds();
        const nodeMainThreadCores = mainNow === undefined || mark.nodeMainCpuSeconds === undefined
            ? undefined
            : round2((mainNow - mark.nodeMainCpuSeconds) / wallSeconds);
        const mem = this.deps.monitor?.memory();
        const machineNow = machineCpuTicks();
        const diskNow = diskCounters();
        let disk;
        if (diskNow !== undefined && mark.disk !== undefined) {
            const writes = diskNow.writes - mark.disk.writes;
            disk = {
                busy: round2((diskNow.busyMs - mark.disk.busyMs) / 1000 / wallSeconds),
                writesPerSecond: Math.round(writes / wallSeconds),
                writeMs: writes === 0 ? 0 : round2((diskNow.writeMs - mark.disk.writeMs) / writes),
            };
        }
        const machineBusyCores = machineNow === undefined || mark.machine === undefined || machineNow.total === mark.machine.total
            ? undefined
            : round2(((machineNow.busy - mark.machine.busy) / (machineNow.total - mark.machine.total)) * availableParallelism());
        const mib = (b) => b === undefined || Number.isNaN(b) ? undefined : Math.round((b / 2 ** 20) * 10) / 10;
        return {
            wallSeconds,
            nodeCpuSeconds,
            nodeCpuCores: nodeCpuSeconds === undefined ? undefined : round2(nodeCpuSeconds / wallSeconds),
            nodeMainThreadCores,
            loadgenCpuCores: round2((own.user + own.system) / 1e6 / wallSeconds),
            machineBusyCores,
            disk,
            nodeRssMiB: mib(mem?.rssBytes),
            nodeRssAnonMiB: mib(mem?.anonBytes),
            nodePeakRssMiB: mib(mem?.peakRssBytes),
        };
    }
}
/** The ack checks after a phase stop starting new calls after this many seconds. */
const ACK_CHECK_SECONDS = 60;
/** Up to `n` items spread evenly over `items` (all of them when n is 0 or ≥ the length). */
export function evenSample(items, n) {
    if (n <= 0 || n >= items.length)
        return [...items];
    return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]);
}
function round2(x) {
    return Math.round(x * 100) / 100;
}
/** Throw when a setup request failed. */
function expectOk(reply, what) {
    if (reply.error !== undefined)
        throw new Error(`setup: ${what} failed: ${reply.error.code} ${reply.error.message} ${JSON.stringify(reply.error.data ?? "")}`);
}
/** Run `fn` over `items` with at most `limit` at a time. */
export async function forEachLimit(items, limit, fn) {
    let next = 0;
    const worker = async () => {
        while (next < items.length) {
            const i = next++;
            await fn(items[i], i);
        }
    };
    await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
/** Map `items` through `fn` with at most `limit` at a time, keeping the order. */
export async function mapLimit(items, limit, fn) {
    const out = new Array(items.length);
    await forEachLimit(items, limit, async (item, i) => {
        out[i] = await fn(item, i);
    });
    return out;
}
//# sourceMappingURL=session.js.map