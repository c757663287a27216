/**
 * The calibration row of `make bench-check` (check.ts): a fixed CPU workload measured in the same run as
 * every other row, so that a row's ratio to its baseline can be read against how fast this machine runs now
 * compared with when the baseline was written (a noisy neighbour on the shared cores, a slower CPU). The
 * workload is deterministic and touches nothing of the project: SHA-256 over a 64 KiB buffer and a JS
 * integer loop, timed in this process's CPU time (as the close row is), the median of CALIBRATION_ROUNDS.
 */
import { createHash } from "node:crypto";
import type { BenchRow } from "./row.js";

export const CALIBRATION_ID = "calibration.cpu";
const CALIBRATION_ROUNDS = 7;
/** Work of one round: ~20–40 ms of CPU on the machines measured so far. */
const HASHES = 200;
const LOOP = 3_000_000;

function oneRound(): number {
  const buffer = Buffer.alloc(64 * 1024, 0x5a);
  const before = process.cpuUsage();
  let digest = Buffer.alloc(32);
  for (let i = 0; i < HASHES; i++) {
    digest.copy(buffer);
    digest = createHash("sha256").update(buffer).digest();
  }
  let x = digest[0]!;
  for (let i = 0; i < LOOP; i++) x = (x * 1_103_515_245 + 12_345) >>> 0;
  const used = process.cpuUsage(before);
  if (x === -1) throw new RangeError("unreachable: keeps the loop from being optimised away");
  return (used.user + used.system) / 1000;
}

/** `calibration.cpu`: CPU ms of the fixed workload (median of the rounds); no budget, never fails itself. */
export function calibrationRow(): BenchRow {
  const ms = Array.from({ length: CALIBRATION_ROUNDS }, oneRound);
  const median = [...ms].sort((a, b) => a - b)[ms.length >> 1]!;
  return {
    id: CALIBRATION_ID,
    section: "calibration",
    name: `calibration: ${HASHES} SHA-256 of 64 KiB + ${LOOP.toLocaleString("en-US")} integer steps (CPU)`,
    opsPerSec: 1000 / median,
    meanUs: median * 1000,
    p99Us: Math.max(...ms) * 1000,
    samples: ms.length,
    roundOpsPerSec: ms.map((m) => 1000 / m),
  };
}
