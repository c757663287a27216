/** Time windows and limits of the ledger rules (docs/ledger.md §Time units). All times are ms. */

/**
 * Commits and asset transactions must carry a timestamp within ±1 hour of their arrival: the
 * reference node's replay filter (state/replay.go Range = 60 minutes).
 */
export const TIMESTAMP_WINDOW_MS = 60 * 60 * 1000;

/**
 * How long a paid commit is remembered after its own timestamp: it can be used by a reveal and blocks
 * repeated commits (REPEATED_COMMIT) for this long. Two windows: an identical commit can be resubmitted
 * until its timestamp leaves the ±1 h window, i.e. at most 1 h after the timestamp; one more hour lets a
 * slow client reveal an entry whose commit it sent near the edge of the window.
 */
export const COMMIT_LIFETIME_MS = 2 * TIMESTAMP_WINDOW_MS;

/**
 * A reveal that arrives before its commit waits in the holding queue (status NotConfirmed) for this
 * long after its arrival, then is dropped (swept at the next end of minute). One hour matches the
 * commit timestamp window: a commit made for it later than that could not have been made "before".
 */
export const HOLD_EXPIRY_MS = 60 * 60 * 1000;

/**
 * Minutes per directory block (wire-format §6.4): end-of-minute 0..9, the last one closes the block. One home:
 * the protocol's (minute markers 1..10 of the entry block, protocol/eblock.ts).
 */
export { MINUTES_PER_BLOCK } from "../protocol/eblock.js";
/* The holding queue's bounds (HOLDING_QUEUE_LIMIT, HOLDING_QUEUE_BYTES) live with its policy: holdingPolicy.ts. */

/** Milliseconds per unit of the directory block timestamp (it counts minutes since the epoch). */
export const MS_PER_TIMESTAMP_MINUTE = 60_000;

/** `current-minute` fault timeout, seconds (the reference node's default). */
export const FAULT_TIMEOUT_SECONDS = 120;
/** `current-minute` election round timeout, seconds (the reference node's default). */
export const ROUND_TIMEOUT_SECONDS = 30;
/** A minute that lasts longer than this many minute lengths counts as a stall (reference: 1.5). */
export const STALL_FACTOR = 1.5;

/**
 * After a failed write (disk full), how often the ledger probes whether the database takes writes again,
 * ms. Writes resume within about this long once space returns.
 */
export const RECOVERY_PROBE_MS = 1000;
