/**
 * Saved state: what the last saved block says, read through the block being saved first (`closing`),
 * then the store. A block is visible to the rules from the moment it closes, and to readers once its
 * close marker is durable (close.ts `PreClose`), not only once its LMDB transaction commits (docs/ledger.md §5).
 */
import { toHex } from "../protocol/bytes.js";
import type { BlockKind } from "../store/keys.js";
import type { ChainHead, CommitLocation, EntryLocation, PaidCommit, TransactionLocation } from "../store/records.js";
import type { LedgerStore } from "../store/store.js";
import type { ClosedBlockSet } from "./blockBuilder.js";
import type { ProcessList } from "./processList.js";
import { RecentPaidCommits } from "./recentPaidCommits.js";

/** The read half of the store: all the saved state needs (a replaying follower opens the same store). */
export type SavedStore = Pick<
  LedgerStore,
  | "block"
  | "blockHashAt"
  | "entryRaw"
  | "entryLocation"
  | "transactionLocation"
  | "commitLocation"
  | "paidCommit"
  | "chainHead"
  | "assetBalance"
  | "ecBalance"
>;

/** A saved block's bytes, found by its primary or secondary hash. */
export interface SavedBlock {
  kind: BlockKind;
  raw: Uint8Array;
  primary: Uint8Array;
}

/**
 * A closed block whose LMDB transaction has not committed yet. Reads fall through to it before the
 * store, so the block, its indexes and balances are visible from the moment it closes.
 */
export interface Closing {
  pl: ProcessList;
  closed: ClosedBlockSet;
  /** blocks by primary and secondary hash hex */
  blocks: Map<string, SavedBlock>;
  /** `${kind}/${height}` → primary hash */
  heights: Map<string, Uint8Array>;
  chainHeads: Map<string, ChainHead>;
  assetBalances: Map<string, bigint>;
  ecBalances: Map<string, bigint>;
  coinbaseTxId: string;
  /** resolves when the block set is committed and flushed; rejects when the save failed */
  saved: Promise<void>;
}

/** The closing overlay of block set `closed` (built from `pl`), whose save is `saved`. */
export function closingOf(pl: ProcessList, closed: ClosedBlockSet, saved: Promise<void>): Closing {
  const w = closed.write;
  const blocks = new Map<string, SavedBlock>();
  const heights = new Map<string, Uint8Array>();
  for (const b of w.blocks) {
    const v = { kind: b.kind, raw: b.raw, primary: b.primary };
    blocks.set(toHex(b.primary), v);
    if (b.secondary !== undefined) blocks.set(toHex(b.secondary), v);
    if (b.height !== undefined) heights.set(`${b.kind}/${b.height}`, b.primary);
  }
  const coinbase = closed.write.transactions[0]!.keys[0]!;
  return {
    pl,
    closed,
    blocks,
    heights,
    chainHeads: new Map(w.chainHeads.map((h) => [toHex(h.chainId), h.head])),
    assetBalances: new Map(w.assetBalances.map((a) => [toHex(a.address), a.balance])),
    ecBalances: new Map(w.ecBalances.map((a) => [toHex(a.publicKey), a.balance])),
    coinbaseTxId: toHex(coinbase),
    // its rejection is handled by the writer that queued the save; waiters see it through this promise
    saved,
  };
}

/**
 * Chains remembered as saved (`chainExists`), chain ID hex. A reveal asked the store for its chain's head (an
 * LMDB read and the head's decode: ~2.4 % of a write-loaded main thread, perf, issue 35) when all the rules
 * need is whether the chain exists — and a chain the store has stays there: blocks are only added. At ~90
 * bytes a key, 16,384 chains hold ~1.5 MiB; past that the set starts again (a miss only reads the store).
 */
export const KNOWN_CHAINS_LIMIT = 16_384;

/** Lookups of saved state: the block being saved first, then the store. */
export class SavedState {
  /** the last closed block while its asynchronous save is in flight (the writer sets and clears it) */
  closing: Closing | undefined;

  constructor(
    private readonly store: SavedStore,
    /** chain IDs (hex) the store was seen to have: shared by copies, as the store is */
    private readonly knownChains: Set<string> = new Set(),
    /**
     * the entry hashes whose saved paid commits may be live (recentPaidCommits.ts): the closer adds each block's
     * at its close. Shared by copies, as the store is; without a bound it says nothing and the store answers
     */
    readonly recentPaid: RecentPaidCommits = new RecentPaidCommits(undefined),
  ) {}

  /** The same lookups, over the same store and the current `closing` overlay, unaffected by later closes. */
  copy(): SavedState {
    const s = new SavedState(this.store, this.knownChains, this.recentPaid);
    s.closing = this.closing;
    return s;
  }

  /**
   * Whether the saved state has chain `chainId` (`hex` in hex): `chainHead(chainId) !== undefined`, with the
   * store's yes remembered (KNOWN_CHAINS_LIMIT).
   */
  chainExists(chainId: Uint8Array, hex: string): boolean {
    if (this.knownChains.has(hex)) return true;
    if (this.closing?.chainHeads.has(hex)) return true;
    if (this.store.chainHead(chainId) === undefined) return false;
    if (this.knownChains.size >= KNOWN_CHAINS_LIMIT) this.knownChains.clear();
    this.knownChains.add(hex);
    return true;
  }

  paidCommit(hash: Uint8Array): PaidCommit | undefined {
    return this.closing?.pl.paidCommit(hash) ?? this.store.paidCommit(hash);
  }

  /**
   * `paidCommit(hash)` for a caller that only uses a commit live at `nowMs` (ms; COMMIT_LIFETIME_MS after its
   * timestamp): undefined without reading the store when no saved paid commit of `hash` can be live then
   * (recentPaidCommits.ts). A record it does return may still be dead: the caller checks.
   */
  paidCommitLiveAt(hash: Uint8Array, nowMs: number): PaidCommit | undefined {
    const closing = this.closing?.pl.paidCommit(hash);
    if (closing !== undefined) return closing;
    // Stryker disable next-line ConditionalExpression: without the filter the store answers the same; it only spares the read
    if (this.recentPaid.noneLive(hash, nowMs)) return undefined;
    return this.store.paidCommit(hash);
  }
  chainHead(chainId: Uint8Array): ChainHead | undefined {
    return this.closing?.chainHeads.get(toHex(chainId)) ?? this.store.chainHead(chainId);
  }
  assetBalance(address: Uint8Array): bigint | undefined {
    return this.closing?.assetBalances.get(toHex(address)) ?? this.store.assetBalance(address);
  }
  ecBalance(publicKey: Uint8Array, hex?: string): bigint | undefined {
    return this.closing?.ecBalances.get(hex ?? toHex(publicKey)) ?? this.store.ecBalance(publicKey);
  }
  transactionLocation(hash: Uint8Array): TransactionLocation | undefined {
    const c = this.closing;
    if (c !== undefined) {
      const hex = toHex(hash);
      const t = c.pl.transactionsByHash.get(hex);
      const index = t !== undefined ? t.blockIndex : hex === c.coinbaseTxId ? 0 : undefined;
      if (index !== undefined) return { assetBlockKeyMR: c.closed.tip.assetKeyMR, height: c.pl.height, index };
    }
    return this.store.transactionLocation(hash);
  }
  commitLocation(hash: Uint8Array): CommitLocation | undefined {
    const c = this.closing;
    if (c !== undefined) {
      const index = c.pl.commitIndexOf(hash);
      if (index >= 0)
        return {
          ecBlockHeaderHash: c.closed.tip.ecHeaderHash,
          height: c.pl.height,
          index: c.pl.commitKeysAt(index).ecIndex,
        };
    }
    return this.store.commitLocation(hash);
  }
  entryLocation(hash: Uint8Array): EntryLocation | undefined {
    const c = this.closing;
    if (c !== undefined) {
      const r = c.pl.revealByHash(hash);
      if (r !== undefined) return { entryBlockKeyMR: r.block.keyMR!, height: c.pl.height, commitTxId: r.commitTxId };
    }
    return this.store.entryLocation(hash);
  }
  entryRaw(hash: Uint8Array): Uint8Array | undefined {
    return this.closing?.pl.revealByHash(hash)?.raw ?? this.store.entryRaw(hash);
  }
  block(hash: Uint8Array): SavedBlock | undefined {
    return this.closing?.blocks.get(toHex(hash)) ?? this.store.block(hash);
  }
  blockHashAt(kind: BlockKind, height: number): Uint8Array | undefined {
    return this.closing?.heights.get(`${kind}/${height}`) ?? this.store.blockHashAt(kind, height);
  }
}
