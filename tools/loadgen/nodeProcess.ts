/**
 * The node under load: a `ledgerd` child process on a free loopback port with its own data directory
 * (or a node already running, for `--url`), and its CPU time and memory read from /proc.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freeLoopbackPort } from "../net/freePorts.js";
import { RpcClient } from "./rpcClient.js";

/** The one free-port helper (tools/net/freePorts.ts), for the launcher's users. */
export { freeLoopbackPort };

/** The project root: dist/tools/loadgen/ → three levels up. */
export function projectRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
}

/** CPU and memory of one process, from /proc (Linux only; undefined elsewhere or once it exited). */
export class ProcessMonitor {
  /** clock ticks per second of /proc/<pid>/stat times (usually 100) */
  private readonly ticksPerSecond: number;

  constructor(readonly pid: number) {
    let ticks = 100;
    try {
      ticks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      // getconf missing: Linux's USER_HZ is 100 on every common architecture
    }
    this.ticksPerSecond = ticks;
  }

  /** user + system CPU time since the process started, seconds (all threads). */
  cpuSeconds(): number | undefined {
    return this.statCpuSeconds(`/proc/${this.pid}/stat`);
  }

  /** CPU time of the main thread alone (its thread id is the pid), seconds: JS, event loop, sync work. */
  mainThreadCpuSeconds(): number | undefined {
    return this.statCpuSeconds(`/proc/${this.pid}/task/${this.pid}/stat`);
  }

  private statCpuSeconds(file: string): number | undefined {
    try {
      const stat = readFileSync(file, "utf8");
      // fields after the parenthesised command name: state is field 3, utime 14, stime 15
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      return (Number(rest[11]) + Number(rest[12])) / this.ticksPerSecond;
    } catch {
      return undefined;
    }
  }

  /**
   * Resident set size now and its peak (VmRSS, VmHWM), and the part of RSS that is anonymous memory
   * (heap, RssAnon) vs mapped files (LMDB's memory map, RssFile), bytes.
   */
  memory(): { rssBytes: number; peakRssBytes: number; anonBytes: number; fileBytes: number } | undefined {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
      const kb = (name: string) =>
        Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
      return { rssBytes: kb("VmRSS"), peakRssBytes: kb("VmHWM"), anonBytes: kb("RssAnon"), fileBytes: kb("RssFile") };
    } catch {
      return undefined;
    }
  }
}

export interface NodeProcessOptions {
  homeDir: string;
  port: number;
  /** seconds per directory block (-blktime) */
  blockTimeSeconds: number;
  /** extra ledgerd flags, e.g. ["-verifythreads=1"] */
  extraArgs: readonly string[];
  /** extra node flags, e.g. ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] */
  nodeArgs: readonly string[];
  /** stdout and stderr of the node go here */
  logPath: string;
  /** give up waiting for the first answer after this many ms */
  startTimeoutMs: number;
}

/** Milliseconds between readiness polls while the node starts. */
const READY_POLL_MS = 20;

/**
 * What bin/ledgerd's first line, `#!/usr/bin/env -S [NAME=value …] node [flags …]`, sets for the node: the
 * environment (glibc's allocator settings) and node's own flags. The generator starts `node` itself (to add
 * flags such as --cpu-prof and to own the pid), so it applies them from here: the node it measures runs as
 * `bin/ledgerd` runs it. Any other first line sets nothing.
 */
export function launcherSettings(shebang: string): { env: Record<string, string>; nodeArgs: string[] } {
  const env: Record<string, string> = {};
  const prefix = "#!/usr/bin/env -S ";
  if (!shebang.startsWith(prefix)) return { env, nodeArgs: [] };
  const words = shebang.slice(prefix.length).trim().split(/\s+/);
  let i = 0;
  for (; i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!); i++) {
    const eq = words[i]!.indexOf("=");
    env[words[i]!.slice(0, eq)] = words[i]!.slice(eq + 1);
  }
  // words[i] is the program (node); the rest are its flags
  return { env, nodeArgs: words.slice(i + 1) };
}

/** A ledgerd child process. */
export class NodeProcess {
  readonly monitor: ProcessMonitor;
  readonly url: string;
  private exited = false;
  private exitInfo = "";

  private constructor(
    readonly options: NodeProcessOptions,
    readonly child: ChildProcess,
    /** ms from spawn to the first successful `heights` */
    readonly readyMs: number,
  ) {
    this.monitor = new ProcessMonitor(child.pid!);
    this.url = `http://127.0.0.1:${options.port}`;
    child.once("exit", (code, signal) => {
      this.exited = true;
      this.exitInfo = `code ${code} signal ${signal}`;
    });
  }

  /**
   * The command that runs the node: `node [launcher's node flags] [nodeArgs] <entry>` so that the pid is the
   * node itself, with the environment bin/ledgerd's first line sets (launcherSettings).
   */
  static command(nodeArgs: readonly string[]): { file: string; args: string[]; env: NodeJS.ProcessEnv } {
    const root = projectRoot();
    const entry = path.join(root, "dist", "src", "cli.js");
    const bin = path.join(root, "bin", "ledgerd");
    if (!existsSync(entry)) return { file: bin, args: [], env: process.env };
    const launcher = launcherSettings(readFileSync(bin, "utf8").split("\n", 1)[0]!);
    return {
      file: process.execPath,
      args: [...launcher.nodeArgs, ...nodeArgs, entry],
      env: { ...process.env, ...launcher.env },
    };
  }

  /** Spawn the node and wait until it answers `heights` on its port. */
  static async start(options: NodeProcessOptions): Promise<NodeProcess> {
    const cmd = NodeProcess.command(options.nodeArgs);
    const args = [
      ...cmd.args,
      "-network=LOCAL",
      `-homedir=${options.homeDir}`,
      `-blktime=${options.blockTimeSeconds}`,
      `-port=${options.port}`,
      "-controlpanelport=0",
      ...options.extraArgs,
    ];
    // a --homedir that does not exist yet is created, as the node itself would (the log goes there)
    mkdirSync(path.dirname(options.logPath), { recursive: true });
    const log = openSync(options.logPath, "a");
    const started = performance.now();
    const child = spawn(cmd.file, args, { stdio: ["ignore", log, log], cwd: projectRoot(), env: cmd.env });
    closeSync(log);
    let exit: string | undefined;
    child.once("exit", (code, signal) => {
      exit = `exited (code ${code}, signal ${signal})`;
    });
    // A failed spawn emits 'error'; unhandled it would take the generator (and make bench) down.
    child.on("error", (e) => {
      exit = `could not run ${cmd.file}: ${e.message}`;
    });
    const client = new RpcClient({ url: `http://127.0.0.1:${options.port}`, maxSockets: 1, timeoutMs: 2000 });
    try {
      while (performance.now() - started < options.startTimeoutMs) {
        if (exit !== undefined) break;
        const reply = await client.post('{"jsonrpc":"2.0","id":1,"method":"heights"}');
        if (reply.error === undefined) return new NodeProcess(options, child, performance.now() - started);
        await sleep(READY_POLL_MS);
      }
    } finally {
      client.close();
    }
    if (exit === undefined) child.kill("SIGKILL");
    throw new Error(
      `ledgerd did not start: ${exit ?? `no answer in ${options.startTimeoutMs} ms`}; log: ${tail(options.logPath)}`,
    );
  }

  /** True while the process runs. */
  get running(): boolean {
    return !this.exited;
  }

  /** Why it exited ("" while running). */
  get exitDescription(): string {
    return this.exitInfo;
  }

  /** Stop with `signal` (SIGTERM: graceful) and wait; SIGKILL after `graceMs`. Resolves once it exited. */
  async stop(signal: NodeJS.Signals = "SIGTERM", graceMs = 20_000): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
    await gone;
    clearTimeout(timer);
  }
}

/** The last ~600 characters of a log file, for error messages. */
export function tail(file: string): string {
  try {
    const text = readFileSync(file, "utf8");
    return text.slice(-600).trim();
  } catch {
    return "(no log)";
  }
}

/** Resolve after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
