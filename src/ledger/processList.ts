/**
 * The process list: everything accepted into the open block, built up incrementally as messages are
 * applied, so the block close only has to hash and save (DESIGN §3). Pure state; the rules that fill it
 * are in rules.ts.
 */
import { ByteWriter, toHex } from "../protocol/bytes.js";
import { CHAIN_COMMIT_SIZE, type Commit, chainCommitView, entryCommitView } from "../protocol/commit.js";
import { DigestIndex } from "../protocol/digestIndex.js";
import { markerMinute, minuteMarker } from "../protocol/eblock.js";
import { ECID, writeECBlockItem } from "../protocol/ecblock.js";
import { ENTRY_CHAIN_ID_OFFSET } from "../protocol/entry.js";
import type { Transaction } from "../protocol/transaction.js";
import type { PaidCommit } from "../store/records.js";
import type { EntryWrite } from "../store/store.js";
import { ByteArena } from "./byteArena.js";
import { MINUTES_PER_BLOCK } from "./constants.js";
import { IncrementalMerkle } from "./merkleBuilder.js";

/** A commit accepted into the open block, as read back (made on each read; the list keeps bytes and numbers). */
export interface PendingCommit {
  commit: Commit;
  txId: Uint8Array;
  fullHash: Uint8Array;
  /** arrival, ms since epoch */
  timeMs: number;
  /** index among the EC block items */
  ecIndex: number;
}

/** An entry revealed (and paid) in the open block, as read back (made on each read). */
export interface RevealedEntry {
  entryHash: Uint8Array;
  raw: Uint8Array;
  /** the entry's chain ID (a view of `raw`) */
  chainId: Uint8Array;
  /** txid of the commit that paid for it */
  commitTxId: Uint8Array;
  /** arrival of the reveal, ms since epoch */
  timeMs: number;
  /** the entry block it went into */
  block: OpenEntryBlock;
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

/** Entry-block items (entry hashes and minute markers) the body is sized for at first; it doubles as needed. */
const ENTRY_BLOCK_INITIAL_ITEMS = 16;

/** An entry block being built for one chain: its items in one byte array, their Merkle root as they arrive. */
export class OpenEntryBlock {
  /** Merkle root of the items, built as they arrive */
  readonly merkle = new IncrementalMerkle();
  /** keyMR, set when the block closes */
  keyMR?: Uint8Array;
  private body = new Uint8Array(32 * ENTRY_BLOCK_INITIAL_ITEMS);
  private count = 0;

  constructor(
    readonly chainId: Uint8Array,
    /** true when this block creates the chain */
    readonly newChain: boolean,
  ) {}

  /** Items so far. */
  get itemCount(): number {
    return this.count;
  }

  /** Append a 32-byte item (an entry hash or a minute marker). */
  add(item: Uint8Array): void {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: growing sooner (or at every item) is memory only
    if (this.body.length < (this.count + 1) * 32) {
      const grown = new Uint8Array(this.body.length * 2);
      grown.set(this.body);
      this.body = grown;
    }
    this.body.set(item, this.count * 32);
    this.count++;
    this.merkle.add(item);
  }

  /** Is the last item a minute marker (31 zero bytes, then 1..10)? False for an empty block. */
  endsWithMarker(): boolean {
    // an empty block's last item is the empty view, which markerMinute reads as no marker
    return markerMinute(this.body.subarray((this.count - 1) * 32, this.count * 32)) !== 0;
  }

  /** The items, in order: a view of the block's own bytes (ItemCount × 32). */
  itemBytes(): Uint8Array {
    return this.body.subarray(0, this.count * 32);
  }

  /** The items as 32-byte views (for reading; the close encodes `itemBytes`). */
  items(): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.body.subarray(i * 32, (i + 1) * 32));
    return out;
  }
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

/** Bytes of a paid-commit region: the paying commit's txid ‖ its chain ID hash (zeros for an entry commit). */
const PAID_REGION_BYTES = 64;

/**
 * The open block's commits, paid commits and reveals are kept as bytes in the arena and numbers in columns
 * (arrays of numbers, which hold no heap object per element), found through digest tables: a busy block holds
 * ~50,000 entries, and the objects, views and hex keys it kept per entry (~14 objects and 4 strings) were
 * promoted and then marked by every full collection until the block's save (issue 35, change 19). Reads make
 * the PendingCommit, RevealedEntry and PaidCommit objects they return.
 */
export class ProcessList {
  /** current minute, 0..9 */
  minute = 0;
  /** start of the current minute, ms since epoch */
  minuteStartMs: number;
  /** open entry blocks by chain ID hex, in the order their first entries came */
  readonly entryBlocks = new Map<string, OpenEntryBlock>();
  /** EC block items so far (commits and minute markers) */
  ecItemCount = 0;
  /** the EC block body so far (its items encoded as they arrive, so the close does not encode them) */
  readonly ecBody = new ByteWriter(EC_BODY_INITIAL_BYTES);
  /** transactions per period, without the coinbase (added at the close) */
  readonly periods: AcceptedTransaction[][] = Array.from({ length: MINUTES_PER_BLOCK }, () => []);
  /** by txid hex and by full hash hex */
  readonly transactionsByHash = new Map<string, AcceptedTransaction>();
  readonly transactions: AcceptedTransaction[] = [];
  /** balance changes of the block, base units, by RCD hash hex */
  readonly assetDelta = new Map<string, { address: Uint8Array; delta: bigint }>();
  /**
   * balance changes of the block, entry credits, by public key hex; `saved`: the key's saved balance as the
   * rules read it for this block (it does not change while the block is open: read once, rules.ts ecAck)
   */
  readonly ecDelta = new Map<string, { publicKey: Uint8Array; delta: bigint; saved: bigint | undefined }>();
  /** chains created in this block (chain ID hex) */
  readonly newChains = new Set<string>();
  /** journal sequences of this height, in log order */
  readonly journalSeqs: number[] = [];
  /**
   * base units per entry credit this block pays when a rate change starts at it (a cluster's announced rate,
   * cluster/ecRate.ts); undefined: the previous block's rate (`openRate`)
   */
  exchangeRate: bigint | undefined = undefined;
  /** sequence of the next journal record of this height (sequences restart at 0 for each height) */
  nextSeq = 0;

  /** the bytes of the commits, entries and paid records below */
  private readonly arena = new ByteArena();

  // commits, by index (arrival order)
  /** txid and full hash → commit index */
  private readonly commitKeys = new DigestIndex();
  /** arena region: the commit's bytes ‖ txid ‖ full hash */
  private readonly commitRegion: number[] = [];
  /** the commit's size, bytes: ENTRY_COMMIT_SIZE or CHAIN_COMMIT_SIZE */
  private readonly commitSize: number[] = [];
  private readonly commitTime: number[] = [];
  private readonly commitEcIndex: number[] = [];

  // paid-commit records written in this block, by slot: the slot is the entry hash's id in `paidKeys`
  private readonly paidKeys = new DigestIndex();
  // Stryker disable ArrayDeclaration: a column starting with an element holds it at slot 0 only until the first
  // slot's `setPaid` (and `paidSlot`, for `paidReveal`) writes there; slots are given from 0
  /** 1: a chain commit, 0: an entry commit */
  private readonly paidChain: number[] = [];
  private readonly paidCredits: number[] = [];
  /** 1: revealed */
  private readonly paidRevealed: number[] = [];
  private readonly paidHeight: number[] = [];
  private readonly paidMilliTime: number[] = [];
  /** arena region: txid ‖ chain ID hash (PAID_REGION_BYTES) */
  private readonly paidRegion: number[] = [];
  /** the slot's latest reveal in this block (its index), -1: none */
  private readonly paidReveal: number[] = [];
  // Stryker restore ArrayDeclaration

  // reveals, by index (arrival order)
  /** arena region: the entry's bytes ‖ the paying commit's txid */
  private readonly revealRegion: number[] = [];
  private readonly revealSize: number[] = [];
  private readonly revealTime: number[] = [];
  /** the entry hash's slot in `paidKeys` */
  private readonly revealSlot: number[] = [];
  private readonly revealBlock: OpenEntryBlock[] = [];

  constructor(
    /** directory block height being built */
    readonly height: number,
    /** block start, ms since epoch */
    public startMs: number,
  ) {
    this.minuteStartMs = startMs;
  }

  /** Commits accepted into the block. */
  get commitCount(): number {
    return this.commitRegion.length;
  }

  /** Reveals accepted into the block. */
  get revealCount(): number {
    return this.revealRegion.length;
  }

  /** Paid-commit records the block writes (one per entry hash). */
  get paidCommitCount(): number {
    return this.paidKeys.size;
  }

  /** Bytes the block's commits and entries hold. */
  get arenaBytes(): number {
    return this.arena.bytes;
  }

  /**
   * Append a commit and its paid-commit record (charging is the caller's job). The commit's bytes, `txId` and
   * `fullHash` are copied into the arena; `record` (its txid is `txId`) is stored as numbers and bytes.
   */
  addCommit(commit: Commit, txId: Uint8Array, fullHash: Uint8Array, timeMs: number, record: PaidCommit): void {
    const size = commit.raw.length;
    // the commit ‖ its txid ‖ its full hash
    const region = this.arena.reserve(size + 64);
    this.arena.write(region, 0, commit.raw);
    this.arena.write(region, size, txId);
    this.arena.write(region, size + 32, fullHash);
    const index = this.commitRegion.length;
    this.commitRegion.push(region);
    this.commitSize.push(size);
    this.commitTime.push(timeMs);
    this.commitEcIndex.push(this.ecItemCount);
    this.ecBody.u8(commit.kind === "chain" ? ECID.chainCommit : ECID.entryCommit).bytes(commit.raw);
    this.ecItemCount++;
    this.commitKeys.setValue(this.commitKeys.add(txId), index);
    this.commitKeys.setValue(this.commitKeys.add(fullHash), index);
    const slot = this.paidSlot(commit.entryHash);
    const paid = this.arena.reserve(PAID_REGION_BYTES);
    this.arena.write(paid, 0, txId);
    // the record's (rules.ts applyCommit: the chain commit's own, zeros for an entry commit)
    this.arena.write(paid, 32, record.chainIdHash);
    this.setPaid(slot, record, paid, record.revealed);
  }

  /**
   * Append a revealed entry (marshalled `raw`, its hash) to its chain's entry block, and mark the commit that
   * `paid` for it as revealed. The bytes are copied into the arena. `chainHex`: the entry's chain ID in hex
   * when the caller has it (the entry blocks' key; else made here).
   */
  addReveal(raw: Uint8Array, entryHash: Uint8Array, paid: PaidCommit, timeMs: number, chainHex?: string): void {
    const size = raw.length;
    const region = this.arena.reserve(size + 32);
    this.arena.write(region, 0, raw);
    this.arena.write(region, size, paid.txId);
    const existing = this.paidKeys.find(entryHash);
    const slot = this.paidSlot(entryHash);
    // a commit of this block keeps its region (the same txid and chain ID hash); a saved commit gets one
    let paidRegion: number;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a region of its own holds the same bytes (memory only)
    if (existing >= 0) paidRegion = this.paidRegion[slot]!;
    else {
      paidRegion = this.arena.reserve(PAID_REGION_BYTES);
      this.arena.write(paidRegion, 0, paid.txId);
      this.arena.write(paidRegion, 32, paid.chainIdHash);
    }
    this.setPaid(slot, paid, paidRegion, true);
    const newChain = paid.kind === "chain";
    const chainId = raw.subarray(ENTRY_CHAIN_ID_OFFSET, ENTRY_CHAIN_ID_OFFSET + 32);
    const chainKey = chainHex ?? toHex(chainId);
    let eb = this.entryBlocks.get(chainKey);
    if (eb === undefined) {
      eb = new OpenEntryBlock(this.arena.view(this.arena.copy(chainId), 0, 32), newChain);
      this.entryBlocks.set(chainKey, eb);
    }
    if (newChain) this.newChains.add(chainKey);
    eb.add(entryHash);
    const index = this.revealRegion.length;
    this.revealRegion.push(region);
    this.revealSize.push(size);
    this.revealTime.push(timeMs);
    this.revealSlot.push(slot);
    this.revealBlock.push(eb);
    this.paidReveal[slot] = index;
  }

  /**
   * The slot of `entryHash`'s paid record, added when it has none (`setPaid` fills it; the columns grow by
   * assignment at their end, which keeps them packed: slots are dense).
   */
  private paidSlot(entryHash: Uint8Array): number {
    const before = this.paidKeys.size;
    const slot = this.paidKeys.add(entryHash);
    if (this.paidKeys.size > before) this.paidReveal[slot] = -1;
    return slot;
  }

  private setPaid(slot: number, record: PaidCommit, region: number, revealed: boolean): void {
    this.paidChain[slot] = record.kind === "chain" ? 1 : 0;
    this.paidCredits[slot] = record.credits;
    this.paidRevealed[slot] = revealed ? 1 : 0;
    this.paidHeight[slot] = record.height;
    this.paidMilliTime[slot] = record.milliTime;
    this.paidRegion[slot] = region;
  }

  // ───────────────────────────── reads ─────────────────────────────

  /** Commit `index` (0 ≤ index < commitCount). */
  commitAt(index: number): PendingCommit {
    const region = this.commitRegion[index]!;
    const size = this.commitSize[index]!;
    const raw = this.arena.view(region, 0, size);
    return {
      commit: size === CHAIN_COMMIT_SIZE ? chainCommitView(raw) : entryCommitView(raw),
      txId: this.arena.view(region, size, 32),
      fullHash: this.arena.view(region, size + 32, 32),
      timeMs: this.commitTime[index]!,
      ecIndex: this.commitEcIndex[index]!,
    };
  }

  /** The index of the commit whose txid or full hash is `hash`, -1 when the block has none. */
  commitIndexOf(hash: Uint8Array): number {
    const id = this.commitKeys.find(hash);
    return id < 0 ? -1 : this.commitKeys.value(id);
  }

  /** The commit whose txid or full hash is `hash`. */
  commitByHash(hash: Uint8Array): PendingCommit | undefined {
    const index = this.commitIndexOf(hash);
    return index < 0 ? undefined : this.commitAt(index);
  }

  /** Commit `index`'s txid, full hash and EC block item index, without decoding it (the block's save). */
  commitKeysAt(index: number): { txId: Uint8Array; fullHash: Uint8Array; ecIndex: number } {
    const region = this.commitRegion[index]!;
    const size = this.commitSize[index]!;
    return {
      txId: this.arena.view(region, size, 32),
      fullHash: this.arena.view(region, size + 32, 32),
      ecIndex: this.commitEcIndex[index]!,
    };
  }

  /** Reveal `index` (0 ≤ index < revealCount). */
  revealAt(index: number): RevealedEntry {
    const region = this.revealRegion[index]!;
    const size = this.revealSize[index]!;
    const raw = this.arena.view(region, 0, size);
    return {
      entryHash: this.paidKeys.key(this.revealSlot[index]!),
      raw,
      chainId: raw.subarray(ENTRY_CHAIN_ID_OFFSET, ENTRY_CHAIN_ID_OFFSET + 32),
      commitTxId: this.arena.view(region, size, 32),
      timeMs: this.revealTime[index]!,
      block: this.revealBlock[index]!,
    };
  }

  /**
   * Reveal `index` as the block's save writes it: the entry, where it went (its entry block's keyMR, set by
   * the close) and the slot of its paid commit, which is its row among `paidCommitAt`'s.
   */
  entryWriteAt(index: number, height: number): EntryWrite {
    const region = this.revealRegion[index]!;
    const size = this.revealSize[index]!;
    const slot = this.revealSlot[index]!;
    return {
      entryHash: this.paidKeys.key(slot),
      raw: this.arena.view(region, 0, size),
      location: {
        entryBlockKeyMR: this.revealBlock[index]!.keyMR!,
        height,
        commitTxId: this.arena.view(region, size, 32),
      },
      paidRow: slot,
    };
  }

  /** The latest reveal of entry `entryHash` in the block. */
  revealByHash(entryHash: Uint8Array): RevealedEntry | undefined {
    const index = this.revealIndexOf(entryHash);
    return index < 0 ? undefined : this.revealAt(index);
  }

  /** Does the block reveal entry `entryHash`? */
  hasReveal(entryHash: Uint8Array): boolean {
    return this.revealIndexOf(entryHash) >= 0;
  }

  /** The index of the latest reveal of `entryHash` in the block, -1 when none. */
  private revealIndexOf(entryHash: Uint8Array): number {
    const slot = this.paidKeys.find(entryHash);
    return slot < 0 ? -1 : this.paidReveal[slot]!;
  }

  /** The paid-commit record the block writes for entry `entryHash`. */
  paidCommit(entryHash: Uint8Array): PaidCommit | undefined {
    const slot = this.paidKeys.find(entryHash);
    return slot < 0 ? undefined : this.paidRecordAt(slot);
  }

  /**
   * `fn` for every paid-commit record the block writes, in slot order: its entry hash at `bytes[at…at + 32)` (the
   * table's storage: read it during the call only) and its timestamp, ms (recentPaidCommits.ts, at the close).
   */
  forEachPaid(fn: (bytes: Uint8Array, at: number, milliTime: number) => void): void {
    const milliTime = this.paidMilliTime;
    this.paidKeys.forEachKey((bytes, at, slot) => fn(bytes, at, milliTime[slot]!));
  }

  /** Paid-commit record `slot` (0 ≤ slot < paidCommitCount) and its entry hash. */
  paidCommitAt(slot: number): { entryHash: Uint8Array; record: PaidCommit } {
    return { entryHash: this.paidKeys.key(slot), record: this.paidRecordAt(slot) };
  }

  private paidRecordAt(slot: number): PaidCommit {
    const region = this.paidRegion[slot]!;
    return {
      kind: this.paidChain[slot] === 1 ? "chain" : "entry",
      credits: this.paidCredits[slot]!,
      revealed: this.paidRevealed[slot] === 1,
      height: this.paidHeight[slot]!,
      milliTime: this.paidMilliTime[slot]!,
      txId: this.arena.view(region, 0, 32),
      chainIdHash: this.arena.view(region, 32, 32),
    };
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

  /**
   * Add `delta` entry credits to an EC key (`key`: its hex, when the caller has it; `saved`: its saved balance,
   * when the caller read it, kept for the block's later reads).
   */
  changeEC(publicKey: Uint8Array, delta: bigint, key = toHex(publicKey), saved?: bigint): void {
    const d = this.ecDelta.get(key);
    if (d === undefined) this.ecDelta.set(key, { publicKey, delta, saved });
    else {
      d.delta += delta;
      // Stryker disable next-line ConditionalExpression: undefined written over undefined changes nothing
      if (d.saved === undefined && saved !== undefined) d.saved = saved;
    }
  }

  /**
   * End of minute `minute` (0-based): marker minute+1 into every open entry block whose last item is not
   * already a marker, and the EC block minute item (wire-format §6.4).
   */
  endMinute(timeMs: number): void {
    const marker = minuteMarker(this.minute + 1);
    // an open entry block is created with its first entry, so it always has a last item
    for (const eb of this.entryBlocks.values()) if (!eb.endsWithMarker()) eb.add(marker);
    writeECBlockItem(this.ecBody, { type: "minute", number: this.minute + 1 }, this.ecItemCount);
    this.ecItemCount++;
    this.minute++;
    this.minuteStartMs = timeMs;
  }
}

/** The rate the open block pays, base units per entry credit: its own when a change starts at it, else the tip's. */
export function openRate(pl: Pick<ProcessList, "exchangeRate">, tip: { exchangeRate: bigint }): bigint {
  return pl.exchangeRate ?? tip.exchangeRate;
}
