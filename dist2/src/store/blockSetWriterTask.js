/**
 * Worker thread of BlockSetWriter: applies record streams (recordStream.ts) to the node's LMDB environment,
 * each in ONE synchronous transaction, and answers once that transaction is flushed to disk. Running the
 * puts here keeps the tens of thousands of puts of a big block close off the main thread, which only
 * packs them (docs/performance.md, block close).
 *
 * Messages in: `{ id, stream }`, or `{ close: true }` (finish the queued writes, close the environment,
 * exit); out: `{ id, ok: true, records, ms }` or `{ id, ok: false, error }`.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabases, openEnvironment } from "./environment.js";
import { forEachRecord } from "./recordStream.js";
const port = parentPort;
if (port === null)
    throw new Error("blockSetWriterTask runs as a worker thread");
const { path } = workerData;
const env = openEnvironment(path);
const dbs = openDatabases(env);
async function apply(req) {
    const started = performance.now();
    try {
        let records = 0;
        env.transactionSync(() => {
            forEachRecord(req.stream, (db, key, value) => {
                dbs[db].putSync(key, value);
                records++;
            });
        });
        // With lmdb-js's overlapping sync a committed transaction is flushed asynchronously: answer only once
        // it is on disk, as the ledger acknowledges on top of it.
        await env.flushed;
        return { id: req.id, ok: true, records, ms: performance.now() - started };
    }
    catch (e) {
        return { id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) };
    }
}
// One write at a time, in arrival order: the ledger saves one block set after the other.
let queue = Promise.resolve();
port.on("message", (req) => {
    if ("close" in req) {
        queue = queue.then(async () => {
            await env.close();
            // lmdb-js keeps handles of its own alive in this thread; in a worker, exit ends only the thread
            process.exit(0);
        });
        return;
    }
    queue = queue.then(async () => port.postMessage(await apply(req)));
});
//# sourceMappingURL=blockSetWriterTask.js.map