/**
 * A real `bin/ledgerd` child process for tests: a free loopback port, a temp home directory whose
 * configuration file binds the server to 127.0.0.1 only, its stdout/stderr captured (the tail goes into
 * every failure message), ready once it answers `heights`. `kill9()` crashes it (SIGKILL: no cleanup, as a
 * power cut for the process), `restart()` starts it again on the same directory and port.
 *
 * Every process started here is registered; `killAllNodes()` (call it from `after`) SIGKILLs the ones still
 * running and removes the temp home directories made here, and a process `exit` hook does the same if a test
 * runner dies first or a file never calls it — no orphan nodes, no directories left behind. The process
 * is the project's one launcher's (tools/devnet/process.ts ManagedProcess, ledgerdCommand.ts): the tests run
 * a node exactly as the devnet and the benchmarks do.
 *
 * Usage:
 *   const node = await LedgerdProcess.start({ blockTimeSeconds: 2 });
 *   after(() => killAllNodes());
 *   const h = await node.rpc("heights");
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LEDGERD_BIN, PROJECT_ROOT, waitUntilServing } from "../../tools/devnet/ledgerdCommand.js";
import { ManagedProcess } from "../../tools/devnet/process.js";
import { freeLoopbackPort } from "../../tools/net/freePorts.js";
import { tcpSockets } from "./procNet.js";

/** The one free-port helper (tools/net/freePorts.ts), for the tests that import it with the launcher. */
/** The project root and the node's launcher (it execs node itself, so the child's pid is the node's pid). */
export { freeLoopbackPort, LEDGERD_BIN, PROJECT_ROOT };

/** Characters of stdout+stderr kept per process (the tail is what failure messages show). */
const OUTPUT_KEEP_CHARS = 64 * 1024;
/** Characters of output quoted in an error message. */
const OUTPUT_QUOTE_CHARS = 3000;
/** Milliseconds between readiness polls. */
const READY_POLL_MS = 50;
/** Attempts at a fresh port when the one picked was taken by someone else between picking and binding. */
const PORT_ATTEMPTS = 3;

export interface LedgerdOptions {
  /** existing home directory to reuse (default: a new temp directory, removed by `cleanup()`) */
  homeDir?: string;
  /** -network (default LOCAL) */
  network?: string;
  /** -blktime, seconds per directory block (default 2) */
  blockTimeSeconds?: number;
  /** fixed port (default: a free loopback port) */
  port?: number;
  /** more ledgerd flags, e.g. ["-maxbody=2048"] */
  extraArgs?: readonly string[];
  /** extra lines appended to the [App] group of the configuration file, e.g. ["MaxBatch = 5"] */
  appConfig?: readonly string[];
  /** a command put in front of the node, e.g. ["prlimit", "--fsize=1000000:unlimited", "--"]; it must exec */
  commandPrefix?: readonly string[];
  /** extra environment variables */
  env?: Readonly<Record<string, string>>;
  /** give up waiting for the first `heights` answer after this many ms (default 30,000) */
  startTimeoutMs?: number;
}

/** Raw HTTP answer. */
export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** A JSON-RPC error answer, thrown by `rpc()`. */
export class RpcCallError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data: unknown,
    readonly httpStatus: number,
  ) {
    super(
      `${method}: ${code} ${rpcMessage}${data === undefined ? "" : ` (${typeof data === "string" ? data : JSON.stringify(data)})`}`,
    );
    this.name = "RpcCallError";
  }
}

/** Nodes started here that may still run (the launcher's exit hook SIGKILLs them if the runner dies). */
const running = new Set<LedgerdProcess>();

/**
 * Temp home directories made here (`LedgerdProcess.start` without `homeDir`) and not removed yet: a test that
 * restarts a node on the same home, or kills one without `cleanup()`, left them in the temp directory (~200 KB
 * each, a few per `make test`).
 */
const ownedHomes = new Set<string>();

/** Remove the temp homes still listed (a node SIGKILLed a moment ago may still be exiting: a failure is left). */
function removeOwnedHomes(): void {
  for (const home of ownedHomes) {
    try {
      rmSync(home, { recursive: true, force: true });
    } catch {
      // a dying node wrote into it while it was removed: the temp directory keeps it
    }
  }
  ownedHomes.clear();
}
process.on("exit", removeOwnedHomes);

/**
 * SIGKILL every node started by this process that still runs, wait for them to exit, and remove every temp
 * home directory made here: the test file's safety net, called from its `after` hooks.
 */
export async function killAllNodes(): Promise<void> {
  await Promise.all([...running].map((p) => p.kill9()));
  removeOwnedHomes();
}

/**
 * One HTTP request to 127.0.0.1 (no keep-alive: each call its own connection).
 * @param timeoutMs abort after this many ms (rejects)
 */
export function httpRequest(
  port: number,
  options: {
    method?: string;
    path?: string;
    body?: string | Uint8Array;
    headers?: Record<string, string>;
    timeoutMs?: number;
  },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const body = options.body ?? "";
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "POST",
        path: options.path ?? "/v2",
        agent: false,
        headers: { "Content-Type": "text/plain;", "Content-Length": Buffer.byteLength(body), ...options.headers },
        timeout: options.timeoutMs ?? 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("timeout", () =>
      req.destroy(new Error(`no answer from 127.0.0.1:${port} within ${options.timeoutMs ?? 10_000} ms`)),
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A running (or stopped, restartable) ledgerd. */
export class LedgerdProcess {
  readonly homeDir: string;
  private readonly ownsHome: boolean;
  private process: ManagedProcess | undefined;
  private output = "";
  private rpcId = 0;
  /** times the process was started */
  starts = 0;

  private constructor(
    private readonly options: LedgerdOptions,
    public port: number,
  ) {
    this.ownsHome = options.homeDir === undefined;
    this.homeDir = options.homeDir ?? mkdtempSync(join(tmpdir(), "ledgerd-test-"));
    if (this.ownsHome) ownedHomes.add(this.homeDir);
    writeConfigFile(this.homeDir, options.appConfig ?? []);
  }

  /** Start a node and wait until it answers `heights`. */
  static async start(options: LedgerdOptions = {}): Promise<LedgerdProcess> {
    if (!existsSync(join(PROJECT_ROOT, "dist", "src", "cli.js")))
      throw new Error(`dist/src/cli.js is missing: build first (npx tsc -p .) — ${PROJECT_ROOT}`);
    let lastError: unknown;
    for (let attempt = 0; attempt < (options.port === undefined ? PORT_ATTEMPTS : 1); attempt++) {
      const p = new LedgerdProcess(options, options.port ?? (await freeLoopbackPort()));
      try {
        await p.launch();
        return p;
      } catch (e) {
        lastError = e;
        await p.kill9();
        if (p.ownsHome) p.cleanup();
        if (!/EADDRINUSE|cannot listen/i.test(String(e))) break;
      }
    }
    throw lastError;
  }

  /**
   * Spawn the node without waiting for it to serve (for tests of start-up failures). Resolves with the exit
   * code and output once it exits, or with `code: undefined` once it is serving (its output shows
   * `servingPattern`, default the "rpc listening" log line) or still running after `waitMs`.
   */
  static async startExpectingExit(
    options: LedgerdOptions & { waitMs?: number; servingPattern?: RegExp },
  ): Promise<
    | { process: LedgerdProcess; code: number | null; signal: NodeJS.Signals | null; output: string }
    | { process: LedgerdProcess; code: undefined; output: string }
  > {
    const p = new LedgerdProcess(options, options.port ?? (await freeLoopbackPort()));
    p.spawnChild();
    const serving = options.servingPattern ?? /"rpc listening"/;
    const deadline = Date.now() + (options.waitMs ?? 30_000);
    while (p.exitInfo === undefined && Date.now() < deadline && !serving.test(p.output)) await sleep(READY_POLL_MS);
    if (p.exitInfo === undefined) {
      // serving, or undecided: give a process that is on its way out a moment to finish exiting
      await Promise.race([p.waitForExit(), sleep(200)]);
      if (p.exitInfo === undefined) return { process: p, code: undefined, output: p.output };
    }
    return { process: p, code: p.exitInfo.code, signal: p.exitInfo.signal, output: p.output };
  }

  /** Base URL, http://127.0.0.1:<port>. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The node's pid (undefined when not running). */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  get isRunning(): boolean {
    return this.process?.isRunning ?? false;
  }

  /** How the last run ended: undefined while it runs (or before the first start). */
  private get exitInfo(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.process?.exitStatus;
  }

  /** How the last run ended ("" while running). */
  get exitDescription(): string {
    return this.process?.exitDescription ?? "";
  }

  /** The captured stdout+stderr of every run (last 64 KiB). */
  get log(): string {
    return this.output;
  }

  /** The last lines of output, for assertion messages. */
  tail(chars = OUTPUT_QUOTE_CHARS): string {
    return this.output.slice(-chars);
  }

  /** The LMDB directory: <home>/<network>/db. */
  get dataDir(): string {
    return join(this.homeDir, (this.options.network ?? "LOCAL").toLowerCase(), "db");
  }

  private args(): string[] {
    return [
      `-network=${this.options.network ?? "LOCAL"}`,
      `-homedir=${this.homeDir}`,
      `-blktime=${this.options.blockTimeSeconds ?? 2}`,
      `-port=${this.port}`,
      // the control panel on a free port too (never the fixed 8090)
      "-controlpanelport=0",
      ...(this.options.extraArgs ?? []),
    ];
  }

  private spawnChild(): void {
    if (this.isRunning) throw new Error("already running");
    const prefix = this.options.commandPrefix ?? [];
    const [command, ...args] = [...prefix, LEDGERD_BIN, ...this.args()];
    this.starts++;
    // a new process object per start: the arguments are read again (a test may have changed the port)
    this.process = ManagedProcess.spawn(
      {
        name: `ledgerd:${this.port}`,
        command: command!,
        args,
        cwd: PROJECT_ROOT,
        env: { ...this.options.env },
        marker: `-homedir=${this.homeDir}`,
        onOutput: (text) => {
          this.output += text;
          if (this.output.length > OUTPUT_KEEP_CHARS) this.output = this.output.slice(-OUTPUT_KEEP_CHARS);
        },
      },
      { detached: false },
    );
    const process = this.process;
    running.add(this);
    void process.whenExited().then(() => {
      if (this.process === process && !process.isRunning) running.delete(this);
    });
  }

  private async launch(): Promise<void> {
    this.spawnChild();
    await waitUntilServing(this.port, {
      timeoutMs: this.options.startTimeoutMs ?? 30_000,
      pollMs: READY_POLL_MS,
      gone: () => (this.exitInfo === undefined ? undefined : `exited (${this.exitDescription})`),
      describe: () => this.tail(),
    });
  }

  /** Start again on the same home directory and port; waits until it answers `heights`. */
  async restart(): Promise<void> {
    if (this.isRunning) throw new Error("restart: the node is still running; kill9() or stop() it first");
    await this.launch();
  }

  /** SIGKILL and wait for the exit. No-op when not running. */
  async kill9(): Promise<void> {
    await this.process?.kill("SIGKILL");
  }

  /** Synchronous SIGKILL without waiting (exit hooks). */
  killNow(): void {
    this.process?.killNow();
  }

  /** SIGTERM (clean shutdown) and wait; SIGKILL after `graceMs`. Returns the exit code. */
  async stop(graceMs = 15_000): Promise<number | null> {
    if (this.isRunning) await this.process!.kill("SIGTERM", graceMs);
    return this.exitInfo?.code ?? null;
  }

  /** Resolves when the process exits (at once when it is not running). */
  waitForExit(): Promise<void> {
    return this.process?.whenExited() ?? Promise.resolve();
  }

  /** Kill (if needed) and remove the temp home directory this helper created. */
  cleanup(): void {
    this.killNow();
    if (this.ownsHome) {
      rmSync(this.homeDir, { recursive: true, force: true });
      ownedHomes.delete(this.homeDir);
    }
  }

  /** Resident set size (VmRSS) of the node, bytes, from /proc (undefined when not running or not Linux). */
  rssBytes(): number | undefined {
    const pid = this.pid;
    if (pid === undefined) return undefined;
    try {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  }

  /**
   * Open file descriptors of the node (sockets included), from /proc. Throws when the node is not running or
   * /proc is missing (not Linux): a test that counts sockets must not pass by skipping its count.
   */
  openFds(): number {
    const pid = this.pid;
    if (pid === undefined) throw new Error(`openFds: the node is not running (${this.exitDescription})`);
    return readdirSync(`/proc/${pid}/fd`).length;
  }

  /**
   * How many of the TCP connections from `clientPorts` (the local ports of a test's sockets to 127.0.0.1) the
   * node has accepted: a connection counts once one of the node's file descriptors is its socket. A connection
   * still in the listen queue, or closed by the node, does not count. Linux only, from /proc; throws elsewhere.
   */
  acceptedConnectionsFrom(clientPorts: ReadonlySet<number>): number {
    const pid = this.pid;
    if (pid === undefined)
      throw new Error(`acceptedConnectionsFrom: the node is not running (${this.exitDescription})`);
    const ownSockets = new Set<string>();
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue; // closed between the listing and the read
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode !== undefined) ownSockets.add(inode);
    }
    // an IPv4 client of a dual-stack listener appears in tcp6 as ::ffff:127.0.0.1
    return tcpSockets(`/proc/${pid}/net`).filter(
      (s) => s.localPort === this.port && clientPorts.has(s.remotePort) && ownSockets.has(s.inode),
    ).length;
  }

  /** Send a raw body to `path` (default /v2) with `method` (default POST). */
  post(
    body: string | Uint8Array,
    options: { path?: string; method?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<HttpAnswer> {
    return httpRequest(this.port, { ...options, body });
  }

  /**
   * Several calls in JSON-RPC batches of at most `batchSize` (the node's default limit is 100). Returns one
   * item per call, in order: {result} or {error}. Throws when an answer is not a JSON-RPC batch answer.
   */
  async rpcBatch(
    calls: readonly { method: string; params?: unknown }[],
    endpoint: "v2" | "debug" = "v2",
    batchSize = 100,
  ): Promise<({ result: unknown } | { error: { code: number; message: string; data?: unknown } })[]> {
    const out: ({ result: unknown } | { error: { code: number; message: string; data?: unknown } })[] = [];
    for (let i = 0; i < calls.length; i += batchSize) {
      const chunk = calls.slice(i, i + batchSize);
      const body = JSON.stringify(
        chunk.map((c, k) => ({
          jsonrpc: "2.0",
          id: i + k,
          method: c.method,
          ...(c.params === undefined ? {} : { params: c.params }),
        })),
      );
      const a = await httpRequest(this.port, { path: `/${endpoint}`, body, timeoutMs: 30_000 });
      let json: unknown;
      try {
        json = JSON.parse(a.text);
      } catch {
        throw new Error(
          `batch: HTTP ${a.status} with a body that is not JSON: ${JSON.stringify(a.text.slice(0, 300))}`,
        );
      }
      if (!Array.isArray(json) || json.length !== chunk.length)
        throw new Error(`batch of ${chunk.length}: unexpected answer (HTTP ${a.status}): ${a.text.slice(0, 300)}`);
      for (const item of json as { result?: unknown; error?: { code: number; message: string; data?: unknown } }[])
        out.push(item.error !== undefined ? { error: item.error } : { result: item.result });
    }
    return out;
  }

  /**
   * Call one JSON-RPC method; returns `result`, throws RpcCallError on an error answer and Error on anything
   * that is not a JSON-RPC answer (the message quotes the node's output).
   */
  async rpc<T = unknown>(
    method: string,
    params?: unknown,
    endpoint: "v2" | "debug" = "v2",
    timeoutMs = 30_000,
  ): Promise<T> {
    const id = ++this.rpcId;
    const body = JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) });
    let a: HttpAnswer;
    try {
      a = await httpRequest(this.port, { path: `/${endpoint}`, body, timeoutMs });
    } catch (e) {
      throw new Error(
        `${method}: ${e instanceof Error ? e.message : String(e)} (node ${this.exitDescription || "running"})\n${this.tail()}`,
      );
    }
    let json: { id?: unknown; result?: T; error?: { code: number; message: string; data?: unknown } };
    try {
      json = JSON.parse(a.text) as typeof json;
    } catch {
      throw new Error(
        `${method}: HTTP ${a.status} with a body that is not JSON: ${JSON.stringify(a.text.slice(0, 300))}`,
      );
    }
    if (json.error !== undefined)
      throw new RpcCallError(method, json.error.code, json.error.message, json.error.data, a.status);
    if (!("result" in json)) throw new Error(`${method}: answer without result or error: ${a.text.slice(0, 300)}`);
    return json.result as T;
  }
}

/** The configuration file every test node reads: loopback only, plus the test's extra [App] lines. */
function writeConfigFile(homeDir: string, appLines: readonly string[]): void {
  const lines = ["; written by test/support/nodeProcess.ts", "[App]", "ListenHost = 127.0.0.1", ...appLines, ""];
  writeFileSync(join(homeDir, "ledgerd.conf"), lines.join("\n"));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
