/**
 * The process list: everything accepted into the open block, built up incrementally as messages are
 * applied, so the block close only has to hash and save (DESIGN §3). Pure state; the rules that fill it
 * are in rules.ts.
 */
import { ByteWriter, toHex } from "../protocol/bytes.js";
import { type Commit, chainCommitView, entryCommitView } from "../protocol/commit.js";
import { markerMinute, minuteMarker } from "../protocol/eblock.js";
import { type ECBlockItem, writeECBlockItem } from "../protocol/ecblock.js";
import { ENTRY_CHAIN_ID_OFFSET } from "../protocol/entry.js";
import type { Transaction } from "../protocol/transaction.js";
import type { PaidCommit } from "../store/records.js";
import { ByteArena } from "./byteArena.js";
import { MINUTES_PER_BLOCK } from "./constants.js";
import { IncrementalMerkle } from "./merkleBuilder.js";

/** A commit accepted into the open block. Its byte fields are views of the process list's arena. */
export interface PendingCommit {
  commit: Commit;
  txId: Uint8Array;
  fullHash: Uint8Array;
  /** arrival, ms since epoch */
  timeMs: number;
  /** index among the EC block items */
  ecIndex: number;
}

/**
 * An entry revealed (and paid) in the open block. Byte fields are views of the process list's arena; the
 * decoded entry is not kept (decode `raw` where its fields are needed).
 */
export interface RevealedEntry {
  entryHash: Uint8Array;
  raw: Uint8Array;
  /** the entry's chain ID (a view of `raw`) */
  chainId: Uint8Array;
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
  /**
   * balance changes of the block, entry credits, by public key hex; `saved`: the key's saved balance as the
   * rules read it for this block (it does not change while the block is open: read once, rules.ts ecAck)
   */
  readonly ecDelta = new Map<string, { publicKey: Uint8Array; delta: bigint; saved: bigint | undefined }>();
  /** paid-commit records written in this block, by entry hash hex */
  readonly paidCommits = new Map<string, { entryHash: Uint8Array; record: PaidCommit }>();
  /** chains created in this block (chain ID hex) */
  readonly newChains = new Set<string>();
  /** the bytes of the commits and entries above (byteArena.ts) */
  readonly arena = new ByteArena();
  /** journal sequences of this height, in log order */
  readonly journalSeqs: number[] = [];
  /**
   * base units per entry credit this block pays when a rate change starts at it (a cluster's announced rate,
   * cluster/ecRate.ts); undefined: the previous block's rate (`openRate`)
   */
  exchangeRate: bigint | undefined = undefined;
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

  /**
   * Append a commit and its paid-commit record (charging is the caller's job). The commit is kept as a
   * view of a copy of its bytes in the arena, with `record.txId` the arena's copy of `txId`. `hex`: the txid,
   * full hash and entry hash in hex when the caller has them (the maps' keys; else made here).
   */
  addCommit(
    commit: Commit,
    txId: Uint8Array,
    fullHash: Uint8Array,
    timeMs: number,
    record: PaidCommit,
    hex?: { txId: string; fullHash: string; entryHash: string },
  ): PendingCommit {
    const raw = this.arena.copy(commit.raw);
    const kept = commit.kind === "chain" ? chainCommitView(raw) : entryCommitView(raw);
    const p: PendingCommit = {
      commit: kept,
      txId: this.arena.copy(txId),
      fullHash: this.arena.copy(fullHash),
      timeMs,
      ecIndex: this.ecItems.length,
    };
    this.addECItem(
      kept.kind === "chain" ? { type: "chainCommit", commit: kept } : { type: "entryCommit", commit: kept },
    );
    this.commits.push(p);
    this.commitsByHash.set(hex?.txId ?? toHex(p.txId), p);
    this.commitsByHash.set(hex?.fullHash ?? toHex(p.fullHash), p);
    // Stryker disable next-line StringLiteral: both hold the same 32 bytes (record's are the commit's); memory only
    const chainIdHash = kept.kind === "chain" ? kept.chainIdHash : record.chainIdHash;
    this.paidCommits.set(hex?.entryHash ?? toHex(kept.entryHash), {
      entryHash: kept.entryHash,
      record: { ...record, txId: p.txId, chainIdHash },
    });
    return p;
  }

  /**
   * Append a revealed entry (marshalled `raw`, its hash) to its chain's entry block, and mark the commit that
   * `paid` for it as revealed. The bytes are copied into the arena. `hex`: the entry hash and chain ID in hex
   * when the caller has them (the maps' keys; else made here).
   */
  addReveal(
    raw: Uint8Array,
    entryHash: Uint8Array,
    paid: PaidCommit,
    timeMs: number,
    hex?: { entryHash: string; chainId: string },
  ): RevealedEntry {
    const key = hex?.entryHash ?? toHex(entryHash);
    const kept = this.arena.copy(raw);
    const chainId = kept.subarray(ENTRY_CHAIN_ID_OFFSET, ENTRY_CHAIN_ID_OFFSET + 32);
    // the entry hash and txid of a commit of this block are in the arena already
    const own = this.paidCommits.get(key);
    const hash = own?.entryHash ?? this.arena.copy(entryHash);
    const commitTxId = own?.record.txId ?? this.arena.copy(paid.txId);
    const chainIdHash =
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: a copy or the original, the same bytes; memory only
      own?.record.chainIdHash ?? (paid.kind === "chain" ? this.arena.copy(paid.chainIdHash) : paid.chainIdHash);
    this.paidCommits.set(key, { entryHash: hash, record: { ...paid, txId: commitTxId, chainIdHash, revealed: true } });
    const newChain = paid.kind === "chain";
    const r: RevealedEntry = { entryHash: hash, raw: kept, chainId, commitTxId, timeMs };
    const chainKey = hex?.chainId ?? toHex(chainId);
    let eb = this.entryBlocks.get(chainKey);
    if (eb === undefined) {
      eb = { chainId, items: [], merkle: new IncrementalMerkle(), newChain };
      this.entryBlocks.set(chainKey, eb);
    }
    if (newChain) this.newChains.add(chainKey);
    eb.items.push(hash);
    eb.merkle.add(hash);
    r.block = eb;
    this.reveals.push(r);
    this.revealsByHash.set(key, r);
    return r;
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

  /**
   * Add `delta` entry credits to an EC key (`key`: its hex, when the caller has it; `saved`: its saved balance,
   * when the caller read it, kept for the block's later reads).
   */
  changeEC(publicKey: Uint8Array, delta: bigint, key = toHex(publicKey), saved?: bigint): void {
    const d = this.ecDelta.get(key);
    if (d === undefined) this.ecDelta.set(key, { publicKey, delta, saved });
    else {
      d.delta += delta;
      if (d.saved === undefined && saved !== undefined) d.saved = saved;
    }
  }

  /**
   * End of minute `minute` (0-based): marker minute+1 into every open entry block whose last item is not
   * already a marker, and the EC block minute item (wire-format §6.4).
   */
  endMinute(timeMs: number): void {
    const marker = minuteMarker(this.minute + 1);
    for (const eb of this.entryBlocks.values()) {
      // an open entry block is created with its first entry, so it always has a last item
      const last = eb.items[eb.items.length - 1]!;
      if (markerMinute(last) === 0) {
        eb.items.push(marker);
        eb.merkle.add(marker);
      }
    }
    this.addECItem({ type: "minute", number: this.minute + 1 });
    this.minute++;
    this.minuteStartMs = timeMs;
  }
}

/** The rate the open block pays, base units per entry credit: its own when a change starts at it, else the tip's. */
export function openRate(pl: Pick<ProcessList, "exchangeRate">, tip: { exchangeRate: bigint }): bigint {
  return pl.exchangeRate ?? tip.exchangeRate;
}
