/**
 * A JetStream cluster of N nats-servers on loopback, for the devnet command, the cluster tests and the
 * cluster benchmark: one configuration file, one file store and one log per server under
 * `<dir>/<name>/`, free loopback ports for clients, routes and monitoring, start/stop/`kill -9`/restart by
 * pid, readiness, and which server leads a stream.
 *
 * Readiness and leadership are read from each server's monitoring port (`/healthz`, `/jsz`), which needs
 * no NATS client and no credentials: a server is ready when `/healthz` says ok (JetStream has a meta
 * leader and its streams are current) and it names the same meta leader as the others.
 *
 * Storage is always `file`: R3 memory streams cannot recover after a restart on 2.9.x (nats-server#3712,
 * FEDERATION.md §2.3).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freeLoopbackPorts } from "../net/freePorts.js";
import { ManagedProcess, type ProcessSpec, sleep } from "./process.js";

/** Where one server listens and keeps its files. Persisted in the devnet's state so `restart` reuses it. */
export interface NatsServerLayout {
  /** server_name (nats0, nats1, …) */
  name: string;
  clientPort: number;
  clusterPort: number;
  /** monitoring port (/healthz, /jsz) */
  httpPort: number;
  /** <dir>/<name>: nats.conf, store/, nats.log */
  dir: string;
}

export interface NatsClusterLayout {
  clusterName: string;
  servers: NatsServerLayout[];
}

export interface NatsClusterOptions {
  /** parent directory; each server gets <dir>/<name>/ */
  dir: string;
  /** number of servers (1 runs without a cluster block) */
  size: number;
  /** cluster name (default "ledgerd") */
  clusterName?: string;
  /** server names are <prefix><i> (default "nats") */
  namePrefix?: string;
  /** the nats-server executable (default "nats-server" on PATH) */
  binary?: string;
  /** lines added at the end of every server's configuration (e.g. tls and authorization) */
  extraConfig?: readonly string[];
  /** a `tls { … }` block for the routes, inside `cluster {}` */
  routeTls?: string;
}

/** JetStream memory limit per server. Nothing is stored in memory (file streams only); 64 MiB is headroom. */
const MAX_MEMORY_STORE = "64MB";
/** JetStream file limit per server: a devnet's log is a few MB; the limit only stops a runaway test. */
const MAX_FILE_STORE = "1GB";
/** Milliseconds between readiness polls (a 3-server cluster is ready ~1.2 s after start, measured). */
const READY_POLL_MS = 100;
/** Milliseconds one monitoring request may take. */
const MONITOR_TIMEOUT_MS = 2000;

/** The message when nats-server cannot be found, with the ways to install it. */
export const NATS_MISSING =
  "nats-server is not on PATH: `make nats-server` builds the release the tests run (with Go) into " +
  ".tools/nats-server-<version>/, put that directory on PATH; or `sudo apt-get install -y nats-server` " +
  "(Debian/Ubuntu; 2.9.10 there), or a release from https://github.com/nats-io/nats-server/releases";

/** Throws NATS_MISSING unless `binary --version` runs. Returns the version line. */
export function natsServerVersion(binary = "nats-server"): string {
  try {
    return execFileSync(binary, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  } catch {
    throw new Error(NATS_MISSING);
  }
}

/** GET a monitoring URL and parse its JSON; undefined when the server does not answer. */
async function monitorJson(port: number, path: string): Promise<unknown> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { signal: AbortSignal.timeout(MONITOR_TIMEOUT_MS) });
    return (await res.json()) as unknown;
  } catch {
    return undefined;
  }
}

/** The configuration file text of one server. */
export function natsServerConfig(
  layout: NatsClusterLayout,
  server: NatsServerLayout,
  extra: readonly string[],
  routeTls?: string,
): string {
  const lines = [
    "# written by ledgerd's tools/devnet/natsCluster.ts",
    `server_name: ${server.name}`,
    `listen: 127.0.0.1:${server.clientPort}`,
    `http: 127.0.0.1:${server.httpPort}`,
    `jetstream { store_dir: ${JSON.stringify(join(server.dir, "store"))}, max_memory_store: ${MAX_MEMORY_STORE}, max_file_store: ${MAX_FILE_STORE} }`,
  ];
  if (layout.servers.length > 1) {
    const routes = layout.servers.map((s) => `nats-route://127.0.0.1:${s.clusterPort}`).join(", ");
    const tls = routeTls === undefined ? "" : `${routeTls}, `;
    lines.push(
      `cluster { name: ${layout.clusterName}, listen: 127.0.0.1:${server.clusterPort}, ${tls}routes: [${routes}] }`,
    );
  }
  lines.push(...extra, "");
  return lines.join("\n");
}

/** One nats-server of the cluster. */
export class NatsServer {
  readonly process: ManagedProcess;

  constructor(
    readonly layout: NatsServerLayout,
    binary: string,
    pid?: number,
  ) {
    const confPath = join(layout.dir, "nats.conf");
    const spec: ProcessSpec = {
      name: layout.name,
      command: binary,
      args: ["-c", confPath],
      logFile: join(layout.dir, "nats.log"),
      marker: confPath,
    };
    this.process = ManagedProcess.adopt(spec, pid);
  }

  get name(): string {
    return this.layout.name;
  }

  /** nats://127.0.0.1:<client port> */
  get url(): string {
    return `nats://127.0.0.1:${this.layout.clientPort}`;
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get isRunning(): boolean {
    return this.process.isRunning;
  }

  /**
   * `/healthz` says ok: JetStream is enabled, has a meta leader, and this server's streams and consumers are
   * current. `scope` "server": only the first two (`js-server-only`), for a server back from a pause whose
   * replicas of other nodes' consumers may take longer than the test to catch up.
   */
  async healthy(scope: "all" | "server" = "all"): Promise<boolean> {
    const path = scope === "server" ? "/healthz?js-server-only=true" : "/healthz";
    const h = (await monitorJson(this.layout.httpPort, path)) as { status?: unknown } | undefined;
    return h?.status === "ok";
  }

  /** The meta leader this server knows ("" when none, undefined when it does not answer). */
  async metaLeader(): Promise<string | undefined> {
    const j = (await monitorJson(this.layout.httpPort, "/jsz")) as { meta_cluster?: { leader?: string } } | undefined;
    if (j === undefined) return undefined;
    return j.meta_cluster?.leader ?? "";
  }

  /** The leader of `stream` as this server sees it ("" when none, undefined when it does not answer). */
  async streamLeader(stream: string): Promise<string | undefined> {
    const j = (await monitorJson(this.layout.httpPort, "/jsz?accounts=true&streams=true")) as
      | { account_details?: { stream_detail?: { name: string; cluster?: { leader?: string } }[] }[] }
      | undefined;
    if (j === undefined) return undefined;
    for (const account of j.account_details ?? [])
      for (const s of account.stream_detail ?? []) if (s.name === stream) return s.cluster?.leader ?? "";
    return "";
  }
}

export class NatsCluster {
  readonly servers: NatsServer[];

  private constructor(
    readonly layout: NatsClusterLayout,
    readonly binary: string,
    readonly detached: boolean,
    pids: readonly (number | undefined)[] = [],
  ) {
    this.servers = layout.servers.map((s, i) => new NatsServer(s, binary, pids[i]));
  }

  /**
   * Lay out a new cluster: pick free loopback ports, write every server's configuration. Starts nothing.
   * @param detached true: the servers outlive this process (the devnet command); false: they die with it
   */
  static async create(options: NatsClusterOptions, detached: boolean): Promise<NatsCluster> {
    const binary = options.binary ?? "nats-server";
    natsServerVersion(binary);
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new Error(`nats cluster size: expected a whole number ≥ 1, got ${options.size}`);
    const ports = await freeLoopbackPorts(options.size * 3);
    const prefix = options.namePrefix ?? "nats";
    const layout: NatsClusterLayout = {
      clusterName: options.clusterName ?? "ledgerd",
      servers: Array.from({ length: options.size }, (_, i) => ({
        name: `${prefix}${i}`,
        clientPort: ports[3 * i]!,
        clusterPort: ports[3 * i + 1]!,
        httpPort: ports[3 * i + 2]!,
        dir: join(options.dir, `${prefix}${i}`),
      })),
    };
    for (const s of layout.servers) {
      mkdirSync(join(s.dir, "store"), { recursive: true });
      // 0600: with --nats-auth it holds the users' password hashes (bcrypt, but still not for other users)
      writeFileSync(
        join(s.dir, "nats.conf"),
        natsServerConfig(layout, s, options.extraConfig ?? [], options.routeTls),
        { mode: 0o600 },
      );
    }
    return new NatsCluster(layout, binary, detached);
  }

  /** A cluster laid out earlier (its configuration files exist), with the pids recorded then (absent = not running). */
  static load(
    layout: NatsClusterLayout,
    pids: readonly (number | undefined)[],
    options: { binary?: string; detached: boolean },
  ): NatsCluster {
    return new NatsCluster(layout, options.binary ?? "nats-server", options.detached, pids);
  }

  /** Client URLs of every server, for a client's server list. */
  get urls(): string[] {
    return this.servers.map((s) => s.url);
  }

  server(name: string): NatsServer {
    const s = this.servers.find((x) => x.name === name);
    if (s === undefined)
      throw new Error(`no nats-server named ${name} (have ${this.servers.map((x) => x.name).join(", ")})`);
    return s;
  }

  /** Start every server that is not running, then wait until the cluster is ready. */
  async startAll(timeoutMs = 30_000): Promise<void> {
    for (const s of this.servers) if (!s.isRunning) s.process.restart({ detached: this.detached });
    await this.waitReady(timeoutMs);
  }

  /** Start one server again (same configuration, same store); does not wait (see waitReady). */
  start(name: string): void {
    this.server(name).process.restart({ detached: this.detached });
  }

  /** Stop (SIGTERM: hands stream leadership over at once) or crash (SIGKILL) one server and wait for its exit. */
  async kill(name: string, signal: "SIGTERM" | "SIGKILL" = "SIGKILL"): Promise<void> {
    await this.server(name).process.kill(signal);
  }

  /** SIGTERM every running server and wait for their exits. */
  async stopAll(): Promise<void> {
    await Promise.all(this.servers.map((s) => s.process.kill("SIGTERM")));
  }

  /**
   * Wait until every running server is healthy (`healthy(scope)`) and all of them name the same meta leader, which
   * is one of them (a single server: until it is healthy). Throws (with the log tails) after `timeoutMs`, or at
   * once if a server exits.
   */
  async waitReady(timeoutMs = 30_000, scope: "all" | "server" = "all"): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    for (;;) {
      const crashed = this.servers.find((s) => s.process.exitedUnexpectedly);
      if (crashed !== undefined)
        throw new Error(`${crashed.name} exited (${crashed.process.exitDescription}):\n${crashed.process.logTail()}`);
      const running = this.servers.filter((s) => s.isRunning);
      const states = await Promise.all(
        running.map(async (s) => ({ s, ok: await s.healthy(scope), leader: await s.metaLeader() })),
      );
      const leaders = new Set(states.map((x) => x.leader));
      const [leader] = leaders;
      // a single server runs JetStream without a meta group (no leader to name): healthy is ready
      if (this.servers.length === 1 && running.length === 1 && states[0]!.ok) return;
      if (
        running.length > 0 &&
        states.every((x) => x.ok) &&
        leaders.size === 1 &&
        leader !== undefined &&
        running.some((s) => s.name === leader)
      )
        return;
      last = states
        .map((x) => `${x.s.name}: ${x.ok ? "healthy" : "not healthy"}, meta leader ${JSON.stringify(x.leader)}`)
        .join("; ");
      if (Date.now() > deadline)
        throw new Error(
          `nats cluster not ready within ${timeoutMs} ms (${last || "no server running"}):\n` +
            this.servers.map((s) => `--- ${s.name}\n${s.process.logTail(1500)}`).join("\n"),
        );
      await sleep(READY_POLL_MS);
    }
  }

  /**
   * The server leading `stream`: the name most running servers report, if it is a running server;
   * undefined when there is none (no quorum, an election under way, or no such stream).
   */
  async streamLeader(stream: string): Promise<string | undefined> {
    const running = this.servers.filter((s) => s.isRunning);
    const seen = await Promise.all(running.map((s) => s.streamLeader(stream)));
    const votes = new Map<string, number>();
    for (const name of seen) if (name !== undefined && name !== "") votes.set(name, (votes.get(name) ?? 0) + 1);
    let best: string | undefined;
    let bestVotes = 0;
    for (const [name, n] of votes) if (n > bestVotes) [best, bestVotes] = [name, n];
    if (best === undefined || bestVotes * 2 <= running.length) return undefined;
    return running.some((s) => s.name === best) ? best : undefined;
  }

  /** Wait until `stream` has a leader among the running servers (other than `not`, when given); returns its name. */
  async waitStreamLeader(stream: string, options: { not?: string; timeoutMs?: number } = {}): Promise<string> {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const leader = await this.streamLeader(stream);
      if (leader !== undefined && leader !== options.not) return leader;
      if (Date.now() > deadline)
        throw new Error(
          `stream ${stream}: no leader${options.not ? ` other than ${options.not}` : ""} within ${timeoutMs} ms`,
        );
      await sleep(READY_POLL_MS);
    }
  }
}
