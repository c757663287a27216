/**
 * A write workload against a real node and the model of what it should have done: chains and entries
 * (commit + reveal, sometimes reveal first so it waits in the holding queue), asset transactions between
 * test addresses, entry-credit purchases — every message signed with real keys — and a ledger of every
 * message sent with what the node answered: acknowledged, rejected, or unknown (the node died while the
 * request was in flight).
 *
 * After a crash the truth of the unknown ones is read from the node (`ack`); the model then predicts
 * every balance exactly, and the checks compare: acknowledged ⇒ confirmed, balances, EC balance, chains.
 */
import { keyPairFromPrivate, keyPairFromSeed, rcd1Hash } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { buildChainCommit, buildEntryCommit, commitTxId } from "../../src/protocol/commit.js";
import { chainIdFromExtIds, entryHash, marshalEntry } from "../../src/protocol/entry.js";
import { buildTransaction, transactionFeeEC, transactionId } from "../../src/protocol/transaction.js";
import { RpcCallError } from "../support/nodeProcess.js";
import { GENESIS_PRIVATE_KEY, testSeed } from "./corpus.js";
/** Base units of the LOCAL genesis allocation to the genesis key: 20,000 asset units. */
export const GENESIS_TOTAL = 20000n * 100000000n;
export function testWallet(addresses = 4) {
    const genesis = keyPairFromPrivate(GENESIS_PRIVATE_KEY);
    const others = Array.from({ length: addresses }, (_, i) => keyPairFromSeed("FA", testSeed(`fa ${i}`)));
    return { genesis, others, ec: keyPairFromSeed("EC", testSeed("ec")), all: [genesis, ...others] };
}
/** Hex RCD hash of an FA key pair (how the model keys balances). */
export function rcdHex(k) {
    return toHex(rcdHashOf(k));
}
function rcdHashOf(k) {
    return rcd1Hash(k.publicKey);
}
/** Answer classes a write can get. */
/** The model's record of a commit about to be sent, for the entry `raw`. */
function sentCommit(commit, raw) {
    return {
        kind: "commit",
        txId: toHex(commitTxId(commit)),
        entryHash: toHex(entryHash(raw)),
        credits: commit.credits,
        outcome: "pending",
    };
}
function classify(e) {
    // A JSON-RPC error is a definite no; anything else (reset, refused mid-request, timeout) leaves it open.
    return e instanceof RpcCallError ? "rejected" : "unknown";
}
export class Workload {
    wallet;
    rate;
    sent = [];
    chains = [];
    /** JSON-RPC rejections of messages the model considered valid (must stay empty) */
    unexpectedRejections = [];
    /** the last JSON-RPC rejection of a write */
    lastRejection;
    lastMs = 0;
    seq = 0;
    constructor(wallet, 
    /** base units per entry credit */
    rate) {
        this.wallet = wallet;
        this.rate = rate;
    }
    /** A fresh, strictly increasing timestamp, ms since epoch (unique txids and commits). */
    now() {
        this.lastMs = Math.max(Date.now(), this.lastMs + 1);
        return this.lastMs;
    }
    async write(node, method, params, rec) {
        try {
            await node.rpc(method, params, "v2", 20_000);
            rec.outcome = "acked";
            return true;
        }
        catch (e) {
            rec.outcome = classify(e);
            if (e instanceof RpcCallError)
                this.lastRejection = e;
            if (rec.outcome === "rejected")
                this.unexpectedRejections.push(`${method} ${rec.kind} ${"txId" in rec ? rec.txId : rec.entryHash}: ${e.message}`);
            return false;
        }
    }
    /** Create a chain (commit-chain, then reveal-chain). Returns false when the node stopped answering. */
    async createChain(node, label) {
        const extIds = [new TextEncoder().encode("reliability"), new TextEncoder().encode(label)];
        const chainId = chainIdFromExtIds(extIds);
        const raw = marshalEntry({ version: 0, chainId, extIds, content: new TextEncoder().encode(`chain ${label}`) });
        const commit = buildChainCommit({ entryRaw: raw, milliTime: this.now(), ecSeed: this.wallet.ec.seed });
        const c = sentCommit(commit, raw);
        const r = {
            kind: "reveal",
            entryHash: c.entryHash,
            chainId: toHex(chainId),
            commit: c,
            heldFirst: false,
            outcome: "pending",
        };
        this.sent.push(c);
        this.chains.push({ chainId: r.chainId, firstEntry: r.entryHash });
        if (!(await this.write(node, "commit-chain", { message: toHex(commit.raw) }, c)))
            return false;
        this.sent.push(r);
        return this.write(node, "reveal-chain", { entry: toHex(raw) }, r);
    }
    /**
     * One entry into a chain the model knows is confirmed. With `heldFirst` the reveal goes first and waits
     * for its commit in the holding queue. Content: `contentBytes` random bytes (default: mostly small, 5 %
     * between 2,000 and 10,000).
     */
    async addEntry(node, rng, chainId, heldFirst, contentBytes) {
        const size = contentBytes ?? (rng.chance(0.05) ? rng.int(2000, 10_000) : rng.int(0, 600));
        const content = rng.bytes(size);
        const extIds = rng.chance(0.5)
            ? [new TextEncoder().encode(`e${++this.seq}`)]
            : [Uint8Array.of(this.seq & 0xff, (this.seq >> 8) & 0xff, ++this.seq & 0xff)];
        const raw = marshalEntry({ version: 0, chainId: Buffer.from(chainId, "hex"), extIds, content });
        const commit = buildEntryCommit({ entryRaw: raw, milliTime: this.now(), ecSeed: this.wallet.ec.seed });
        const c = sentCommit(commit, raw);
        const r = { kind: "reveal", entryHash: c.entryHash, chainId, commit: c, heldFirst, outcome: "pending" };
        const sendCommit = () => {
            this.sent.push(c);
            return this.write(node, "commit-entry", { message: toHex(commit.raw) }, c);
        };
        const sendReveal = () => {
            this.sent.push(r);
            return this.write(node, "reveal-entry", { entry: toHex(raw) }, r);
        };
        if (heldFirst)
            return (await sendReveal()) && (await sendCommit());
        return (await sendCommit()) && (await sendReveal());
    }
    /**
     * An asset transaction paying `outputs` (and buying `toEc` base units' worth of credits for the test EC
     * key) from `from`, with the minimum fee at the model's rate.
     */
    async transfer(node, from, outputs, toEc) {
        const outs = outputs.map((o) => ({ address: rcdHashOf(o.to), amount: o.amount }));
        const ecOuts = toEc > 0n ? [{ address: this.wallet.ec.publicKey, amount: toEc }] : [];
        const paid = outs.reduce((s, o) => s + o.amount, 0n) + toEc;
        const time = this.now();
        let fee = 0n;
        let tx = buildTransaction({
            milliTimestamp: time,
            inputs: [{ seed: from.seed, amount: paid }],
            outputs: outs,
            ecOutputs: ecOuts,
        });
        // the fee is part of the input amount, whose varint can grow: settle it (two rounds suffice; four is margin)
        for (let i = 0; i < 4 && BigInt(transactionFeeEC(tx)) * this.rate > fee; i++) {
            fee = BigInt(transactionFeeEC(tx)) * this.rate;
            tx = buildTransaction({
                milliTimestamp: time,
                inputs: [{ seed: from.seed, amount: paid + fee }],
                outputs: outs,
                ecOutputs: ecOuts,
            });
        }
        const credits = new Map();
        for (const o of outputs)
            credits.set(rcdHex(o.to), (credits.get(rcdHex(o.to)) ?? 0n) + o.amount);
        const rec = {
            kind: "transaction",
            txId: toHex(transactionId(tx)),
            debits: new Map([[rcdHex(from), paid + fee]]),
            credits,
            fee,
            toEc,
            ecBought: this.rate > 0n ? toEc / this.rate : 0n,
            outcome: "pending",
        };
        this.sent.push(rec);
        return this.write(node, "asset-submit", { transaction: toHex(tx.raw) }, rec);
    }
    // ── the model ──
    /** Messages whose final status is (or will be) confirmed in a block. */
    confirmed(kind) {
        return this.sent.filter((s) => s.kind === kind && s.final === "DBlockConfirmed");
    }
    /** Expected asset balance of every test address, base units, from `initial` and the confirmed transactions. */
    expectedAssetBalances(initial) {
        const out = new Map(initial);
        for (const t of this.confirmed("transaction")) {
            for (const [a, v] of t.debits)
                out.set(a, (out.get(a) ?? 0n) - v);
            for (const [a, v] of t.credits)
                out.set(a, (out.get(a) ?? 0n) + v);
        }
        return out;
    }
    /** Base units that left the asset balances: fees burned plus amounts converted into entry credits. */
    burnedAndConverted() {
        return this.confirmed("transaction").reduce((s, t) => s + t.fee + t.toEc, 0n);
    }
    /** Expected EC balance of the test key: bought − spent by confirmed commits. */
    expectedEcBalance() {
        const bought = this.confirmed("transaction").reduce((s, t) => s + t.ecBought, 0n);
        const spent = this.confirmed("commit").reduce((s, c) => s + BigInt(c.credits), 0n);
        return bought - spent;
    }
    /** Entry hashes the model expects in `chainId`'s entry blocks (confirmed reveals). */
    expectedChainEntries(chainId) {
        return new Set(this.confirmed("reveal")
            .filter((r) => r.chainId === chainId)
            .map((r) => r.entryHash));
    }
}
//# sourceMappingURL=workload.js.map