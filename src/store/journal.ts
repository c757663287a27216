/**
 * The journal: every accepted message of the open block, durable before it is acknowledged, in append-only
 * files of their own, one per height (`<data dir>/journal/<height>.log`, journalFiles.ts).
 *
 * Appends are committed by the process's journal writer thread (journalWriterTask.ts): a group commit is
 * one write and one fdatasync per file touched. Everything else (reads, removals, the start's synchronous
 * writes, the probe) runs here on the same files: a height's file is written by the writer thread while it is
 * the open height, and read, rewritten or removed here only once its block is saved (or at the start, before
 * any append).
 *
 * A journal of the earlier LMDB format is carried into files at open (journalUpgrade.ts).
 */
import { mkdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { open as openFile, readFile, unlink } from "node:fs/promises";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { InvariantError } from "../errors.js";
import { StoreError } from "./errors.js";
import {
  appendRecordsSync,
  cutTornTails,
  fsyncDirectory,
  heightFileName,
  inLogOrder,
  type JournalRecord,
  journalHeights,
  onlyRecordsOf,
  packGroup,
  parseHeightFile,
  readHeight,
  replaceFileSync,
  STORE_ID_FILE,
  sealRecords,
  unlinkIfThere,
} from "./journalFiles.js";
import { isLmdbJournal, upgradeLmdbJournal } from "./journalUpgrade.js";
import type { JournalWriterReply, JournalWriterRequest } from "./journalWriterTask.js";

export type { JournalRecord } from "./journalFiles.js";

/** The second part of a record appended in one. */
const NO_BYTES = new Uint8Array(0);

/** Subdirectory of the data directory holding the journal's files. */
export const JOURNAL_DIR = "journal";
/** The probe's file (probe): written, flushed and removed to see whether the disk takes writes again. */
const PROBE_FILE = "probe";
/** Bytes the probe writes: a page, so a disk that takes it takes a small group's records too. */
const PROBE_BYTES = 4096;

/** Bytes the journal's files take in the data directory `dataDir` (metrics): its heights' files and its id. */
export function journalBytes(dataDir: string): number {
  const dir = join(dataDir, JOURNAL_DIR);
  let total = 0;
  for (const name of [STORE_ID_FILE, ...journalHeights(dir).map(heightFileName)]) {
    try {
      total += statSync(join(dir, name)).size;
    } catch {
      // removed meanwhile (its block saved)
    }
  }
  return total;
}

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
  return { id: 0, height: [], seq: [], bytes: [], more: [], done, resolve, reject };
}

/** Records of one event-loop turn, and the promise all their appenders wait on (resolved once durable). */
interface Group {
  /** its place in the order groups are posted to the writer thread (from 1; 0 until posted) */
  id: number;
  height: number[];
  seq: number[];
  /** each record's bytes are `bytes[i] ‖ more[i]` (append's two parts) */
  bytes: Uint8Array[];
  more: Uint8Array[];
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

/**
 * Least time between two groups posted by the end of a turn, ms (performance.now()): records appended within
 * this window of the last post gather until its end, so under load the writer gets fewer, larger groups (fewer
 * commits, each a `writev`, an `fdatasync` and the disk's queue kicked, and fewer wakes of either thread);
 * after a quiet spell a record goes at the end of its turn, as before. A reply (answered) posts what gathered
 * at once. Measured with the verify pool's window (workers/pool.ts VERIFY_BATCH_WINDOW_MS), change 15 of
 * docs/performance.md §"Signature checks per entry": groups per second at ~7,300 entries/s ~1,050 → ~720, the
 * writer thread's CPU per entry 14–16 → 11–13 µs, p99 unchanged.
 */
export const GROUP_WINDOW_MS = 1;

/**
 * The process's own setTimeout, taken when this module loads: the window is measured on the real clock, so its
 * timer must be the real one too; a test's mocked timers (node:test `mock.timers`) would otherwise hold a record
 * back, never made durable, until the test moved its fake clock (as setImmediate, the end of a turn, never did).
 */
const realSetTimeout = globalThis.setTimeout;

export class Journal {
  private closed = false;
  /** records appended in this event-loop turn (undefined: none) */
  private open: Group | undefined;
  /** groups posted to the writer thread and not answered yet, in posting order */
  private readonly posted: Group[] = [];
  /** the last group posted (its outcome settles after every earlier group's) */
  private last: Group | undefined;
  private nextId = 1;
  /** the open group is posted at the end of this turn (setImmediate) or of the window (GROUP_WINDOW_MS) */
  private scheduled = false;
  /** performance.now() of the last group posted, ms (−Infinity: none yet) */
  private lastPostMs = Number.NEGATIVE_INFINITY;
  private readonly postNow = (): void => this.post();
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
  /** appends made to each height, for a cleanup racing one (removeNow); a height's count goes with its file */
  private readonly appendsTo = new Map<number, number>();
  /** removals running (remove): flushed and close wait for them */
  private readonly removals = new Set<Promise<void>>();

  private constructor(
    readonly path: string,
    /** torn or damaged tails cut at open (journalFiles.ts cutTornTails), for the store's log */
    readonly cuts: readonly { height: number; bytes: number; why: string }[],
    /** records carried over from a journal of the LMDB format at open (0: none, or not that format) */
    readonly upgraded: number,
    /** least time between two groups posted by the end of a turn, ms (GROUP_WINDOW_MS) */
    private readonly groupWindowMs: number,
  ) {}

  /** Groups handed to the writer thread since the journal opened (each one commit, or part of one). */
  get groupsPosted(): number {
    return this.nextId - 1;
  }

  /**
   * Open (or create) the journal of the data directory `dataPath`: a journal of the LMDB format is carried
   * into files first; a torn or damaged tail of any height's file is cut. Throws StoreError.
   */
  static open(dataPath: string, options: { verify: boolean; groupWindowMs?: number }): Journal {
    const groupWindowMs = options.groupWindowMs ?? GROUP_WINDOW_MS;
    if (!(groupWindowMs >= 0 && groupWindowMs <= 1000))
      throw new InvariantError(`groupWindowMs: expected 0 to 1000, got ${groupWindowMs}`);
    const path = join(dataPath, JOURNAL_DIR);
    let upgraded = 0;
    if (isLmdbJournal(path)) upgraded = upgradeLmdbJournal(path, options.verify);
    try {
      // a new directory's name is flushed with its parent, or a power loss could take every file in it
      if (mkdirSync(path, { recursive: true, mode: 0o700 }) !== undefined) fsyncDirectory(dataPath);
      return new Journal(path, cutTornTails(path), upgraded, groupWindowMs);
    } catch (e) {
      throw new StoreError({ code: "OPEN_FAILED", path, info: e instanceof Error ? e.message : String(e) });
    }
  }

  /**
   * Append one message, `bytes ‖ more` (its head and body, ledger/messages.ts: packed here into the group's
   * buffer, no buffer of the record's own). Both are only read, at the end of the turn: the caller must not
   * change them before. Resolves once the commit holding it is flushed to disk: only then may the node
   * acknowledge the message. Rejects when it cannot be written (disk full).
   *
   * Group commit: the records of one event-loop turn go to the writer thread together, at the end of the
   * turn (within GROUP_WINDOW_MS of the last group, at the window's end with those of the turns since; while
   * the writer holds MAX_GROUPS_POSTED groups, with the next turns' at its next answer); the
   * writer commits every group that arrived during its previous commit in one write and one flush
   * (journalWriterTask.ts). Each record costs an array push here; the file work is the writer's. Nothing
   * resolves before its own commit is flushed.
   */
  append(height: number, seq: number, bytes: Uint8Array, more: Uint8Array = NO_BYTES): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    let g = this.open;
    if (g === undefined) {
      g = newGroup();
      this.open = g;
    }
    g.height.push(height);
    g.seq.push(seq);
    g.bytes.push(bytes);
    g.more.push(more);
    this.appendsTo.set(height, (this.appendsTo.get(height) ?? 0) + 1);
    if (!this.scheduled) {
      this.scheduled = true;
      const wait = this.lastPostMs + this.groupWindowMs - performance.now();
      if (wait > 0) realSetTimeout(this.postNow, wait);
      else setImmediate(this.postNow);
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
    this.lastPostMs = performance.now();
    const packed = packGroup(g.height, g.seq, g.bytes, g.more);
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
    if (reply.kind === "failed")
      this.failure ??= new StoreError({ code: "WRITER_FAILED", path: this.path, info: reply.error });
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

  /** Append several messages of `height` with the group commit (append); resolves once flushed. */
  async appendAll(height: number, records: readonly { seq: number; bytes: Uint8Array }[]): Promise<void> {
    if (records.length === 0) return;
    await Promise.all(records.map((r) => this.append(height, r.seq, r.bytes)));
  }

  /**
   * The same as `appendAll`, synchronously, on this thread (the start, a replayed save): only while no
   * append is in flight, so the writer thread and this one never write one file at once.
   */
  appendAllSync(height: number, records: readonly { seq: number; bytes: Uint8Array }[]): void {
    if (records.length === 0) return;
    if (this.posted.length > 0 || this.open !== undefined)
      throw new InvariantError("a synchronous journal append while appends are in flight");
    const packed = packGroup(
      records.map(() => height),
      records.map((r) => r.seq),
      records.map((r) => r.bytes),
    );
    sealRecords(packed, () => {});
    appendRecordsSync(this.path, height, packed);
    this.filesChanged([height]);
  }

  /**
   * Tell the writer thread that this thread changed these heights' files (appended, removed, replaced): it keeps
   * each open file's end and size itself and reads them again only when told (journalWriterTask.ts). Posted
   * right after the change, so every group posted later is written after the writer has heard of it.
   */
  private filesChanged(heights: number[]): void {
    if (heights.length > 0 && this.opened && writerThread.running())
      writerThread.post({ kind: "changed", journal: this.number, heights });
  }

  /**
   * Write and flush a small file, then remove it: resolves when the disk takes writes again, and appends
   * are taken again from then on (after a failed group commit they are refused until a probe succeeds; the
   * writer thread cuts what the failed commit wrote before it takes groups again).
   */
  async probe(): Promise<void> {
    await this.appended();
    const file = join(this.path, PROBE_FILE);
    const handle = await openFile(file, "w", 0o600);
    try {
      await handle.writeFile(new Uint8Array(PROBE_BYTES));
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await unlink(file);
    // a writer thread that died may have left part of a record: cut it before anything is appended after it
    // (a live writer cut what its failed commit wrote itself, journalWriterTask.ts)
    if (!this.opened || !writerThread.running()) cutTornTails(this.path);
    // the writer refuses groups after a failed one until told; requests are handled in posting order
    if (this.opened && writerThread.running()) writerThread.post({ kind: "reset", journal: this.number });
    this.failure = undefined;
  }

  /**
   * Remove records of a saved height (its block holds them now): its file goes, or, when records of it are
   * kept (held reveals), is replaced by one of those alone. Off the main thread's turn (file I/O is libuv's).
   * A removal lost in a crash is redone at the next start (removeBelow, replay's restoreHeld).
   */
  async remove(height: number, seqs: readonly number[], _chunk = 4096): Promise<void> {
    if (seqs.length === 0 || this.closed) return;
    const p = this.removeNow(height, new Set(seqs));
    this.removals.add(p);
    try {
      await p;
    } finally {
      this.removals.delete(p);
    }
  }

  /**
   * Appends to the saved height being cleaned up would be lost by an unlink or a rename decided on an earlier
   * read (the node appends only to its open height, so none come; a test's late write does): the file is read
   * once no append to the height is in flight, and replaced or removed, synchronously, only if none came since.
   */
  private async removeNow(height: number, seqs: ReadonlySet<number>): Promise<void> {
    const file = join(this.path, heightFileName(height));
    for (;;) {
      const before = this.appendsTo.get(height) ?? 0;
      if (this.inFlight(height)) await this.appended();
      let buf: Buffer;
      try {
        buf = await readFile(file);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === "ENOENT") return;
        throw e;
      }
      const unchanged = (): boolean => (this.appendsTo.get(height) ?? 0) === before && !this.inFlight(height);
      // the usual case: every record is in the saved block, the file goes without being parsed (onlyRecordsOf)
      const all = onlyRecordsOf(buf, height, seqs);
      const parsed = all ? undefined : parseHeightFile(buf, height);
      const kept = parsed === undefined ? [] : parsed.records.filter((r) => !seqs.has(r.seq));
      if (parsed !== undefined && kept.length === parsed.records.length) return;
      if (kept.length === 0) {
        if (!unchanged()) continue;
        unlinkIfThere(file);
        this.filesChanged([height]);
        this.appendsTo.delete(height);
        return;
      }
      const packed = packGroup(
        kept.map(() => height),
        kept.map((r) => r.seq),
        kept.map((r) => r.bytes),
      );
      sealRecords(packed, () => {});
      // the kept records must survive: a new file, flushed, renamed over the old one (old or new after a crash)
      const tmp = `${file}.tmp`;
      try {
        const handle = await openFile(tmp, "w", 0o600);
        try {
          await handle.writeFile(packed);
          await handle.datasync();
        } finally {
          await handle.close();
        }
      } catch (e) {
        // the old file is whole: only the half-written copy goes
        await unlink(tmp).catch(() => {});
        throw e;
      }
      if (!unchanged()) {
        await unlink(tmp).catch(() => {});
        continue;
      }
      renameSync(tmp, file);
      this.filesChanged([height]);
      fsyncDirectory(this.path);
      return;
    }
  }

  /** True while a group holding a record of `height` is being gathered or committed. */
  private inFlight(height: number): boolean {
    return this.open?.height.includes(height) === true || this.posted.some((g) => g.height.includes(height));
  }

  /** Records of `height`, in log order. */
  records(height: number): JournalRecord[] {
    return readHeight(this.path, height);
  }

  /** Records of the heights below `height`, in (height, seq) order: held reveals kept past their height's close. */
  recordsBelow(height: number): JournalRecord[] {
    const out: JournalRecord[] = [];
    for (const h of journalHeights(this.path)) if (h < height) out.push(...readHeight(this.path, h));
    return out;
  }

  /** Remove these records at once (the start's cleanup of records no longer needed), flushed. */
  removeSync(places: readonly { height: number; seq: number }[]): void {
    const byHeight = new Map<number, Set<number>>();
    for (const p of places) {
      let seqs = byHeight.get(p.height);
      if (seqs === undefined) {
        seqs = new Set();
        byHeight.set(p.height, seqs);
      }
      seqs.add(p.seq);
    }
    const changed: number[] = [];
    for (const [height, seqs] of byHeight) {
      const records = readHeight(this.path, height);
      const kept = records.filter((r) => !seqs.has(r.seq));
      if (kept.length === records.length) continue;
      changed.push(height);
      if (kept.length === 0) {
        unlinkIfThere(join(this.path, heightFileName(height)));
        continue;
      }
      const packed = packGroup(
        kept.map(() => height),
        kept.map((r) => r.seq),
        kept.map((r) => r.bytes),
      );
      sealRecords(packed, () => {});
      replaceFileSync(this.path, heightFileName(height), packed);
    }
    this.filesChanged(changed);
  }

  /** Id of the main environment this journal belongs to (undefined: not recorded yet). */
  storeId(): Uint8Array | undefined {
    try {
      return new Uint8Array(readFileSync(join(this.path, STORE_ID_FILE)));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  }

  /** Record the id of the main environment this journal belongs to (synchronous, flushed). */
  setStoreId(id: Uint8Array): void {
    replaceFileSync(this.path, STORE_ID_FILE, id);
  }

  /** Records in the journal, all heights. */
  count(): number {
    let n = 0;
    for (const h of journalHeights(this.path)) n += readHeight(this.path, h).length;
    return n;
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
    let removed = 0;
    const changed: number[] = [];
    for (const h of journalHeights(this.path)) {
      if (!stale(h)) continue;
      removed += inLogOrder(parseHeightFile(readFileSync(join(this.path, heightFileName(h))), h).records).length;
      unlinkIfThere(join(this.path, heightFileName(h)));
      changed.push(h);
    }
    this.filesChanged(changed);
    return removed;
  }

  /**
   * Resolves when every write so far (appended records and removals) is flushed to disk or has failed; a
   * failure is reported to the write's own caller (append, remove, probe), not here.
   */
  async flushed(): Promise<void> {
    await this.appended();
    await Promise.allSettled([...this.removals]);
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
    await Promise.allSettled([...this.removals]);
  }
}
