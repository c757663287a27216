/**
 * Answers of saved entries, kept as answer bytes (jsonrpc.ts JsonText.remembered) by the hash text the client
 * sent (issue 16). An `entry` read costs two store reads, the entry's parse and its hex and JSON text (~24 µs
 * of CPU against ~11 µs for `heights`, docs/performance.md §Reads); a kept answer costs a map lookup, and its
 * bytes go to the socket with the id written in place. Explorers and clients following a chain read the same
 * recent entries over and over.
 *
 * Never stale: an entry's bytes are a pure function of its hash, and only entries in a block whose save has
 * committed are kept (`LedgerReads.entry` → `committed`): a saved entry is never removed, while a pending one may
 * still be dropped. Only texts that were valid hashes are keys, so every malformed param still gets its error.
 * Bounded by bytes (ENTRY_ANSWER_BYTES, oldest first out): no growth with the store or the traffic. Emptied
 * when the node goes quiet (idleRelease.ts).
 *
 * `chain-head` answers are kept the same way (CHAIN_HEAD_ANSWER_BYTES), but a chain's head moves: each is kept with
 * the ledger's answer it was built from and served only while the ledger still answers that (v2/entries.ts).
 */

import { type Releasable, releaseWhenIdle } from "../idleRelease.js";

/** What a kept answer tells the cache: the bytes it holds outside the JS heap (JsonText.heldBytes). */
export interface KeptAnswer {
  readonly heldBytes: number;
}

/**
 * A `chain-head` answer kept (v2/entries.ts) with the ledger's answer it was built from: it is served only while the
 * ledger still answers exactly that (the same head and process-list flag).
 */
export interface KeptChainHead<A extends KeptAnswer = KeptAnswer> extends KeptAnswer {
  /** the chain ID the kept text was parsed into */
  readonly chainId: Uint8Array;
  /** that chain ID in lower-case hex (the ledger's key for it: not made again per call) */
  readonly chainIdHex: string;
  readonly head: Uint8Array | undefined;
  readonly inProcessList: boolean;
  /** the answer (a remembered JsonText) */
  readonly answer: A;
}

/**
 * Bytes of kept entry answers, counted with their key and ~400 B of per-answer objects (the map entry, the
 * JsonText, the Buffer and its backing store). 8 MiB holds ~13,000 entries of the bench's 283-byte answers,
 * or ~400 of the largest (10 KiB of content: ~20 KB of hex); it is ~4 % of the 200 MB at-rest RSS target.
 */
export const ENTRY_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * Bytes of kept `chain-head` answers (v2/entries.ts), counted as above: ~960 B per chain (a ~100-byte answer, its
 * 64-character key, the chain ID, its hex and the head), so 2 MiB holds ~2,200 chains.
 */
export const CHAIN_HEAD_ANSWER_BYTES = 2 * 1024 * 1024;

/**
 * Bytes of kept `entry-block` answers (v2/blocks.ts), counted as above: ~95 B per entry of the block and ~600 B
 * per block, so 32 MiB holds ~19,000 blocks of 12 entries, ~9,500 of 32, or ~230 of 1,400 (the bench's busiest);
 * an answer over 2 MiB (~22,000 entries) is built per call. 16 MiB did not hold the 5,000 blocks of a 1,000-chain
 * store (mean 3.4 KB): read in a cycle, every read missed (docs/performance.md §Reads). ~8 % of the 400-MB peak
 * target, and nothing at rest: emptied when the node goes quiet.
 */
export const ENTRY_BLOCK_ANSWER_BYTES = 32 * 1024 * 1024;

/** Estimated bytes of the objects around one kept answer (map entry, JsonText, Buffer, backing store). */
const PER_ANSWER_OVERHEAD = 400;

export class AnswerCache<V extends KeptAnswer = KeptAnswer> implements Releasable {
  private readonly answers = new Map<string, { view: V; bytes: number }>();
  private bytes = 0;

  /** @param maxBytes budget of kept answers, bytes (counted as above) */
  constructor(private readonly maxBytes: number = ENTRY_ANSWER_BYTES) {
    releaseWhenIdle(this);
  }

  /** Drop every kept answer (the node went quiet: idleRelease.ts); later reads build them again. */
  releaseHeld(): void {
    this.answers.clear();
    this.bytes = 0;
  }

  /** The answer kept for `key`, if any. */
  get(key: string): V | undefined {
    return this.answers.get(key)?.view;
  }

  /**
   * Keep `view` (a remembered JsonText) as the answer for `key`. An answer over a sixteenth of the budget is not
   * kept (one huge entry must not push out hundreds of small ones); the oldest answers go to make room.
   */
  set(key: string, view: V): void {
    if (this.answers.has(key)) return;
    const bytes = view.heldBytes + 2 * key.length + PER_ANSWER_OVERHEAD;
    if (bytes > this.maxBytes / 16) return;
    for (const [oldest, kept] of this.answers) {
      if (this.bytes + bytes <= this.maxBytes) break;
      this.answers.delete(oldest);
      this.bytes -= kept.bytes;
    }
    this.answers.set(key, { view, bytes });
    this.bytes += bytes;
  }

  /** Forget the answer kept for `key` (an answer that a later state of the ledger replaces). */
  delete(key: string): void {
    const kept = this.answers.get(key);
    if (kept === undefined) return;
    this.answers.delete(key);
    this.bytes -= kept.bytes;
  }

  /** Answers kept and the bytes they count (for tests and the docs' measurements). */
  get size(): { answers: number; bytes: number } {
    return { answers: this.answers.size, bytes: this.bytes };
  }
}

/**
 * The last `heights` answer (v2/node.ts), kept as answer bytes with the four heights it says: sent again while the
 * ledger (and the cluster) report the same ones, i.e. until the next block is shown. A read then costs no JSON text
 * of the answer and no UTF-8 copy of it (~0.5 µs of ~9 µs per request; docs/performance.md §Reads, change 28).
 */
export class KeptHeights<A extends KeptAnswer = KeptAnswer> {
  private directoryBlockHeight = -1;
  private leaderHeight = -1;
  private entryBlockHeight = -1;
  private entryHeight = -1;
  private answer: A | undefined;

  /** The answer kept for exactly these heights, if any. */
  get(
    directoryBlockHeight: number,
    leaderHeight: number,
    entryBlockHeight: number,
    entryHeight: number,
  ): A | undefined {
    return this.directoryBlockHeight === directoryBlockHeight &&
      this.leaderHeight === leaderHeight &&
      this.entryBlockHeight === entryBlockHeight &&
      this.entryHeight === entryHeight
      ? this.answer
      : undefined;
  }

  /** Keep `answer` as the answer for these heights (the one kept before is dropped). */
  set(
    directoryBlockHeight: number,
    leaderHeight: number,
    entryBlockHeight: number,
    entryHeight: number,
    answer: A,
  ): void {
    this.directoryBlockHeight = directoryBlockHeight;
    this.leaderHeight = leaderHeight;
    this.entryBlockHeight = entryBlockHeight;
    this.entryHeight = entryHeight;
    this.answer = answer;
  }
}
