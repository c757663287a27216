/**
 * Compose the signed hex messages for the node: chain and entry (commit + reveal) and asset
 * transactions. Pure functions: keys, data and time in, JSON-RPC request objects out — the same shape
 * the reference wallet's compose-chain / compose-entry / compose-transaction return (spec §1 rule 7).
 */
import { toHex } from "../../src/protocol/bytes.js";
import { buildChainCommit, buildEntryCommit, commitTxId } from "../../src/protocol/commit.js";
import { chainIdFromExtIds, entryHash, marshalEntry } from "../../src/protocol/entry.js";
import { buildTransaction, transactionFeeEC, transactionId, } from "../../src/protocol/transaction.js";
function request(id, method, params) {
    return { jsonrpc: "2.0", id, params, method };
}
/**
 * Compose a new chain: its first entry (chain ID = hash of the ext IDs) and the chain commit paying
 * first-entry cost + 10 EC, signed with the EC key `ecSeed`.
 * @param milliTime commit timestamp, ms since the epoch (the node accepts ±1 h of its clock)
 */
export function composeChain(args) {
    const chainId = chainIdFromExtIds(args.extIds);
    const raw = marshalEntry({ version: 0, chainId, extIds: args.extIds, content: args.content });
    const commit = buildChainCommit({ entryRaw: raw, milliTime: args.milliTime, ecSeed: args.ecSeed });
    return {
        commit: request(0, "commit-chain", { message: toHex(commit.raw) }),
        reveal: request(0, "reveal-chain", { entry: toHex(raw) }),
        entryHash: toHex(entryHash(raw)),
        chainId: toHex(chainId),
        commitTxId: toHex(commitTxId(commit)),
        credits: commit.credits,
    };
}
/** Compose an entry for an existing chain and the entry commit paying its cost (max(1, KSize) EC). */
export function composeEntry(args) {
    const raw = marshalEntry({ version: 0, chainId: args.chainId, extIds: args.extIds, content: args.content });
    const commit = buildEntryCommit({ entryRaw: raw, milliTime: args.milliTime, ecSeed: args.ecSeed });
    return {
        commit: request(0, "commit-entry", { message: toHex(commit.raw) }),
        reveal: request(0, "reveal-entry", { entry: toHex(raw) }),
        entryHash: toHex(entryHash(raw)),
        chainId: toHex(args.chainId),
        commitTxId: toHex(commitTxId(commit)),
        credits: commit.credits,
    };
}
/**
 * Most rounds the fee fixpoint can need: the fee is part of the input amount, whose varint may grow
 * by a byte, which can raise ceil(size/1024) once. Two rounds settle it; four leave margin.
 */
const FEE_ROUNDS = 4;
/**
 * Compose a one-input transaction signed by `inputSeed`, paying the minimum fee at `rate`
 * (base units per EC): input = Σ outputs + Σ EC outputs + feeEC × rate.
 * @param outputs  amounts in base units to RCD hashes
 * @param ecOutputs amounts in base units to EC public keys (credits = amount / rate)
 */
export function composeTransaction(args) {
    const paid = [...args.outputs, ...args.ecOutputs].reduce((sum, o) => sum + o.amount, 0n);
    let fee = 0n;
    for (let round = 0; round < FEE_ROUNDS; round++) {
        const tx = buildTransaction({
            milliTimestamp: args.milliTimestamp,
            inputs: [{ seed: args.inputSeed, amount: paid + fee }],
            outputs: args.outputs,
            ecOutputs: args.ecOutputs,
        });
        const feeEC = transactionFeeEC(tx);
        const need = BigInt(feeEC) * args.rate;
        if (need <= fee)
            return {
                request: request(0, "asset-submit", { transaction: toHex(tx.raw) }),
                txId: toHex(transactionId(tx)),
                inputAmount: paid + fee,
                fee,
                feeEC,
                tx,
            };
        fee = need;
    }
    throw new Error(`fee did not settle after ${FEE_ROUNDS} rounds (rate ${args.rate})`);
}
//# sourceMappingURL=compose.js.map