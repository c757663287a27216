/**
 * The ledger's read side: blocks, entries, transactions, commits, receipts, balances, acks and pending
 * items, answered from the open block (process list, holding queue) and the saved state. It only reads
 * a LedgerView (state.ts), so a node that only replays the log — a follower — serves the same reads by
 * building one over its own state: `new LedgerQueries(view)`.
 */
import type { AdminBlock } from "../protocol/ablock.js";
import { decodeAdminBlock } from "../protocol/ablock.js";
import { bytesEqual, toHex } from "../protocol/bytes.js";
import { type Commit, commitTxId } from "../protocol/commit.js";
import { type DirectoryBlock, decodeDirectoryBlock } from "../protocol/dblock.js";
import { decodeEntryBlock, type EntryBlock } from "../protocol/eblock.js";
import { decodeECBlock, type ECBlock } from "../protocol/ecblock.js";
import { type Entry, unmarshalEntry } from "../protocol/entry.js";
import { type AssetBlock, assetBlockTransactions, decodeAssetBlock, emptyCoinbase } from "../protocol/fblock.js";
import { buildReceipt, type Receipt } from "../protocol/receipt.js";
import { type Transaction, transactionFeeEC, transactionId } from "../protocol/transaction.js";
import { BlockKind } from "../store/keys.js";
import {
  AckStatus,
  type Balance,
  type CommitAck,
  type EntryAck,
  type Heights,
  type ItemLocation,
  type LedgerApi,
  type PendingEntry,
  type PendingTransaction,
  type Stored,
  type TransactionAck,
} from "./api.js";
import type { ChainTip } from "./blockBuilder.js";
import { MS_PER_TIMESTAMP_MINUTE } from "./constants.js";
import { DecodedBlockCache } from "./decodedBlockCache.js";
import type { LedgerView } from "./state.js";

/**
 * Decoded saved directory blocks kept (LRU). Each `entry`, `transaction`, `commit`, `receipt` and
 * `dblock-by-height` read needs one; 64 covers the recent blocks that most reads hit. A directory block
 * is at most 64 B per entry, so 4 MiB of raw bytes is a bound that never binds on today's chains.
 * Without it `entry` served ~5,900 req/s, 95 % of it re-decoding the same block (docs/performance.md §Reads).
 */
const DIRECTORY_BLOCK_CACHE = { maxBlocks: 64, maxRawBytes: 4 * 1024 * 1024 } as const;
/**
 * Decoded saved entry-credit blocks kept (LRU) for `ack`, `commit` and `transaction` of saved commits,
 * which otherwise parse every commit of the block per call (12–30 ms on a 10,000-commit block). The byte
 * bound (a 10,000-commit block is ~1.4 MB raw, a few times that decoded) keeps the heap cost under ~100 MB.
 */
const EC_BLOCK_CACHE = { maxBlocks: 64, maxRawBytes: 16 * 1024 * 1024 } as const;

/**
 * Decoded saved entry blocks kept (LRU) for `entry-block`, whose answer rpc/ remembers per decoded block
 * (viewCache.ts): a miss reads, decodes and answers the block again. 8 MiB of raw bytes (~250,000 entry hashes;
 * decoded and answered, a few times that in heap) holds the recent blocks of busy chains; 1,024 blocks the recent
 * ones of many small chains. An LRU read in a cycle larger than its budget misses every time: at 4 MiB, the quiet
 * `make bench` of 2026-11-25 09:21 (150,000 entries saved) read entry blocks at 1,408 µs CPU each, all misses,
 * against ~20 µs when they fit (docs/performance.md §Reads); a miss no longer re-hashes the body's Merkle tree
 * (`entryBlockByHash`).
 */
const ENTRY_BLOCK_CACHE = { maxBlocks: 1024, maxRawBytes: 8 * 1024 * 1024 } as const;

/** Heights whose block hash is remembered (hashAt): 32 B + a key each, ~1 MiB in all. */
const MAX_REMEMBERED_HEIGHTS = 8192;

/**
 * Saved chain heads remembered for the tip they were read under (`chainHead`): a 64-character key and a 32-byte
 * keyMR each, ~0.2 KiB with the map entry; 4,096 chains is ~1 MiB. Oldest first out.
 */
const MAX_REMEMBERED_CHAIN_HEADS = 4096;

/** A saved block as the caches keep it: decoded, with its bytes. Each cache holds blocks of one kind. */
interface CachedBlock<B> {
  block: B;
  raw: Uint8Array;
}

/** The reads of LedgerApi: everything but the writes and the node's clock and producing state. */
export type LedgerReads = Omit<
  LedgerApi,
  "submitCommit" | "submitReveal" | "submitTransaction" | "writeOutcomes" | "currentMinute" | "isBooted"
>;

/**
 * Reads over a LedgerView. Hashes are raw bytes; a hash that is not 32 bytes finds nothing (the ledger
 * answers any caller, not only rpc/, which checks the length at the edge too).
 */
export class LedgerQueries implements LedgerReads {
  private readonly directoryBlockCache = new DecodedBlockCache<CachedBlock<DirectoryBlock>>(DIRECTORY_BLOCK_CACHE);
  private readonly ecBlockCache = new DecodedBlockCache<CachedBlock<ECBlock>>(EC_BLOCK_CACHE);
  private readonly entryBlockCache = new DecodedBlockCache<CachedBlock<EntryBlock>>(ENTRY_BLOCK_CACHE);
  /** `${kind}/${height}` → primary hash of committed heights (hashAt) */
  private readonly heightHashes = new Map<string, Uint8Array>();
  /** chain ID hex → keyMR of the chain's saved head (null: no saved head), as read under `chainHeadsTip` */
  private readonly chainHeads = new Map<string, Uint8Array | null>();
  /** the tip the remembered chain heads were read under */
  private chainHeadsTip: ChainTip | undefined;

  constructor(private readonly view: LedgerView) {}

  // ───────────────────────────── node state ─────────────────────────────

  heights(): Heights {
    const saved = this.view.tip.height;
    return { directoryBlockHeight: saved, leaderHeight: saved + 1, entryBlockHeight: saved, entryHeight: saved };
  }

  entryCreditRate(): bigint {
    return this.view.pl.exchangeRate ?? this.view.tip.exchangeRate;
  }

  // ───────────────────────────── blocks ─────────────────────────────

  /**
   * The saved block `hash` of `kind`, decoded. With a cache: a block found in the store is committed and
   * never changes, so it is remembered by the hash asked for (primary or secondary), with its bytes and kind,
   * and later reads of it touch neither the store nor the decoder (the store read copies the whole block:
   * ~20 % of a `dblock-by-height` or `entry-block` read). A block still being saved (`saved.closing`) is
   * decoded per read and not remembered: its save may yet fail.
   */
  private stored<B>(
    hash: Uint8Array | undefined,
    kind: BlockKind,
    decode: (raw: Uint8Array) => B,
    cache?: DecodedBlockCache<CachedBlock<B>>,
  ): Stored<B> | undefined {
    if (hash === undefined || hash.length !== 32) return undefined;
    const key = cache === undefined ? "" : toHex(hash);
    const hit = cache?.peek(key);
    // only a block of `kind` was put in `cache` (below), so a hit is one
    if (hit !== undefined) return { block: hit.block, raw: hit.raw };
    const b = this.view.saved.block(hash);
    if (b === undefined || b.kind !== kind) return undefined;
    if (cache === undefined || this.view.saved.closing?.blocks.has(key) === true)
      return { block: decode(b.raw), raw: b.raw };
    const c = cache.get(key, b.raw, (raw) => ({ block: decode(raw), raw }));
    return { block: c.block, raw: c.raw };
  }

  /**
   * Primary hash of the saved block of `kind` at `height`. Heights already committed are remembered (a
   * height's block never changes; MAX_REMEMBERED_HEIGHTS, oldest first out); the block being saved is not.
   */
  private hashAt(kind: BlockKind, height: number): Uint8Array | undefined {
    const key = `${kind}/${height}`;
    const known = this.heightHashes.get(key);
    if (known !== undefined) return known;
    const hash = this.view.saved.blockHashAt(kind, height);
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,BooleanLiteral: what is remembered changes only the cost: a committed height's hash never changes, a block whose save fails is closed again byte for byte (ledger.ts accept)
    if (hash === undefined || this.view.saved.closing?.heights.has(key) === true) return hash;
    // Stryker disable next-line all: the bound caps memory only; an evicted height is read from the store again
    if (this.heightHashes.size >= MAX_REMEMBERED_HEIGHTS)
      this.heightHashes.delete(this.heightHashes.keys().next().value!);
    this.heightHashes.set(key, hash);
    return hash;
  }

  directoryBlockHead(): Stored<DirectoryBlock> {
    return this.directoryBlockByHeight(this.view.tip.height)!;
  }
  directoryBlockByHeight(height: number): Stored<DirectoryBlock> | undefined {
    return this.stored(
      this.hashAt(BlockKind.directory, height),
      BlockKind.directory,
      decodeDirectoryBlock,
      this.directoryBlockCache,
    );
  }
  directoryBlockByHash(hash: Uint8Array): Stored<DirectoryBlock> | undefined {
    return this.stored(hash, BlockKind.directory, decodeDirectoryBlock, this.directoryBlockCache);
  }
  adminBlockByHeight(height: number): Stored<AdminBlock> | undefined {
    return this.stored(this.hashAt(BlockKind.admin, height), BlockKind.admin, decodeAdminBlock);
  }
  adminBlockByHash(hash: Uint8Array): Stored<AdminBlock> | undefined {
    return this.stored(hash, BlockKind.admin, decodeAdminBlock);
  }
  ecBlockByHeight(height: number): Stored<ECBlock> | undefined {
    return this.stored(this.hashAt(BlockKind.ec, height), BlockKind.ec, decodeECBlock, this.ecBlockCache);
  }
  ecBlockByHash(hash: Uint8Array): Stored<ECBlock> | undefined {
    return this.stored(hash, BlockKind.ec, decodeECBlock, this.ecBlockCache);
  }
  assetBlockByHeight(height: number): Stored<AssetBlock> | undefined {
    return this.stored(this.hashAt(BlockKind.asset, height), BlockKind.asset, decodeAssetBlock);
  }
  assetBlockByHash(hash: Uint8Array): Stored<AssetBlock> | undefined {
    return this.stored(hash, BlockKind.asset, decodeAssetBlock);
  }
  /**
   * A saved entry block, decoded without re-proving its body Merkle root: the block is found by its keyMR or full
   * hash, which this node's close computed over these very bytes (blockBuilder.ts) before it saved them, and no
   * other saved record is re-derived on read either (an entry is not re-hashed against its key). The check was
   * ~90 % of a read that misses the cache: ~0.7 of ~1.1 ms for a 750-entry block (docs/performance.md §Reads).
   */
  entryBlockByHash(hash: Uint8Array): Stored<EntryBlock> | undefined {
    return this.stored(hash, BlockKind.entry, decodeSavedEntryBlock, this.entryBlockCache);
  }
  /** A saved entry block's bytes, as `stored` finds them (a decoded block's when one is kept), not decoded. */
  entryBlockBytes(hash: Uint8Array): { raw: Uint8Array; committed: boolean } | undefined {
    if (hash.length !== 32) return undefined;
    const key = toHex(hash);
    const kept = this.entryBlockCache.peek(key);
    // only committed blocks are kept (`stored`)
    if (kept !== undefined) return { raw: kept.raw, committed: true };
    const b = this.view.saved.block(hash);
    if (b === undefined || b.kind !== BlockKind.entry) return undefined;
    return { raw: b.raw, committed: this.view.saved.closing?.blocks.has(key) !== true };
  }

  /** Location of something saved in `blockKeyMR` at directory block `height`. */
  private location(blockKeyMR: Uint8Array, height: number): ItemLocation | undefined {
    const d = this.directoryBlockByHeight(height);
    if (d === undefined) return undefined;
    const hash = this.hashAt(BlockKind.directory, height)!;
    return {
      blockKeyMR,
      directoryBlockKeyMR: hash,
      directoryBlockHeight: height,
      blockTimeMs: d.block.timestamp * MS_PER_TIMESTAMP_MINUTE,
    };
  }

  // ───────────────────────────── entries, chains, transactions ─────────────────────────────

  entry(hash: Uint8Array): { entry: Entry; raw: Uint8Array; location?: ItemLocation; committed?: boolean } | undefined {
    if (hash.length !== 32) return undefined;
    const { pl, saved } = this.view;
    // An entry's bytes and its location are saved in the same transaction (store.ts blockSetRecords), and the
    // block being saved answers both from memory: the bytes alone say the entry is saved. The location (a store
    // read and a directory block lookup, ~30 % of an `entry` read that does not use it) is found when asked
    // (`transaction` asks), once.
    const raw = saved.entryRaw(hash);
    if (raw !== undefined) {
      const queries = this;
      let location: ItemLocation | undefined | null = null;
      const closing = saved.closing;
      return {
        entry: unmarshalEntry(raw),
        raw,
        committed: closing === undefined || !closing.pl.hasReveal(hash),
        get location(): ItemLocation | undefined {
          if (location === null) {
            const loc = saved.entryLocation(hash);
            location = loc === undefined ? undefined : queries.location(loc.entryBlockKeyMR, loc.height);
          }
          return location;
        },
      };
    }
    const pending = pl.revealByHash(hash);
    if (pending !== undefined) return { entry: unmarshalEntry(pending.raw), raw: pending.raw };
    return undefined;
  }

  /**
   * The keyMR of the chain's saved head and whether the open block holds the chain. The saved head is remembered
   * for the tip it was read under: the saved state a reader sees changes only with the tip it sees — a close
   * shows its block (tip and `closing` overlay together, in one turn; close.ts), a save that commits stores what
   * the overlay already showed, a recovery replaces both (ledger.ts `reload`) — so a new tip forgets every
   * remembered head, and the head of a chain extended by a block is read again in the turn that block becomes
   * visible (with the store read and decode per call this was 775 ns a call, 250 ns now: docs/performance.md
   * §Reads).
   * The same keyMR object is returned while it is remembered. Whether the open block holds the chain is read
   * per call (it changes with every first entry of a chain in the block). `hex`: `chainId` in lower-case hex,
   * when the caller has it (the remembered heads and the open block are keyed so).
   */
  chainHead(chainId: Uint8Array, hex?: string): { head: Uint8Array | undefined; inProcessList: boolean } {
    if (chainId.length !== 32) return { head: undefined, inProcessList: false };
    const view = this.view;
    const key = hex ?? toHex(chainId);
    const tip = view.tip;
    if (tip !== this.chainHeadsTip) {
      this.chainHeads.clear();
      this.chainHeadsTip = tip;
    }
    let head = this.chainHeads.get(key);
    if (head === undefined) {
      head = view.saved.chainHead(chainId)?.keyMR ?? null;
      // Stryker disable next-line all: the bound caps memory only; a forgotten head is read from the store again
      if (this.chainHeads.size >= MAX_REMEMBERED_CHAIN_HEADS)
        this.chainHeads.delete(this.chainHeads.keys().next().value!);
      this.chainHeads.set(key, head);
    }
    return { head: head ?? undefined, inProcessList: view.pl.entryBlocks.has(key) };
  }

  transaction(hash: Uint8Array): { tx: Transaction; location?: ItemLocation } | undefined {
    if (hash.length !== 32) return undefined;
    const pending = this.view.pl.transactionsByHash.get(toHex(hash));
    if (pending !== undefined) return { tx: pending.tx };
    const loc = this.view.saved.transactionLocation(hash);
    if (loc === undefined) return undefined;
    const block = this.assetBlockByHash(loc.assetBlockKeyMR);
    const tx = block && assetBlockTransactions(block.block)[loc.index];
    if (tx === undefined) return undefined;
    const location = this.location(loc.assetBlockKeyMR, loc.height);
    return { tx, ...(location ? { location } : {}) };
  }

  commit(hash: Uint8Array): { commit: Commit; location?: ItemLocation } | undefined {
    if (hash.length !== 32) return undefined;
    const pending = this.view.pl.commitByHash(hash);
    if (pending !== undefined) return { commit: pending.commit };
    const saved = this.savedCommit(hash);
    if (saved === undefined) return undefined;
    return { commit: saved.commit, ...(saved.location ? { location: saved.location } : {}) };
  }

  private savedCommit(hash: Uint8Array): { commit: Commit; location: ItemLocation | undefined } | undefined {
    const loc = this.view.saved.commitLocation(hash);
    if (loc === undefined) return undefined;
    const block = this.ecBlockByHash(loc.ecBlockHeaderHash);
    const item = block?.block.items[loc.index];
    if (item === undefined || (item.type !== "entryCommit" && item.type !== "chainCommit")) return undefined;
    return { commit: item.commit, location: this.location(loc.ecBlockHeaderHash, loc.height) };
  }

  receipt(hash: Uint8Array): Receipt | undefined {
    if (hash.length !== 32) return undefined;
    const loc = this.view.saved.entryLocation(hash);
    if (loc === undefined) return undefined;
    const eblock = this.entryBlockByHash(loc.entryBlockKeyMR);
    const dblock = this.directoryBlockByHeight(loc.height);
    if (eblock === undefined || dblock === undefined) return undefined;
    return buildReceipt(hash, eblock.block, dblock.block);
  }

  // ───────────────────────────── balances ─────────────────────────────

  /** `hex`: `publicKey` in lower-case hex, when the caller has it (the open block's map is keyed so) */
  ecBalance(publicKey: Uint8Array, hex: string = toHex(publicKey)): Balance {
    return balance(this.view.saved.ecBalance(publicKey), this.view.pl.ecDelta.get(hex)?.delta);
  }

  /** `hex`: `rcdHash` in lower-case hex, when the caller has it (the open block's map is keyed so) */
  assetBalance(rcdHash: Uint8Array, hex: string = toHex(rcdHash)): Balance {
    return balance(this.view.saved.assetBalance(rcdHash), this.view.pl.assetDelta.get(hex)?.delta);
  }

  // ───────────────────────────── acks and pending ─────────────────────────────

  commitAck(hash: Uint8Array): CommitAck {
    if (hash.length !== 32) return { status: AckStatus.Unknown };
    const pending = this.view.pl.commitByHash(hash);
    if (pending !== undefined)
      return {
        status: AckStatus.TransactionACK,
        transactionTimeMs: pending.commit.milliTime,
        commit: pending.commit,
        txId: pending.txId,
      };
    const saved = this.savedCommit(hash);
    if (saved === undefined) return { status: AckStatus.Unknown };
    return {
      status: AckStatus.DBlockConfirmed,
      transactionTimeMs: saved.commit.milliTime,
      ...(saved.location ? { blockTimeMs: saved.location.blockTimeMs } : {}),
      commit: saved.commit,
      txId: commitTxId(saved.commit),
    };
  }

  entryAck(hash: Uint8Array): { commit: CommitAck; entry: EntryAck } {
    if (hash.length !== 32)
      return { commit: { status: AckStatus.Unknown }, entry: { status: AckStatus.Unknown, entryHash: hash } };
    const { pl, saved, holding } = this.view;
    let entry: EntryAck;
    let commitTxIdOfEntry: Uint8Array | undefined;
    const loc = saved.entryLocation(hash);
    const pending = pl.revealByHash(hash);
    const held = holding.get(hash);
    if (pending !== undefined) {
      entry = {
        status: AckStatus.TransactionACK,
        blockTimeMs: pending.timeMs,
        entryHash: hash,
        chainId: pending.chainId,
      };
      commitTxIdOfEntry = pending.commitTxId;
    } else if (loc !== undefined) {
      const location = this.location(loc.entryBlockKeyMR, loc.height);
      const raw = saved.entryRaw(hash);
      entry = {
        status: AckStatus.DBlockConfirmed,
        ...(location ? { blockTimeMs: location.blockTimeMs } : {}),
        entryHash: hash,
        ...(raw ? { chainId: raw.slice(1, 33) } : {}),
      };
      commitTxIdOfEntry = loc.commitTxId;
    } else if (held !== undefined) {
      entry = {
        status: AckStatus.NotConfirmed,
        blockTimeMs: held.arrivalMs,
        entryHash: hash,
        chainId: held.entry.chainId,
      };
    } else {
      entry = { status: AckStatus.Unknown, entryHash: hash };
    }
    // A newer (unrevealed, greater) commit counts over the one that paid an earlier reveal.
    const paid = pl.paidCommit(hash) ?? saved.paidCommit(hash);
    const txId = paid !== undefined && !paid.revealed ? paid.txId : (commitTxIdOfEntry ?? paid?.txId);
    const commit = txId === undefined ? { status: AckStatus.Unknown } : this.commitAck(txId);
    return { commit, entry };
  }

  transactionAck(hash: Uint8Array): TransactionAck {
    // a hash that is not 32 bytes is in no process list, and `transaction` finds nothing for it
    const pending = this.view.pl.transactionsByHash.get(toHex(hash));
    if (pending !== undefined)
      return { status: AckStatus.TransactionACK, transactionTimeMs: pending.tx.milliTimestamp, txId: pending.txId };
    const saved = this.transaction(hash);
    if (saved === undefined) return { status: AckStatus.Unknown, txId: hash };
    return {
      status: AckStatus.DBlockConfirmed,
      transactionTimeMs: saved.tx.milliTimestamp,
      ...(saved.location ? { blockTimeMs: saved.location.blockTimeMs } : {}),
      txId: transactionId(saved.tx),
    };
  }

  pendingEntries(): PendingEntry[] {
    const { pl, holding } = this.view;
    const out = new Map<string, PendingEntry>();
    for (let i = 0; i < pl.commitCount; i++) {
      const c = pl.commitAt(i);
      const k = toHex(c.commit.entryHash);
      if (!out.has(k))
        out.set(k, {
          entryHash: c.commit.entryHash,
          chainId: pl.revealByHash(c.commit.entryHash)?.chainId,
          status: AckStatus.TransactionACK,
        });
    }
    for (let i = 0; i < pl.revealCount; i++) {
      const r = pl.revealAt(i);
      const k = toHex(r.entryHash);
      // a reveal whose commit is listed above has its chain ID already (revealByHash finds every reveal)
      if (!out.has(k)) out.set(k, { entryHash: r.entryHash, chainId: r.chainId, status: AckStatus.TransactionACK });
    }
    for (const h of holding.list()) {
      const k = toHex(h.entryHash);
      if (!out.has(k)) out.set(k, { entryHash: h.entryHash, chainId: h.entry.chainId, status: AckStatus.NotConfirmed });
    }
    return [...out.values()];
  }

  pendingTransactions(rcdHash?: Uint8Array): PendingTransaction[] {
    const { pl, tip } = this.view;
    const rate = pl.exchangeRate ?? tip.exchangeRate;
    const out: PendingTransaction[] = [];
    if (rcdHash === undefined) {
      // The reference lists the open block's coinbase first (api-behavior §9.1).
      const coinbase = emptyCoinbase(pl.startMs);
      out.push({
        transaction: coinbase,
        txId: transactionId(coinbase),
        status: AckStatus.TransactionACK,
        feeBaseUnits: 0n,
      });
    }
    for (const t of pl.transactions) {
      const tx = t.tx;
      if (
        rcdHash !== undefined &&
        ![...tx.inputs, ...tx.outputs, ...tx.ecOutputs].some((io) => bytesEqual(io.address, rcdHash))
      )
        continue;
      out.push({
        transaction: tx,
        txId: t.txId,
        status: AckStatus.TransactionACK,
        feeBaseUnits: BigInt(transactionFeeEC(tx)) * rate,
      });
    }
    return out;
  }
}

/** A saved entry block's bytes, decoded (its body Merkle root not re-proved: `entryBlockByHash`). */
function decodeSavedEntryBlock(raw: Uint8Array): EntryBlock {
  // Stryker disable next-line all: re-proving the root of a block this node saved changes only the cost
  return decodeEntryBlock(raw, { verifyBodyMR: false });
}

/** A balance from its saved value and the open block's change (either may be absent). */
function balance(saved: bigint | undefined, delta: bigint | undefined): Balance {
  return {
    saved: saved ?? 0n,
    ack: (saved ?? 0n) + (delta ?? 0n),
    seen: saved !== undefined || delta !== undefined,
  };
}
