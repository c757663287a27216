/**
 * Test harness for the ledger: a real LMDB store in a temp directory, real keys (the LOCAL genesis-funded
 * address and the standard local EC key), real protocol builders, and a controllable clock (the ledger
 * only reads time through its injected `now`; end-of-minute messages are appended directly).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ledger } from "../../../src/ledger/ledger.js";
import { keyPairFromPrivate, keyPairFromSeed, rcd1Hash } from "../../../src/protocol/address.js";
import { buildChainCommit, buildEntryCommit, } from "../../../src/protocol/commit.js";
import { chainIdFromExtIds, marshalEntry } from "../../../src/protocol/entry.js";
import { networkId } from "../../../src/protocol/network.js";
import { buildTransaction, transactionFeeEC } from "../../../src/protocol/transaction.js";
import { LedgerStore } from "../../../src/store/store.js";
import { PoolVerifier } from "../../../src/workers/pool.js";
import { InlineVerifier } from "../../../src/workers/verifier.js";
/** LOCAL genesis funds this address with 20,000 asset units (wire-format §6.3). */
export const SAND_PRIVATE = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";
/** The standard local EC key (zero seed); no EC at genesis. */
export const EC_PRIVATE = "Es2Rf7iM6PdsqfYCo3D1tnAR65SkLENyWJG1deUzpRMQmbh9F3eG";
/** Base units per asset unit. */
export const UNIT = 100000000n;
/** LOCAL genesis exchange rate, base units per EC. */
export const LOCAL_RATE = 1000n;
/** Genesis balance of the sand address, base units. */
export const SAND_GENESIS_BALANCE = 20000n * UNIT;
export const sand = keyPairFromPrivate(SAND_PRIVATE);
export const ecKey = keyPairFromPrivate(EC_PRIVATE);
/** A fresh asset key pair from a one-byte-pattern seed (distinct per `n`). */
export function assetKey(n) {
    return keyPairFromSeed("FA", new Uint8Array(32).fill(n));
}
/** A fresh EC key pair from a one-byte-pattern seed (distinct per `n`). */
export function ecKeyN(n) {
    return keyPairFromSeed("EC", new Uint8Array(32).fill(n));
}
/** Log sink that keeps the lines (tests may look at them). */
export class MemoryLog {
    lines = [];
    debug(msg, fields) {
        this.lines.push({ level: "debug", msg, ...(fields ? { fields } : {}) });
    }
    info(msg, fields) {
        this.lines.push({ level: "info", msg, ...(fields ? { fields } : {}) });
    }
    warn(msg, fields) {
        this.lines.push({ level: "warn", msg, ...(fields ? { fields } : {}) });
    }
    error(msg, fields) {
        this.lines.push({ level: "error", msg, ...(fields ? { fields } : {}) });
    }
}
/** A clock the test moves by hand, ms since epoch. */
export class ManualClock {
    ms;
    constructor(ms) {
        this.ms = ms;
    }
    now = () => this.ms;
    advance(ms) {
        this.ms += ms;
        return this.ms;
    }
}
/** The verifiers every ledger suite runs over (STYLE §7). */
export const VERIFIERS = [
    { name: "InlineVerifier", make: () => new InlineVerifier() },
    { name: "PoolVerifier", make: () => new PoolVerifier({ threads: 2 }) },
];
/** A temp directory removed by `cleanup`. */
export function tempDir(prefix = "ledgerd-test-") {
    return mkdtempSync(join(tmpdir(), prefix));
}
/** Open (or reopen) a ledger over the store in `dir`. */
export function openNode(dir, opts = {}) {
    const network = opts.network ?? "LOCAL";
    const clock = opts.clock ?? new ManualClock(Date.UTC(2024, 0, 1, 12, 0, 0));
    const verifier = opts.verifier ?? new InlineVerifier();
    const log = new MemoryLog();
    const store = LedgerStore.open({
        path: join(dir, network.toLowerCase(), "db"),
        network,
        networkId: networkId(network, "test"),
        ...(opts.reserveBytes !== undefined ? { reserveBytes: opts.reserveBytes } : {}),
    });
    const ledger = Ledger.open({
        network,
        customNet: "test",
        blockTimeSeconds: opts.blockTimeSeconds ?? 6,
        ...(opts.holdingLimit !== undefined ? { holdingLimit: opts.holdingLimit } : {}),
        ...(opts.journaling !== undefined ? { journaling: opts.journaling } : {}),
    }, { store, verifier, log, now: clock.now });
    return { dir, store, ledger, log, clock, verifier };
}
/** Close the store (and the verifier when `closeVerifier`). */
export async function closeNode(n, closeVerifier = false) {
    await n.ledger.close();
    await n.store.close();
    if (closeVerifier)
        await n.verifier.close();
}
export function cleanup(dir) {
    rmSync(dir, { recursive: true, force: true });
}
/** End `count` minutes, advancing the clock by `minuteMs` before each (default 600 ms = 6 s blocks). */
export async function endMinutes(n, count, minuteMs = 600) {
    for (let i = 0; i < count; i++)
        await n.ledger.endMinute(n.clock.advance(minuteMs));
}
/** End the open block's remaining minutes (closing it). */
export async function finishBlock(n, minuteMs = 600) {
    await endMinutes(n, 10 - n.ledger.openBlock().minute, minuteMs);
}
/** Marshalled entry with text ext IDs and content. */
export function entryRaw(chainId, extIds, content) {
    return marshalEntry({
        version: 0,
        chainId,
        extIds: extIds.map((s) => new TextEncoder().encode(s)),
        content: new TextEncoder().encode(content),
    });
}
/** A chain's first entry (chain ID derived from the ext IDs) and its chain ID. */
export function firstEntry(extIds, content) {
    const chainId = chainIdFromExtIds(extIds.map((s) => new TextEncoder().encode(s)));
    return { raw: entryRaw(chainId, extIds, content), chainId };
}
export function chainCommit(raw, milliTime, key = ecKey, credits) {
    return buildChainCommit({
        entryRaw: raw,
        milliTime,
        ecSeed: key.seed,
        ...(credits !== undefined ? { credits } : {}),
    });
}
export function entryCommit(raw, milliTime, key = ecKey, credits) {
    return buildEntryCommit({
        entryRaw: raw,
        milliTime,
        ecSeed: key.seed,
        ...(credits !== undefined ? { credits } : {}),
    });
}
/** A transaction from one input key; fee = exactly the minimum at LOCAL_RATE unless `fee` is given. */
export function payment(args) {
    const from = args.from ?? sand;
    const outputs = (args.outputs ?? []).map((o) => ({ address: rcdHashOf(o.to), amount: o.amount }));
    const ecOutputs = (args.ec ?? []).map((o) => ({ address: o.to.publicKey, amount: o.amount }));
    const total = [...outputs, ...ecOutputs].reduce((a, o) => a + o.amount, 0n);
    // The fee depends on the size, which depends on the input amount's varint: build twice.
    const build = (fee) => buildTransaction({
        milliTimestamp: args.milliTime,
        inputs: [{ seed: from.seed, amount: total + fee }],
        outputs,
        ecOutputs,
    });
    if (args.fee !== undefined)
        return build(args.fee);
    let fee = 0n;
    for (let i = 0; i < 3; i++)
        fee = feeOf(build(fee));
    return build(fee);
}
/** Minimum fee of `tx` at LOCAL_RATE, base units. */
export function feeOf(tx) {
    return BigInt(transactionFeeEC(tx)) * LOCAL_RATE;
}
/** RCD hash (the FA payload) of an asset key pair. */
export function rcdHashOf(k) {
    return rcd1Hash(k.publicKey);
}
/** Buy `ec` entry credits for `to` from the sand address and wait for the ack. */
export async function buyEC(n, to, ec) {
    const tx = payment({ milliTime: n.clock.ms, ec: [{ to, amount: ec * LOCAL_RATE }] });
    await n.ledger.submitTransaction(tx);
    return tx;
}
//# sourceMappingURL=harness.js.map