// JSON view of an asset transaction (spec §2.5; reference/api-behavior.md §4.6, §5.6): the `assettransaction`
// member of `transaction`, and the items of `fblock.transactions`.
import { encodeAddress } from "../address.js";
import { toHex } from "../bytes.js";
import { transactionId } from "../transaction.js";
/** `v` as a JSON integer (number when safe, bigint beyond 2^53−1). */
export function jsonInteger(v) {
    return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v;
}
/** One input/output as JSON; `kind` picks the human-readable prefix (FA for RCD hashes, EC for EC public keys). */
export function txIoJson(io, kind) {
    return { amount: jsonInteger(io.amount), address: toHex(io.address), useraddress: encodeAddress(kind, io.address) };
}
/**
 * The asset transaction as the API shows it. Lists are `[]`, never null (the reference prints null for the
 * input-less coinbase in some places; clients treat both as empty).
 * @param blockHeight the `blockheight` member; the reference always reports 0
 */
export function assetTransactionJson(tx, blockHeight = 0) {
    return {
        txid: toHex(transactionId(tx)),
        blockheight: blockHeight,
        millitimestamp: tx.milliTimestamp,
        inputs: tx.inputs.map((io) => txIoJson(io, "FA")),
        outputs: tx.outputs.map((io) => txIoJson(io, "FA")),
        outecs: tx.ecOutputs.map((io) => txIoJson(io, "EC")),
        rcds: tx.rcds.map((rcd) => toHex(rcd)),
        sigblocks: tx.signatures.map((block) => ({ signatures: block.map((sig) => toHex(sig)) })),
    };
}
//# sourceMappingURL=transactionJson.js.map