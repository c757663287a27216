/**
 * The journal writer thread (journal.ts): commits appended journal records to their heights' files
 * (journalFiles.ts), each commit one write per file touched and one fdatasync of it, before it answers. One
 * thread per process serves every open journal (a test process opens hundreds of nodes; a thread costs tens
 * of ms to start).
 *
 * Group commit without the main thread in the loop: the main thread posts each event-loop turn's records as
 * one group and never waits to post the next; when a commit ends, this thread takes EVERY request queued
 * meanwhile (`receiveMessageOnPort`), and a journal's consecutive groups go into one commit (one writev, one
 * flush). The disk never waits for the main thread to notice a commit and start another, and each commit
 * carries everything that arrived during the previous one.
 *
 * Reserved space (journalFiles.ts RESERVE_BYTES): records are written at a file's records' end, into zeros
 * this thread wrote ahead, so a commit's fdatasync seldom has metadata to flush; the space goes at close.
 *
 * No stat per commit: the thread keeps each open file's records' end and size itself, and reads them again
 * (fstat, the records' end) only for a file it opened existing, after a failed commit, or after the main thread
 * said it changed that height's file (`changed`: its synchronous appends, removals and replacements, each made
 * while none of the heights it touches has a group in flight). An fstat of the file before each commit cost
 * ~27 µs of CPU and ~45 µs of wall time per commit here: asking a file's ctime makes the kernel give its next
 * write a fine-grained timestamp (multigrain timestamps, Linux 6.13+), so every write dirtied the inode and
 * every fdatasync waited for the inode's block too (docs/performance.md §"Signature checks per entry", change 29).
 *
 * Prefix rule: once a journal's commit fails, what it wrote is cut off its files again (ftruncate to the
 * records' ends before it) and every later group of that journal is refused without being written, until the main
 * thread says `reset` (after its recovery probe); so the durable journal is always a prefix of the log. A
 * cut that fails is retried at `reset`; until it succeeds, groups stay refused.
 */
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync } from "node:fs";
import { join } from "node:path";
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { InvariantError } from "../errors.js";
import {
  endOfRecords,
  fsyncDirectory,
  heightFileName,
  openHeightFile,
  RESERVE_BYTES,
  sealRecords,
  writeAllSync,
} from "./journalFiles.js";

export { forEachPacked, packGroup } from "./journalFiles.js";

/** Requests to the writer thread; `journal` tells which open journal (journal.ts numbers them). */
export type JournalWriterRequest =
  /** open a handle on the journal directory `path` */
  | { kind: "open"; journal: number; path: string }
  /** commit the records packed in `packed` (packGroup) */
  | { kind: "group"; journal: number; id: number; packed: ArrayBuffer }
  /** take groups again after a failure (the main thread's probe succeeded) */
  | { kind: "reset"; journal: number }
  /** the main thread changed these heights' files: read their ends and sizes again before writing to them */
  | { kind: "changed"; journal: number; heights: number[] }
  /** close the handle (answered `closed`) */
  | { kind: "close"; journal: number };

/**
 * The outcome of every group of `journal` up to and including `upTo` (ids are posted in increasing order):
 * `groups` of them shared one commit of `ms` milliseconds (the writes and their flush); or `closed`.
 */
export type JournalWriterReply =
  | { kind: "committed"; journal: number; upTo: number; groups: number; ms: number }
  | { kind: "failed"; journal: number; upTo: number; groups: number; ms: number; error: string }
  | { kind: "closed"; journal: number };

/** A height's file open to write. */
interface OpenFile {
  fd: number;
  height: number;
  /** created by this handle: its name is flushed (the directory) with its first commit */
  created: boolean;
  /** where its records end: the next commit writes here */
  end: number;
  /** its size as this thread left it (records and reserved space); -1: end and size to be read again */
  size: number;
}

/** One journal's handle in this thread. */
interface Handle {
  dir: string;
  /** files open to append, by height: the open height's (and the one before, for a group across a close) */
  files: Map<number, OpenFile>;
  /** why its last commit failed; later groups are refused until `reset` */
  failure: string | undefined;
  /** cuts a failed commit could not make yet (file, its records' end to cut back to): retried at `reset` */
  uncut: { fd: number; size: number }[];
}

/** Files of other heights than the newest kept open (a group may hold a height's last records and the next's first). */
const KEEP_OLDER_FILES = 1;

function fileOf(h: Handle, height: number): OpenFile {
  let f = h.files.get(height);
  if (f !== undefined) return f;
  // O_EXCL first: whether this open creates the file decides whether its name must be flushed
  const { fd, created } = openHeightFile(join(h.dir, heightFileName(height)));
  f = { fd, height, created, end: 0, size: created ? 0 : -1 };
  h.files.set(height, f);
  // heights only grow; close all but the newest few
  if (h.files.size > KEEP_OLDER_FILES + 1) {
    const heights = [...h.files.keys()].sort((a, b) => a - b);
    for (const old of heights.slice(0, heights.length - KEEP_OLDER_FILES - 1)) {
      const o = h.files.get(old)!;
      // one this commit wrote is flushed (or cut back) first: closed at a later open
      if (h.uncut.some((u) => u.fd === o.fd)) continue;
      closeSync(o.fd);
      h.files.delete(old);
    }
  }
  return f;
}

/** Cut what a failed commit wrote; what cannot be cut now stays in `uncut` (groups refused until it is). */
function cutBack(h: Handle): void {
  h.uncut = h.uncut.filter((u) => {
    try {
      ftruncateSync(u.fd, u.size);
      fdatasyncSync(u.fd);
      return false;
    } catch {
      return true;
    }
  });
}

/**
 * The file of `height` with its records' end and size read again when they are not known (`size` -1), as the
 * disk has them: a file replaced or removed by the main thread since this handle opened it (a recovery's
 * replay, a saved height's cleanup) is opened again by its name, so its records go to the file now there.
 */
function fileToWrite(h: Handle, height: number): OpenFile {
  let f = fileOf(h, height);
  if (f.size !== -1) return f;
  if (fstatSync(f.fd).nlink === 0) {
    closeSync(f.fd);
    h.files.delete(height);
    f = fileOf(h, height);
  }
  f.end = endOfRecords(f.fd, f.height);
  // read after the end: finding it cuts a bad tail
  f.size = fstatSync(f.fd).size;
  return f;
}

/** What a reservation writes after a file's records. */
const zeros = new Uint8Array(RESERVE_BYTES);

function closeHandle(h: Handle): void {
  // a file at rest is its records: the reserved space goes (no flush: an open cuts what a crash left)
  for (const f of h.files.values())
    if (f.size > f.end && !h.uncut.some((u) => u.fd === f.fd))
      try {
        ftruncateSync(f.fd, f.end);
      } catch {
        // the next open cuts it
      }
  const fds = new Set([...h.files.values()].map((f) => f.fd));
  for (const u of h.uncut) fds.add(u.fd);
  for (const fd of fds) closeSync(fd);
  h.files.clear();
  h.uncut = [];
}

function serve(): void {
  const port = parentPort;
  if (port === null) throw new InvariantError("journalWriterTask runs as a worker thread");
  const handles = new Map<number, Handle>();

  /** Write these groups of one journal (one writev per file), flush each file once. */
  const write = (h: Handle, groups: { packed: ArrayBuffer }[]): void => {
    // each height's runs of records, in order; heights in the order first met
    const runs = new Map<number, Uint8Array[]>();
    for (const g of groups) {
      const packed = new Uint8Array(g.packed);
      sealRecords(packed, (height, start, end) => {
        const list = runs.get(height);
        const part = packed.subarray(start, end);
        if (list === undefined) runs.set(height, [part]);
        else list.push(part);
      });
    }
    const touched: OpenFile[] = [];
    try {
      for (const [height, parts] of runs) {
        const f = fileToWrite(h, height);
        // the records' end before: what a failure cuts back to (a short write leaves part of a record)
        h.uncut.push({ fd: f.fd, size: f.end });
        touched.push(f);
        let bytes = 0;
        for (const p of parts) bytes += p.length;
        const end = f.end + bytes;
        // size -1 until written: a failure below leaves the file to be read again at the next commit
        const size = f.size;
        f.size = -1;
        writeAllSync(f.fd, parts, f.end);
        f.end = end;
        if (end > size)
          try {
            writeAllSync(f.fd, [zeros], end);
            f.size = end + RESERVE_BYTES;
          } catch {
            // space is a saving, not a need (a full disk, a file-size limit): the records went, the size is read
            // again at the next commit (zeros written in part are space too)
          }
        else f.size = size;
      }
      for (const f of touched) fdatasyncSync(f.fd);
      for (const f of touched)
        if (f.created) {
          fsyncDirectory(h.dir);
          f.created = false;
        }
      h.uncut = [];
    } catch (e) {
      // their ends and sizes are read again at their next commit
      for (const f of touched) f.size = -1;
      cutBack(h);
      throw e;
    }
  };

  /** Commit these groups of one journal (or refuse them after a failure); answer for all. */
  const commit = (journal: number, groups: { id: number; packed: ArrayBuffer }[]): void => {
    const h = handles.get(journal);
    if (h === undefined) throw new InvariantError(`journal ${journal} was not opened in the writer thread`);
    const upTo = groups[groups.length - 1]!.id;
    const started = performance.now();
    if (h.failure === undefined) {
      try {
        write(h, groups);
      } catch (e) {
        h.failure = e instanceof Error ? e.message : String(e);
      }
    }
    const head = { journal, upTo, groups: groups.length, ms: performance.now() - started };
    const reply: JournalWriterReply =
      h.failure === undefined ? { kind: "committed", ...head } : { kind: "failed", ...head, error: h.failure };
    port.postMessage(reply);
  };

  port.on("message", (first: JournalWriterRequest) => {
    // this request and every one queued behind it, in order; a journal's consecutive groups share a commit
    const requests: JournalWriterRequest[] = [first];
    for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port))
      requests.push(m.message as JournalWriterRequest);
    let run: { id: number; packed: ArrayBuffer }[] = [];
    let runJournal = 0;
    const flush = (): void => {
      if (run.length > 0) commit(runJournal, run);
      run = [];
    };
    for (const r of requests) {
      if (r.kind === "group" && (run.length === 0 || runJournal === r.journal)) {
        runJournal = r.journal;
        run.push(r);
        continue;
      }
      flush();
      switch (r.kind) {
        case "group":
          runJournal = r.journal;
          run.push(r);
          break;
        case "open":
          handles.set(r.journal, { dir: r.path, files: new Map(), failure: undefined, uncut: [] });
          break;
        case "changed": {
          const files = handles.get(r.journal)?.files;
          for (const height of r.heights) {
            const f = files?.get(height);
            if (f !== undefined) f.size = -1;
          }
          break;
        }
        case "reset": {
          const h = handles.get(r.journal)!;
          cutBack(h);
          // still holding bytes of a failed commit: refusing on keeps them from being followed by good records
          if (h.uncut.length === 0) h.failure = undefined;
          break;
        }
        case "close": {
          const h = handles.get(r.journal);
          handles.delete(r.journal);
          if (h !== undefined) closeHandle(h);
          port.postMessage({ kind: "closed", journal: r.journal } satisfies JournalWriterReply);
          break;
        }
      }
    }
    flush();
  });
}

if (parentPort !== null && (workerData as { journalWriter?: boolean } | null)?.journalWriter === true) serve();
