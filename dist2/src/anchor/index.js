import { bytesEqual, toHex, ZERO_HASH } from "../protocol/bytes.js";
import { directoryBlockHashes } from "../protocol/dblock.js";
import { markerMinute } from "../protocol/eblock.js";
import { ETHEREUM_ANCHOR_CHAIN_ID, verifiedAnchorRecord } from "./record.js";
import { verifyWindowBranch, windowBranch, windowRoot } from "./window.js";
/** Windows whose keyMRs are kept for receipts (each up to MaxWindow × 32 bytes). */
const WINDOW_CACHE = 16;
/** Records scanned backwards from the last one starting at or below a height (overlapping foreign windows). */
const OVERLAP_SCAN = 64;
export class AnchorIndex {
    options;
    deps;
    /** records by dbHeightMin, then chain order */
    sorted = [];
    txIds = new Set();
    maxHeight = -1;
    seenHead = ZERO_HASH;
    windows = new Map();
    constructor(options, deps) {
        this.options = options;
        this.deps = deps;
    }
    /** Read the anchor chain's entry blocks saved since the last call. Cheap when nothing changed. */
    refresh() {
        const head = this.deps.ledger.chainHead(ETHEREUM_ANCHOR_CHAIN_ID).head;
        if (head === undefined || bytesEqual(head, this.seenHead))
            return;
        const blocks = [];
        for (let at = head; !bytesEqual(at, this.seenHead) && !bytesEqual(at, ZERO_HASH);) {
            const found = this.deps.ledger.entryBlockByHash(at);
            if (found === undefined)
                break;
            blocks.push(found.block.items);
            at = found.block.prevKeyMR;
        }
        for (const items of blocks.reverse())
            for (const item of items)
                if (markerMinute(item) === 0)
                    this.add(item);
        this.seenHead = head;
    }
    add(entryHash) {
        const found = this.deps.ledger.entry(entryHash);
        if (found === undefined)
            return;
        const record = verifiedAnchorRecord(found.entry, this.options.publicKeys);
        if (record === undefined)
            return;
        const item = { record, entryHash };
        let i = this.sorted.length;
        while (i > 0 && this.sorted[i - 1].record.dbHeightMin > record.dbHeightMin)
            i--;
        this.sorted.splice(i, 0, item);
        this.txIds.add(record.ethereum.txId);
        this.maxHeight = Math.max(this.maxHeight, record.dbHeightMax);
    }
    /** Highest directory block height any record covers; -1 when none. */
    anchoredHeight() {
        return this.maxHeight;
    }
    /** Number of records read. */
    count() {
        return this.sorted.length;
    }
    /** Whether a record names Ethereum transaction `txId` (0x lowercase). */
    hasTransaction(txId) {
        return this.txIds.has(txId.toLowerCase());
    }
    /**
     * The anchor of the directory block at `height`: the first record whose window holds it and whose WindowMR
     * is the root of this node's keyMRs over the window (a record that does not match our blocks anchors
     * nothing of ours). Undefined when no record covers it yet.
     */
    forHeight(height) {
        this.refresh();
        let hi = this.sorted.length - 1;
        while (hi >= 0 && this.sorted[hi].record.dbHeightMin > height)
            hi--;
        for (let i = hi, scanned = 0; i >= 0 && scanned < OVERLAP_SCAN; i--, scanned++) {
            const candidate = this.sorted[i];
            const r = candidate.record;
            if (height > r.dbHeightMax)
                continue;
            const keyMRs = this.windowKeyMRs(r.dbHeightMin, r.dbHeightMax);
            if (keyMRs === undefined)
                continue;
            const index = height - r.dbHeightMin;
            const branch = windowBranch(keyMRs, index);
            if (!verifyWindowBranch(keyMRs[index], branch, r.windowMR)) {
                this.deps.log.warn("anchor record does not match this node's directory blocks; ignored", {
                    entryHash: toHex(candidate.entryHash),
                    window: `${r.dbHeightMin}..${r.dbHeightMax}`,
                });
                continue;
            }
            return { ...candidate, keyMR: keyMRs[index], windowBranch: branch };
        }
        return undefined;
    }
    /** KeyMRs of heights min..max from the ledger; undefined when one is not saved here. */
    windowKeyMRs(min, max) {
        const key = `${min}-${max}`;
        const cached = this.windows.get(key);
        if (cached !== undefined)
            return cached;
        const keyMRs = [];
        for (let h = min; h <= max; h++) {
            const d = this.deps.ledger.directoryBlockByHeight(h);
            if (d === undefined)
                return undefined;
            keyMRs.push(directoryBlockHashes(d.block).keyMR);
        }
        if (this.windows.size >= WINDOW_CACHE)
            this.windows.delete(this.windows.keys().next().value);
        this.windows.set(key, keyMRs);
        return keyMRs;
    }
    /** Root of this node's keyMRs over min..max; undefined when a block is missing. */
    windowRootOf(min, max) {
        const keyMRs = this.windowKeyMRs(min, max);
        return keyMRs === undefined ? undefined : windowRoot(keyMRs);
    }
}
//# sourceMappingURL=index.js.map