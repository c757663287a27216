/**
 * The journal writer thread (journal.ts): commits appended journal records to the journal environment, each
 * commit one synchronous LMDB transaction, flushed to disk before it answers.
 *
 * Group commit without the main thread in the loop: the main thread posts each event-loop turn's records as
 * one group and never waits to post the next; when a commit ends, this thread takes EVERY group queued
 * meanwhile (`receiveMessageOnPort`) into the next transaction at once. The disk never waits for the main
 * thread to notice a commit and start another, and each commit carries everything that arrived during the
 * previous one.
 *
 * Prefix rule: once a commit fails, every later group is refused without being written, until the main thread
 * says `reset` (after its recovery probe); so the durable journal is always a prefix of the log.
 */
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { InvariantError } from "../errors.js";
import { openBinaryDb, openEnvironment, type RootEnv } from "./environment.js";
import { journalKey } from "./keys.js";

/** The journal's database (journal.ts JOURNAL_DB; not imported: journal.ts starts this thread). */
const JOURNAL_DB = "journal";

/** Bytes of a packed record's header: height u32 ‖ seq u32 ‖ length u32, little-endian. */
export const GROUP_RECORD_HEADER_BYTES = 12;

/** Requests to the writer thread. */
export type JournalWriterRequest =
  /** commit the records packed in `packed` (packGroup) */
  | { kind: "group"; id: number; packed: ArrayBuffer }
  /** take groups again after a failure (the main thread's probe succeeded) */
  | { kind: "reset" }
  /** close the environment handle and end the thread */
  | { kind: "close" };

/**
 * The outcome of every group up to and including `upTo` (ids are posted in increasing order): `groups` of
 * them shared one commit of `ms` milliseconds (the transaction and its flush).
 */
export type JournalWriterReply =
  | { upTo: number; groups: number; ms: number; ok: true }
  | { upTo: number; groups: number; ms: number; ok: false; error: string };

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

function serve(): void {
  const port = parentPort;
  if (port === null) throw new InvariantError("journalWriterTask runs as a worker thread");
  const { path } = workerData as { path: string };
  const env: RootEnv = openEnvironment(path);
  const db = openBinaryDb(env, JOURNAL_DB);
  /** why the last commit failed; later groups are refused until `reset` */
  let failure: string | undefined;

  /** Commit these groups in one transaction (or refuse them after a failure) and answer for all of them. */
  const commit = (groups: { id: number; packed: ArrayBuffer }[]): void => {
    if (groups.length === 0) return;
    const upTo = groups[groups.length - 1]!.id;
    const started = performance.now();
    if (failure === undefined) {
      try {
        env.transactionSync(() => {
          for (const g of groups)
            forEachPacked(new Uint8Array(g.packed), (height, seq, bytes) => {
              db.putSync(journalKey(height, seq), bytes);
            });
        });
      } catch (e) {
        failure = e instanceof Error ? e.message : String(e);
      }
    }
    const head = { upTo, groups: groups.length, ms: performance.now() - started };
    const reply: JournalWriterReply =
      failure === undefined ? { ...head, ok: true } : { ...head, ok: false, error: failure };
    port.postMessage(reply);
  };

  port.on("message", (first: JournalWriterRequest) => {
    // this request and every one queued behind it, handled in order; consecutive groups share a commit
    let groups: { id: number; packed: ArrayBuffer }[] = [];
    let request: JournalWriterRequest | undefined = first;
    while (request !== undefined) {
      if (request.kind === "group") groups.push(request);
      else {
        commit(groups);
        groups = [];
        if (request.kind === "reset") failure = undefined;
        else {
          void env.close().then(() => {
            // lmdb-js keeps handles of its own alive in this thread; in a worker, exit ends only the thread
            process.exit(0);
          });
          return;
        }
      }
      request = receiveMessageOnPort(port)?.message as JournalWriterRequest | undefined;
    }
    commit(groups);
  });
}

if (parentPort !== null && (workerData as { journalWriter?: boolean } | null)?.journalWriter === true) serve();
