/**
 * The process list: everything accepted into the open block, built up incrementally as messages are
 * applied, so the block close only has to hash and save (DESIGN §3). Pure state; the rules that fill it
 * are in rules.ts.
 */
import { ByteWriter, toHex } from "../protocol/bytes.js";
import type { Commit } from "../protocol/commit.js";
import { markerMinute, minuteMarker } from "../protocol/eblock.js";
import { type ECBlockItem, writeECBlockItem } from "../protocol/ecblock.js";
import type { Entry } from "../protocol/entry.js";
import type { Transaction } from "../protocol/transaction.js";
import type { PaidCommit } from "../store/records.js";
import { MINUTES_PER_BLOCK } from "./constants.js";
import { IncrementalMerkle } from "./merkleBuilder.js";

/** A commit accepted into the open block. */
export interface PendingCommit {
  commit: Commit;
  txId: Uint8Array;
  fullHash: Uint8Array;
  /** arrival, ms since epoch */
  timeMs: number;
  /** index among the EC block items */
  ecIndex: number;
}

/** An entry revealed (and paid) in the open block. */
export interface RevealedEntry {
  entryHash: Uint8Array;
  raw: Uint8Array;
  entry: Entry;
  /** txid of the commit that paid for it */
  commitTxId: Uint8Array;
  /** arrival of the reveal, ms since epoch */
  timeMs: number;
  /** the entry block it went into (set by addReveal) */
  block?: OpenEntryBlock;
}

/** An asset transaction accepted into the open block. */
export interface AcceptedTransaction {
  tx: Transaction;
  txId: Uint8Array;
  fullHash: Uint8Array;
  timeMs: number;
  /** position among the asset block's transactions, set when the block closes */
  blockIndex?: number;
}

/** An entry block being built for one chain. */
export interface OpenEntryBlock {
  chainId: Uint8Array;
  /** entry hashes and minute markers, in order */
  items: Uint8Array[];
  /** Merkle root of `items`, built as they arrive */
  merkle: IncrementalMerkle;
  /** true when this block creates the chain */
  newChain: boolean;
  /** keyMR, set when the block closes */
  keyMR?: Uint8Array;
}

/**
 * The asset block period (0..9) a transaction accepted during `minute` (0-based) lands in. factomd's
 * FactoidState.EndOfPeriod ignores minute 0, so marker k (1..9) closes minute k: minutes 0 and 1 share
 * period 0, minute m ≥ 1 fills period m − 1, and period 9 stays empty (wire-format §5.5).
 */
export function periodOfMinute(minute: number): number {
  return Math.max(0, minute - 1);
}

/** First allocation of a block's EC body, bytes (~30 commits of 137 bytes; it doubles as needed). */
const EC_BODY_INITIAL_BYTES = 4096;

export class ProcessList {
  /** current minute, 0..9 */
  minute = 0;
  /** start of the current minute, ms since epoch */
  minuteStartMs: number;
  readonly entryBlocks = new Map<string, OpenEntryBlock>();
  readonly ecItems: ECBlockItem[] = [];
  /** the EC block body so far (ecItems encoded as they arrive, so the close does not encode them) */
  readonly ecBody = new ByteWriter(EC_BODY_INITIAL_BYTES);
  /** transactions per period, without the coinbase (added at the close) */
  readonly periods: AcceptedTransaction[][] = Array.from({ length: MINUTES_PER_BLOCK }, () => []);
  /** by txid hex and by full hash hex */
  readonly commitsByHash = new Map<string, PendingCommit>();
  readonly commits: PendingCommit[] = [];
  /** latest reveal per entry hash hex */
  readonly revealsByHash = new Map<string, RevealedEntry>();
  readonly reveals: RevealedEntry[] = [];
  /** by txid hex and by full hash hex */
  readonly transactionsByHash = new Map<string, AcceptedTransaction>();
  readonly transactions: AcceptedTransaction[] = [];
  /** balance changes of the block, base units, by RCD hash hex */
  readonly assetDelta = new Map<string, { address: Uint8Array; delta: bigint }>();
  /** balance changes of the block, entry credits, by public key hex */
  readonly ecDelta = new Map<string, { publicKey: Uint8Array; delta: bigint }>();
  /** paid-commit records written in this block, by entry hash hex */
  readonly paidCommits = new Map<string, { entryHash: Uint8Array; record: PaidCommit }>();
  /** chains created in this block (chain ID hex) */
  readonly newChains = new Set<string>();
  /** journal sequences of this height, in log order */
  readonly journalSeqs: number[] = [];
  /** sequence of the next journal record of this height (sequences restart at 0 for each height) */
  nextSeq = 0;

  constructor(
    /** directory block height being built */
    readonly height: number,
    /** block start, ms since epoch */
    public startMs: number,
  ) {
    this.minuteStartMs = startMs;
  }

  /** Append a commit (charging is the caller's job). */
  addCommit(commit: Commit, txId: Uint8Array, fullHash: Uint8Array, timeMs: number): PendingCommit {
    const p: PendingCommit = { commit, txId, fullHash, timeMs, ecIndex: this.ecItems.length };
    this.addECItem(commit.kind === "chain" ? { type: "chainCommit", commit } : { type: "entryCommit", commit });
    this.commits.push(p);
    this.commitsByHash.set(toHex(txId), p);
    this.commitsByHash.set(toHex(fullHash), p);
    return p;
  }

  /** Append a revealed entry to its chain's entry block. */
  addReveal(r: RevealedEntry, newChain: boolean): void {
    const key = toHex(r.entry.chainId);
    let eb = this.entryBlocks.get(key);
    if (eb === undefined) {
      eb = { chainId: r.entry.chainId, items: [], merkle: new IncrementalMerkle(), newChain };
      this.entryBlocks.set(key, eb);
    }
    if (newChain) this.newChains.add(key);
    eb.items.push(r.entryHash);
    eb.merkle.add(r.entryHash);
    r.block = eb;
    this.reveals.push(r);
    this.revealsByHash.set(toHex(r.entryHash), r);
  }

  private addECItem(item: ECBlockItem): void {
    writeECBlockItem(this.ecBody, item, this.ecItems.length);
    this.ecItems.push(item);
  }

  addTransaction(t: AcceptedTransaction): void {
    this.periods[periodOfMinute(this.minute)]!.push(t);
    this.transactions.push(t);
    this.transactionsByHash.set(toHex(t.txId), t);
    this.transactionsByHash.set(toHex(t.fullHash), t);
  }

  /** Add `delta` base units to an asset address. */
  changeAsset(address: Uint8Array, delta: bigint): void {
    const key = toHex(address);
    const d = this.assetDelta.get(key);
    if (d === undefined) this.assetDelta.set(key, { address, delta });
    else d.delta += delta;
  }

  /** Add `delta` entry credits to an EC key. */
  changeEC(publicKey: Uint8Array, delta: bigint): void {
    const key = toHex(publicKey);
    const d = this.ecDelta.get(key);
    if (d === undefined) this.ecDelta.set(key, { publicKey, delta });
    else d.delta += delta;
  }

  /**
   * End of minute `minute` (0-based): marker minute+1 into every open entry block whose last item is not
   * already a marker, and the EC block minute item (wire-format §6.4).
   */
  endMinute(timeMs: number): void {
    const marker = minuteMarker(this.minute + 1);
    for (const eb of this.entryBlocks.values()) {
      const last = eb.items[eb.items.length - 1];
      if (last !== undefined && markerMinute(last) === 0) {
        eb.items.push(marker);
        eb.merkle.add(marker);
      }
    }
    this.addECItem({ type: "minute", number: this.minute + 1 });
    this.minute++;
    this.minuteStartMs = timeMs;
  }
}
