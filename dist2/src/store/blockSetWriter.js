/**
 * The block-set writer thread, main-thread side: hands record streams (recordStream.ts) to a worker thread
 * with its own handle on the LMDB environment (blockSetWriterTask.ts), which applies each in one
 * transaction. The thread starts at the first write and is replaced if it dies; a write it did not
 * confirm rejects, and LMDB's transaction guarantees it left nothing half-written.
 */
import { Worker } from "node:worker_threads";
export class BlockSetWriter {
    options;
    worker;
    nextId = 1;
    pending = new Map();
    closed = false;
    constructor(options) {
        this.options = options;
    }
    /**
     * Apply `stream` in one transaction; resolves once it is committed and flushed. The stream's buffer is
     * transferred (unusable here afterwards).
     */
    write(stream) {
        if (this.closed)
            return Promise.reject(new Error("the block-set writer is closed"));
        const worker = this.worker ?? this.start();
        const id = this.nextId++;
        return new Promise((resolve, reject) => {
            this.pending.set(id, { resolve, reject });
            // Only a thread with work keeps the process alive: an idle writer must not hold up an exit.
            worker.ref();
            worker.postMessage({ id, stream }, [stream]);
        });
    }
    /** Let queued writes finish, then stop the thread (its environment handle closes with it). */
    async close() {
        this.closed = true;
        const worker = this.worker;
        if (worker === undefined)
            return;
        worker.ref();
        const exited = new Promise((resolve) => worker.once("exit", () => resolve()));
        worker.postMessage({ close: true });
        await exited;
    }
    start() {
        const worker = new Worker(new URL("./blockSetWriterTask.js", import.meta.url), {
            workerData: { path: this.options.path },
        });
        worker.unref();
        worker.on("message", (reply) => {
            const p = this.pending.get(reply.id);
            if (p === undefined)
                return;
            this.pending.delete(reply.id);
            if (this.pending.size === 0 && !this.closed)
                worker.unref();
            if (reply.ok)
                p.resolve({ records: reply.records, ms: reply.ms });
            else
                p.reject(new Error(reply.error));
        });
        worker.on("error", (e) => this.abandon(worker, e));
        worker.on("exit", (code) => this.abandon(worker, new Error(`the block-set writer thread exited (code ${code})`)));
        this.worker = worker;
        return worker;
    }
    /** The thread is gone: fail what it had not confirmed; the next write starts a new one. */
    abandon(worker, error) {
        if (this.worker !== worker)
            return;
        this.worker = undefined;
        for (const p of this.pending.values())
            p.reject(error);
        this.pending.clear();
    }
}
//# sourceMappingURL=blockSetWriter.js.map