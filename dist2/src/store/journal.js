/**
 * The journal: every accepted message of the open block, durable before it is acknowledged, in an LMDB
 * environment of its own (`<data dir>/journal/`).
 *
 * Why its own environment: the journal commits hundreds of small transactions per second, and LMDB pays
 * at every commit for merging its free-page list, which a big block save fills with the pages it rewrote
 * (tens of thousands in a store of a million entries). In the main environment that cost grew with the
 * store until writes fell from ~3,000 to ~390 entries/s (docs/performance.md, hot spot 4); here the free
 * list never holds more than one block's journal.
 */
import { join } from "node:path";
import { guarded, openBinaryDb, openCheckedEnvironment } from "./environment.js";
import { StoreError } from "./errors.js";
import { journalKey, parseJournalKey } from "./keys.js";
/** The only database of the journal environment: u32 height ‖ u32 sequence → one message (ledger/messages.ts). */
export const JOURNAL_DB = "journal";
/** Subdirectory of the data directory holding the journal environment. */
export const JOURNAL_DIR = "journal";
/** The journal environment's other database: `storeId` → the id of the main environment it belongs to. */
const JOURNAL_META_DB = "meta";
const STORE_ID_KEY = Buffer.from("storeId", "ascii");
export class Journal {
    path;
    env;
    db;
    meta;
    closed = false;
    constructor(path, env, db, meta) {
        this.path = path;
        this.env = env;
        this.db = db;
        this.meta = meta;
    }
    /** Open (or create) the journal of the data directory `dataPath`. Throws StoreError as openCheckedEnvironment. */
    static open(dataPath, options) {
        const path = join(dataPath, JOURNAL_DIR);
        const env = openCheckedEnvironment(path, [JOURNAL_DB, JOURNAL_META_DB], options.verify);
        try {
            return new Journal(path, env, openBinaryDb(env, JOURNAL_DB), openBinaryDb(env, JOURNAL_META_DB));
        }
        catch (e) {
            void env.close();
            throw new StoreError({ code: "OPEN_FAILED", path, info: e instanceof Error ? e.message : String(e) });
        }
    }
    /**
     * Append one message. Resolves once the commit holding it is flushed to disk: only then may the node
     * acknowledge the message. Rejects when LMDB cannot write (disk full).
     */
    async append(height, seq, bytes) {
        await guarded(() => this.db.put(journalKey(height, seq), bytes));
        await guarded(() => this.env.flushed);
    }
    /** Append several messages of `height` in one transaction; resolves once flushed. */
    async appendAll(height, records) {
        if (records.length === 0)
            return;
        await guarded(() => this.env.batch(() => {
            for (const r of records)
                this.db.put(journalKey(height, r.seq), r.bytes);
        }));
        await guarded(() => this.env.flushed);
    }
    /** The same as `appendAll`, synchronously (one flushed transaction). */
    appendAllSync(height, records) {
        if (records.length === 0)
            return;
        this.env.transactionSync(() => {
            for (const r of records)
                this.db.putSync(journalKey(height, r.seq), r.bytes);
        });
    }
    /** Write and flush a small record, then remove it: resolves when the disk takes writes again. */
    async probe() {
        const key = journalKey(0xffffffff, 0xffffffff);
        await guarded(() => this.db.put(key, Uint8Array.of(1)));
        await guarded(() => this.db.remove(key));
        await guarded(() => this.env.flushed);
    }
    /**
     * Remove records of a saved height, `chunk` per event-loop turn so a big block's journal does not hold
     * the main thread in one piece. A removal lost in a crash is redone at the next start (removeBelow).
     */
    async remove(height, seqs, chunk = 4096) {
        for (let i = 0; i < seqs.length; i += chunk) {
            const part = seqs.slice(i, i + chunk);
            await new Promise((resolve) => setImmediate(resolve));
            if (this.closed)
                return;
            await Promise.all(part.map((seq) => guarded(() => this.db.remove(journalKey(height, seq)))));
        }
    }
    /** Records of `height`, in log order. */
    records(height) {
        const out = [];
        for (const { key, value } of this.db.getRange({ start: journalKey(height, 0), end: journalKey(height + 1, 0) })) {
            const k = parseJournalKey(key);
            out.push({ height: k.height, seq: k.seq, bytes: new Uint8Array(value) });
        }
        return out;
    }
    /** Id of the main environment this journal belongs to (undefined: not recorded yet). */
    storeId() {
        const v = this.meta.getBinary(STORE_ID_KEY);
        return v === undefined ? undefined : new Uint8Array(v);
    }
    /** Record the id of the main environment this journal belongs to (synchronous, flushed). */
    setStoreId(id) {
        this.env.transactionSync(() => {
            this.meta.putSync(STORE_ID_KEY, id);
        });
    }
    /** Records in the journal, all heights. */
    count() {
        return this.db.getKeysCount();
    }
    /** Remove the records of heights below `height` (saved blocks whose cleanup a crash cut short). */
    removeBelow(height) {
        return this.removeWhere((h) => h < height);
    }
    /** Remove the records of heights above `height`. */
    removeAbove(height) {
        return this.removeWhere((h) => h > height);
    }
    removeWhere(stale) {
        const keys = [];
        for (const key of this.db.getKeys())
            if (stale(parseJournalKey(key).height))
                keys.push(Uint8Array.from(key));
        if (keys.length > 0)
            this.env.transactionSync(() => {
                for (const k of keys)
                    this.db.removeSync(k);
            });
        return keys.length;
    }
    /** Resolves when every write so far is flushed to disk. */
    async flushed() {
        await guarded(() => this.env.flushed);
    }
    async close() {
        this.closed = true;
        await this.env.flushed;
        await this.env.close();
    }
}
//# sourceMappingURL=journal.js.map