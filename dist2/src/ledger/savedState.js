/**
 * Saved state: what the last saved block says, read through the block being saved first (`closing`),
 * then the store. A block is visible to readers and rules from the moment it closes, not only once its
 * LMDB transaction commits (docs/ledger.md §5).
 */
import { toHex } from "../protocol/bytes.js";
/** The closing overlay of block set `closed` (built from `pl`), whose save is `saved`. */
export function closingOf(pl, closed, saved) {
    const w = closed.write;
    const blocks = new Map();
    const heights = new Map();
    for (const b of w.blocks) {
        const v = { kind: b.kind, raw: b.raw, primary: b.primary };
        blocks.set(toHex(b.primary), v);
        if (b.secondary !== undefined)
            blocks.set(toHex(b.secondary), v);
        if (b.height !== undefined)
            heights.set(`${b.kind}/${b.height}`, b.primary);
    }
    const coinbase = closed.write.transactions[0].keys[0];
    return {
        pl,
        closed,
        blocks,
        heights,
        chainHeads: new Map(w.chainHeads.map((h) => [toHex(h.chainId), h.head])),
        assetBalances: new Map(w.assetBalances.map((a) => [toHex(a.address), a.balance])),
        ecBalances: new Map(w.ecBalances.map((a) => [toHex(a.publicKey), a.balance])),
        coinbaseTxId: toHex(coinbase),
        // its rejection is handled by the writer that queued the save; waiters see it through this promise
        saved,
    };
}
/** Lookups of saved state: the block being saved first, then the store. */
export class SavedState {
    store;
    /** the last closed block while its asynchronous save is in flight (the writer sets and clears it) */
    closing;
    constructor(store) {
        this.store = store;
    }
    paidCommit(hash) {
        return this.closing?.pl.paidCommits.get(toHex(hash))?.record ?? this.store.paidCommit(hash);
    }
    chainHead(chainId) {
        return this.closing?.chainHeads.get(toHex(chainId)) ?? this.store.chainHead(chainId);
    }
    assetBalance(address) {
        return this.closing?.assetBalances.get(toHex(address)) ?? this.store.assetBalance(address);
    }
    ecBalance(publicKey) {
        return this.closing?.ecBalances.get(toHex(publicKey)) ?? this.store.ecBalance(publicKey);
    }
    transactionLocation(hash) {
        const c = this.closing;
        if (c !== undefined) {
            const hex = toHex(hash);
            const t = c.pl.transactionsByHash.get(hex);
            const index = t !== undefined ? t.blockIndex : hex === c.coinbaseTxId ? 0 : undefined;
            if (index !== undefined)
                return { assetBlockKeyMR: c.closed.tip.assetKeyMR, height: c.pl.height, index };
        }
        return this.store.transactionLocation(hash);
    }
    commitLocation(hash) {
        const c = this.closing;
        const p = c?.pl.commitsByHash.get(toHex(hash));
        if (c !== undefined && p !== undefined)
            return { ecBlockHeaderHash: c.closed.tip.ecHeaderHash, height: c.pl.height, index: p.ecIndex };
        return this.store.commitLocation(hash);
    }
    entryLocation(hash) {
        const c = this.closing;
        const r = c?.pl.revealsByHash.get(toHex(hash));
        if (c !== undefined && r !== undefined)
            return { entryBlockKeyMR: r.block.keyMR, height: c.pl.height, commitTxId: r.commitTxId };
        return this.store.entryLocation(hash);
    }
    entryRaw(hash) {
        return this.closing?.pl.revealsByHash.get(toHex(hash))?.raw ?? this.store.entryRaw(hash);
    }
    block(hash) {
        return this.closing?.blocks.get(toHex(hash)) ?? this.store.block(hash);
    }
    blockHashAt(kind, height) {
        return this.closing?.heights.get(`${kind}/${height}`) ?? this.store.blockHashAt(kind, height);
    }
}
//# sourceMappingURL=savedState.js.map