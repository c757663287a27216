/**
 * The anchoring node's one piece of private state: the anchor in flight, kept in a small JSON file beside
 * the database. It is written (atomically, synced) after a transaction is signed and BEFORE it is sent, and
 * again before its record is submitted to the ledger, so a restart at any moment resumes the same
 * transaction and the same record entry instead of making new ones: nothing is anchored twice or skipped.
 * Everything else the service needs is in the ledger (the anchor chain).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { AnchorError } from "./errors.js";
/** The pending-anchor file; absent = nothing in flight. */
export class PendingAnchorFile {
    path;
    constructor(path) {
        this.path = path;
    }
    read() {
        let text;
        try {
            text = readFileSync(this.path, "utf8");
        }
        catch (e) {
            if (e.code === "ENOENT")
                return undefined;
            throw new AnchorError({ code: "STATE_FILE", file: this.path, reason: String(e) });
        }
        try {
            const p = JSON.parse(text);
            if (!Number.isSafeInteger(p.dbHeightMin) || typeof p.tx?.raw !== "string" || typeof p.tx.hash !== "string")
                throw new Error("missing fields");
            return p;
        }
        catch (e) {
            throw new AnchorError({ code: "STATE_FILE", file: this.path, reason: `unreadable: ${String(e)}` });
        }
    }
    /** Replace the file's content durably: write a temporary file, sync it, rename it over, sync the directory. */
    write(p) {
        mkdirSync(dirname(this.path), { recursive: true });
        const tmp = `${this.path}.tmp`;
        const fd = openSync(tmp, "w", 0o600);
        try {
            writeSync(fd, JSON.stringify(p));
            fsyncSync(fd);
        }
        finally {
            closeSync(fd);
        }
        renameSync(tmp, this.path);
        const dir = openSync(dirname(this.path), "r");
        try {
            fsyncSync(dir);
        }
        finally {
            closeSync(dir);
        }
    }
    clear() {
        rmSync(this.path, { force: true });
    }
}
//# sourceMappingURL=pendingAnchor.js.map