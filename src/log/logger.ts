/**
 * Structured logging: one JSON object per line, `{"time": ISO-8601, "level", "msg", "fields"?}`, to stderr
 * (threshold `consoleLevel`) and optionally to a file (threshold `level`). Levels change at run time
 * (`reload-configuration`) with setLevel. No module-level state: each logger owns its sinks.
 * On a terminal the console may take short human lines instead (`consoleFormat: "human"`, chosen by cli.ts:
 * `12:00:06 WARN  control panel not started  reason="port 8090 is in use"`); the file stays JSON.
 */
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { LogLevel } from "../config/types.js";

/** Level of one entry (LogLevel without "none"). */
export type EntryLevel = Exclude<LogLevel, "none">;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** New thresholds: `level` for the file; `consoleLevel` (default: unchanged) for stderr. */
  setLevel(level: LogLevel, consoleLevel?: LogLevel): void;
  /** Current thresholds. */
  levels(): { level: LogLevel; consoleLevel: LogLevel };
  /** Whether an entry of `level` would be written anywhere: skip building costly fields when not. */
  isEnabled(level: EntryLevel): boolean;
  /**
   * Open the log file again by its path (SIGHUP after logrotate moved it): later lines go to the new file.
   * Throws, keeping the old file, when the path cannot be opened. No-op without a log file.
   */
  reopen(): void;
  /** Closes the log file (stderr stays open). Later entries go to stderr only. */
  close(): void;
}

export interface LoggerOptions {
  /** threshold of the log file */
  level: LogLevel;
  /** threshold of stderr */
  consoleLevel: LogLevel;
  /** log file, appended to (its directory is created); absent = stderr only */
  file?: string;
  /** console lines: JSON (default; for journald, pipes and log shippers) or short human lines (a terminal) */
  consoleFormat?: "json" | "human";
}

/** Where console lines go; process.stderr unless a test passes a real stream of its own. */
export interface LoggerDependencies {
  stderr: { write(chunk: string): unknown };
}

const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warning: 2, error: 3, none: 4 };

/** Field names whose values are secrets: written as "<redacted>" (passwords, private keys, auth headers). */
const SECRET_KEY = /pass(word)?$|privkey|private_?key|secret|authorization/i;

function enabled(entry: EntryLevel, threshold: LogLevel): boolean {
  return threshold !== "none" && RANK[entry] >= RANK[threshold];
}

/** JSON.stringify replacer: bigint → decimal string, bytes → hex, Error → {name, message, stack}, secrets redacted. */
function replacer(this: unknown, key: string, value: unknown): unknown {
  if (key !== "" && SECRET_KEY.test(key) && typeof value === "string" && value !== "") return "<redacted>";
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex");
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

function format(level: EntryLevel, msg: string, fields: Record<string, unknown> | undefined, now: Date): string {
  const entry: Record<string, unknown> = { time: now.toISOString(), level, msg };
  if (fields !== undefined && Object.keys(fields).length > 0) entry.fields = fields;
  try {
    return JSON.stringify(entry, replacer) + "\n";
  } catch (err) {
    // A circular structure in fields must not lose the entry.
    return (
      JSON.stringify({ time: entry.time, level, msg, fields: `<unserialisable: ${(err as Error).message}>` }) + "\n"
    );
  }
}

/** Level words of human lines, padded to one width so the messages line up. */
const HUMAN_LEVEL: Readonly<Record<EntryLevel, string>> = {
  debug: "DEBUG",
  info: "INFO ",
  warning: "WARN ",
  error: "ERROR",
};

/** A value of a human line: bare when it is a plain word or number, else JSON (quoted, escaped). */
function humanValue(v: unknown): string {
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "string" && /^[\w.:/@+-]+$/.test(v)) return v;
  return JSON.stringify(v);
}

/** One human line: local time, level, message, then the fields as key=value (secrets redacted as in JSON). */
export function formatHuman(
  level: EntryLevel,
  msg: string,
  fields: Record<string, unknown> | undefined,
  now: Date,
): string {
  const time = [now.getHours(), now.getMinutes(), now.getSeconds()].map((n) => String(n).padStart(2, "0")).join(":");
  let tail = "";
  if (fields !== undefined && Object.keys(fields).length > 0) {
    let clean: Record<string, unknown>;
    try {
      clean = JSON.parse(JSON.stringify(fields, replacer)) as Record<string, unknown>;
    } catch (err) {
      clean = { fields: `<unserialisable: ${(err as Error).message}>` };
    }
    tail = `  ${Object.entries(clean)
      .map(([k, v]) => `${k}=${humanValue(v)}`)
      .join(" ")}`;
  }
  return `${time} ${HUMAN_LEVEL[level]} ${msg}${tail}\n`;
}

/** Creates a logger; the file (if any) is opened now so that a bad path fails at start, not at the first error. */
export function createLogger(
  options: LoggerOptions,
  dependencies: LoggerDependencies = { stderr: process.stderr },
): Logger {
  let level = options.level;
  let consoleLevel = options.consoleLevel;
  let fd: number | undefined;
  let droppedLines = 0;
  const human = options.consoleFormat === "human";
  const file = options.file !== undefined && options.file !== "" ? options.file : undefined;
  const openFile = (path: string): number => {
    mkdirSync(dirname(path), { recursive: true });
    return openSync(path, "a", 0o600);
  };
  if (file !== undefined) fd = openFile(file);

  const write = (entry: EntryLevel, msg: string, fields?: Record<string, unknown>): void => {
    const toConsole = enabled(entry, consoleLevel);
    const toFile = fd !== undefined && enabled(entry, level);
    if (!toConsole && !toFile) return;
    const now = new Date();
    const line = format(entry, msg, fields, now);
    if (toConsole) dependencies.stderr.write(human ? formatHuman(entry, msg, fields, now) : line);
    if (toFile) {
      // Logging never fails the caller: a full disk (ENOSPC/EIO) must not turn a clean "storage full" answer
      // into an internal error. The lost line is counted and reported once the file accepts writes again.
      try {
        if (droppedLines > 0) {
          writeSync(
            fd!,
            format("warning", "log lines lost while the log file refused writes", { droppedLines }, new Date()),
          );
          droppedLines = 0;
        }
        writeSync(fd!, line);
      } catch {
        droppedLines++;
      }
    }
  };

  return {
    debug: (msg, fields) => write("debug", msg, fields),
    info: (msg, fields) => write("info", msg, fields),
    warn: (msg, fields) => write("warning", msg, fields),
    error: (msg, fields) => write("error", msg, fields),
    setLevel(next, nextConsole) {
      level = next;
      if (nextConsole !== undefined) consoleLevel = nextConsole;
    },
    levels: () => ({ level, consoleLevel }),
    isEnabled: (entry) => enabled(entry, consoleLevel) || (fd !== undefined && enabled(entry, level)),
    reopen() {
      if (file === undefined || fd === undefined) return;
      const next = openFile(file); // the new file first: a failed open keeps the old one
      closeSync(fd);
      fd = next;
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
