/**
 * Test harness for the ledger: a real LMDB store in a temp directory, real keys (the LOCAL genesis-funded
 * address and the standard local EC key), real protocol builders, and a controllable clock (the ledger
 * only reads time through its injected `now`; end-of-minute messages are appended directly).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ledger } from "../../../src/ledger/ledger.js";
import type { LedgerLog } from "../../../src/ledger/options.js";
import { type KeyPair, keyPairFromPrivate, keyPairFromSeed, rcd1Hash } from "../../../src/protocol/address.js";
import {
  buildChainCommit,
  buildEntryCommit,
  type ChainCommit,
  type EntryCommit,
} from "../../../src/protocol/commit.js";
import { chainIdFromExtIds, marshalEntry } from "../../../src/protocol/entry.js";
import { networkId } from "../../../src/protocol/network.js";
import { buildTransaction, type Transaction, transactionFeeEC } from "../../../src/protocol/transaction.js";
import { heightFileName, journalHeights, recordsEnd } from "../../../src/store/journalFiles.js";
import { LedgerStore } from "../../../src/store/store.js";
import { PoolVerifier } from "../../../src/workers/pool.js";
import { InlineVerifier, type Verifier } from "../../../src/workers/verifier.js";

/** LOCAL genesis funds this address with 20,000 asset units (wire-format §6.3). */
export const SAND_PRIVATE = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";
/** The standard local EC key (zero seed); no EC at genesis. */
export const EC_PRIVATE = "Es2Rf7iM6PdsqfYCo3D1tnAR65SkLENyWJG1deUzpRMQmbh9F3eG";
/** Base units per asset unit. */
export const UNIT = 100_000_000n;
/** LOCAL genesis exchange rate, base units per EC. */
export const LOCAL_RATE = 1000n;
/** Genesis balance of the sand address, base units. */
export const SAND_GENESIS_BALANCE = 20_000n * UNIT;

export const sand: KeyPair = keyPairFromPrivate(SAND_PRIVATE);
export const ecKey: KeyPair = keyPairFromPrivate(EC_PRIVATE);

/** A fresh asset key pair from a one-byte-pattern seed (distinct per `n`). */
export function assetKey(n: number): KeyPair {
  return keyPairFromSeed("FA", new Uint8Array(32).fill(n));
}
/** A fresh EC key pair from a one-byte-pattern seed (distinct per `n`). */
export function ecKeyN(n: number): KeyPair {
  return keyPairFromSeed("EC", new Uint8Array(32).fill(n));
}

/** Log sink that keeps the lines (tests may look at them). */
export class MemoryLog implements LedgerLog {
  readonly lines: { level: string; msg: string; fields?: Record<string, unknown> }[] = [];
  debug(msg: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "debug", msg, ...(fields ? { fields } : {}) });
  }
  info(msg: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "info", msg, ...(fields ? { fields } : {}) });
  }
  warn(msg: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "warn", msg, ...(fields ? { fields } : {}) });
  }
  error(msg: string, fields?: Record<string, unknown>): void {
    this.lines.push({ level: "error", msg, ...(fields ? { fields } : {}) });
  }
}

/** A clock the test moves by hand, ms since epoch. */
export class ManualClock {
  constructor(public ms: number) {}
  readonly now = (): number => this.ms;
  advance(ms: number): number {
    this.ms += ms;
    return this.ms;
  }
}

/** The verifiers every ledger suite runs over (STYLE §7). */
export const VERIFIERS: { name: string; make(): Verifier }[] = [
  { name: "InlineVerifier", make: () => new InlineVerifier() },
  { name: "PoolVerifier", make: () => new PoolVerifier({ threads: 2 }) },
];

/** A temp directory removed by `cleanup`. */
export function tempDir(prefix = "ledgerd-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A ledger over a real store at `dir` (LOCAL network unless told). */
export interface TestNode {
  dir: string;
  store: LedgerStore;
  ledger: Ledger;
  log: MemoryLog;
  clock: ManualClock;
  verifier: Verifier;
}

export interface OpenOptions {
  network?: "LOCAL" | "MAIN" | "TEST" | "CUSTOM";
  clock?: ManualClock;
  verifier?: Verifier;
  blockTimeSeconds?: number;
  holdingLimit?: number;
  holdingBytes?: number;
  journaling?: boolean;
  /** the store's free-space reserve, bytes (default none) */
  reserveBytes?: number;
  /** where the store's open-time lines go (StoreOptions.log; default nowhere) */
  storeLog?: (line: string) => void;
  /** ms between query index rebuild steps (StoreOptions.queryIndexRebuildPauseMs; default 0) */
  rebuildPauseMs?: number;
}

/** Open (or reopen) a ledger over the store in `dir`. */
export function openNode(dir: string, opts: OpenOptions = {}): TestNode {
  const network = opts.network ?? "LOCAL";
  const clock = opts.clock ?? new ManualClock(Date.UTC(2024, 0, 1, 12, 0, 0));
  const verifier = opts.verifier ?? new InlineVerifier();
  const log = new MemoryLog();
  const store = LedgerStore.open({
    path: join(dir, network.toLowerCase(), "db"),
    network,
    networkId: networkId(network, "test"),
    ...(opts.reserveBytes !== undefined ? { reserveBytes: opts.reserveBytes } : {}),
    ...(opts.storeLog !== undefined ? { log: opts.storeLog } : {}),
    ...(opts.rebuildPauseMs !== undefined ? { queryIndexRebuildPauseMs: opts.rebuildPauseMs } : {}),
  });
  const ledger = Ledger.open(
    {
      network,
      customNet: "test",
      blockTimeSeconds: opts.blockTimeSeconds ?? 6,
      ...(opts.holdingLimit !== undefined ? { holdingLimit: opts.holdingLimit } : {}),
      ...(opts.holdingBytes !== undefined ? { holdingBytes: opts.holdingBytes } : {}),
      ...(opts.journaling !== undefined ? { journaling: opts.journaling } : {}),
    },
    { store, verifier, log, now: clock.now },
  );
  return { dir, store, ledger, log, clock, verifier };
}

/** Close the store (and the verifier when `closeVerifier`). */
export async function closeNode(n: TestNode, closeVerifier = false): Promise<void> {
  await n.ledger.close();
  await n.store.close();
  if (closeVerifier) await n.verifier.close();
}

/**
 * Where the records of the largest journal file of the data directory `storePath` end (store/journalFiles.ts:
 * one file per height; the zeros the writer reserves after them do not count), 0 when it has none: a file-size
 * limit at it lets the next group commit of a few big records fail, as writes at or past the limit do.
 */
export function largestJournalFile(storePath: string): number {
  const dir = join(storePath, "journal");
  return Math.max(0, ...journalHeights(dir).map((h) => recordsEnd(readFileSync(join(dir, heightFileName(h))), h)));
}

export function cleanup(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** End `count` minutes, advancing the clock by `minuteMs` before each (default 600 ms = 6 s blocks). */
export async function endMinutes(n: TestNode, count: number, minuteMs = 600): Promise<void> {
  for (let i = 0; i < count; i++) await n.ledger.endMinute(n.clock.advance(minuteMs));
}

/** End the open block's remaining minutes (closing it). */
export async function finishBlock(n: TestNode, minuteMs = 600): Promise<void> {
  await endMinutes(n, 10 - n.ledger.openBlock().minute, minuteMs);
}

/** Marshalled entry with text ext IDs and content. */
export function entryRaw(chainId: Uint8Array, extIds: string[], content: string): Uint8Array {
  return marshalEntry({
    version: 0,
    chainId,
    extIds: extIds.map((s) => new TextEncoder().encode(s)),
    content: new TextEncoder().encode(content),
  });
}

/** A chain's first entry (chain ID derived from the ext IDs) and its chain ID. */
export function firstEntry(extIds: string[], content: string): { raw: Uint8Array; chainId: Uint8Array } {
  const chainId = chainIdFromExtIds(extIds.map((s) => new TextEncoder().encode(s)));
  return { raw: entryRaw(chainId, extIds, content), chainId };
}

export function chainCommit(raw: Uint8Array, milliTime: number, key: KeyPair = ecKey, credits?: number): ChainCommit {
  return buildChainCommit({
    entryRaw: raw,
    milliTime,
    ecSeed: key.seed,
    ...(credits !== undefined ? { credits } : {}),
  });
}
export function entryCommit(raw: Uint8Array, milliTime: number, key: KeyPair = ecKey, credits?: number): EntryCommit {
  return buildEntryCommit({
    entryRaw: raw,
    milliTime,
    ecSeed: key.seed,
    ...(credits !== undefined ? { credits } : {}),
  });
}

/** A transaction from one input key; fee = exactly the minimum at LOCAL_RATE unless `fee` is given. */
export function payment(args: {
  from?: KeyPair;
  milliTime: number;
  outputs?: { to: KeyPair; amount: bigint }[];
  ec?: { to: KeyPair; amount: bigint }[];
  fee?: bigint;
}): Transaction {
  const from = args.from ?? sand;
  const outputs = (args.outputs ?? []).map((o) => ({ address: rcdHashOf(o.to), amount: o.amount }));
  const ecOutputs = (args.ec ?? []).map((o) => ({ address: o.to.publicKey, amount: o.amount }));
  const total = [...outputs, ...ecOutputs].reduce((a, o) => a + o.amount, 0n);
  // The fee depends on the size, which depends on the input amount's varint: build twice.
  const build = (fee: bigint): Transaction =>
    buildTransaction({
      milliTimestamp: args.milliTime,
      inputs: [{ seed: from.seed, amount: total + fee }],
      outputs,
      ecOutputs,
    });
  if (args.fee !== undefined) return build(args.fee);
  let fee = 0n;
  for (let i = 0; i < 3; i++) fee = feeOf(build(fee));
  return build(fee);
}

/** Minimum fee of `tx` at LOCAL_RATE, base units. */
export function feeOf(tx: Transaction): bigint {
  return BigInt(transactionFeeEC(tx)) * LOCAL_RATE;
}

/** RCD hash (the FA payload) of an asset key pair. */
export function rcdHashOf(k: KeyPair): Uint8Array {
  return rcd1Hash(k.publicKey);
}

/** Buy `ec` entry credits for `to` from the sand address and wait for the ack. */
export async function buyEC(n: TestNode, to: KeyPair, ec: bigint): Promise<Transaction> {
  const tx = payment({ milliTime: n.clock.ms, ec: [{ to, amount: ec * LOCAL_RATE }] });
  await n.ledger.submitTransaction(tx);
  return tx;
}
