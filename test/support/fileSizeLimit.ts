/**
 * This test process's file-size limit (RLIMIT_FSIZE), lowered with `prlimit --pid`: a real, process-local
 * disk failure. LMDB writes past the limit fail (EFBIG), and the node's free-space guard
 * (src/store/diskSpace.ts) counts the room left under it, so a test's outcome depends on its own files,
 * not on how full the shared disk is. Each test file runs in its own process (node --test), so the limit
 * touches no other file's tests. The one module of the unit tier that starts a process: `prlimit` runs
 * once, changes this process and exits (test/support/tiers.ts IN_PROCESS_EXCEPTIONS).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";

/** false when prlimit can be used; otherwise why not (a `skip` value for node:test). */
export const NO_PRLIMIT: false | string =
  spawnSync("prlimit", ["--version"], { encoding: "utf8" }).status === 0
    ? false
    : "prlimit (util-linux) is not installed";

/** Set this process's soft file-size limit, bytes ("unlimited" lifts it). */
export function limitFileSize(bytes: number | "unlimited"): void {
  const r = spawnSync("prlimit", [`--pid=${process.pid}`, `--fsize=${bytes}:`], { encoding: "utf8" });
  assert.equal(r.status, 0, `prlimit --pid: ${r.stderr}`);
}
