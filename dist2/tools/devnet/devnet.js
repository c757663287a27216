/**
 * A development cluster on one machine: N nats-servers (one JetStream cluster) and the ledgerd nodes —
 * federated servers, audit servers, followers — each with its own directory under DIR and its own
 * loopback ports. Used by `bin/ledgerd-devnet` (processes detached: they outlive the command), by the
 * cluster tests and by the cluster benchmark (attached: they die with the test).
 *
 * Files under DIR:
 * * devnet.json — who runs where: `{"nats":[{name,url,pid}],"nodes":[{name,role,url,pid,identity}]}`
 *   (pid null when not running, identity null for a follower);
 * * devnet-state.json — what `restart`/`down`/`status` need: the layout of every process and its arguments;
 * * <nats name>/ — nats.conf, store/, nats.log; <node name>/ — ledgerd.conf (identity, key), the LMDB, ledgerd.log.
 *
 * The authority set is built the way the chain records it (docs/cluster.md §1.5, §2.2): fed0 is LOCAL's
 * bootstrap identity; every other federated and audit server gets a fresh identity and is added by a
 * skeleton-signed add-server message sent to fed0 (`bin/ledgerd-cluster`).
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX, LOCAL_BOOTSTRAP_SEED_HEX, } from "../../src/protocol/genesis.js";
import { LedgerdNode, } from "./ledgerdNode.js";
import { freeLoopbackPorts, NatsCluster } from "./natsCluster.js";
import { createNatsSecurity, natsClientSecurityConfig, natsRouteTlsConfig } from "./natsSecurity.js";
import { sleep } from "./process.js";
const execFileAsync = promisify(execFile);
/** The project root: dist/tools/devnet → three levels up. */
export const PROJECT_ROOT = resolve(fileURLToPath(import.meta.url), "..", "..", "..", "..");
const LEDGERD_BIN = join(PROJECT_ROOT, "bin", "ledgerd");
const CLUSTER_BIN = join(PROJECT_ROOT, "bin", "ledgerd-cluster");
/** The JetStream stream of the LOCAL network (docs/cluster.md §1.1). */
export const LOCAL_STREAM = "LEDGER_LOCAL";
/** Its subjects: `ledger.local.>`. */
export const LOCAL_SUBJECT_PREFIX = "ledger.local";
/** Limits on the counts, so a typo does not start a hundred processes. */
const MAX_PROCESSES_PER_KIND = 16;
/** Milliseconds between polls while waiting for the authority set. */
const AUTHORITY_POLL_MS = 250;
/** Checks the option values; throws an Error naming the flag. */
export function validateDevnetOptions(o) {
    const count = (flag, v, min) => {
        if (!Number.isInteger(v) || v < min || v > MAX_PROCESSES_PER_KIND)
            throw new Error(`--${flag}: expected a whole number from ${min} to ${MAX_PROCESSES_PER_KIND}, got ${v}`);
    };
    count("federated", o.federated, 1);
    count("audit", o.audit, 0);
    count("followers", o.followers, 0);
    count("nats", o.nats, 1);
    if (!Number.isInteger(o.blockTimeSeconds) || o.blockTimeSeconds < 1)
        throw new Error(`--blktime: expected whole seconds ≥ 1, got ${o.blockTimeSeconds}`);
    for (const [flag, v] of [
        ["faulttimeout", o.faultTimeoutSeconds],
        ["roundtimeout", o.roundTimeoutSeconds],
    ])
        if (v !== undefined && (!Number.isInteger(v) || v < 1))
            throw new Error(`--${flag}: expected whole seconds ≥ 1, got ${v}`);
}
/** Run `bin/ledgerd-cluster` with arguments; returns its stdout. */
async function clusterTool(args) {
    try {
        const { stdout } = await execFileAsync(CLUSTER_BIN, [...args], { cwd: PROJECT_ROOT, timeout: 60_000 });
        return stdout;
    }
    catch (e) {
        const err = e;
        throw new Error(`ledgerd-cluster ${args[0]}: ${(err.stderr ?? "").trim() || err.message}`);
    }
}
/** A fresh server identity from `ledgerd-cluster new-identity`. */
async function newIdentity() {
    const out = JSON.parse(await clusterTool(["new-identity"]));
    if (typeof out.identity !== "string" || typeof out.privkey !== "string" || typeof out.pubkey !== "string")
        throw new Error(`ledgerd-cluster new-identity: unexpected output ${JSON.stringify(out)}`);
    return { identity: out.identity, privkey: out.privkey, pubkey: out.pubkey };
}
/** Make `key` a federated or audit server: a skeleton-signed add-server message sent to the node at `url`. */
async function addServer(url, role, key) {
    await clusterTool(["add-server", "--url", url, "--role", role, "--identity", key.identity, "--pubkey", key.pubkey]);
}
/** The ledgerd arguments of one devnet node (docs/cluster.md §1.5, §2.2). */
function nodeArgs(options, n) {
    return [
        "-network=LOCAL",
        `-homedir=${n.home}`,
        `-config=${join(n.home, "ledgerd.conf")}`,
        `-port=${n.port}`,
        `-blktime=${options.blockTimeSeconds}`,
        `-nats=${n.natsUrls}`,
        `-role=${n.role}`,
        `-clusterreplicas=${n.replicas}`,
        ...(options.faultTimeoutSeconds === undefined ? [] : [`-faulttimeout=${options.faultTimeoutSeconds}`]),
        ...(options.roundTimeoutSeconds === undefined ? [] : [`-roundtimeout=${options.roundTimeoutSeconds}`]),
    ];
}
function writeJsonAtomically(path, value) {
    writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
    renameSync(`${path}.tmp`, path);
}
export class Devnet {
    dir;
    state;
    nats;
    nodes;
    detached;
    constructor(dir, state, nats, nodes, detached) {
        this.dir = dir;
        this.state = state;
        this.nats = nats;
        this.nodes = nodes;
        this.detached = detached;
    }
    /** The devnet recorded in `dir` (its processes may or may not run). Throws when there is none. */
    static open(dir, detached) {
        const statePath = join(dir, "devnet-state.json");
        if (!existsSync(statePath))
            throw new Error(`${dir} holds no devnet (no devnet-state.json); start one with up`);
        const state = JSON.parse(readFileSync(statePath, "utf8"));
        const pids = readDevnetJson(dir);
        const natsPids = state.nats.servers.map((s) => pids?.nats.find((x) => x.name === s.name)?.pid ?? undefined);
        const nats = NatsCluster.load(state.nats, natsPids, { detached });
        const nodes = state.nodes.map((n) => new LedgerdNode(n, LEDGERD_BIN, pids?.nodes.find((x) => x.name === n.name)?.pid ?? undefined));
        return new Devnet(dir, state, nats, nodes, detached);
    }
    /**
     * Lay out a new devnet in `options.dir` and start it: NATS, then fed0, then every other node, then the
     * authority set. Resolves once every node serves and knows every federated and audit server.
     * @param detached true: the processes outlive this one (the command); false: they die with it (tests)
     */
    static async up(options, detached, log = () => { }) {
        validateDevnetOptions(options);
        const dir = resolve(options.dir);
        if (existsSync(join(dir, "devnet-state.json")))
            throw new Error(`${dir} already holds a devnet: use \`status\`, \`restart NAME\`, \`down\` or \`resume\`, or another --dir`);
        mkdirSync(dir, { recursive: true });
        const security = options.natsAuth === true ? await createNatsSecurity(dir) : undefined;
        const nats = await NatsCluster.create({
            dir,
            size: options.nats,
            ...(security === undefined
                ? {}
                : {
                    extraConfig: natsClientSecurityConfig(security, LOCAL_SUBJECT_PREFIX),
                    routeTls: natsRouteTlsConfig(security),
                }),
        }, detached);
        const natsClient = security === undefined
            ? undefined
            : { user: security.user, password: security.password, caFile: security.certFile };
        const natsUrls = nats.urls.join(",");
        const replicas = Math.min(options.nats, 3);
        const names = [
            ...Array.from({ length: options.federated }, (_, i) => ({ name: `fed${i}`, role: "federated" })),
            ...Array.from({ length: options.audit }, (_, i) => ({ name: `audit${i}`, role: "audit" })),
            ...Array.from({ length: options.followers }, (_, i) => ({ name: `follower${i}`, role: "follower" })),
        ];
        const ports = await freeLoopbackPorts(names.length);
        const layouts = [];
        for (const [i, { name, role }] of names.entries()) {
            const home = join(dir, name);
            const key = role === "follower"
                ? undefined
                : i === 0
                    ? {
                        identity: LOCAL_BOOTSTRAP_IDENTITY_HEX,
                        privkey: LOCAL_BOOTSTRAP_SEED_HEX,
                        pubkey: LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX,
                    }
                    : await newIdentity();
            const args = nodeArgs(options, { home, port: ports[i], role, natsUrls, replicas });
            layouts.push({ name, role, port: ports[i], home, key, args });
        }
        const state = {
            version: 1,
            options: { ...options, dir },
            nats: nats.layout,
            nodes: layouts,
            ...(natsClient === undefined ? {} : { natsClient }),
        };
        const nodes = layouts.map((l) => new LedgerdNode(l, LEDGERD_BIN));
        for (const n of nodes) {
            mkdirSync(n.layout.home, { recursive: true });
            n.writeConfig(natsClient);
        }
        const devnet = new Devnet(dir, state, nats, nodes, detached);
        writeJsonAtomically(join(dir, "devnet-state.json"), state);
        try {
            log(`starting ${options.nats} nats-server(s)`);
            await nats.startAll();
            devnet.writeDevnetJson();
            log("starting fed0 (the bootstrap federated server)");
            const [first, ...rest] = nodes;
            first.start(detached);
            devnet.writeDevnetJson();
            await first.waitServing();
            log(`starting ${rest.length} more node(s)`);
            for (const n of rest)
                n.start(detached);
            devnet.writeDevnetJson();
            await Promise.all(rest.map((n) => n.waitServing()));
            for (const n of rest)
                if (n.layout.key !== undefined) {
                    log(`adding ${n.name} to the authority set (${n.role})`);
                    await addServer(first.url, n.role, n.layout.key);
                }
            log("waiting until every node knows the authority set");
            await devnet.waitAuthoritySet();
        }
        catch (e) {
            // leave nothing running behind a failed start: stop what this call started, by pid
            await devnet.down();
            throw new Error(`${e instanceof Error ? e.message : String(e)}\n(stopped every process this devnet had started; ${dir} is kept for its logs)`);
        }
        return devnet;
    }
    /**
     * Add a node to the running devnet with an empty data directory: a follower, or an audit/federated
     * server with a fresh identity that is then added to the authority set through fed0. Resolves once it
     * serves (and, for a server, once every node knows it).
     */
    async addNode(role) {
        const prefix = role === "federated" ? "fed" : role === "audit" ? "audit" : "follower";
        let i = 0;
        while (this.nodes.some((n) => n.name === `${prefix}${i}`))
            i++;
        const name = `${prefix}${i}`;
        const home = join(this.dir, name);
        const [port] = await freeLoopbackPorts(1);
        const key = role === "follower" ? undefined : await newIdentity();
        const args = nodeArgs(this.options, {
            home,
            port: port,
            role,
            natsUrls: this.nats.urls.join(","),
            replicas: Math.min(this.nats.servers.length, 3),
        });
        const layout = { name, role, port: port, home, key, args };
        const node = new LedgerdNode(layout, LEDGERD_BIN);
        mkdirSync(home, { recursive: true });
        node.writeConfig(this.state.natsClient);
        this.nodes.push(node);
        this.state.nodes.push(layout);
        writeJsonAtomically(join(this.dir, "devnet-state.json"), this.state);
        node.start(this.detached);
        this.writeDevnetJson();
        await node.waitServing();
        if (key !== undefined) {
            await addServer(this.nodes[0].url, role, key);
            await this.waitAuthoritySet();
        }
        return node;
    }
    /** The NATS user, password and CA file of a devnet started with `natsAuth` (undefined otherwise). */
    get natsClient() {
        return this.state.natsClient;
    }
    get options() {
        return this.state.options;
    }
    node(name) {
        const n = this.nodes.find((x) => x.name === name);
        if (n === undefined)
            throw new Error(`no node named ${name} (have ${this.nodes.map((x) => x.name).join(", ")})`);
        return n;
    }
    nodesWithRole(role) {
        return this.nodes.filter((n) => n.role === role);
    }
    /** The public description, with the pids of the processes running now. */
    describe() {
        return {
            nats: this.nats.servers.map((s) => ({ name: s.name, url: s.url, pid: s.pid ?? null })),
            nodes: this.nodes.map((n) => ({
                name: n.name,
                role: n.role,
                url: n.url,
                pid: n.pid ?? null,
                identity: n.identity ?? null,
            })),
        };
    }
    writeDevnetJson() {
        writeJsonAtomically(join(this.dir, "devnet.json"), this.describe());
    }
    /**
     * Wait until every running node lists exactly the federated and audit servers this devnet added (the
     * authority set as the chain records it). Throws after `timeoutMs` with what each node listed.
     */
    async waitAuthoritySet(timeoutMs = 120_000) {
        const want = (role) => this.nodes
            .filter((n) => n.role === role)
            .map((n) => n.identity)
            .sort()
            .join(",");
        const wantFed = want("federated");
        const wantAudit = want("audit");
        const deadline = Date.now() + timeoutMs;
        let last = "";
        for (;;) {
            const seen = await Promise.all(this.nodes
                .filter((n) => n.isRunning)
                .map(async (n) => {
                try {
                    const f = await n.client.call("federated-servers", undefined, "debug");
                    const a = await n.client.call("audit-servers", undefined, "debug");
                    const ids = (xs) => (xs ?? [])
                        .map((x) => x.ChainID)
                        .sort()
                        .join(",");
                    return { n, fed: ids(f.FederatedServers), audit: ids(a.AuditServers) };
                }
                catch (e) {
                    return { n, fed: `error: ${e instanceof Error ? e.message : String(e)}`, audit: "" };
                }
            }));
            if (seen.every((s) => s.fed === wantFed && s.audit === wantAudit))
                return;
            last = seen.map((s) => `${s.n.name}: federated [${s.fed}] audit [${s.audit}]`).join("; ");
            for (const n of this.nodes)
                if (n.process.exitedUnexpectedly)
                    throw new Error(`${n.name} exited (${n.process.exitDescription}):\n${n.process.logTail()}`);
            if (Date.now() > deadline)
                throw new Error(`the authority set did not reach every node within ${timeoutMs} ms (want federated [${wantFed}] audit [${wantAudit}]; ${last})`);
            await sleep(AUTHORITY_POLL_MS);
        }
    }
    /**
     * Start one process again (nats-server or node) with its recorded arguments and data, after stopping it
     * (SIGTERM) if it still runs; waits until it is ready (nats) or serves (node).
     */
    async restart(name) {
        const natsServer = this.nats.servers.find((s) => s.name === name);
        if (natsServer !== undefined) {
            await natsServer.process.kill("SIGTERM");
            this.nats.start(name);
            this.writeDevnetJson();
            await this.nats.waitReady();
            return;
        }
        const node = this.node(name);
        await node.process.kill("SIGTERM");
        node.start(this.detached);
        this.writeDevnetJson();
        await node.waitServing();
    }
    /**
     * Start every process of a stopped devnet again with its recorded arguments and data (after `down`):
     * NATS first, then fed0, then the rest. Throws when any of them still runs.
     */
    async resume() {
        const running = [...this.nats.servers, ...this.nodes].filter((x) => x.isRunning).map((x) => x.name);
        if (running.length > 0)
            throw new Error(`${this.dir}: ${running.join(", ")} still run; \`down\` first, or \`restart NAME\` one process`);
        await this.nats.startAll();
        this.writeDevnetJson();
        const [first, ...rest] = this.nodes;
        first.start(this.detached);
        await first.waitServing();
        for (const n of rest)
            n.start(this.detached);
        this.writeDevnetJson();
        await Promise.all(rest.map((n) => n.waitServing()));
    }
    /** Crash one process (SIGKILL), nats-server or node, and wait for its exit. */
    async kill9(name) {
        const natsServer = this.nats.servers.find((s) => s.name === name);
        if (natsServer !== undefined)
            await natsServer.process.kill("SIGKILL");
        else
            await this.node(name).process.kill("SIGKILL");
        this.writeDevnetJson();
    }
    /** Stop every process, nodes first (so none loses its log mid-write), then NATS; by pid, SIGTERM. */
    async down() {
        await Promise.all(this.nodes.map((n) => n.process.kill("SIGTERM")));
        await this.nats.stopAll();
        for (const n of this.nodes)
            n.close();
        this.writeDevnetJson();
    }
    /** Heights and cluster state of every running node (undefined for one that does not answer). */
    async heights() {
        const out = new Map();
        await Promise.all(this.nodes.map(async (n) => {
            if (!n.isRunning)
                return out.set(n.name, undefined);
            try {
                const heights = await n.client.call("heights");
                const info = await n.client
                    .call("network-info", undefined, "debug")
                    .catch(() => ({ Cluster: undefined }));
                out.set(n.name, { heights, cluster: info.Cluster });
            }
            catch {
                out.set(n.name, undefined);
            }
            return out;
        }));
        return out;
    }
    /** Close the nodes' HTTP clients (the processes keep running). */
    close() {
        for (const n of this.nodes)
            n.close();
    }
}
/** DIR/devnet.json, or undefined when absent. */
export function readDevnetJson(dir) {
    const path = join(dir, "devnet.json");
    if (!existsSync(path))
        return undefined;
    return JSON.parse(readFileSync(path, "utf8"));
}
//# sourceMappingURL=devnet.js.map