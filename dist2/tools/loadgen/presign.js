/**
 * Messages of a load run, built and signed before the timed phase so the generator spends its CPU on
 * HTTP only: entry commit + reveal pairs as ready-to-send JSON-RPC bodies, chain creations, and the
 * asset transaction that buys the run's entry credits.
 */
import { createPrivateKey, sign } from "node:crypto";
import { publicKeyFromSeed } from "../../src/crypto/ed25519.js";
import { toHex } from "../../src/protocol/bytes.js";
import { buildChainCommit, ENTRY_COMMIT_SIZE } from "../../src/protocol/commit.js";
import { chainIdFromExtIds, entryCreditCost, entryHash, marshalEntry } from "../../src/protocol/entry.js";
import { buildTransaction, transactionFeeEC } from "../../src/protocol/transaction.js";
/** DER prefix that wraps a raw 32-byte ed25519 seed as PKCS#8 for node:crypto (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
/** Bytes of an entry commit covered by its signature: version … credits (wire-format §2.1). */
const ENTRY_COMMIT_SIGNED_BYTES = 40;
/** One JSON-RPC 2.0 request body, serialized once. */
export function rpcBody(method, params, id = 1) {
    return JSON.stringify(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
}
/**
 * Signs entry commits (wire-format §2.1) with one EC key. It keeps the node:crypto key object and the
 * public key, so a commit costs ~25 µs here; protocol `buildEntryCommit` derives the public key with
 * @noble and imports the seed again on every call (~475 µs), which would make pre-signing 180,000
 * commits take ~85 s instead of ~5 s. The bytes are identical (ed25519 is deterministic; see the unit test).
 */
export class EntryCommitSigner {
    seed;
    publicKey;
    key;
    constructor(seed) {
        this.seed = seed;
        if (seed.length !== 32)
            throw new RangeError(`EC seed must be 32 bytes, got ${seed.length}`);
        this.publicKey = publicKeyFromSeed(seed);
        this.key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: "der", type: "pkcs8" });
    }
    /**
     * The signed 136-byte commit of a marshalled entry. `milliTime` is ms since epoch; `credits` (EC)
     * default to the entry's cost; `hash` may be passed when the caller already computed it.
     */
    sign(entryRaw, milliTime, credits = entryCreditCost(entryRaw.length, false), hash = entryHash(entryRaw)) {
        const out = Buffer.alloc(ENTRY_COMMIT_SIZE);
        out[0] = 0;
        out.writeUIntBE(milliTime, 1, 6);
        out.set(hash, 7);
        out[39] = credits;
        out.set(this.publicKey, 40);
        out.set(sign(null, out.subarray(0, ENTRY_COMMIT_SIGNED_BYTES), this.key), 72);
        return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
    }
}
/** Content of entry `index`: run id and index, padded with dots to `contentBytes`. */
function entryContent(plan, index) {
    const text = `ledgerd loadgen ${plan.runId} entry ${index} `;
    return Buffer.from(text.length >= plan.contentBytes ? text : text.padEnd(plan.contentBytes, "."), "latin1");
}
/** The fixed ext ID of every load entry. */
const LOAD_EXT_ID = Buffer.from("loadgen1", "latin1");
/**
 * Build and sign entries `start` … `start + count − 1` of a plan: each one a distinct entry (run id and
 * index in the content) in chain `index mod chains`, committed at `milliTime` (ms since epoch; the node
 * accepts commits within ±60 minutes of its clock, wire-format §2.5).
 */
export function presignEntries(plan, signer, start, count, milliTime) {
    if (plan.chains.length === 0)
        throw new RangeError("presignEntries: no chains");
    const out = new Array(count);
    const chainHex = plan.chains.map(toHex); // one string per chain, shared by its entries
    for (let k = 0; k < count; k++) {
        const index = start + k;
        const chainId = plan.chains[index % plan.chains.length];
        const raw = marshalEntry({ version: 0, chainId, extIds: [LOAD_EXT_ID], content: entryContent(plan, index) });
        const hash = entryHash(raw);
        const commit = signer.sign(raw, milliTime, entryCreditCost(raw.length, false), hash);
        out[k] = {
            entryHash: toHex(hash),
            chainId: chainHex[index % plan.chains.length],
            commitBody: rpcBody("commit-entry", { message: toHex(commit) }, index),
            revealBody: rpcBody("reveal-entry", { entry: toHex(raw) }, index),
        };
    }
    return out;
}
/** The first entry of load chain `index` of a run and its signed chain commit (ms since epoch). */
export function presignChain(runId, index, ecSeed, milliTime) {
    const extIds = [
        Buffer.from("ledgerd-loadgen", "latin1"),
        Buffer.from(runId, "latin1"),
        Buffer.from(String(index), "latin1"),
    ];
    const chainId = chainIdFromExtIds(extIds);
    const raw = marshalEntry({
        version: 0,
        chainId,
        extIds,
        content: Buffer.from(`load chain ${index} of run ${runId}`, "latin1"),
    });
    const commit = buildChainCommit({ entryRaw: raw, milliTime, ecSeed });
    return {
        chainId,
        entryHash: toHex(entryHash(raw)),
        commitBody: rpcBody("commit-chain", { message: toHex(commit.raw) }, `chain-${index}`),
        revealBody: rpcBody("reveal-chain", { entry: toHex(raw) }, `chain-${index}`),
    };
}
/**
 * The asset transaction that buys `credits` entry credits for `ecPublicKey` from the key of `fromSeed`,
 * at `rate` base units per EC. The input pays the EC output plus the fee exactly (fee = fee EC × rate;
 * the fee depends on the transaction's size, so it is recomputed until the size is stable).
 */
export function fundingTransaction(args) {
    const ecAmount = args.credits * args.rate;
    let fee = 0n;
    for (let i = 0; i < 4; i++) {
        const tx = buildTransaction({
            milliTimestamp: args.milliTimestamp,
            inputs: [{ seed: args.fromSeed, amount: ecAmount + fee }],
            outputs: [],
            ecOutputs: [{ amount: ecAmount, address: args.ecPublicKey }],
        });
        const need = BigInt(transactionFeeEC(tx)) * args.rate;
        if (need === fee)
            return tx;
        fee = need;
    }
    throw new Error("fundingTransaction: the fee did not settle");
}
//# sourceMappingURL=presign.js.map