/**
 * The figure's unit measured DURING a write phase, beside the node's work (issue 35; docs/performance.md
 * §"Signature checks per entry"): a worker thread of the generator verifies one fixed signature with libsodium
 * in short rounds spread over the phase, and counts its own thread's CPU time (`/proc/thread-self/schedstat`).
 *
 * Why beside the writes and not only before and after them (verifyUnit.ts): on these shared vCPUs one verify
 * costs more while both vCPUs are busy than while one idles — the node's own verify thread spent 158–171 µs per
 * check during the sixteenth session's write runs while the idle measurement of the same minutes gave 71–144 µs
 * (2026-11-29, 2 × Intel Xeon) — so a unit taken at idle states the node's cost in a faster CPU's verifies, and
 * moved the figure 4.3–8.4 for one build. Measured beside the writes, numerator and unit share the conditions.
 * Its cost: ROUND_VERIFIES verifies every ROUND_GAP_MS, ~1 % of one core.
 */
import { existsSync, readFileSync } from "node:fs";
import { parentPort, Worker, workerData } from "node:worker_threads";
import { fixedSignature, loadSodiumVerify, type VerifyUnit } from "./verifyUnit.js";

/** Verifies per round: ~25–35 ms of one core (the schedstat clock advances at least per scheduler tick, ≤ 4 ms). */
export const ROUND_VERIFIES = 200;
/** Milliseconds between two rounds' starts. */
export const ROUND_GAP_MS = 2000;

/** This thread's CPU time, ns: the first field of its schedstat (time on a CPU). */
function threadCpuNs(): number {
  return Number(readFileSync("/proc/thread-self/schedstat", "latin1").split(" ")[0]);
}

/** A measurement under way on its worker thread. */
export class VerifyUnitDuring {
  private constructor(private readonly worker: Worker) {}

  /** Start measuring; undefined where libsodium or a thread's schedstat is not available (the figure is then absent). */
  static start(): VerifyUnitDuring | undefined {
    if (loadSodiumVerify() === undefined || !existsSync("/proc/thread-self/schedstat")) return undefined;
    return new VerifyUnitDuring(new Worker(new URL(import.meta.url), { workerData: { verifyUnitDuring: true } }));
  }

  /**
   * Stop and give the unit: µs of thread CPU per verify over all rounds together (the total, not a round's median:
   * each round's ends are read to a tick, errors that cancel over the rounds); undefined when no round ran.
   */
  stop(): Promise<VerifyUnit | undefined> {
    return new Promise((resolve, reject) => {
      this.worker.once("message", (m: { rounds: { ns: number; verifies: number }[] }) => {
        void this.worker.terminate();
        const ns = m.rounds.reduce((a, r) => a + r.ns, 0);
        const verifies = m.rounds.reduce((a, r) => a + r.verifies, 0);
        resolve(
          verifies === 0
            ? undefined
            : { us: ns / 1000 / verifies, rounds: m.rounds.map((r) => r.ns / 1000 / r.verifies) },
        );
      });
      this.worker.once("error", reject);
      this.worker.postMessage("stop");
    });
  }
}

/** The worker: a round now and every ROUND_GAP_MS until told to stop, then the rounds to the parent. */
function measure(): void {
  const verify = loadSodiumVerify()!;
  const { message, signature, publicKey } = fixedSignature();
  for (let i = 0; i < 50; i++) verify(signature, message, publicKey); // warm-up: code and tables in cache
  const rounds: { ns: number; verifies: number }[] = [];
  let timer: NodeJS.Timeout | undefined;
  const round = (): void => {
    const t0 = threadCpuNs();
    let ok = 0;
    for (let i = 0; i < ROUND_VERIFIES; i++) if (verify(signature, message, publicKey)) ok++;
    const ns = threadCpuNs() - t0;
    if (ok !== ROUND_VERIFIES) throw new Error("sodium-native refused a valid signature");
    rounds.push({ ns, verifies: ROUND_VERIFIES });
    timer = setTimeout(round, ROUND_GAP_MS);
  };
  parentPort!.once("message", () => {
    clearTimeout(timer);
    parentPort!.postMessage({ rounds });
  });
  round();
}

// only in the worker this module starts for itself (another worker of the generator may import it)
if (parentPort !== null && (workerData as { verifyUnitDuring?: boolean } | null)?.verifyUnitDuring === true) measure();
