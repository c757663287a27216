/**
 * The block-set writer thread, main-thread side: hands record streams (recordStream.ts) to a worker thread
 * with its own handle on the LMDB environment (blockSetWriterTask.ts), which applies each in one
 * transaction. The thread starts at the first write and is replaced if it dies; a write it did not
 * confirm rejects, and LMDB's transaction guarantees it left nothing half-written.
 */
import { Worker } from "node:worker_threads";
import type { WriteReply } from "./blockSetWriterTask.js";
import { StoreError } from "./errors.js";
import type { RebuildProgress } from "./queryIndex.js";
import type { RecordStream } from "./recordStream.js";

export interface WriteResult {
  /** records written */
  records: number;
  /** writer thread time from receipt to flushed commit, ms */
  ms: number;
}

/** What the owner of a background rebuild hears (rebuildQueryIndex). */
export interface RebuildHandlers {
  /** a step committed; `ms` is its time on the writer thread */
  onProgress(p: RebuildProgress, ms: number): void;
  /** the old index was dropped (the rebuild's first task, before any step), in `ms` */
  onCleared(ms: number): void;
  /** a step threw: the rebuild stopped, the index stays behind */
  onFailed(error: string): void;
}

interface Pending {
  resolve(result: WriteResult): void;
  reject(error: Error): void;
}

/**
 * Young generation of the writer thread, MB. A save makes two short-lived views per record (forEachRecord) and
 * nothing that lives on, yet V8 grew the thread's young generation to the 32 MB maximum under a write load and
 * kept it, resident, for the life of the process (per-thread heap log of 60-s write runs: 40 MB of heap, 32 of it
 * young generation, ~7 MB used; docs/history/performance-history.md
 * §"The write map landed, V8's heap growing factor, journal posts (seventh session, 2026-11-28)", item 4). 8 MB is many records' views; their
 * scavenges find almost nothing alive.
 */
const WRITER_YOUNG_MB = 8;

export class BlockSetWriter {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;
  /** set by rebuildQueryIndex until the thread reports the rebuild done: a replaced thread resumes it */
  private rebuild: RebuildHandlers | undefined;

  /** `queryIndex` false: saves leave the query index out (store.ts StoreOptions.queryIndex: -queryindex=false) */
  constructor(
    private readonly options: {
      path: string;
      queryIndex?: boolean;
      /** ms between two steps of a query index rebuild, each then of one height (StoreOptions; default 0) */
      rebuildPauseMs?: number;
    },
  ) {}

  /**
   * Apply `stream` in one transaction; resolves once it is committed and flushed. The stream's buffers are
   * transferred (unusable here afterwards).
   */
  write(stream: RecordStream): Promise<WriteResult> {
    if (this.closed) return Promise.reject(this.failed("the block-set writer is closed"));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<WriteResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Only a thread with work keeps the process alive: an idle writer must not hold up an exit.
      worker.ref();
      worker.postMessage({ id, stream }, stream.buffers);
    });
  }

  /**
   * Rebuild the query index in steps on the writer thread, between saves (blockSetWriterTask.ts); each
   * committed step is reported through `onProgress`, the last with `done`. A thread that dies is replaced at the
   * next write and resumes from the marker.
   */
  rebuildQueryIndex(handlers: RebuildHandlers): void {
    if (this.closed) return;
    this.rebuild = handlers;
    const worker = this.worker ?? this.start();
    // a rebuild keeps the thread alive until it is done (a node that exits meanwhile resumes it at the next start)
    worker.ref();
    worker.postMessage({ rebuild: true, pauseMs: this.options.rebuildPauseMs ?? 0 });
  }

  /** Let queued writes finish, then stop the thread (its environment handle closes with it). */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (worker === undefined) return;
    worker.ref();
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    worker.postMessage({ close: true });
    await exited;
  }

  private failed(info: string): StoreError {
    return new StoreError({ code: "WRITER_FAILED", path: this.options.path, info });
  }

  private start(): Worker {
    const worker = new Worker(new URL("./blockSetWriterTask.js", import.meta.url), {
      workerData: { path: this.options.path, queryIndex: this.options.queryIndex !== false },
      resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_MB },
    });
    worker.unref();
    worker.on("message", (reply: WriteReply) => {
      if ("cleared" in reply) {
        this.rebuild?.onCleared(reply.cleared);
        return;
      }
      if ("progress" in reply || "rebuildFailed" in reply) {
        const rebuild = this.rebuild;
        if ("progress" in reply) rebuild?.onProgress(reply.progress, reply.ms);
        else rebuild?.onFailed(reply.rebuildFailed);
        if ("rebuildFailed" in reply || reply.progress.done) {
          this.rebuild = undefined;
          if (this.pending.size === 0 && !this.closed) worker.unref();
        }
        return;
      }
      const p = this.pending.get(reply.id);
      if (p === undefined) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0 && this.rebuild === undefined && !this.closed) worker.unref();
      if (reply.ok) p.resolve({ records: reply.records, ms: reply.ms });
      else p.reject(this.failed(reply.error));
    });
    worker.on("error", (e: Error) => this.abandon(worker, e));
    worker.on("exit", (code) => this.abandon(worker, this.failed(`the block-set writer thread exited (code ${code})`)));
    this.worker = worker;
    if (this.rebuild !== undefined) worker.postMessage({ rebuild: true, pauseMs: this.options.rebuildPauseMs ?? 0 });
    return worker;
  }

  /** The thread is gone: fail what it had not confirmed; the next write starts a new one. */
  private abandon(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }
}
