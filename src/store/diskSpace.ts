/**
 * The free-space reserve of the data directory: writes are refused (STORAGE_FULL) while less than the
 * reserve is free, so LMDB itself never runs into a full disk.
 *
 * Why not let LMDB fail: the lmdb-js build in use (3.5.6) corrupts its heap when a page write fails with
 * ENOSPC — the process aborts later ("corrupted size vs. prev_size", reproduced with a full tmpfs and
 * journal appends in flight; docs/operations.md §7). Refusing before the disk is full keeps the failure
 * in our hands: writers get a clear error, reads go on, writes resume once space returns.
 */
import { readFileSync, statfsSync, statSync } from "node:fs";
import { join } from "node:path";
import { StoreError } from "./errors.js";

/** How long a free-space reading is reused, ms: a statfs per write would cost ~2 µs × thousands per second. */
const REFRESH_MS = 100;

export interface DiskSpaceOptions {
  /** the data directory (its file system is the one measured) */
  path: string;
  /** bytes that must stay free; 0 turns the check off (library use; the node keeps ≥ 1 MiB) */
  reserveBytes: number;
  /**
   * data files whose size counts against a per-process file-size limit (RLIMIT_FSIZE), relative to `path`; a
   * function when they change (the journal's files, one per height), asked at each measure under a limit
   */
  files: readonly string[] | (() => readonly string[]);
}

export class DiskSpaceGuard {
  private measuredAt = Number.NEGATIVE_INFINITY;
  private availableBytes = Number.POSITIVE_INFINITY;

  private reserveBytes: number;

  constructor(private readonly options: DiskSpaceOptions) {
    this.reserveBytes = options.reserveBytes;
  }

  /** Change the reserve, bytes (a reloaded configuration). */
  setReserveBytes(bytes: number): void {
    this.reserveBytes = bytes;
    this.measuredAt = Number.NEGATIVE_INFINITY;
  }

  /**
   * Throw StoreError STORAGE_FULL unless `bytes` more can be written and the reserve still be free.
   * Cheap: re-measures at most every REFRESH_MS (and at once while short, so recovery is seen at once).
   */
  check(bytes = 0): void {
    const reserve = this.reserveBytes;
    if (reserve <= 0) return;
    const now = performance.now();
    if (now - this.measuredAt >= REFRESH_MS || this.availableBytes - bytes < reserve) {
      this.availableBytes = this.measure();
      this.measuredAt = now;
    }
    if (this.availableBytes - bytes < reserve)
      throw new StoreError({
        code: "STORAGE_FULL",
        path: this.options.path,
        availableBytes: this.availableBytes,
        reserveBytes: reserve,
        neededBytes: bytes,
      });
  }

  /** Bytes the node may still write: free space of the file system, or room left under RLIMIT_FSIZE. */
  private measure(): number {
    let available = Number.POSITIVE_INFINITY;
    try {
      const s = statfsSync(this.options.path);
      available = Number(s.bavail) * Number(s.bsize);
    } catch {
      // a file system that cannot tell: only the file-size limit applies
    }
    const limit = fileSizeLimit();
    if (limit !== undefined) {
      let largest = 0;
      const files = this.options.files;
      for (const f of typeof files === "function" ? files() : files) {
        try {
          largest = Math.max(largest, statSync(join(this.options.path, f)).size);
        } catch {
          // not created yet
        }
      }
      available = Math.min(available, limit - largest);
    }
    return available;
  }
}

/** The soft RLIMIT_FSIZE of this process in bytes (Linux /proc), undefined when unlimited or unknown. */
function fileSizeLimit(): number | undefined {
  let text: string;
  try {
    text = readFileSync("/proc/self/limits", "latin1");
  } catch {
    return undefined;
  }
  const m = /^Max file size\s+(\S+)/m.exec(text);
  if (m === null || m[1] === "unlimited") return undefined;
  const n = Number(m[1]);
  return Number.isFinite(n) ? n : undefined;
}
