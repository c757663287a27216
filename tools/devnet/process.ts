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
 *
 * Output goes to `logFile`, or, with `onOutput` (tests that read a node's output as it comes), through pipes
 * to that callback. This is the one launcher of child processes: the devnet, the tests' nodes
 * (test/support/nodeProcess.ts), the load generator and the benchmarks (tools/loadgen/nodeProcess.ts) build
 * on it; a ledgerd's command line comes from ledgerdCommand.ts.
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
  /** stdout and stderr are appended here (unless `onOutput` is given) */
  logFile?: string;
  /** stdout and stderr, as they come, through pipes (instead of a log file) */
  onOutput?: (text: string) => void;
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
  private exited: Promise<void> = Promise.resolve();

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

  /** The last part of the log file, for error messages ("" when the output goes to `onOutput`). */
  logTail(bytes = LOG_TAIL_BYTES): string {
    return this.spec.logFile === undefined ? "" : fileTail(this.spec.logFile, bytes);
  }

  /** How the last start ended: code and signal; undefined while it runs or when not known (adopted). */
  get exitStatus(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.childExit;
  }

  /** Resolves when the process this object started last has exited (at once when none runs). */
  whenExited(): Promise<void> {
    return this.exited;
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
    const banner = `\n--- ${new Date().toISOString()} start: ${this.spec.command} ${this.spec.args.join(" ")}\n`;
    const capture = this.spec.onOutput;
    let fd: number | undefined;
    if (capture !== undefined) capture(banner);
    else {
      if (this.spec.logFile === undefined) throw new Error(`${this.name}: a process needs a logFile or onOutput`);
      mkdirSync(dirname(this.spec.logFile), { recursive: true });
      fd = openSync(this.spec.logFile, "a");
      writeSync(fd, banner);
    }
    let child: ChildProcess;
    try {
      child = spawn(this.spec.command, [...this.spec.args], {
        cwd: this.spec.cwd,
        env: { ...process.env, ...this.spec.env, ...env },
        stdio: fd === undefined ? ["ignore", "pipe", "pipe"] : ["ignore", fd, fd],
        detached,
      });
    } finally {
      if (fd !== undefined) closeSync(fd); // the child holds its own copy
    }
    if (capture !== undefined) {
      const forward = (d: Buffer): void => capture(d.toString("utf8"));
      child.stdout?.on("data", forward);
      child.stderr?.on("data", forward);
    }
    this.child = child;
    this.childExit = undefined;
    this.adoptedPid = undefined;
    this.stopping = false;
    this.exited = new Promise<void>((resolve) => {
      child.once("exit", (code, signal) => {
        this.childExit = { code, signal };
        attached.delete(this);
        resolve();
      });
      child.once("error", (e) => {
        this.childExit ??= { code: -1, signal: null };
        attached.delete(this);
        this.record(`--- spawn error: ${e.message}\n`);
        resolve();
      });
    });
    if (detached) {
      child.unref();
    } else {
      installExitHook();
      attached.add(this);
    }
  }

  /** Add a line of our own to the process's output (its log file or its `onOutput`). */
  private record(text: string): void {
    if (this.spec.onOutput !== undefined) {
      this.spec.onOutput(text);
      return;
    }
    if (this.spec.logFile === undefined) return;
    try {
      const fd = openSync(this.spec.logFile, "a");
      writeSync(fd, text);
      closeSync(fd);
    } catch {
      // the log directory is gone: nothing more to record
    }
  }

  /** The recorded pid is this process: it runs and its command line still carries the marker. */
  private isOurs(pid: number): boolean {
    return pidRuns(pid) && (commandLineOf(pid)?.includes(this.spec.marker) ?? false);
  }

  /**
   * Send `signal` and wait until the process has exited; SIGKILL after `graceMs` (any signal but SIGKILL). Returns at
   * once when it does not run.
   * @param graceMs milliseconds to wait after the signal before SIGKILL
   */
  async kill(signal: NodeJS.Signals = "SIGTERM", graceMs = 10_000): Promise<void> {
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
