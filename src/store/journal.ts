/**
 * The journal: every accepted message of the open block, durable before it is acknowledged, in an LMDB
 * environment of its own (`<data dir>/journal/`).
 *
 * Why its own environment: the journal commits hundreds of small transactions per second, and LMDB pays
 * at every commit for merging its free-page list, which a big block save fills with the pages it rewrote
 * (tens of thousands in a store of a million entries). In the main environment that cost grew with the
 * store until writes fell from ~3,000 to ~390 entries/s (docs/performance.md §Writes); here the free
 * list never holds more than one block's journal.
 *
 * Appends are committed by the process's journal writer thread (journalWriterTask.ts); everything else
 * (reads, removals, the start's synchronous writes, the probe) runs here on the same environment.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import {
  type BinDb,
  guarded,
  openBinaryDb,
  openCheckedEnvironment,
  type RootEnv,
  writesSettled,
} from "./environment.js";
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

/**
 * The process's journal writer thread, shared by every open journal: started at the first append, replaced
 * if it dies, and holding the process alive only while a request is unanswered.
 */
class WriterThread {
  private worker: Worker | undefined;
  /** open journals by number (replies name theirs) */
  private readonly journals = new Map<number, Journal>();
  private nextJournal = 1;
  /** requests not answered yet: groups and closes */
  private unanswered = 0;

  /** Number a journal; its requests and replies carry it. */
  register(journal: Journal): number {
    const n = this.nextJournal++;
    this.journals.set(n, journal);
    return n;
  }

  /** Send a request; a group or a close holds the process alive until it is answered. */
  post(request: JournalWriterRequest, transfer: ArrayBuffer[] = []): void {
    const worker = this.worker ?? this.start();
    if (request.kind === "group" || request.kind === "close") {
      this.unanswered++;
      worker.ref();
    }
    worker.postMessage(request, transfer);
  }

  /** True while the thread that opened journals is alive (a new thread must be told to open them again). */
  running(): boolean {
    return this.worker !== undefined;
  }

  private start(): Worker {
    const worker = new Worker(new URL("./journalWriterTask.js", import.meta.url), {
      workerData: { journalWriter: true },
    });
    worker.unref();
    worker.on("message", (reply: JournalWriterReply) => {
      this.unanswered -= reply.kind === "closed" ? 1 : reply.groups;
      if (this.unanswered === 0) worker.unref();
      const journal = this.journals.get(reply.journal);
      if (reply.kind === "closed") this.journals.delete(reply.journal);
      journal?.answered(reply);
    });
    const gone = (reason: string): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.unanswered = 0;
      for (const j of this.journals.values()) j.writerGone(reason);
    };
    worker.on("error", (e: Error) => gone(`the journal writer thread failed: ${e.message}`));
    worker.on("exit", (code) => gone(`the journal writer thread exited (code ${code})`));
    this.worker = worker;
    return worker;
  }
}

const writerThread = new WriterThread();

/**
 * Most groups of one journal posted to the writer thread and not answered yet: one being committed and one
 * waiting, so the writer starts its next commit without waiting for this thread. Records appended meanwhile
 * gather in the open group, posted when the first answer comes, instead of one message per event-loop turn:
 * each message costs this thread ~5–20 µs (the structured clone, the transfer, waking the writer), 12.7 % of
 * its busy time under a 64-in-flight write load (docs/history/performance-history.md
 * §"The write map landed, V8's heap growing factor, journal posts (seventh session, 2026-11-28)"). The records wait as long either way: they could not join a commit already in flight.
 */
const MAX_GROUPS_POSTED = 2;

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
  /** this journal's number in the writer thread; 0 until its first append */
  private number = 0;
  /** the writer thread has a handle on this journal (told `open`; a replacement thread is not) */
  private opened = false;
  /** resolves when the writer thread has closed its handle */
  private writerClosed: (() => void) | undefined;
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
    const env = openCheckedEnvironment(path, "journal", [JOURNAL_DB, JOURNAL_META_DB], options.verify);
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
   * turn (or, while the writer holds MAX_GROUPS_POSTED groups, with the next turn's at its next answer); the
   * writer commits every group that arrived during its previous commit in one LMDB transaction and one flush
   * (journalWriterTask.ts). Each record costs an
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

  /**
   * Hand the open group to the writer thread, unless it already holds MAX_GROUPS_POSTED unanswered groups: then
   * the open group keeps gathering until a reply (answered) posts it.
   */
  private post(): void {
    this.scheduled = false;
    const g = this.open;
    if (g === undefined) return;
    if (this.failure !== undefined) {
      this.open = undefined;
      g.reject(this.failure);
      return;
    }
    if (this.posted.length >= MAX_GROUPS_POSTED) return;
    this.open = undefined;
    if (!this.opened || !writerThread.running()) {
      if (this.number === 0) this.number = writerThread.register(this);
      writerThread.post({ kind: "open", journal: this.number, path: this.path });
      this.opened = true;
    }
    g.id = this.nextId++;
    const packed = packGroup(g.height, g.seq, g.bytes);
    this.posted.push(g);
    this.last = g;
    const buffer = packed.buffer as ArrayBuffer;
    writerThread.post({ kind: "group", journal: this.number, id: g.id, packed: buffer }, [buffer]);
  }

  /** The writer thread committed (or refused) every group up to `reply.upTo`, or closed its handle. */
  answered(reply: JournalWriterReply): void {
    if (reply.kind === "closed") {
      this.writerClosed?.();
      return;
    }
    // lmdb-js renews this thread's read snapshot once per event-loop turn; the commit was another thread's
    if (reply.kind === "committed") this.env.resetReadTxn();
    else this.failure ??= new StoreError({ code: "WRITER_FAILED", path: this.path, info: reply.error });
    while (this.posted.length > 0 && this.posted[0]!.id <= reply.upTo) {
      const g = this.posted.shift()!;
      if (reply.kind === "committed") g.resolve();
      else g.reject(this.failure);
    }
    // records held back while the writer had its fill (post); after a failure this refuses them
    if (this.open !== undefined) this.post();
  }

  /** The writer thread died: what it had not answered may or may not be on disk; refuse it and what follows. */
  writerGone(reason: string): void {
    this.opened = false;
    this.failure ??= new StoreError({ code: "WRITER_FAILED", path: this.path, info: reason });
    for (const g of this.posted.splice(0)) g.reject(this.failure);
    if (this.open !== undefined) this.post();
    this.writerClosed?.();
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
    if (this.opened && writerThread.running()) writerThread.post({ kind: "reset", journal: this.number });
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

  /**
   * Resolves when every write so far (appended records included) is flushed to disk or has failed; a failure
   * is reported to the write's own caller (append, remove, probe), not here (environment.ts writesSettled).
   */
  async flushed(): Promise<void> {
    await this.appended();
    await writesSettled(this.env);
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
    if (this.opened && writerThread.running()) {
      const closed = new Promise<void>((resolve) => {
        this.writerClosed = resolve;
      });
      writerThread.post({ kind: "close", journal: this.number });
      await closed;
      this.opened = false;
    }
    // a failed removal was its caller's to report (a cleanup's is logged); it must not keep the journal open
    await writesSettled(this.env);
    await this.env.close();
  }
}
