import { bytesEqual, toHex } from "../../protocol/bytes.js";
import { commitToJson } from "../../protocol/json/ecBlockJson.js";
import { entryToTransactionJson } from "../../protocol/json/entryJson.js";
import { assetTransactionJson, jsonInteger, txIoJson } from "../../protocol/json/transactionJson.js";
import { notFound } from "../errors.js";
import { addressFromText, expectHash, expectString, Params } from "../params.js";
/** The three `included…` members: "" "" -1 while the item is not in a saved block. */
function included(location) {
    return location === undefined
        ? { includedintransactionblock: "", includedindirectoryblock: "", includedindirectoryblockheight: -1 }
        : {
            includedintransactionblock: toHex(location.blockKeyMR),
            includedindirectoryblock: toHex(location.directoryBlockKeyMR),
            includedindirectoryblockheight: location.directoryBlockHeight,
        };
}
/**
 * `transaction` {hash}: an asset transaction (txid or full hash), a commit (`ectransaction`, extra as on the
 * reference) or an entry, saved or pending. An unknown hash is not an error: "" "" -1.
 */
export function transaction(params, ctx) {
    const hash = expectHash(params, "hash");
    const tx = ctx.ledger.transaction(hash);
    if (tx !== undefined)
        return { assettransaction: assetTransactionJson(tx.tx), ...included(tx.location) };
    const commit = ctx.ledger.commit(hash);
    if (commit !== undefined)
        return { ectransaction: commitToJson(commit.commit), ...included(commit.location) };
    const entry = ctx.ledger.entry(hash);
    if (entry !== undefined)
        return { entry: entryToTransactionJson(entry.entry), ...included(entry.location) };
    return included(undefined);
}
/**
 * `pending-transactions` {address?}: asset transactions known and not yet in a saved block. `address` (FA…
 * or EC…) keeps those that spend from or pay to it; a malformed address is an error. `fees` in base units.
 */
export function pendingTransactions(params, ctx) {
    const address = expectString(new Params(params), "address") ?? "";
    const ec = address.startsWith("EC") ? addressFromText(address, "address", "EC", false) : undefined;
    const rcd = address !== "" && ec === undefined ? addressFromText(address, "address", "FA", false) : undefined;
    let list = ctx.ledger.pendingTransactions(rcd);
    if (ec !== undefined)
        list = list.filter((p) => p.transaction.ecOutputs.some((io) => bytesEqual(io.address, ec)));
    const leaderHeight = ctx.ledger.heights().leaderHeight;
    return list.map((p) => ({
        transactionid: toHex(p.txId),
        dbheight: p.status === "NotConfirmed" ? 0 : leaderHeight,
        status: p.status,
        inputs: p.transaction.inputs.map((io) => txIoJson(io, "FA")),
        outputs: p.transaction.outputs.map((io) => txIoJson(io, "FA")),
        ecoutputs: p.transaction.ecOutputs.map((io) => txIoJson(io, "EC")),
        fees: jsonInteger(p.feeBaseUnits),
    }));
}
/**
 * `raw-data` {hash}: the binary of whatever the hash names — a commit (136/200 bytes), an asset transaction,
 * an entry (pending ones too), or a block of any kind by any of its hashes.
 */
export function rawData(params, ctx) {
    const hash = expectHash(params, "hash");
    const l = ctx.ledger;
    const raw = l.commit(hash)?.commit.raw ??
        l.transaction(hash)?.tx.raw ??
        l.entry(hash)?.raw ??
        l.assetBlockByHash(hash)?.raw ??
        l.directoryBlockByHash(hash)?.raw ??
        l.adminBlockByHash(hash)?.raw ??
        l.entryBlockByHash(hash)?.raw ??
        l.ecBlockByHash(hash)?.raw;
    if (raw === undefined)
        throw notFound("Object");
    return { data: toHex(raw) };
}
//# sourceMappingURL=transactions.js.map