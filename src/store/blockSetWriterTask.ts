/**
 * Worker thread of BlockSetWriter: applies record streams (recordStream.ts) to the node's LMDB environment,
 * each in ONE synchronous transaction, and answers once that transaction is flushed to disk. Running the
 * puts here keeps the tens of thousands of puts of a big block close off the main thread, which only
 * packs them (docs/performance.md §"Block close").
 *
 * Messages in: `{ id, stream }`, or `{ close: true }` (finish the queued writes, close the environment,
 * exit); out: `{ id, ok: true, records, ms }` or `{ id, ok: false, error }`.
 */
import { MessageChannel, parentPort, workerData } from "node:worker_threads";
import { InvariantError } from "../errors.js";
import { putRecord } from "./blockSet.js";
import { type Databases, openDatabases, openEnvironment, type RootEnv } from "./environment.js";
import { SAVED_HEIGHT_KEY } from "./keys.js";
import {
  indexSavedHeight,
  JustPutRecords,
  type RebuildProgress,
  rebuildStep,
  resetQueryIndexIfForeign,
} from "./queryIndex.js";
import { forEachRecord, type RecordStream } from "./recordStream.js";

export interface WriteRequest {
  id: number;
  stream: RecordStream;
}
export type WriteReply =
  | {
      id: number;
      ok: true;
      /** records written */
      records: number;
      /** time from the message to the flushed commit, ms */
      ms: number;
    }
  | { id: number; ok: false; error: string }
  /** a query index rebuild step committed (`{ rebuild: true }`), with what it took */
  | { progress: RebuildProgress; ms: number }
  /** the rebuild failed: the index stays behind (queries keep answering "rebuilding") */
  | { rebuildFailed: string }
  /** a missing or foreign index was dropped (the rebuild's first task), in this many ms */
  | { cleared: number };

/**
 * Most time one rebuild step holds the write lock and this thread, ms: a block set's save arriving meanwhile
 * waits at most this (plus the last height's indexing: a height is indexed whole) before it runs. 50 ms keeps a
 * save's delay below the flush it pays anyway, and makes steps long enough that their commits (one flush each)
 * stay a small share of a rebuild of quiet heights.
 */
const REBUILD_STEP_BUDGET_MS = 50;

/** Most heights per rebuild step: bounds a step's dirty pages when heights are quiet and fast. */
const REBUILD_STEP_MAX_HEIGHTS = 256;

const port = parentPort;
if (port === null) throw new InvariantError("blockSetWriterTask runs as a worker thread");
const { path, queryIndex } = workerData as { path: string; queryIndex: boolean };
const env: RootEnv = openEnvironment(path, "store");
const dbs: Databases = openDatabases(env);

async function apply(req: WriteRequest): Promise<WriteReply> {
  const started = performance.now();
  try {
    let records = 0;
    env.transactionSync(() => {
      let height = -1;
      // the entry records put, for the index to read from the stream rather than the environment (queryIndex.ts)
      const justPut = queryIndex ? new JustPutRecords() : undefined;
      forEachRecord(req.stream, (db, key, value) => {
        const put = putRecord(dbs, db, key, value);
        records++;
        if (db === "entryRecords") justPut?.add(key, put);
        else if (db === "meta" && SAVED_HEIGHT_KEY.equals(key)) height = Buffer.from(value).readUInt32BE(0);
      });
      // the query index of the height, in this same transaction (queryIndex.ts): it reads the puts above
      if (height >= 0 && queryIndex) indexSavedHeight(dbs, height, justPut);
    });
    // With lmdb-js's overlapping sync a committed transaction is flushed asynchronously: answer only once
    // it is on disk, as the ledger acknowledges on top of it.
    await env.flushed;
    return { id: req.id, ok: true, records, ms: performance.now() - started };
  } catch (e) {
    return { id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Free a stream's bytes now. This thread allocates little of its own, so its garbage collector runs seldom and
 * a stream it no longer references (tens of MB for a block of 20,000 entries) would stay in the process's memory
 * while the node is at rest (docs/performance.md §Memory). Transferring the buffers into a message that is then
 * dropped with its channel frees the bytes at once.
 */
function release(stream: RecordStream): void {
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(null, stream.buffers);
  port1.close();
  port2.close();
}

// One write at a time, in arrival order: the ledger saves one block set after the other.
let queue: Promise<void> = Promise.resolve();
let closing = false;
let rebuilding = false;
/** set by the `rebuild` message: ms to wait between steps, each then of one height (0: no throttle) */
let pauseMs = 0;

/**
 * The background rebuild of the query index (docs/ledger.md §Query index, "Rebuild"): steps queued one at a time
 * behind whatever is queued, each scheduled from the event loop so a save that arrived during a step runs before
 * the next step. Saves and steps are serialized on this one thread, and each reads and moves the marker inside
 * its own transaction: a height is indexed by exactly one of them, and a `kill -9` leaves the marker with the
 * last committed step or save.
 */
const scheduleRebuild = (): void => {
  const run = (): void => {
    if (closing) return;
    queue = queue.then(() => {
      if (closing) return;
      const started = performance.now();
      try {
        // a missing or foreign index is dropped first, as a task of its own: a save queued meanwhile runs before
        // the first step (the clears of a big layout-1 index take a while)
        if (resetQueryIndexIfForeign(env, dbs)) {
          port.postMessage({ cleared: performance.now() - started });
          scheduleRebuild();
          return;
        }
        const progress = rebuildStep(env, dbs, REBUILD_STEP_BUDGET_MS, pauseMs > 0 ? 1 : REBUILD_STEP_MAX_HEIGHTS);
        port.postMessage({ progress, ms: performance.now() - started });
        if (progress.done) rebuilding = false;
        else scheduleRebuild();
      } catch (e) {
        rebuilding = false;
        port.postMessage({ rebuildFailed: e instanceof Error ? e.message : String(e) });
      }
    });
  };
  if (pauseMs > 0) setTimeout(run, pauseMs);
  else setImmediate(run);
};

port.on("message", (req: WriteRequest | { close: true } | { rebuild: true; pauseMs: number }) => {
  if ("rebuild" in req) {
    pauseMs = req.pauseMs;
    if (!rebuilding && queryIndex) {
      rebuilding = true;
      scheduleRebuild();
    }
    return;
  }
  if ("close" in req) {
    closing = true;
    queue = queue.then(async () => {
      await env.close();
      // lmdb-js keeps handles of its own alive in this thread; in a worker, exit ends only the thread
      process.exit(0);
    });
    return;
  }
  queue = queue.then(async () => {
    const reply = await apply(req);
    release(req.stream);
    port.postMessage(reply);
  });
});
