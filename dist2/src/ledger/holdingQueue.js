/**
 * Reveals that arrived before their commit (status NotConfirmed). They wait until a commit for their
 * entry hash is accepted, or until HOLD_EXPIRY_MS after their arrival (swept at each end of minute).
 * Held reveals are journaled like any message and carried into the next height's journal at a block
 * close, so a restart keeps them.
 */
import { toHex } from "../protocol/bytes.js";
import { HOLD_EXPIRY_MS } from "./constants.js";
export class HoldingQueue {
    options;
    held = new Map();
    constructor(options) {
        this.options = options;
    }
    get size() {
        return this.held.size;
    }
    get limit() {
        return this.options.limit;
    }
    get(entryHash) {
        return this.held.get(toHex(entryHash));
    }
    add(r) {
        this.held.set(toHex(r.entryHash), r);
    }
    remove(entryHash) {
        this.held.delete(toHex(entryHash));
    }
    /** True when `r` has expired at `nowMs` (ms since epoch). */
    static expired(r, nowMs) {
        return nowMs - r.arrivalMs > HOLD_EXPIRY_MS;
    }
    /** Drop every reveal expired at `nowMs`; returns how many were dropped. */
    sweep(nowMs) {
        let n = 0;
        for (const [k, r] of this.held) {
            if (HoldingQueue.expired(r, nowMs)) {
                this.held.delete(k);
                n++;
            }
        }
        return n;
    }
    /** Held reveals in arrival order (then entry hash), a stable order for carrying and listing. */
    list() {
        return [...this.held.values()].sort((a, b) => a.arrivalMs - b.arrivalMs || Buffer.compare(a.entryHash, b.entryHash));
    }
    clear() {
        this.held.clear();
    }
}
//# sourceMappingURL=holdingQueue.js.map