/**
 * Bounds, defaults and accepted words of the configuration, shared by the file's field table (fields.ts,
 * appFields.ts, extensionFields.ts) and the command-line flags (flags.ts), each with its reason.
 */
import type { LogLevel } from "./types.js";

/** uint32 upper bound (ChangeAcksHeight is a uint32 in the reference). */
export const U32 = 4294967295;
/** Largest integer a JS number holds exactly; the reference's uint64/int64 fields are capped here. */
export const SAFE = Number.MAX_SAFE_INTEGER;
/** Largest accepted HTTP body: 1 GiB. A reveal carries at most 10 KiB of entry (20 KiB of hex), so anything
 *  near this bound is a mistake or an attack; the bound only keeps a typo from asking for terabytes. */
export const MAX_BODY_BYTES_LIMIT = 1024 * 1024 * 1024;
/** Smallest accepted HTTP body: 1 KiB. A commit-chain request is ~450 bytes; below 1 KiB nothing works. */
export const MIN_BODY_BYTES = 1024;
/**
 * Default free-space reserve of the data directory, MiB (store/diskSpace.ts): room for a few big block saves
 * (a 20,000-entry block packs to ~10 MB; LMDB may rewrite twice that) and the journal meanwhile.
 */
export const DEFAULT_MIN_FREE_DISK_MB = 64;
/**
 * Largest accepted reserve, MiB (1 TiB). The least is 1: without a reserve LMDB itself meets the full disk,
 * which the lmdb-js build in use does not survive (store/diskSpace.ts).
 */
export const MAX_MIN_FREE_DISK_MB = 1024 * 1024;

/** Default largest HTTP body: 1 MiB (NodeConfig.maxBodyBytes). Fits a 100-request batch of 10 KiB reveals. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/**
 * Largest message delay, ms, configured (`-delay`, [App] Delay) or set (`set-delay`, rpc/intake.ts). A delayed
 * call holds its HTTP request open for the whole delay; one minute is far beyond any useful network
 * simulation and still below common client timeouts.
 */
export const MAX_DELAY_MS = 60_000;
/** Modes of the /debug endpoint (NodeConfig.debugApi). */
export const DEBUG_API_MODES = ["off", "readonly", "readwrite"] as const;
/** Signature-verification worker threads beyond this are a typo: the pool cannot use more than the cores. */
export const MAX_VERIFY_THREADS = 256;

/** Accepted level words: ours plus the reference's (logrus/syslog names and the console's "standard"). */
export const LOG_LEVEL_WORDS: Readonly<Record<string, LogLevel>> = {
  debug: "debug",
  info: "info",
  notice: "info",
  standard: "info",
  warning: "warning",
  warn: "warning",
  error: "error",
  critical: "error",
  alert: "error",
  emergency: "error",
  fatal: "error",
  panic: "error",
  none: "none",
};

export const NETWORK_CHOICES = ["MAIN", "TEST", "LOCAL", "CUSTOM"] as const;
export const LEVEL_CHOICES = Object.keys(LOG_LEVEL_WORDS);
