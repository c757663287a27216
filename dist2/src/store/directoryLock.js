/**
 * One node per data directory. Two processes on one directory both replay the journal and both close blocks
 * on top of the same saved height, so the chain forks inside one database (block N+1's prevkeymr no longer
 * matches block N). The node takes this lock before it opens the store or replays anything.
 *
 * Why flock(2) (through the `fs-ext` addon) and not a PID file created with O_EXCL: the kernel drops a flock
 * when its holder dies in any way (SIGKILL, OOM kill, power loss: the lock lives in memory only), so there is
 * never a stale lock to guess about. A PID file needs that guess: a PID that is alive may belong to an
 * unrelated process after a reboot or inside a fresh container (PID 1 every time), and two starters that both
 * judge a file stale can both "remove and retake" it. Node has no flock of its own; `fs-ext` calls the system
 * call directly and builds with node-gyp like lmdb (the toolchain every machine of this project has).
 *
 * The lock file is never deleted: deleting it while another starter has it open lets that starter lock the
 * deleted inode while a third creates and locks a new one. Its content is the holder's PID, written once the
 * lock is held and cleared on release, only to name the holder in the second starter's error.
 * The backup tool (a read-only LMDB snapshot) and the wallet (an RPC client) never take it.
 */
import { closeSync, constants, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { StoreError } from "./errors.js";
/** Name of the lock file inside the data directory. */
export const LOCK_FILE = "ledgerd.lock";
// Boundary: fs-ext is CommonJS without types; only flockSync is used.
const fsExt = createRequire(import.meta.url)("fs-ext");
/** An exclusive lock on a data directory, held until `release()` or the end of the process. */
export class DirectoryLock {
    dir;
    fd;
    constructor(dir, fd) {
        this.dir = dir;
        this.fd = fd;
    }
    /**
     * Take the lock on `dir` (created when missing) without waiting. Throws StoreError DIRECTORY_LOCKED naming
     * the directory and the holder's PID when another process (or another open in this one) holds it.
     */
    static acquire(dir) {
        mkdirSync(dir, { recursive: true });
        const path = join(dir, LOCK_FILE);
        let fd;
        try {
            fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
        }
        catch (e) {
            throw new StoreError({ code: "OPEN_FAILED", path, info: e instanceof Error ? e.message : String(e) });
        }
        try {
            fsExt.flockSync(fd, "exnb");
        }
        catch (e) {
            closeSync(fd);
            const code = e.code;
            if (code === "EAGAIN" || code === "EWOULDBLOCK")
                throw new StoreError({ code: "DIRECTORY_LOCKED", path: dir, holderPid: readHolder(path) });
            throw new StoreError({ code: "OPEN_FAILED", path, info: `flock: ${e instanceof Error ? e.message : String(e)}` });
        }
        ftruncateSync(fd, 0);
        writeSync(fd, `${process.pid}\n`, 0);
        return new DirectoryLock(dir, fd);
    }
    /** Clear the PID and drop the lock. Idempotent. */
    release() {
        if (this.fd === undefined)
            return;
        const fd = this.fd;
        this.fd = undefined;
        try {
            ftruncateSync(fd, 0);
        }
        finally {
            closeSync(fd); // closing the last descriptor drops the flock
        }
    }
}
/** The PID written by the holder, or undefined while it is still being written (or unreadable). */
function readHolder(path) {
    try {
        const pid = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
        return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
    }
    catch {
        return undefined;
    }
}
//# sourceMappingURL=directoryLock.js.map