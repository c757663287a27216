import { toHex } from "../protocol/bytes.js";
import { closeBlock } from "./blockBuilder.js";
import { encodeMessage } from "./messages.js";
import { ProcessList } from "./processList.js";
import { ReplaySaveError } from "./replay.js";
import { closingOf } from "./savedState.js";
export class BlockCloser {
    host;
    /** removal of confirmed journal records, running after each block save */
    cleanupChain = Promise.resolve();
    constructor(host) {
        this.host = host;
    }
    /** Settles when every journal cleanup queued so far has run. */
    get cleanup() {
        return this.cleanupChain;
    }
    /**
     * Close the open block at `timeMs` (end of minute 10): build every block, queue their save as one LMDB
     * transaction, and open the next height at once. Until the save commits, readers see the closed block
     * through `closing`. `synchronous` (replaying the journal at start or in recovery) saves at once: the
     * next height's records build on this block; its failure throws ReplaySaveError.
     */
    close(timeMs, synchronous, cluster) {
        const { state, store } = this.host;
        const started = performance.now();
        const cpu = process.cpuUsage();
        // carried into the next height's journal as its first records, sequences 0…
        const carry = state.holding.list().map((h, i) => ({
            seq: i,
            bytes: encodeMessage({ kind: "reveal", timeMs: h.arrivalMs, entryRaw: h.raw }),
        }));
        const closed = closeBlock(state.pl, {
            tip: state.tip,
            signer: this.host.signer,
            networkId: this.host.networkId,
            chainHead: (id) => state.saved.chainHead(id),
            assetBalance: (a) => state.saved.assetBalance(a),
            ecBalance: (k) => state.saved.ecBalance(k),
            nextStartMs: timeMs,
            journalCarry: carry,
            ...(cluster === undefined ? {} : { adminEntries: cluster.adminEntries, logSequence: cluster.logSequence }),
        });
        const saved = synchronous ? this.saveNow(closed.write) : this.saveClosed(closed.write);
        const closing = closingOf(state.pl, closed, saved);
        state.saved.closing = closing;
        const confirmed = state.pl;
        saved.then(() => {
            if (state.saved.closing === closing)
                state.saved.closing = undefined;
            this.host.saved(closed.tip.height);
            // the block holds these messages now; a removal lost in a crash is redone at the next start
            this.cleanupChain = this.cleanupChain
                .then(() => store.removeJournalRecords(confirmed.height, confirmed.journalSeqs))
                .catch((e) => this.host.log("warn", "journal cleanup failed", { error: e instanceof Error ? e.message : String(e) }));
        }, (e) => this.host.fail(`saving block ${closed.tip.height} failed: ${e instanceof Error ? e.message : String(e)}`));
        state.tip = closed.tip;
        state.pl = new ProcessList(closed.tip.height + 1, timeMs);
        for (const c of carry)
            state.pl.journalSeqs.push(c.seq);
        state.pl.nextSeq = carry.length;
        const counters = state.counters;
        counters.blocksClosed++;
        counters.lastCloseMs = performance.now() - started;
        counters.lastCloseBuildMs = counters.lastCloseMs;
        counters.lastCloseLongestTurnMs = counters.lastCloseMs;
        const used = process.cpuUsage(cpu);
        counters.lastCloseCpuMs = (used.user + used.system) / 1000;
        this.host.log("debug", "block closed", {
            height: closed.tip.height,
            keymr: toHex(closed.tip.directoryKeyMR),
            entryBlocks: closed.directory.entries.length - 3,
            closeMs: Math.round(counters.lastCloseMs),
        });
    }
    /** Save synchronously (replay); a failure throws ReplaySaveError, which ends the replay. */
    saveNow(write) {
        try {
            this.host.store.saveBlockSet(write);
        }
        catch (e) {
            throw new ReplaySaveError(write.height, e);
        }
        return Promise.resolve();
    }
    /**
     * Save a closed block set: pack its records one event-loop turn after the build, so requests that
     * arrived during the build are answered in between and none waits for the build and the packing
     * together (docs/performance.md, block close); the writer thread then applies them.
     */
    async saveClosed(write) {
        await new Promise((resolve) => setImmediate(resolve));
        const { store, state } = this.host;
        const packed = await store.packBlockSet(write);
        const counters = state.counters;
        counters.lastCloseSaveMs = packed.busyMs;
        counters.lastCloseMs += packed.busyMs;
        counters.lastCloseLongestTurnMs = Math.max(counters.lastCloseLongestTurnMs, packed.longestTurnMs);
        counters.lastCloseWriteMs = await store.savePacked(packed);
    }
}
//# sourceMappingURL=close.js.map