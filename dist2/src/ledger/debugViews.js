/**
 * Views of the ledger's state for the /debug methods (spec §4.2): the holding queue, the process list,
 * the journal as text, the counters. Read-only over a LedgerView (state.ts), like queries.ts.
 */
import { toHex } from "../protocol/bytes.js";
import { HOLD_EXPIRY_MS } from "./constants.js";
import { decodeMessage, describeMessage } from "./messages.js";
/** The holding queue's reveals, with when each expires (ms since epoch). */
export function heldMessages(view) {
    return view.holding.list().map((h) => ({
        kind: "reveal",
        hash: h.entryHash,
        receivedMs: h.arrivalMs,
        expiresMs: h.arrivalMs + HOLD_EXPIRY_MS,
    }));
}
/** The open block's process list. Shape documented in docs/ledger.md §Process list. */
export function processListView(view) {
    const pl = view.pl;
    return {
        dbheight: pl.height,
        minute: pl.minute,
        blockstartms: pl.startMs,
        minutestartms: pl.minuteStartMs,
        commits: pl.commits.map((c) => ({
            txid: toHex(c.txId),
            entryhash: toHex(c.commit.entryHash),
            credits: c.commit.credits,
            kind: c.commit.kind,
        })),
        entries: pl.reveals.map((r) => ({ entryhash: toHex(r.entryHash), chainid: toHex(r.entry.chainId) })),
        transactions: pl.transactions.map((t) => ({ txid: toHex(t.txId) })),
        entryblocks: [...pl.entryBlocks.values()].map((eb) => ({
            chainid: toHex(eb.chainId),
            items: eb.items.length,
            newchain: eb.newChain,
        })),
        held: view.holding.size,
    };
}
/** Federated servers: on a network this node produces for (LOCAL, CUSTOM), the bootstrap identity alone. */
export function federatedServers(producing, signer) {
    if (!producing)
        return [];
    return [{ chainId: signer.identityChainId.slice(), name: "", online: true, signingKey: signer.publicKey.slice() }];
}
/** Journal records of `height` as human-readable lines (a record that does not decode says why). */
export function journalLines(records, height) {
    return records.map((r) => {
        try {
            return describeMessage(decodeMessage(r.bytes), height, r.seq);
        }
        catch (e) {
            return JSON.stringify({ height, seq: r.seq, error: String(e) });
        }
    });
}
/** The counters, with the holding queue's size, the saved height and the open block's minute. */
export function stats(view) {
    return { ...view.counters, held: view.holding.size, height: view.tip.height, minute: view.pl.minute };
}
//# sourceMappingURL=debugViews.js.map