/**
 * The background scrub: every page of both LMDB environments read once per pass, in a niced child process
 * (scrubTask.ts), while the node serves — what the start-up read-through did before the node served, O(records)
 * (0.6–1.5 s at 1,000,000 entries, minutes at tens of millions). docs/ledger.md §5.
 *
 * * **Resumable**: the cursor (the environment and database a pass is at, the pass number) is kept in
 *   `scrub.json` in the data directory after each database; a pass cut short by a stop or a crash goes on
 *   from the database it was in, so a node restarted often still reads every page.
 * * **Damage**: a walk that crashes LMDB or comes up short marks the store damaged (LedgerStore.markDamaged:
 *   every write refused with the reason, `/health` failing) and records the reason in the cursor file, so the
 *   next start refuses the directory (`CORRUPT`, before LMDB maps it) until it is restored from a backup.
 * * **Seen**: a progress line per database and at the end of a pass, and the `ledgerd_store_scrub_*` metrics
 *   (monitor/scrubMetrics.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { setPriority } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { StoreError } from "./errors.js";

/** The cursor file in the data directory. */
export const SCRUB_FILE = "scrub.json";
/** Time between the end of a pass and the start of the next one, ms (a full pass re-reads every page). */
export const SCRUB_INTERVAL_MS = 6 * 60 * 60 * 1000;
/** How LMDB crashes on a damaged page (a bad pointer, a page past the file, an assertion). */
const CRASH_SIGNALS: ReadonlySet<string> = new Set(["SIGSEGV", "SIGBUS", "SIGABRT", "SIGILL", "SIGFPE"]);
/** Least time between two progress lines at info level, ms (each database is logged at debug level). */
const PROGRESS_LOG_MS = 10_000;
/** Niceness of the scrub's process: it yields the cores to the node's own threads (0 normal … 19 lowest). */
const SCRUB_NICENESS = 19;

/** What `scrub.json` holds. */
interface ScrubCursor {
  /** passes completed since the file was made */
  passes: number;
  /** where the pass under way goes on: environment index and the last database of it walked ("" none) */
  env: number;
  db: string;
  /** end of the last complete pass, ms since epoch (0: none yet) */
  lastCompleteMs: number;
  /** set when a pass found damage: the reason */
  damaged?: string;
  /** true from a node's start to its stop: found true at a start, the last run ended in a crash or a kill */
  running?: boolean;
}

/** What the metrics and logs read of the scrub. */
export interface ScrubStatus {
  passes: number;
  /** records walked in this process's lifetime */
  recordsWalked: number;
  /** share of the pass under way done, 0..1 (1 between passes) */
  progress: number;
  running: boolean;
  lastCompleteMs: number;
  damaged: string | undefined;
}

export interface ScrubLog {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface ScrubOptions {
  /** the main environment's directory (`scrub.json` is kept there) and the journal's */
  paths: readonly string[];
  /** ms between passes (default SCRUB_INTERVAL_MS) */
  intervalMs?: number;
}

export interface ScrubDependencies {
  log: ScrubLog;
  /** called once when a pass finds damage, with the reason */
  onDamage(reason: string): void;
  /** wall clock, ms since epoch */
  now(): number;
}

function readCursor(file: string): ScrubCursor {
  const fresh: ScrubCursor = { passes: 0, env: 0, db: "", lastCompleteMs: 0 };
  if (!existsSync(file)) return fresh;
  try {
    const c = JSON.parse(readFileSync(file, "utf8")) as Partial<ScrubCursor>;
    return {
      passes: Number.isInteger(c.passes) ? c.passes! : 0,
      env: Number.isInteger(c.env) ? c.env! : 0,
      db: typeof c.db === "string" ? c.db : "",
      lastCompleteMs: typeof c.lastCompleteMs === "number" ? c.lastCompleteMs : 0,
      ...(typeof c.damaged === "string" ? { damaged: c.damaged } : {}),
      ...(c.running === true ? { running: true } : {}),
    };
  } catch {
    // a cursor file cut short by a crash: start the pass over (it only costs a re-read)
    return fresh;
  }
}

/**
 * Refuse a data directory whose last scrub found damage (StoreError CORRUPT naming the reason): the start must
 * not map pages a child already crashed on.
 */
export function checkNotDamaged(dir: string): void {
  const file = join(dir, SCRUB_FILE);
  const { damaged } = readCursor(file);
  if (damaged !== undefined)
    throw new StoreError({
      code: "CORRUPT",
      path: dir,
      info: `the background scrub found a damaged page: ${damaged}; restore the data directory from a backup (a restore over this directory: remove ${file} too, which records the finding)`,
    });
}

export class StoreScrub {
  private readonly file: string;
  private cursor: ScrubCursor;
  private child: ChildProcess | undefined;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private recordsWalked = 0;
  /** records of the pass under way: walked so far (since this process started it) and in all */
  private passDone = 0;
  private passTotal = 0;
  private exited: Promise<void> = Promise.resolve();
  /** when the last info-level progress line was written (performance.now) */
  private lastProgressLog = performance.now();
  /** the database being walked (named when a walk fails) */
  private current = { env: 0, db: "" };

  constructor(
    private readonly options: ScrubOptions,
    private readonly deps: ScrubDependencies,
  ) {
    this.file = join(options.paths[0]!, SCRUB_FILE);
    this.cursor = readCursor(this.file);
    if (this.cursor.running === true) {
      // The last run ended without a stop: a crash may have been a read of a damaged page in a database this
      // pass had already walked, so the pass starts over and reaches every page again, not only the rest.
      this.deps.log.info("store scrub: the last run ended without a stop; this pass reads every page", {
        resumedAfter: `${this.cursor.env} ${this.cursor.db}`,
      });
      this.cursor.env = 0;
      this.cursor.db = "";
    }
    this.cursor.running = true;
    this.save();
  }

  status(): ScrubStatus {
    return {
      passes: this.cursor.passes,
      recordsWalked: this.recordsWalked,
      progress: this.child === undefined || this.passTotal === 0 ? 1 : Math.min(1, this.passDone / this.passTotal),
      running: this.child !== undefined,
      lastCompleteMs: this.cursor.lastCompleteMs,
      damaged: this.cursor.damaged,
    };
  }

  /** Start (or resume) a pass now, unless one is running or damage was found. */
  start(): void {
    if (this.stopped || this.child !== undefined || this.cursor.damaged !== undefined) return;
    const task = fileURLToPath(new URL("./scrubTask.js", import.meta.url));
    const child = spawn(process.execPath, [task, String(this.cursor.env), this.cursor.db, ...this.options.paths], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    try {
      if (child.pid !== undefined) setPriority(child.pid, SCRUB_NICENESS);
    } catch {
      // not allowed here: it runs at the node's priority
    }
    this.passDone = 0;
    this.passTotal = 0;
    const resumed = this.cursor.db !== "" || this.cursor.env !== 0;
    this.deps.log.info("store scrub started", {
      pass: this.cursor.passes + 1,
      ...(resumed ? { resumedAfter: `${this.options.paths[this.cursor.env]} ${this.cursor.db}` } : {}),
    });
    let out = "";
    let err = "";
    child.stdout!.setEncoding("utf8");
    child.stderr!.setEncoding("utf8");
    child.stdout!.on("data", (chunk: string) => {
      out += chunk;
      let nl = out.indexOf("\n");
      while (nl >= 0) {
        this.line(out.slice(0, nl));
        out = out.slice(nl + 1);
        nl = out.indexOf("\n");
      }
    });
    child.stderr!.on("data", (chunk: string) => {
      if (err.length < 4096) err += chunk;
    });
    let spawnError: Error | undefined;
    this.exited = new Promise<void>((resolve) => {
      // no process (too many processes, no memory): not a verdict on the store; the next pass tries again
      child.on("error", (e) => {
        spawnError = e;
      });
      child.on("close", (code, signal) => {
        this.child = undefined;
        resolve();
        if (this.stopped) return;
        if (code === 0) return this.schedule();
        if (spawnError !== undefined || (signal !== null && !CRASH_SIGNALS.has(signal))) {
          // killed from outside (the OOM killer's SIGKILL, an operator) or never started: no verdict
          this.deps.log.info("store scrub did not finish; the next pass tries again", {
            reason: spawnError?.message ?? signal,
          });
          return this.schedule();
        }
        const how = signal !== null ? `reading it crashed LMDB (${signal})` : `reading it failed: ${err.trim()}`;
        const where = this.options.paths[this.current.env] ?? this.options.paths[0]!;
        this.damage(`${where}, database ${this.current.db || "?"}: ${how}`);
      });
    });
  }

  private line(line: string): void {
    const [what, ...rest] = line.split(" ");
    if (what === "total") this.passTotal = Number(rest[0]);
    else if (what === "start") this.current = { env: Number(rest[0]), db: rest[1] ?? "" };
    else if (what === "db") {
      const n = Number(rest[2]);
      this.recordsWalked += n;
      this.passDone += n;
      // a resume begins after this database
      this.cursor.env = Number(rest[0]);
      this.cursor.db = rest[1] ?? "";
      this.save();
      const fields = {
        pass: this.cursor.passes + 1,
        database: rest[1],
        records: n,
        done: this.passDone,
        of: this.passTotal,
      };
      const now = performance.now();
      if (now - this.lastProgressLog >= PROGRESS_LOG_MS) {
        this.lastProgressLog = now;
        this.deps.log.info("store scrub progress", fields);
      } else this.deps.log.debug("store scrub progress", fields);
    } else if (what === "done") {
      this.cursor = { passes: this.cursor.passes + 1, env: 0, db: "", lastCompleteMs: this.deps.now(), running: true };
      this.save();
      this.deps.log.info("store scrub complete", { pass: this.cursor.passes, records: Number(rest[0]) });
    }
  }

  private damage(reason: string): void {
    this.cursor.damaged = reason;
    this.save();
    this.deps.log.error("store scrub found a damaged page: writes refused; restore the data directory from a backup", {
      reason,
    });
    this.deps.onDamage(reason);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.start(), this.options.intervalMs ?? SCRUB_INTERVAL_MS);
    this.timer.unref();
  }

  private save(): void {
    const tmp = `${this.file}.tmp`;
    try {
      writeFileSync(tmp, JSON.stringify(this.cursor));
      renameSync(tmp, this.file);
    } catch {
      // a full or read-only disk: the pass goes on, a restart re-reads from the last cursor saved
    }
  }

  /** Stop the pass under way (its cursor is kept) and any later one. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.child?.kill("SIGTERM");
    await this.exited;
    delete this.cursor.running;
    this.save();
  }
}
