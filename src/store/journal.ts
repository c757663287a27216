/**
 * The journal: every accepted message of the open block, durable before it is acknowledged, in an LMDB
 * environment of its own (`<data dir>/journal/`).
 *
 * Why its own environment: the journal commits hundreds of small transactions per second, and LMDB pays
 * at every commit for merging its free-page list, which a big block save fills with the pages it rewrote
 * (tens of thousands in a store of a million entries). In the main environment that cost grew with the
 * store until writes fell from ~3,000 to ~390 entries/s (docs/performance.md, hot spot 4); here the free
 * list never holds more than one block's journal.
 *
 * Appends are committed by a writer thread of their own (journalWriterTask.ts); everything else (reads,
 * removals, the start's synchronous writes, the probe) runs here on the same environment.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { type BinDb, guarded, openBinaryDb, openCheckedEnvironment, type RootEnv } from "./environment.js";
import { StoreError } from "./errors.js";
import type { JournalWriterReply, JournalWriterRequest } from "./journalWriterTask.js";
import { packGroup } from "./journalWriterTask.js";
import { journalKey, parseJournalKey } from "./keys.js";

/** The only database of the journal environment: u32 height ‖ u32 sequence → one message (ledger/messages.ts). */
export const JOURNAL_DB = "journal";
/** Subdirectory of the data directory holding the journal environment. */
export const JOURNAL_DIR = "journal";
/** The journal environment's other database: `storeId` → the id of the main environment it belongs to. */
const JOURNAL_META_DB = "meta";
const STORE_ID_KEY = Buffer.from("storeId", "ascii");

function newGroup(): Group {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // every appender gets `done` and handles it; this keeps a group nobody awaits any more from being an
  // unhandled rejection
  done.catch(() => {});
  return { id: 0, height: [], seq: [], bytes: [], done, resolve, reject };
}

/** A journal record as stored. */
export interface JournalRecord {
  height: number;
  seq: number;
  bytes: Uint8Array;
}

/** Records of one event-loop turn, and the promise all their appenders wait on (resolved once durable). */
interface Group {
  /** its place in the order groups are posted to the writer thread (from 1; 0 until posted) */
  id: number;
  height: number[];
  seq: number[];
  bytes: Uint8Array[];
  done: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export class Journal {
  private closed = false;
  /** records appended in this event-loop turn (undefined: none) */
  private open: Group | undefined;
  /** groups posted to the writer thread and not answered yet, in posting order */
  private readonly posted: Group[] = [];
  /** the last group posted (its outcome settles after every earlier group's) */
  private last: Group | undefined;
  private nextId = 1;
  /** the open group is posted at the end of this turn (setImmediate) */
  private scheduled = false;
  /** the writer thread (journalWriterTask.ts), started at the first append; undefined once it died */
  private writer: Worker | undefined;
  /**
   * Why a group commit failed, until a probe succeeds. Every group after a failed one fails too: a record
   * is acknowledged only if every record before it is on disk, so the durable journal is always a prefix of
   * the log (a later record may depend on an earlier one: a reveal on its commit, a commit on a purchase).
   */
  private failure: unknown;

  private constructor(
    readonly path: string,
    private readonly env: RootEnv,
    private readonly db: BinDb,
    private readonly meta: BinDb,
  ) {}

  /** Open (or create) the journal of the data directory `dataPath`. Throws StoreError as openCheckedEnvironment. */
  static open(dataPath: string, options: { verify: boolean }): Journal {
    const path = join(dataPath, JOURNAL_DIR);
    const env = openCheckedEnvironment(path, [JOURNAL_DB, JOURNAL_META_DB], options.verify);
    try {
      return new Journal(path, env, openBinaryDb(env, JOURNAL_DB), openBinaryDb(env, JOURNAL_META_DB));
    } catch (e) {
      void env.close();
      throw new StoreError({ code: "OPEN_FAILED", path, info: e instanceof Error ? e.message : String(e) });
    }
  }

  /**
   * Append one message. Resolves once the commit holding it is flushed to disk: only then may the node
   * acknowledge the message. Rejects when LMDB cannot write (disk full).
   *
   * Group commit: the records of one event-loop turn go to the writer thread together, at the end of the
   * turn, whether or not a commit is in flight; the writer commits every group that arrived during its
   * previous commit in one LMDB transaction and one flush (journalWriterTask.ts). Each record costs an
   * array push here; the LMDB work is the writer's. Nothing resolves before its own transaction is
   * committed and flushed.
   */
  append(height: number, seq: number, bytes: Uint8Array): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    let g = this.open;
    if (g === undefined) {
      g = newGroup();
      this.open = g;
    }
    g.height.push(height);
    g.seq.push(seq);
    g.bytes.push(bytes);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.post());
    }
    return g.done;
  }

  /** Hand the open group to the writer thread (no wait for a commit in flight: the writer gathers). */
  private post(): void {
    this.scheduled = false;
    const g = this.open;
    if (g === undefined) return;
    this.open = undefined;
    if (this.failure !== undefined) {
      g.reject(this.failure);
      return;
    }
    const writer = this.writer ?? this.startWriter();
    g.id = this.nextId++;
    const packed = packGroup(g.height, g.seq, g.bytes);
    this.posted.push(g);
    this.last = g;
    // only a writer with work keeps the process alive
    writer.ref();
    const request: JournalWriterRequest = { kind: "group", id: g.id, packed: packed.buffer as ArrayBuffer };
    writer.postMessage(request, [packed.buffer as ArrayBuffer]);
  }

  private startWriter(): Worker {
    const writer = new Worker(new URL("./journalWriterTask.js", import.meta.url), {
      workerData: { path: this.path, journalWriter: true },
    });
    writer.unref();
    writer.on("message", (reply: JournalWriterReply) => this.answered(reply));
    const gone = (error: Error): void => {
      if (this.writer !== writer) return;
      this.writer = undefined;
      // what it had not answered may or may not be on disk: refuse it, and everything after it
      this.failure ??= error;
      for (const g of this.posted.splice(0)) g.reject(this.failure);
    };
    writer.on("error", gone);
    writer.on("exit", (code) =>
      gone(
        new StoreError({
          code: "WRITER_FAILED",
          path: this.path,
          info: `the journal writer thread exited (code ${code})`,
        }),
      ),
    );
    this.writer = writer;
    return writer;
  }

  /** The writer committed (or refused) every group up to `reply.upTo`. */
  private answered(reply: JournalWriterReply): void {
    // lmdb-js renews this thread's read snapshot once per event-loop turn; the commit was another thread's
    if (reply.ok) this.env.resetReadTxn();
    else this.failure ??= new StoreError({ code: "WRITER_FAILED", path: this.path, info: reply.error });
    while (this.posted.length > 0 && this.posted[0]!.id <= reply.upTo) {
      const g = this.posted.shift()!;
      if (reply.ok) g.resolve();
      else g.reject(this.failure);
    }
    if (this.posted.length === 0 && !this.closed) this.writer?.unref();
  }

  /** Append several messages of `height` in one transaction; resolves once flushed. */
  async appendAll(height: number, records: readonly { seq: number; bytes: Uint8Array }[]): Promise<void> {
    if (records.length === 0) return;
    await guarded(() =>
      this.env.batch(() => {
        for (const r of records) this.db.put(journalKey(height, r.seq), r.bytes);
      }),
    );
    await guarded(() => this.env.flushed);
  }

  /** The same as `appendAll`, synchronously (one flushed transaction). */
  appendAllSync(height: number, records: readonly { seq: number; bytes: Uint8Array }[]): void {
    if (records.length === 0) return;
    this.env.transactionSync(() => {
      for (const r of records) this.db.putSync(journalKey(height, r.seq), r.bytes);
    });
  }

  /**
   * Write and flush a small record, then remove it: resolves when the disk takes writes again, and appends
   * are taken again from then on (after a failed group commit they are refused until a probe succeeds).
   */
  async probe(): Promise<void> {
    const key = journalKey(0xffffffff, 0xffffffff);
    await this.appended();
    await guarded(() => this.db.put(key, Uint8Array.of(1)));
    await guarded(() => this.db.remove(key));
    await guarded(() => this.env.flushed);
    // the writer refuses groups after a failed one until told; requests are handled in posting order
    this.writer?.postMessage({ kind: "reset" } satisfies JournalWriterRequest);
    this.failure = undefined;
  }

  /**
   * Remove records of a saved height, `chunk` per event-loop turn so a big block's journal does not hold
   * the main thread in one piece. A removal lost in a crash is redone at the next start (removeBelow).
   */
  async remove(height: number, seqs: readonly number[], chunk = 4096): Promise<void> {
    for (let i = 0; i < seqs.length; i += chunk) {
      const part = seqs.slice(i, i + chunk);
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.closed) return;
      await Promise.all(part.map((seq) => guarded(() => this.db.remove(journalKey(height, seq)))));
    }
  }

  /** Records of `height`, in log order. */
  records(height: number): JournalRecord[] {
    const out: JournalRecord[] = [];
    for (const { key, value } of this.db.getRange({ start: journalKey(height, 0), end: journalKey(height + 1, 0) })) {
      const k = parseJournalKey(key);
      out.push({ height: k.height, seq: k.seq, bytes: new Uint8Array(value) });
    }
    return out;
  }

  /** Records of the heights below `height`, in (height, seq) order: held reveals kept past their height's close. */
  recordsBelow(height: number): JournalRecord[] {
    const out: JournalRecord[] = [];
    for (const { key, value } of this.db.getRange({ start: journalKey(0, 0), end: journalKey(height, 0) })) {
      const k = parseJournalKey(key);
      out.push({ height: k.height, seq: k.seq, bytes: new Uint8Array(value) });
    }
    return out;
  }

  /** Remove these records at once, in one transaction (the start's cleanup of records no longer needed). */
  removeSync(places: readonly { height: number; seq: number }[]): void {
    if (places.length === 0) return;
    this.env.transactionSync(() => {
      for (const p of places) this.db.removeSync(journalKey(p.height, p.seq));
    });
  }

  /** Id of the main environment this journal belongs to (undefined: not recorded yet). */
  storeId(): Uint8Array | undefined {
    const v = this.meta.getBinary(STORE_ID_KEY);
    return v === undefined ? undefined : new Uint8Array(v);
  }

  /** Record the id of the main environment this journal belongs to (synchronous, flushed). */
  setStoreId(id: Uint8Array): void {
    this.env.transactionSync(() => {
      this.meta.putSync(STORE_ID_KEY, id);
    });
  }

  /** Records in the journal, all heights. */
  count(): number {
    return this.db.getKeysCount();
  }

  /** Remove the records of heights below `height` (saved blocks whose cleanup a crash cut short). */
  removeBelow(height: number): number {
    return this.removeWhere((h) => h < height);
  }

  /** Remove the records of heights above `height`. */
  removeAbove(height: number): number {
    return this.removeWhere((h) => h > height);
  }

  private removeWhere(stale: (height: number) => boolean): number {
    const keys: Uint8Array[] = [];
    for (const key of this.db.getKeys()) if (stale(parseJournalKey(key).height)) keys.push(Uint8Array.from(key));
    if (keys.length > 0)
      this.env.transactionSync(() => {
        for (const k of keys) this.db.removeSync(k);
      });
    return keys.length;
  }

  /** Resolves when every write so far (appended records included) is flushed to disk. */
  async flushed(): Promise<void> {
    await this.appended();
    await guarded(() => this.env.flushed);
  }

  /**
   * Resolves once every record appended so far is on disk; rejects when one of them is not (its group
   * commit failed, or an earlier one did). An answer that repeats an earlier record's (a resubmitted
   * held reveal) waits for this.
   */
  async durable(): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    // groups settle in posting order: the last posted one settles after every earlier one
    await Promise.all([this.last?.done, this.open?.done]);
  }

  /** Resolves when every record appended so far has been committed (or its group failed). */
  async appended(): Promise<void> {
    const pending = [this.last?.done, this.open?.done].filter((p) => p !== undefined);
    await Promise.allSettled(pending);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.appended();
    const writer = this.writer;
    if (writer !== undefined) {
      this.writer = undefined; // its exit is the end asked for, not a failure
      writer.ref();
      const exited = new Promise<void>((resolve) => writer.once("exit", () => resolve()));
      writer.postMessage({ kind: "close" } satisfies JournalWriterRequest);
      await exited;
    }
    await this.env.flushed;
    await this.env.close();
  }
}
