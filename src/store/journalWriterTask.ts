/**
 * The journal writer thread (journal.ts): commits appended journal records, each commit one synchronous
 * LMDB transaction, flushed to disk before it answers. One thread per process serves every open journal
 * (a test process opens hundreds of nodes; a thread costs tens of ms to start).
 *
 * Group commit without the main thread in the loop: the main thread posts each event-loop turn's records as
 * one group and never waits to post the next; when a commit ends, this thread takes EVERY request queued
 * meanwhile (`receiveMessageOnPort`), and a journal's consecutive groups go into one transaction. The disk
 * never waits for the main thread to notice a commit and start another, and each commit carries everything
 * that arrived during the previous one.
 *
 * Prefix rule: once a journal's commit fails, every later group of that journal is refused without being
 * written, until the main thread says `reset` (after its recovery probe); so the durable journal is always
 * a prefix of the log.
 */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { InvariantError } from "../errors.js";
import { type BinDb, openBinaryDb, openEnvironment, type RootEnv } from "./environment.js";
import { journalKey } from "./keys.js";

/** The journal's database (journal.ts JOURNAL_DB; not imported: journal.ts starts this thread). */
const JOURNAL_DB = "journal";

/** Bytes of a packed record's header: height u32 ‖ seq u32 ‖ length u32, little-endian. */
export const GROUP_RECORD_HEADER_BYTES = 12;

/** Requests to the writer thread; `journal` tells which open journal (journal.ts numbers them). */
export type JournalWriterRequest =
  /** open a handle on the journal environment in directory `path` */
  | { kind: "open"; journal: number; path: string }
  /** commit the records packed in `packed` (packGroup) */
  | { kind: "group"; journal: number; id: number; packed: ArrayBuffer }
  /** take groups again after a failure (the main thread's probe succeeded) */
  | { kind: "reset"; journal: number }
  /** close the handle (answered `closed`) */
  | { kind: "close"; journal: number };

/**
 * The outcome of every group of `journal` up to and including `upTo` (ids are posted in increasing order):
 * `groups` of them shared one commit of `ms` milliseconds (the transaction and its flush); or `closed`.
 */
export type JournalWriterReply =
  | { kind: "committed"; journal: number; upTo: number; groups: number; ms: number }
  | { kind: "failed"; journal: number; upTo: number; groups: number; ms: number; error: string }
  | { kind: "closed"; journal: number };

/** Pack records (in log order) into one transferable buffer. */
export function packGroup(height: readonly number[], seq: readonly number[], bytes: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const b of bytes) size += GROUP_RECORD_HEADER_BYTES + b.length;
  const packed = new Uint8Array(size);
  const view = new DataView(packed.buffer);
  let at = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    view.setUint32(at, height[i]!, true);
    view.setUint32(at + 4, seq[i]!, true);
    view.setUint32(at + 8, b.length, true);
    packed.set(b, at + GROUP_RECORD_HEADER_BYTES);
    at += GROUP_RECORD_HEADER_BYTES + b.length;
  }
  return packed;
}

/** Call `put(height, seq, bytes)` for every record of a packed group, in order. */
export function forEachPacked(packed: Uint8Array, put: (height: number, seq: number, bytes: Uint8Array) => void): void {
  const view = new DataView(packed.buffer, packed.byteOffset, packed.byteLength);
  let at = 0;
  while (at < packed.length) {
    const end = at + GROUP_RECORD_HEADER_BYTES + view.getUint32(at + 8, true);
    if (end > packed.length) throw new InvariantError(`a packed journal group ends inside a record at byte ${at}`);
    put(view.getUint32(at, true), view.getUint32(at + 4, true), packed.subarray(at + GROUP_RECORD_HEADER_BYTES, end));
    at = end;
  }
}

/** One journal's handle in this thread. */
interface Handle {
  env: RootEnv;
  db: BinDb;
  /** why its last commit failed; later groups are refused until `reset` */
  failure: string | undefined;
}

function serve(): void {
  const port = parentPort;
  if (port === null) throw new InvariantError("journalWriterTask runs as a worker thread");
  const handles = new Map<number, Handle>();

  /** Commit these groups of one journal in one transaction (or refuse them after a failure); answer for all. */
  const commit = (journal: number, groups: { id: number; packed: ArrayBuffer }[]): void => {
    const h = handles.get(journal);
    if (h === undefined) throw new InvariantError(`journal ${journal} was not opened in the writer thread`);
    const upTo = groups[groups.length - 1]!.id;
    const started = performance.now();
    if (h.failure === undefined) {
      try {
        h.env.transactionSync(() => {
          for (const g of groups)
            forEachPacked(new Uint8Array(g.packed), (height, seq, bytes) => {
              h.db.putSync(journalKey(height, seq), bytes);
            });
        });
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
        case "open": {
          const env = openEnvironment(r.path, "journal");
          handles.set(r.journal, { env, db: openBinaryDb(env, JOURNAL_DB), failure: undefined });
          break;
        }
        case "reset":
          handles.get(r.journal)!.failure = undefined;
          break;
        case "close": {
          const h = handles.get(r.journal);
          handles.delete(r.journal);
          const closed: JournalWriterReply = { kind: "closed", journal: r.journal };
          if (h === undefined) port.postMessage(closed);
          else void h.env.close().then(() => port.postMessage(closed));
          break;
        }
      }
    }
    flush();
  });
}

if (parentPort !== null && (workerData as { journalWriter?: boolean } | null)?.journalWriter === true) serve();
