/**
 * One long-running child process of the devnet (a nats-server or a ledgerd), with its output appended to a
 * log file. Two ways to own one:
 * * `spawn()` starts it. `detached: false` (tests, benchmarks): it dies with this process (an exit hook
 *   SIGKILLs it). `detached: true` (the `ledgerd-devnet` command): its own process group, no pipes, so it
 *   outlives the command that started it.
 * * `adopt()` takes over a pid recorded earlier (`ledgerd-devnet down/restart/status` read it from
 *   devnet.json). Before any signal, the pid's command line must still contain the spec's `marker` (a path
 *   unique to this process, e.g. its configuration file): a pid reused by an unrelated process is never hit.
 *
 * Every signal goes to one pid, never to a name or a group.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/** What to run, and how to recognise it later. */
export interface ProcessSpec {
  /** short name in tables and messages (nats0, fed1, …) */
  name: string;
  /** executable (PATH is searched) */
  command: string;
  args: readonly string[];
  /** working directory (default: this process's) */
  cwd?: string;
  /** extra environment variables */
  env?: Readonly<Record<string, string>>;
  /** stdout and stderr are appended here */
  logFile: string;
  /** a string that appears in the process's command line and in no other process's (e.g. its config path) */
  marker: string;
}

/** Milliseconds between checks while waiting for a process to exit. */
const EXIT_POLL_MS = 20;
/** Bytes of a log file's tail quoted in error messages. */
const LOG_TAIL_BYTES = 3000;

const attached = new Set<ManagedProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const p of attached) p.killNow();
  });
}

/** SIGKILL every attached process this process started that still runs, and wait for their exits. */
export async function killAllAttached(): Promise<void> {
  await Promise.all([...attached].map((p) => p.kill("SIGKILL")));
}

/** The command line of a pid (arguments joined by spaces), or undefined when no such process (or not Linux). */
export function commandLineOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return undefined;
  }
}

/** True when the pid exists and is not a zombie (a zombie has exited; only its parent has not read that yet). */
function pidRuns(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The last bytes of a file as text ("" when it cannot be read). */
export function fileTail(path: string, bytes = LOG_TAIL_BYTES): string {
  try {
    const text = readFileSync(path, "utf8");
    return text.slice(-bytes);
  } catch {
    return "";
  }
}

export class ManagedProcess {
  private child: ChildProcess | undefined;
  private childExit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private adoptedPid: number | undefined;
  /** kill() was called since the last start: an exit is expected */
  private stopping = false;

  private constructor(readonly spec: ProcessSpec) {}

  /** Start the process. Resolves once it has been spawned (not once it serves: the caller knows how to ask). */
  static spawn(spec: ProcessSpec, options: { detached: boolean }): ManagedProcess {
    const p = new ManagedProcess(spec);
    p.start(options.detached);
    return p;
  }

  /** Take over a process started earlier (by another run of the devnet command). `pid` may be gone already. */
  static adopt(spec: ProcessSpec, pid: number | undefined): ManagedProcess {
    const p = new ManagedProcess(spec);
    p.adoptedPid = pid;
    return p;
  }

  get name(): string {
    return this.spec.name;
  }

  /** The pid while the process runs, else undefined. */
  get pid(): number | undefined {
    if (this.child !== undefined) return this.childExit === undefined ? this.child.pid : undefined;
    if (this.adoptedPid === undefined) return undefined;
    return this.isOurs(this.adoptedPid) ? this.adoptedPid : undefined;
  }

  get isRunning(): boolean {
    return this.pid !== undefined;
  }

  /** How an attached process ended ("" while running or when not known). */
  get exitDescription(): string {
    if (this.childExit === undefined) return "";
    return `exit code ${this.childExit.code}, signal ${this.childExit.signal}`;
  }

  /** A process this object started has exited without kill() being asked for (a crash or a failed start). */
  get exitedUnexpectedly(): boolean {
    return this.childExit !== undefined && !this.stopping;
  }

  /** The last part of the log file, for error messages. */
  logTail(bytes = LOG_TAIL_BYTES): string {
    return fileTail(this.spec.logFile, bytes);
  }

  /**
   * Start again with the same spec (after a crash or a stop); `env` adds variables for this start only (a
   * fault test's skewed clock: LD_PRELOAD and FAKETIME).
   */
  restart(options: { detached: boolean; env?: Readonly<Record<string, string>> }): void {
    if (this.isRunning) throw new Error(`${this.name} is still running (pid ${this.pid})`);
    this.start(options.detached, options.env);
  }

  private start(detached: boolean, env: Readonly<Record<string, string>> = {}): void {
    mkdirSync(dirname(this.spec.logFile), { recursive: true });
    const fd = openSync(this.spec.logFile, "a");
    writeSync(fd, `\n--- ${new Date().toISOString()} start: ${this.spec.command} ${this.spec.args.join(" ")}\n`);
    let child: ChildProcess;
    try {
      child = spawn(this.spec.command, [...this.spec.args], {
        cwd: this.spec.cwd,
        env: { ...process.env, ...this.spec.env, ...env },
        stdio: ["ignore", fd, fd],
        detached,
      });
    } finally {
      closeSync(fd); // the child holds its own copy
    }
    this.child = child;
    this.childExit = undefined;
    this.adoptedPid = undefined;
    this.stopping = false;
    child.once("exit", (code, signal) => {
      this.childExit = { code, signal };
      attached.delete(this);
    });
    child.once("error", (e) => {
      this.childExit ??= { code: -1, signal: null };
      attached.delete(this);
      try {
        const efd = openSync(this.spec.logFile, "a");
        writeSync(efd, `--- spawn error: ${e.message}\n`);
        closeSync(efd);
      } catch {
        // the log directory is gone: nothing more to record
      }
    });
    if (detached) {
      child.unref();
    } else {
      installExitHook();
      attached.add(this);
    }
  }

  /** The recorded pid is this process: it runs and its command line still carries the marker. */
  private isOurs(pid: number): boolean {
    return pidRuns(pid) && (commandLineOf(pid)?.includes(this.spec.marker) ?? false);
  }

  /**
   * Send `signal` and wait until the process has exited; SIGKILL after `graceMs` (SIGTERM only). Returns at
   * once when it does not run.
   * @param graceMs milliseconds to wait after SIGTERM before SIGKILL
   */
  async kill(signal: "SIGTERM" | "SIGKILL" = "SIGTERM", graceMs = 10_000): Promise<void> {
    const pid = this.pid;
    if (pid === undefined) return;
    this.stopping = true;
    process.kill(pid, signal);
    const killAt = Date.now() + graceMs;
    let killed = signal === "SIGKILL";
    while (this.stillThere(pid)) {
      if (!killed && Date.now() > killAt) {
        process.kill(pid, "SIGKILL");
        killed = true;
      }
      await sleep(EXIT_POLL_MS);
    }
  }

  private stillThere(pid: number): boolean {
    if (this.child !== undefined) return this.childExit === undefined;
    return pidRuns(pid);
  }

  /** Synchronous SIGKILL without waiting (exit hooks). */
  killNow(): void {
    const pid = this.pid;
    if (pid === undefined) return;
    this.stopping = true;
    process.kill(pid, "SIGKILL");
  }
}
