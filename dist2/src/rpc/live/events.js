import { toHex } from "../../protocol/bytes.js";
import { directoryBlockHashes } from "../../protocol/dblock.js";
import { entriesWithMinutes } from "../../protocol/eblock.js";
import { assetBlockTransactions } from "../../protocol/fblock.js";
import { txIoJson } from "../../protocol/json/transactionJson.js";
import { transactionId } from "../../protocol/transaction.js";
/** Directory block entries before the entry blocks: admin, EC and asset block. */
const SYSTEM_BLOCKS = 3;
/** Read a saved block's summary and items; undefined when `height` is not saved. */
export function savedBlockItems(ledger, height) {
    const d = ledger.directoryBlockByHeight(height);
    if (d === undefined)
        return undefined;
    const dblock = d.block;
    const entries = [];
    for (const e of dblock.entries.slice(SYSTEM_BLOCKS)) {
        const eb = ledger.entryBlockByHash(e.keyMR);
        if (eb === undefined)
            continue;
        const chainId = toHex(e.chainId);
        for (const item of entriesWithMinutes(eb.block))
            entries.push({ entryHash: toHex(item.entryHash), chainId });
    }
    const asset = ledger.assetBlockByHeight(height);
    const transactions = asset === undefined ? [] : assetBlockTransactions(asset.block);
    return {
        summary: {
            event: "block",
            height,
            keymr: toHex(directoryBlockHashes(dblock).keyMR),
            timestamp: dblock.timestamp * 60,
            entryblocks: dblock.entries.length - SYSTEM_BLOCKS,
            entries: entries.length,
            transactions: transactions.length,
        },
        entries,
        transactions,
    };
}
/** An entry event; `entry` adds its ext IDs and content. */
export function entryEvent(status, entryHash, chainId, height, entry) {
    const e = { event: "entry", status, entryhash: entryHash, chainid: chainId, height };
    if (entry !== undefined) {
        e.extids = entry.extIds.map(toHex);
        e.content = toHex(entry.content);
    }
    return e;
}
export function transactionEvent(status, tx, height) {
    return {
        event: "transaction",
        status,
        txid: toHex(transactionId(tx)),
        height,
        inputs: tx.inputs.map((io) => txIoJson(io, "FA")),
        outputs: tx.outputs.map((io) => txIoJson(io, "FA")),
        ecoutputs: tx.ecOutputs.map((io) => txIoJson(io, "EC")),
    };
}
/** The address keys (RCD hash or EC public key, hex) a transaction touches, each once. */
export function transactionAddressKeys(tx) {
    const keys = new Set();
    for (const io of [...tx.inputs, ...tx.outputs, ...tx.ecOutputs])
        keys.add(toHex(io.address));
    return keys;
}
//# sourceMappingURL=events.js.map