/**
 * The unit the write figure is stated in (issue 35): one libsodium ed25519 verify (sodium-native's
 * `crypto_sign_verify_detached`, the node's first verifier) on one thread, measured in the generator's
 * process during the same run as the writes. "Signature checks per entry" = the node's CPU per acknowledged
 * entry ÷ this. Absolute CPU figures moved 2× between machines of this workplace while that ratio held
 * (3.9–4.0 on both), so it is the figure compared across runs and against the baseline.
 */
import { createPrivateKey, createPublicKey, sign } from "node:crypto";
import { createRequire } from "node:module";

export type SodiumVerify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean;

/** Verifies per round: ~25 ms of one core at 50–100 µs each, short enough to sit between other tenants' bursts. */
const VERIFIES_PER_ROUND = 400;
/** Rounds per measurement; the median round is reported (a burst of another tenant slows one, not the median). */
export const VERIFY_ROUNDS = 15;
/** Bytes signed: a commit-entry's signed part (version, time, entry hash, credits) is 40 bytes. */
const MESSAGE_BYTES = 40;

export function loadSodiumVerify(): SodiumVerify | undefined {
  try {
    const sodium = createRequire(import.meta.url)("sodium-native") as { crypto_sign_verify_detached?: unknown };
    const verify = sodium.crypto_sign_verify_detached;
    return typeof verify === "function" ? (verify as SodiumVerify) : undefined;
  } catch {
    return undefined; // no prebuilt addon for this platform: the figure is not available
  }
}

/** One fixed valid signature (a test key: the seed is 32 bytes of 7s), so every run verifies the same work. */
export function fixedSignature(): { message: Buffer; signature: Buffer; publicKey: Buffer } {
  const seed = Buffer.alloc(32, 7);
  // PKCS#8 DER of an Ed25519 private key: a fixed 16-byte prefix, then the 32-byte seed
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  const key = createPrivateKey({ key: der, format: "der", type: "pkcs8" });
  const spki = createPublicKey(key).export({ format: "der", type: "spki" });
  const message = Buffer.alloc(MESSAGE_BYTES, 0x5a);
  return { message, signature: sign(null, message, key), publicKey: spki.subarray(spki.length - 32) };
}

/** CPU µs of one verify, by round; process CPU time (not wall time: a preempted round does not count its wait). */
export interface VerifyUnit {
  /** median round, µs of CPU per verify */
  us: number;
  rounds: number[];
}

/**
 * Measure the single-thread libsodium verify now: VERIFY_ROUNDS rounds, process CPU time (the generator's
 * other threads are idle while it runs). Undefined when sodium-native does not load.
 */
export function measureVerifyUnit(rounds = VERIFY_ROUNDS): VerifyUnit | undefined {
  const verify = loadSodiumVerify();
  if (verify === undefined) return undefined;
  const { message, signature, publicKey } = fixedSignature();
  if (!verify(signature, message, publicKey)) throw new Error("sodium-native refused the fixed test signature");
  for (let i = 0; i < 50; i++) verify(signature, message, publicKey); // warm-up: code and tables in cache
  const perRound: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const c0 = process.cpuUsage();
    let ok = 0;
    for (let i = 0; i < VERIFIES_PER_ROUND; i++) if (verify(signature, message, publicKey)) ok++;
    const c = process.cpuUsage(c0);
    if (ok !== VERIFIES_PER_ROUND) throw new Error("sodium-native refused a valid signature");
    perRound.push((c.user + c.system) / VERIFIES_PER_ROUND);
  }
  return { us: median(perRound), rounds: perRound };
}

/** The two measurements of one run (before and after the writes) joined: the median of all their rounds. */
export function joinUnits(a: VerifyUnit | undefined, b: VerifyUnit | undefined): VerifyUnit | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const rounds = [...a.rounds, ...b.rounds];
  return { us: median(rounds), rounds };
}

/** Node CPU µs per entry ÷ µs per verify, 2 decimals. */
export function signatureChecksPerEntry(nodeCpuUsPerEntry: number, unit: VerifyUnit): number {
  return Math.round((nodeCpuUsPerEntry / unit.us) * 100) / 100;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}
