/**
 * The node under load: a `ledgerd` child process on a free loopback port with its own data directory
 * (or a node already running, for `--url`), and its CPU time and memory read from /proc. The process is the
 * project's one launcher's (tools/devnet/process.ts ManagedProcess, ledgerdCommand.ts), run as bin/ledgerd
 * runs it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { launcherSettings, ledgerdCommand, PROJECT_ROOT, waitUntilServing } from "../devnet/ledgerdCommand.js";
import { fileTail, ManagedProcess } from "../devnet/process.js";
import { freeLoopbackPort } from "../net/freePorts.js";

/** The one free-port helper (tools/net/freePorts.ts), for the launcher's users. */
/** What bin/ledgerd's first line sets (ledgerdCommand.ts), for the launcher's users. */
export { freeLoopbackPort, launcherSettings };

/** The project root. */
export function projectRoot(): string {
  return PROJECT_ROOT;
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

/** A ledgerd child process. */
export class NodeProcess {
  readonly monitor: ProcessMonitor;
  readonly url: string;

  private constructor(
    readonly options: NodeProcessOptions,
    private readonly process: ManagedProcess,
    /** ms from spawn to the first successful `heights` */
    readonly readyMs: number,
  ) {
    this.monitor = new ProcessMonitor(process.pid!);
    this.url = `http://127.0.0.1:${options.port}`;
  }

  /** Spawn the node and wait until it answers `heights` on its port. */
  static async start(options: NodeProcessOptions): Promise<NodeProcess> {
    const cmd = ledgerdCommand(
      [
        "-network=LOCAL",
        `-homedir=${options.homeDir}`,
        `-blktime=${options.blockTimeSeconds}`,
        `-port=${options.port}`,
        "-controlpanelport=0",
        ...options.extraArgs,
      ],
      options.nodeArgs,
    );
    // a --homedir that does not exist yet is created, as the node itself would (the log goes there)
    mkdirSync(path.dirname(options.logPath), { recursive: true });
    const started = performance.now();
    const process = ManagedProcess.spawn(
      {
        name: "ledgerd",
        command: cmd.command,
        args: cmd.args,
        cwd: PROJECT_ROOT,
        env: cmd.env,
        logFile: options.logPath,
        marker: `-homedir=${options.homeDir}`,
      },
      { detached: false },
    );
    try {
      await waitUntilServing(options.port, {
        timeoutMs: options.startTimeoutMs,
        pollMs: READY_POLL_MS,
        gone: () => (process.isRunning ? undefined : `exited (${process.exitDescription})`),
        describe: () => tail(options.logPath),
      });
    } catch (e) {
      await process.kill("SIGKILL");
      throw e;
    }
    return new NodeProcess(options, process, performance.now() - started);
  }

  /** The node's pid while it runs. */
  get pid(): number | undefined {
    return this.process.pid;
  }

  /** True while the process runs. */
  get running(): boolean {
    return this.process.isRunning;
  }

  /** Why it exited ("" while running). */
  get exitDescription(): string {
    return this.process.exitDescription;
  }

  /** SIGKILL now, without waiting (exit hooks). */
  killNow(): void {
    this.process.killNow();
  }

  /** Stop with `signal` (SIGTERM: graceful) and wait; SIGKILL after `graceMs`. Resolves once it exited. */
  async stop(signal: NodeJS.Signals = "SIGTERM", graceMs = 20_000): Promise<void> {
    await this.process.kill(signal, graceMs);
  }
}

/** The last ~600 characters of a log file, for error messages. */
export function tail(file: string): string {
  return fileTail(file, 600).trim() || "(no log)";
}

/** Resolve after `ms` milliseconds. */
export { sleep } from "../devnet/process.js";
