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
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import type { AuditServersResult, FederatedServersResult, HeightsResult } from "../../src/client/index.js";
import { clusterNames } from "../../src/cluster/clusterConfig.js";
import { keyPairFromSeed } from "../../src/protocol/address.js";
import {
  LOCAL_BOOTSTRAP_IDENTITY_HEX,
  LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX,
  LOCAL_BOOTSTRAP_SEED_HEX,
} from "../../src/protocol/genesis.js";
import { freeLoopbackPorts } from "../net/freePorts.js";
import { LEDGERD_BIN, PROJECT_ROOT } from "./ledgerdCommand.js";
import {
  LedgerdNode,
  type NatsClientCredentials,
  type NodeLayout,
  type NodeRole,
  type ServerIdentity,
} from "./ledgerdNode.js";
import { NatsCluster, type NatsClusterLayout } from "./natsCluster.js";
import {
  createNatsTls,
  createNatsUsers,
  type NatsUserName,
  type NatsUsers,
  natsClientSecurityConfig,
  natsRouteTlsConfig,
} from "./natsSecurity.js";
import { sleep } from "./process.js";

const execFileAsync = promisify(execFile);

export { PROJECT_ROOT };

const CLUSTER_BIN = join(PROJECT_ROOT, "bin", "ledgerd-cluster");

/** The JetStream stream of the LOCAL network (docs/cluster.md §1.1). */
export const LOCAL_STREAM = "LEDGER_LOCAL";
/** Its subjects: `ledger.local.>`. */
export const LOCAL_SUBJECT_PREFIX = "ledger.local";

export interface DevnetOptions {
  /** the devnet's directory (created; must not hold another devnet) */
  dir: string;
  federated: number;
  audit: number;
  followers: number;
  /** nats-servers (1 or 3 usually; the stream's replicas follow: min(nats, 3)) */
  nats: number;
  /** seconds per directory block */
  blockTimeSeconds: number;
  /** seconds without a federated server's dbSig/EOM before it is faulted (node default when absent) */
  faultTimeoutSeconds?: number;
  /** seconds per election round (node default when absent) */
  roundTimeoutSeconds?: number;
  /**
   * NATS with TLS as well (client port and routes, mutually verified); every devnet has one NATS user per
   * role and an admin user (natsSecurity.ts)
   */
  natsAuth?: boolean;
  /** run a CUSTOM network of this name (its own bootstrap identity, key and genesis allocation) instead of LOCAL */
  customNet?: string;
  /**
   * seconds a node's start may take before the devnet gives up on it (default 60; the tests give 300: on a
   * machine at load average 20-30 a node took 40 s to write its first log line)
   */
  serveTimeoutSeconds?: number;
  /** [Cluster] SnapshotInterval of every node (node default when absent): blocks between certified snapshots */
  snapshotInterval?: number;
}

/** The [Cluster] lines every node's file gets from the devnet's options. */
function clusterLines(options: DevnetOptions): string[] {
  return options.snapshotInterval === undefined ? [] : [`SnapshotInterval = ${options.snapshotInterval}`];
}

/** Seconds a node's start may take by default (DevnetOptions.serveTimeoutSeconds). */
const DEFAULT_SERVE_TIMEOUT_SECONDS = 60;

/** A CUSTOM network of the devnet: fed0 is its bootstrap server; the genesis pays one fresh address. */
export interface CustomNetworkSettings {
  name: string;
  /** fed0's identity and key, the network's bootstrap identity and key */
  bootstrap: ServerIdentity;
  /** the FA address the genesis pays, and how much (whole units) */
  allocationAddress: string;
  allocationUnits: number;
}

/** Persisted as DIR/devnet-state.json. */
interface DevnetState {
  version: 1;
  options: DevnetOptions;
  nats: NatsClusterLayout;
  nodes: NodeLayout[];
  /**
   * how nodes reach NATS: each role's user and the operator's admin user (clear passwords: the file is
   * 0600), and with `natsAuth` the CA file. Absent in a devnet made before NATS users (all open).
   */
  natsUsers?: NatsUsers;
  natsCaFile?: string;
  /** present when the devnet runs a CUSTOM network */
  custom?: CustomNetworkSettings;
}

/** DIR/devnet.json, the public description of the devnet (issue 15 §9). */
export interface DevnetJson {
  nats: { name: string; url: string; pid: number | null }[];
  nodes: {
    name: string;
    role: NodeRole;
    url: string;
    /** the node's control panel, http://127.0.0.1:<port>/ (null in a devnet made before panels had ports) */
    panel: string | null;
    pid: number | null;
    identity: string | null;
  }[];
}

/** The cluster part of a node's `network-info` (/debug) that the devnet shows (docs/cluster.md §2.2). */
export interface ClusterInfo {
  Synced?: boolean;
  Forked?: boolean;
  Federated?: string[];
  Audit?: string[];
}

/** What `status` shows of one node. */
export interface NodeStatus {
  heights: HeightsResult;
  cluster: ClusterInfo | undefined;
}

/** Limits on the counts, so a typo does not start a hundred processes. */
const MAX_PROCESSES_PER_KIND = 16;
/** Milliseconds between polls while waiting for the authority set. */
const AUTHORITY_POLL_MS = 250;

/** Checks the option values; throws an Error naming the flag. */
export function validateDevnetOptions(o: DevnetOptions): void {
  const count = (flag: string, v: number, min: number): void => {
    if (!Number.isInteger(v) || v < min || v > MAX_PROCESSES_PER_KIND)
      throw new Error(`--${flag}: expected a whole number from ${min} to ${MAX_PROCESSES_PER_KIND}, got ${v}`);
  };
  count("federated", o.federated, 1);
  count("audit", o.audit, 0);
  count("followers", o.followers, 0);
  count("nats", o.nats, 1);
  if (!Number.isInteger(o.blockTimeSeconds) || o.blockTimeSeconds < 1)
    throw new Error(`--blktime: expected whole seconds ≥ 1, got ${o.blockTimeSeconds}`);
  if (o.customNet !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(o.customNet))
    throw new Error(`--custom: expected a name of 1 to 64 letters, digits, _ or -, got ${JSON.stringify(o.customNet)}`);
  for (const [flag, v] of [
    ["faulttimeout", o.faultTimeoutSeconds],
    ["roundtimeout", o.roundTimeoutSeconds],
  ] as const)
    if (v !== undefined && (!Number.isInteger(v) || v < 1))
      throw new Error(`--${flag}: expected whole seconds ≥ 1, got ${v}`);
}

/** Run `bin/ledgerd-cluster` with arguments; returns its stdout. */
async function clusterTool(args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await execFileAsync(CLUSTER_BIN, [...args], { cwd: PROJECT_ROOT, timeout: 60_000 });
    return stdout;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`ledgerd-cluster ${args[0]}: ${(err.stderr ?? "").trim() || err.message}`);
  }
}

/** A fresh server identity from `ledgerd-cluster new-identity`. */
async function newIdentity(): Promise<ServerIdentity> {
  const out = JSON.parse(await clusterTool(["new-identity"])) as Partial<ServerIdentity>;
  if (typeof out.identity !== "string" || typeof out.privkey !== "string" || typeof out.pubkey !== "string")
    throw new Error(`ledgerd-cluster new-identity: unexpected output ${JSON.stringify(out)}`);
  return { identity: out.identity, privkey: out.privkey, pubkey: out.pubkey };
}

/** Make `key` a federated or audit server: a skeleton-signed add-server message sent to the node at `url`. */
async function addServer(url: string, role: NodeRole, key: ServerIdentity, skeletonSeed?: string): Promise<void> {
  await clusterTool([
    "add-server",
    "--url",
    url,
    "--role",
    role,
    "--identity",
    key.identity,
    "--pubkey",
    key.pubkey,
    ...(skeletonSeed === undefined ? [] : ["--skeleton-key", skeletonSeed]),
  ]);
}

/**
 * A CUSTOM network for a devnet: a fresh bootstrap identity (fed0's) and a fresh genesis address, whose
 * private key goes to DIR/genesis-key.txt (mode 0600) so the operator can spend the allocation.
 */
async function newCustomNetwork(
  dir: string,
  name: string,
  log: (line: string) => void,
): Promise<CustomNetworkSettings> {
  const bootstrap = await newIdentity();
  const fa = keyPairFromSeed("FA", new Uint8Array(randomBytes(32)));
  const keyFile = join(dir, "genesis-key.txt");
  writeFileSync(keyFile, `${fa.privateAddress}\n`, { mode: 0o600 });
  log(
    `CUSTOM network ${name}: the genesis pays ${CUSTOM_GENESIS_UNITS} units to ${fa.publicAddress} (its private key: ${keyFile})`,
  );
  return { name, bootstrap, allocationAddress: fa.publicAddress, allocationUnits: CUSTOM_GENESIS_UNITS };
}

/** Units the genesis of a devnet's CUSTOM network pays its one address. */
const CUSTOM_GENESIS_UNITS = 1_000_000;

/** The [App] lines a CUSTOM network needs on every node (docs/configuration.md §3.1). */
function customAppLines(c: CustomNetworkSettings | undefined): string[] {
  if (c === undefined) return [];
  return [
    `CustomBootstrapIdentity = ${c.bootstrap.identity}`,
    `CustomBootstrapKey = ${c.bootstrap.pubkey}`,
    `CustomGenesisAllocation = ${c.allocationAddress}:${c.allocationUnits}`,
  ];
}

/** The ledgerd arguments of one devnet node (docs/cluster.md §1.5, §2.2). */
function nodeArgs(
  options: DevnetOptions,
  n: { home: string; port: number; panelPort: number; role: NodeRole; natsUrls: string; replicas: number },
): string[] {
  return [
    ...(options.customNet === undefined ? ["-network=LOCAL"] : ["-network=CUSTOM", `-customnet=${options.customNet}`]),
    `-homedir=${n.home}`,
    `-config=${join(n.home, "ledgerd.conf")}`,
    `-port=${n.port}`,
    // every node its own panel: the default 8090 would give one node a panel and the others a warning
    `-controlpanelport=${n.panelPort}`,
    `-blktime=${options.blockTimeSeconds}`,
    `-nats=${n.natsUrls}`,
    `-role=${n.role}`,
    `-clusterreplicas=${n.replicas}`,
    ...(options.faultTimeoutSeconds === undefined ? [] : [`-faulttimeout=${options.faultTimeoutSeconds}`]),
    ...(options.roundTimeoutSeconds === undefined ? [] : [`-roundtimeout=${options.roundTimeoutSeconds}`]),
  ];
}

/**
 * Write JSON through a temporary file renamed over `path`. `mode` 0600 for a file holding secrets
 * (devnet-state.json: node keys, NATS passwords); devnet.json holds none.
 */
function writeJsonAtomically(path: string, value: unknown, mode = 0o644): void {
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`, { mode });
  chmodSync(`${path}.tmp`, mode); // writeFileSync's mode applies only when it creates the file
  renameSync(`${path}.tmp`, path);
}

/** Write DIR/devnet-state.json, readable by its owner only (it holds every node's key and NATS password). */
function writeState(dir: string, state: DevnetState): void {
  writeJsonAtomically(join(dir, "devnet-state.json"), state, 0o600);
}

/** A `natsAuth` devnet's credentials for one user (a role's, or the admin's). */
function natsCredentials(state: DevnetState, user: NatsUserName): NatsClientCredentials | undefined {
  if (state.natsUsers === undefined) return undefined;
  const u = state.natsUsers[user];
  return {
    user: u.user,
    password: u.password,
    ...(state.natsCaFile === undefined ? {} : { caFile: state.natsCaFile }),
  };
}

export class Devnet {
  private constructor(
    readonly dir: string,
    private readonly state: DevnetState,
    readonly nats: NatsCluster,
    readonly nodes: LedgerdNode[],
    readonly detached: boolean,
  ) {
    for (const n of nodes) n.serveTimeoutMs = this.serveTimeoutMs;
  }

  /** How long a node's start may take, ms (DevnetOptions.serveTimeoutSeconds). */
  get serveTimeoutMs(): number {
    return (this.state.options.serveTimeoutSeconds ?? DEFAULT_SERVE_TIMEOUT_SECONDS) * 1000;
  }

  /** The devnet recorded in `dir` (its processes may or may not run). Throws when there is none. */
  static open(dir: string, detached: boolean): Devnet {
    const statePath = join(dir, "devnet-state.json");
    if (!existsSync(statePath)) throw new Error(`${dir} holds no devnet (no devnet-state.json); start one with up`);
    const state = JSON.parse(readFileSync(statePath, "utf8")) as DevnetState;
    const pids = readDevnetJson(dir);
    const natsPids = state.nats.servers.map((s) => pids?.nats.find((x) => x.name === s.name)?.pid ?? undefined);
    const nats = NatsCluster.load(state.nats, natsPids, { detached });
    const nodes = state.nodes.map(
      (n) => new LedgerdNode(n, LEDGERD_BIN, pids?.nodes.find((x) => x.name === n.name)?.pid ?? undefined),
    );
    return new Devnet(dir, state, nats, nodes, detached);
  }

  /**
   * Lay out a new devnet in `options.dir` and start it: NATS, then fed0, then every other node, then the
   * authority set. Resolves once every node serves and knows every federated and audit server.
   * @param detached true: the processes outlive this one (the command); false: they die with it (tests)
   */
  static async up(options: DevnetOptions, detached: boolean, log: (line: string) => void = () => {}): Promise<Devnet> {
    validateDevnetOptions(options);
    const dir = resolve(options.dir);
    if (existsSync(join(dir, "devnet-state.json")))
      throw new Error(
        `${dir} already holds a devnet: use \`status\`, \`restart NAME\`, \`down\` or \`resume\`, or another --dir`,
      );
    mkdirSync(dir, { recursive: true });

    const custom = options.customNet === undefined ? undefined : await newCustomNetwork(dir, options.customNet, log);
    const subjects = clusterNames({
      network: custom === undefined ? "LOCAL" : "CUSTOM",
      customNet: options.customNet ?? "",
    });
    // every devnet: one NATS user per role and an admin (natsPermissions.ts); --nats-auth: TLS as well
    const users = createNatsUsers();
    const tls = options.natsAuth === true ? await createNatsTls(dir) : undefined;
    const nats = await NatsCluster.create(
      {
        dir,
        size: options.nats,
        extraConfig: natsClientSecurityConfig(tls === undefined ? { users } : { ...tls, users }, subjects),
        ...(tls === undefined ? {} : { routeTls: natsRouteTlsConfig(tls) }),
      },
      detached,
    );
    const natsUrls = nats.urls.join(",");
    const replicas = Math.min(options.nats, 3);
    const names: { name: string; role: NodeRole }[] = [
      ...Array.from({ length: options.federated }, (_, i) => ({ name: `fed${i}`, role: "federated" as const })),
      ...Array.from({ length: options.audit }, (_, i) => ({ name: `audit${i}`, role: "audit" as const })),
      ...Array.from({ length: options.followers }, (_, i) => ({ name: `follower${i}`, role: "follower" as const })),
    ];
    // two ports a node: its API, then its control panel
    const ports = await freeLoopbackPorts(2 * names.length);
    const layouts: NodeLayout[] = [];
    for (const [i, { name, role }] of names.entries()) {
      const home = join(dir, name);
      const key: ServerIdentity | undefined =
        role === "follower"
          ? undefined
          : i === 0
            ? (custom?.bootstrap ?? {
                identity: LOCAL_BOOTSTRAP_IDENTITY_HEX,
                privkey: LOCAL_BOOTSTRAP_SEED_HEX,
                pubkey: LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX,
              })
            : await newIdentity();
      const port = ports[2 * i]!;
      const panelPort = ports[2 * i + 1]!;
      const args = nodeArgs(options, { home, port, panelPort, role, natsUrls, replicas });
      layouts.push({ name, role, port, panelPort, home, key, args });
    }
    const state: DevnetState = {
      version: 1,
      options: { ...options, dir },
      nats: nats.layout,
      nodes: layouts,
      natsUsers: users,
      ...(tls === undefined ? {} : { natsCaFile: tls.certFile }),
      ...(custom === undefined ? {} : { custom }),
    };
    const nodes = layouts.map((l) => new LedgerdNode(l, LEDGERD_BIN));
    for (const n of nodes) {
      mkdirSync(n.layout.home, { recursive: true });
      const nats = natsCredentials(state, n.role);
      n.writeConfig({
        ...(nats === undefined ? {} : { nats }),
        app: customAppLines(custom),
        cluster: clusterLines(options),
      });
    }
    const devnet = new Devnet(dir, state, nats, nodes, detached);
    writeState(dir, state);

    try {
      log(`starting ${options.nats} nats-server(s)`);
      await nats.startAll();
      devnet.writeDevnetJson();
      log("starting fed0 (the bootstrap federated server)");
      const [first, ...rest] = nodes;
      first!.start(detached);
      devnet.writeDevnetJson();
      await first!.waitServing();
      log(`starting ${rest.length} more node(s)`);
      for (const n of rest) n.start(detached);
      devnet.writeDevnetJson();
      await Promise.all(rest.map((n) => n.waitServing()));
      for (const n of rest)
        if (n.layout.key !== undefined) {
          log(`adding ${n.name} to the authority set (${n.role})`);
          await addServer(first!.url, n.role, n.layout.key, custom?.bootstrap.privkey);
        }
      log("waiting until every node knows the authority set");
      await devnet.waitAuthoritySet();
    } catch (e) {
      // leave nothing running behind a failed start: stop what this call started, by pid
      await devnet.down();
      throw new Error(
        `${e instanceof Error ? e.message : String(e)}\n(stopped every process this devnet had started; ${dir} is kept for its logs)`,
      );
    }
    return devnet;
  }

  /**
   * Add a node to the running devnet with an empty data directory: a follower, or an audit/federated
   * server with a fresh identity that is then added to the authority set through fed0. Resolves once it
   * serves (and, for a server, once every node knows it).
   */
  async addNode(role: NodeRole): Promise<LedgerdNode> {
    const prefix = role === "federated" ? "fed" : role === "audit" ? "audit" : "follower";
    let i = 0;
    while (this.nodes.some((n) => n.name === `${prefix}${i}`)) i++;
    const name = `${prefix}${i}`;
    const home = join(this.dir, name);
    const [port, panelPort] = await freeLoopbackPorts(2);
    const key = role === "follower" ? undefined : await newIdentity();
    const args = nodeArgs(this.options, {
      home,
      port: port!,
      panelPort: panelPort!,
      role,
      natsUrls: this.nats.urls.join(","),
      replicas: Math.min(this.nats.servers.length, 3),
    });
    const layout: NodeLayout = { name, role, port: port!, panelPort: panelPort!, home, key, args };
    const node = new LedgerdNode(layout, LEDGERD_BIN);
    node.serveTimeoutMs = this.serveTimeoutMs;
    mkdirSync(home, { recursive: true });
    const nats = natsCredentials(this.state, role);
    node.writeConfig({
      ...(nats === undefined ? {} : { nats }),
      app: customAppLines(this.state.custom),
      cluster: clusterLines(this.state.options),
    });
    this.nodes.push(node);
    this.state.nodes.push(layout);
    writeState(this.dir, this.state);
    node.start(this.detached);
    this.writeDevnetJson();
    await node.waitServing();
    if (key !== undefined) {
      await addServer(this.nodes[0]!.url, role, key, this.state.custom?.bootstrap.privkey);
      await this.waitAuthoritySet();
    }
    return node;
  }

  /** The JetStream stream holding this devnet's log (`LEDGER_LOCAL`, or `LEDGER_CUSTOM_<id>`). */
  get stream(): string {
    return clusterNames({
      network: this.state.custom === undefined ? "LOCAL" : "CUSTOM",
      customNet: this.state.custom?.name ?? "",
    }).stream;
  }

  /** The CUSTOM network's settings (undefined on LOCAL). */
  get custom(): CustomNetworkSettings | undefined {
    return this.state.custom;
  }

  /**
   * The operator's NATS user (every subject: `nats stream …`, purges), its password and, with `natsAuth`, the
   * CA file (undefined for a devnet made before NATS users).
   */
  get natsClient(): NatsClientCredentials | undefined {
    return natsCredentials(this.state, "admin");
  }

  /** The NATS credentials of one role's user (or the admin's) (undefined for a devnet made before NATS users). */
  natsCredentials(user: NatsUserName): NatsClientCredentials | undefined {
    return natsCredentials(this.state, user);
  }

  get options(): DevnetOptions {
    return this.state.options;
  }

  node(name: string): LedgerdNode {
    const n = this.nodes.find((x) => x.name === name);
    if (n === undefined) throw new Error(`no node named ${name} (have ${this.nodes.map((x) => x.name).join(", ")})`);
    return n;
  }

  nodesWithRole(role: NodeRole): LedgerdNode[] {
    return this.nodes.filter((n) => n.role === role);
  }

  /** The public description, with the pids of the processes running now. */
  describe(): DevnetJson {
    return {
      nats: this.nats.servers.map((s) => ({ name: s.name, url: s.url, pid: s.pid ?? null })),
      nodes: this.nodes.map((n) => ({
        name: n.name,
        role: n.role,
        url: n.url,
        panel: n.panelUrl ?? null,
        pid: n.pid ?? null,
        identity: n.identity ?? null,
      })),
    };
  }

  writeDevnetJson(): void {
    writeJsonAtomically(join(this.dir, "devnet.json"), this.describe());
  }

  /**
   * Wait until every running node lists exactly the federated and audit servers this devnet added (the
   * authority set as the chain records it). Throws after `timeoutMs` with what each node listed.
   */
  async waitAuthoritySet(timeoutMs = 120_000): Promise<void> {
    const want = (role: NodeRole) =>
      this.nodes
        .filter((n) => n.role === role)
        .map((n) => n.identity!)
        .sort()
        .join(",");
    const wantFed = want("federated");
    const wantAudit = want("audit");
    const deadline = Date.now() + timeoutMs;
    let last = "";
    for (;;) {
      const seen = await Promise.all(
        this.nodes
          .filter((n) => n.isRunning)
          .map(async (n) => {
            try {
              const f = await n.client.call<FederatedServersResult>("federated-servers", undefined, "debug");
              const a = await n.client.call<AuditServersResult>("audit-servers", undefined, "debug");
              const ids = (xs: { ChainID: string }[] | null) =>
                (xs ?? [])
                  .map((x) => x.ChainID)
                  .sort()
                  .join(",");
              return { n, fed: ids(f.FederatedServers), audit: ids(a.AuditServers) };
            } catch (e) {
              return { n, fed: `error: ${e instanceof Error ? e.message : String(e)}`, audit: "" };
            }
          }),
      );
      if (seen.every((s) => s.fed === wantFed && s.audit === wantAudit)) return;
      last = seen.map((s) => `${s.n.name}: federated [${s.fed}] audit [${s.audit}]`).join("; ");
      for (const n of this.nodes)
        if (n.process.exitedUnexpectedly)
          throw new Error(`${n.name} exited (${n.process.exitDescription}):\n${n.process.logTail()}`);
      if (Date.now() > deadline)
        throw new Error(
          `the authority set did not reach every node within ${timeoutMs} ms (want federated [${wantFed}] audit [${wantAudit}]; ${last})`,
        );
      await sleep(AUTHORITY_POLL_MS);
    }
  }

  /**
   * Start one process again (nats-server or node) with its recorded arguments and data, after stopping it
   * (SIGTERM) if it still runs; waits until it is ready (nats) or serves (node).
   */
  async restart(name: string): Promise<void> {
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
  async resume(log: (line: string) => void = () => {}): Promise<void> {
    const running = [...this.nats.servers, ...this.nodes].filter((x) => x.isRunning).map((x) => x.name);
    if (running.length > 0)
      throw new Error(`${this.dir}: ${running.join(", ")} still run; \`down\` first, or \`restart NAME\` one process`);
    log(`starting ${this.nats.servers.length} nats-server(s)`);
    await this.nats.startAll();
    this.writeDevnetJson();
    const [first, ...rest] = this.nodes;
    log(`starting ${first!.name} (it opens its saved blocks first)`);
    first!.start(this.detached);
    await first!.waitServing();
    log(`starting ${rest.length} more node(s): ${rest.map((n) => n.name).join(", ")}`);
    for (const n of rest) n.start(this.detached);
    this.writeDevnetJson();
    await Promise.all(rest.map((n) => n.waitServing()));
  }

  /** Crash one process (SIGKILL), nats-server or node, and wait for its exit. */
  async kill9(name: string): Promise<void> {
    const natsServer = this.nats.servers.find((s) => s.name === name);
    if (natsServer !== undefined) await natsServer.process.kill("SIGKILL");
    else await this.node(name).process.kill("SIGKILL");
    this.writeDevnetJson();
  }

  /** Stop every process, nodes first (so none loses its log mid-write), then NATS; by pid, SIGTERM. */
  async down(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.process.kill("SIGTERM")));
    await this.nats.stopAll();
    for (const n of this.nodes) n.close();
    this.writeDevnetJson();
  }

  /** Heights and cluster state of every running node (undefined for one that does not answer). */
  async heights(): Promise<Map<string, NodeStatus | undefined>> {
    const out = new Map<string, NodeStatus | undefined>();
    await Promise.all(
      this.nodes.map(async (n) => {
        if (!n.isRunning) return out.set(n.name, undefined);
        try {
          const heights = await n.client.call<HeightsResult>("heights");
          const info = await n.client
            .call<{ Cluster?: ClusterInfo }>("network-info", undefined, "debug")
            .catch(() => ({ Cluster: undefined }));
          out.set(n.name, { heights, cluster: info.Cluster });
        } catch {
          out.set(n.name, undefined);
        }
        return out;
      }),
    );
    return out;
  }

  /** Close the nodes' HTTP clients (the processes keep running). */
  close(): void {
    for (const n of this.nodes) n.close();
  }
}

/** DIR/devnet.json, or undefined when absent. */
export function readDevnetJson(dir: string): DevnetJson | undefined {
  const path = join(dir, "devnet.json");
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, "utf8")) as DevnetJson;
}
