/**
 * Chain and entry methods (spec §4.1; reference api-behavior §4): entry, chain-head, receipt,
 * pending-entries.
 */
import { toHex } from "../../protocol/bytes.js";
import { entryToJson } from "../../protocol/json/entryJson.js";
import { receiptToJson } from "../../protocol/json/receiptJson.js";
import { missingChainHead, notFound, receiptCreationError } from "../errors.js";
import { expectBool, expectHash, expectString, Params } from "../params.js";
/**
 * `entry` {hash}: an entry as soon as the node has acknowledged it (before it is in a block).
 * `extids` is `[]` when the entry has none.
 */
export function entry(params, ctx) {
    const found = ctx.ledger.entry(expectHash(params, "hash"));
    if (found === undefined)
        throw notFound("Entry");
    return entryToJson(found.entry);
}
/**
 * `chain-head` {chainid}: keyMR of the chain's last saved entry block; `chainhead` is "" for a chain that so
 * far exists only in the process list. Unknown chain → -32009.
 */
export function chainHead(params, ctx) {
    const { head, inProcessList } = ctx.ledger.chainHead(expectHash(params, "chainid"));
    if (head === undefined && !inProcessList)
        throw missingChainHead();
    return { chainhead: head === undefined ? "" : toHex(head), chaininprocesslist: inProcessList };
}
/**
 * `receipt` {hash, includerawentry}: Merkle proof from the entry to its directory block. Only for entries in a
 * saved block (else -32010). `entry.timestamp` is seconds since epoch (end of the entry's minute). Once a
 * record in the anchor chain covers the block, the anchor fields and `ethereum` (anchor/index.ts) are filled.
 */
export function receipt(params, ctx) {
    const p = new Params(params);
    const hash = expectHash(p, "hash");
    const includeRaw = expectBool(p, "includerawentry");
    const r = ctx.ledger.receipt(hash);
    if (r === undefined)
        throw receiptCreationError();
    const anchor = ctx.anchors?.index.forHeight(r.directoryBlockHeight);
    if (!includeRaw)
        return { receipt: receiptToJson(r, { anchor }) };
    const e = ctx.ledger.entry(hash);
    if (e === undefined)
        throw receiptCreationError();
    return { receipt: receiptToJson(r, { raw: e.raw, anchor }) };
}
/**
 * `pending-entries`: entries and commits acknowledged but not yet in a saved block. `chainid` is null for a
 * commit whose reveal has not arrived. The `chainid` param is accepted and, as on the reference, not used
 * as a filter.
 */
export function pendingEntries(params, ctx) {
    expectString(new Params(params), "chainid");
    return ctx.ledger.pendingEntries().map((e) => ({
        entryhash: toHex(e.entryHash),
        chainid: e.chainId === undefined ? null : toHex(e.chainId),
        status: e.status,
    }));
}
//# sourceMappingURL=entries.js.map