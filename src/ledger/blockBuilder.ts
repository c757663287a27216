/**
 * Block close (DESIGN §3): turns the process list of the open block into the five block kinds, computes
 * every hash, and describes everything to save as one BlockSetWrite. Deterministic: chains are sorted by
 * chain ID, entries/commits/transactions keep log order, and every time comes from the log.
 */

import { signEd25519 } from "../crypto/ed25519.js";
import {
  type AdminBlock,
  type AdminEntry,
  adminBlockHashes,
  decodeAdminBlock,
  encodeAdminBlock,
} from "../protocol/ablock.js";
import { toHex, ZERO_HASH } from "../protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, DIRECTORY_CHAIN_ID, EC_CHAIN_ID } from "../protocol/chains.js";
import {
  buildDirectoryBlock,
  type DirectoryBlock,
  decodeDirectoryBlock,
  directoryBlockHashes,
  encodeDirectoryBlock,
  encodeDirectoryBlockHeader,
} from "../protocol/dblock.js";
import { ENTRY_BLOCK_HEADER_SIZE, type EntryBlock, encodeEntryBlockWithBody } from "../protocol/eblock.js";
import {
  decodeECBlock,
  type ECBlock,
  ecBlockHashes,
  ecBlockHashesOfSaved,
  encodeECBlock,
  encodeECBlockWithBody,
} from "../protocol/ecblock.js";
import {
  type AssetBlock,
  assetBlockHashes,
  assetBlockTransactions,
  buildAssetBlock,
  decodeAssetBlock,
  emptyCoinbase,
  encodeAssetBlock,
} from "../protocol/fblock.js";
import type { GenesisBlocks } from "../protocol/genesis.js";
import { sha256 } from "../protocol/hash.js";
import { merkleParent } from "../protocol/merkle.js";
import { type Transaction, transactionFullHash, transactionId } from "../protocol/transaction.js";
import { BlockKind } from "../store/keys.js";
import type { ChainHead, CommitLocation, PaidCommit } from "../store/records.js";
import type { BlockSetWrite, EntryWrite, RowList } from "../store/store.js";
import { MS_PER_TIMESTAMP_MINUTE } from "./constants.js";
import type { ProcessList } from "./processList.js";

/** What the next block links to: the last saved block of each kind, with its hashes. */
export interface ChainTip {
  height: number;
  directory: DirectoryBlock;
  directoryKeyMR: Uint8Array;
  directoryFullHash: Uint8Array;
  adminLookupHash: Uint8Array;
  adminBackRefHash: Uint8Array;
  ecHeaderHash: Uint8Array;
  ecFullHash: Uint8Array;
  assetKeyMR: Uint8Array;
  assetLedgerKeyMR: Uint8Array;
  /** base units per entry credit, from the last asset block */
  exchangeRate: bigint;
}

/** The key that signs directory blocks (on LOCAL the bootstrap server). */
export interface BlockSigner {
  identityChainId: Uint8Array;
  seed: Uint8Array;
  publicKey: Uint8Array;
}

/** The tip described by the four system blocks of one height. */
export function tipFromBlocks(directory: DirectoryBlock, admin: AdminBlock, ec: ECBlock, asset: AssetBlock): ChainTip {
  return tipOf(directory, admin, ecBlockHashes(ec), asset);
}

function tipOf(
  directory: DirectoryBlock,
  admin: AdminBlock,
  e: { headerHash: Uint8Array; fullHash: Uint8Array },
  asset: AssetBlock,
): ChainTip {
  const d = directoryBlockHashes(directory);
  const a = adminBlockHashes(admin);
  const f = assetBlockHashes(asset);
  return {
    height: directory.dbHeight,
    directory,
    directoryKeyMR: d.keyMR,
    directoryFullHash: d.fullHash,
    adminLookupHash: a.lookupHash,
    adminBackRefHash: a.backReferenceHash,
    ecHeaderHash: e.headerHash,
    ecFullHash: e.fullHash,
    assetKeyMR: f.keyMR,
    assetLedgerKeyMR: f.ledgerKeyMR,
    exchangeRate: asset.exchangeRate,
  };
}

/** Decode the four raw system blocks of one height into a tip. */
export function tipFromRaw(raw: {
  directory: Uint8Array;
  admin: Uint8Array;
  ec: Uint8Array;
  asset: Uint8Array;
}): ChainTip {
  return tipFromBlocks(
    decodeDirectoryBlock(raw.directory),
    decodeAdminBlock(raw.admin),
    decodeECBlock(raw.ec),
    decodeAssetBlock(raw.asset),
  );
}

/**
 * tipFromRaw for the blocks this node saved itself (bootstrap.ts loadTip, every start): the EC block's hashes
 * from its bytes, its items not decoded (protocol/ecblock.ts ecBlockHashesOfSaved; a full block's tip was
 * 0.1–0.3 s of the start). The same tip: the saved bytes are the node's own encoding.
 */
export function tipFromSavedRaw(raw: {
  directory: Uint8Array;
  admin: Uint8Array;
  ec: Uint8Array;
  asset: Uint8Array;
}): ChainTip {
  return tipOf(
    decodeDirectoryBlock(raw.directory),
    decodeAdminBlock(raw.admin),
    ecBlockHashesOfSaved(raw.ec),
    decodeAssetBlock(raw.asset),
  );
}

/** The four system blocks plus the chain-head records of the system chains. */
function systemWrites(
  height: number,
  blocks: { directory: DirectoryBlock; admin: AdminBlock; ec: ECBlock | Uint8Array; asset: AssetBlock },
  tip: ChainTip,
): Pick<BlockSetWrite, "blocks" | "chainHeads"> {
  return {
    blocks: [
      {
        kind: BlockKind.directory,
        primary: tip.directoryKeyMR,
        secondary: tip.directoryFullHash,
        raw: encodeDirectoryBlock(blocks.directory),
        height,
      },
      {
        kind: BlockKind.admin,
        primary: tip.adminLookupHash,
        secondary: tip.adminBackRefHash,
        raw: encodeAdminBlock(blocks.admin),
        height,
      },
      {
        kind: BlockKind.ec,
        primary: tip.ecHeaderHash,
        secondary: tip.ecFullHash,
        raw: blocks.ec instanceof Uint8Array ? blocks.ec : encodeECBlock(blocks.ec),
        height,
      },
      {
        kind: BlockKind.asset,
        primary: tip.assetKeyMR,
        secondary: tip.assetLedgerKeyMR,
        raw: encodeAssetBlock(blocks.asset),
        height,
      },
    ],
    chainHeads: [
      {
        chainId: DIRECTORY_CHAIN_ID,
        head: { keyMR: tip.directoryKeyMR, fullHash: tip.directoryFullHash, sequence: height, height },
      },
      {
        chainId: ADMIN_CHAIN_ID,
        head: { keyMR: tip.adminLookupHash, fullHash: tip.adminBackRefHash, sequence: height, height },
      },
      { chainId: EC_CHAIN_ID, head: { keyMR: tip.ecHeaderHash, fullHash: tip.ecFullHash, sequence: height, height } },
      {
        chainId: ASSET_CHAIN_ID,
        head: { keyMR: tip.assetKeyMR, fullHash: tip.assetLedgerKeyMR, sequence: height, height },
      },
    ],
  };
}

/**
 * Location records of the genesis transactions, by id and by full hash. A coinbase's id and full hash are the
 * same hash (no RCDs, no signatures): its record is put twice in the one transaction, which stores it once.
 * No commit locations: a genesis EC block holds no commit (genesis.ts: a server index and minute markers on
 * MAIN, nothing on the other networks).
 */
function genesisLocations(tip: ChainTip, txs: Transaction[]): Pick<BlockSetWrite, "transactions" | "commits"> {
  const transactions = txs.map((tx, index) => ({
    keys: [transactionId(tx), transactionFullHash(tx)],
    location: { assetBlockKeyMR: tip.assetKeyMR, height: 0, index },
  }));
  return { transactions, commits: [] };
}

/**
 * Apply the genesis asset block's transactions to balances without fee or signature checks: inputs debit,
 * outputs credit. No entry credits: no genesis pays EC outputs (MAIN's, TEST's and LOCAL's fixed blocks have
 * none, wire-format §6.3; a CUSTOM genesis pays asset allocations only, genesis.ts).
 */
function genesisBalances(txs: Transaction[]): Pick<BlockSetWrite, "assetBalances" | "ecBalances"> {
  const asset = new Map<string, { address: Uint8Array; balance: bigint }>();
  const add = (address: Uint8Array, delta: bigint): void => {
    const k = toHex(address);
    const cur = asset.get(k) ?? { address, balance: 0n };
    cur.balance += delta;
    asset.set(k, cur);
  };
  for (const tx of txs) {
    for (const i of tx.inputs) add(i.address, -i.amount);
    for (const o of tx.outputs) add(o.address, o.amount);
  }
  return { assetBalances: [...asset.values()], ecBalances: [] };
}

/** The block set of a network's genesis (height 0). `openBlockStartMs` starts block 1. */
export function genesisBlockSet(
  genesis: GenesisBlocks,
  openBlockStartMs: number,
): { write: BlockSetWrite; tip: ChainTip } {
  const tip = tipFromBlocks(genesis.directory, genesis.admin, genesis.ec, genesis.asset);
  const txs = assetBlockTransactions(genesis.asset);
  const write: BlockSetWrite = {
    height: 0,
    openBlockStartMs,
    ...systemWrites(0, genesis, tip),
    ...genesisLocations(tip, txs),
    ...genesisBalances(txs),
    entries: [],
    paidCommits: [],
    journalCarry: [],
  };
  return { write, tip };
}

/** Inputs of the close besides the process list. */
export interface CloseInputs {
  tip: ChainTip;
  signer: BlockSigner;
  networkId: number;
  /** saved chain head (for prev links and sequence) */
  chainHead(chainId: Uint8Array): ChainHead | undefined;
  /** saved balances (to turn the block's deltas into absolute values) */
  assetBalance(address: Uint8Array): bigint | undefined;
  ecBalance(publicKey: Uint8Array): bigint | undefined;
  /** start of the next block = time of the end of minute 10, ms since epoch */
  nextStartMs: number;
  /** held reveals carried into the next height's journal */
  journalCarry: BlockSetWrite["journalCarry"];
  /**
   * A cluster node's admin block entries, decided by the replicated log (cluster/federation.ts): server-set
   * changes, the federated servers' signatures in the reference's order, signing keys. Absent: the single
   * node's admin block, one signature by `signer`.
   */
  adminEntries?: AdminEntry[];
  /** cluster nodes: stream sequence of the record that closes this block (saved with it) */
  logSequence?: number;
}

/** The closed block set: what to save, the new tip, and what readers need until the save commits. */
export interface ClosedBlockSet {
  write: BlockSetWrite;
  tip: ChainTip;
  directory: DirectoryBlock;
}

/**
 * Build every block of the process list's height and describe the one transaction that saves them.
 * Each block is encoded and hashed once; entry block BodyMRs come from the process list's incremental
 * Merkle trees, so the close hashes O(chains × log entries) nodes rather than every entry again.
 */
export function closeBlock(pl: ProcessList, inp: CloseInputs): ClosedBlockSet {
  const height = pl.height;
  const { tip } = inp;

  // Entry blocks, by chain ID; each links to its chain's previous entry block.
  // Stryker disable next-line MethodExpression,ArrowFunction: buildDirectoryBlock sorts the directory entries by chain ID itself (wire-format §5.2), and nothing else depends on this order
  const chains = [...pl.entryBlocks.values()].sort((a, b) => Buffer.compare(a.chainId, b.chainId));
  const blocks: BlockSetWrite["blocks"] = [];
  const chainHeads: BlockSetWrite["chainHeads"] = [];
  const dirEntries: { chainId: Uint8Array; keyMR: Uint8Array }[] = [];
  for (const eb of chains) {
    const prev = inp.chainHead(eb.chainId);
    const block: Omit<EntryBlock, "items"> = {
      chainId: eb.chainId,
      bodyMR: eb.merkle.root(),
      prevKeyMR: prev?.keyMR ?? ZERO_HASH,
      prevFullHash: prev?.fullHash ?? ZERO_HASH,
      sequence: prev === undefined ? 0 : prev.sequence + 1,
      dbHeight: height,
    };
    const raw = encodeEntryBlockWithBody(block, eb.itemBytes());
    const keyMR = merkleParent(sha256(raw.subarray(0, ENTRY_BLOCK_HEADER_SIZE)), block.bodyMR);
    const fullHash = sha256(raw);
    blocks.push({ kind: BlockKind.entry, primary: keyMR, secondary: fullHash, raw });
    chainHeads.push({ chainId: eb.chainId, head: { keyMR, fullHash, sequence: block.sequence, height } });
    dirEntries.push({ chainId: eb.chainId, keyMR });
    eb.keyMR = keyMR;
  }

  const ecBody = pl.ecBody.finish();
  const ec: Omit<ECBlock, "items"> = {
    bodyHash: sha256(ecBody),
    prevHeaderHash: tip.ecHeaderHash,
    prevFullHash: tip.ecFullHash,
    dbHeight: height,
    headerExpansion: new Uint8Array(0),
  };
  const ecRaw = encodeECBlockWithBody(ec, ecBody, pl.ecItemCount);
  const ecHeaderHash = sha256(ecRaw.subarray(0, ecRaw.length - ecBody.length));
  const ecFullHash = sha256(ecRaw);

  const periods: Transaction[][] = pl.periods.map((p) => p.map((t) => t.tx));
  const coinbase = emptyCoinbase(pl.startMs);
  periods[0]!.unshift(coinbase);
  const asset = buildAssetBlock({
    prevKeyMR: tip.assetKeyMR,
    prevLedgerKeyMR: tip.assetLedgerKeyMR,
    exchangeRate: pl.exchangeRate ?? tip.exchangeRate,
    dbHeight: height,
    headerExpansion: new Uint8Array(0),
    periods,
  });
  const assetHashes = assetBlockHashes(asset);

  const admin: AdminBlock = {
    prevBackRefHash: tip.adminBackRefHash,
    dbHeight: height,
    headerExpansion: new Uint8Array(0),
    entries: inp.adminEntries ?? [singleNodeSignature(inp.signer, tip.directory)],
  };
  const adminHashes = adminBlockHashes(admin);

  const directory = buildDirectoryBlock({
    version: 0,
    networkId: inp.networkId,
    prevKeyMR: tip.directoryKeyMR,
    prevFullHash: tip.directoryFullHash,
    timestamp: Math.floor(pl.startMs / MS_PER_TIMESTAMP_MINUTE),
    dbHeight: height,
    entries: [
      { chainId: ADMIN_CHAIN_ID, keyMR: adminHashes.lookupHash },
      { chainId: EC_CHAIN_ID, keyMR: ecHeaderHash },
      { chainId: ASSET_CHAIN_ID, keyMR: assetHashes.keyMR },
      ...dirEntries,
    ],
  });
  const directoryHashes = directoryBlockHashes(directory);
  const newTip: ChainTip = {
    height,
    directory,
    directoryKeyMR: directoryHashes.keyMR,
    directoryFullHash: directoryHashes.fullHash,
    adminLookupHash: adminHashes.lookupHash,
    adminBackRefHash: adminHashes.backReferenceHash,
    ecHeaderHash,
    ecFullHash,
    assetKeyMR: assetHashes.keyMR,
    assetLedgerKeyMR: assetHashes.ledgerKeyMR,
    exchangeRate: asset.exchangeRate,
  };
  const system = systemWrites(height, { directory, admin, ec: ecRaw, asset }, newTip);

  const balance = (saved: bigint | undefined, delta: bigint): bigint => (saved ?? 0n) + delta;
  const write: BlockSetWrite = {
    height,
    openBlockStartMs: inp.nextStartMs,
    blocks: [...system.blocks, ...blocks],
    chainHeads: [...system.chainHeads, ...chainHeads],
    ...closeLocations(pl, newTip, coinbase),
    // rows made while the save is packed (in turns), not here in the close's turn
    entries: new RevealRows(pl, height),
    paidCommits: new PaidCommitRows(pl),
    assetBalances: [...pl.assetDelta.values()].map((d) => ({
      address: d.address,
      balance: balance(inp.assetBalance(d.address), d.delta),
    })),
    ecBalances: [...pl.ecDelta.values()].map((d) => ({
      publicKey: d.publicKey,
      balance: balance(inp.ecBalance(d.publicKey), d.delta),
    })),
    journalCarry: inp.journalCarry,
    ...(inp.logSequence === undefined ? {} : { logSequence: inp.logSequence }),
  };
  return { write, tip: newTip, directory };
}

/** The single node's admin entry: its signature over the 113-byte header of the previous directory block (wire-format §5.2). */
function singleNodeSignature(signer: BlockSigner, previous: DirectoryBlock): AdminEntry {
  const signature = signEd25519(signer.seed, encodeDirectoryBlockHeader(previous));
  return { type: 0x01, identityAdminChainId: signer.identityChainId, publicKey: signer.publicKey, signature };
}

/**
 * Location records of a closed block, from the hashes the process list already computed; also sets each
 * pending transaction's `blockIndex` (coinbase = 0).
 */
function closeLocations(
  pl: ProcessList,
  tip: ChainTip,
  coinbase: Transaction,
): Pick<BlockSetWrite, "transactions" | "commits"> {
  const height = pl.height;
  const transactions: BlockSetWrite["transactions"] = [
    { keys: [transactionId(coinbase)], location: { assetBlockKeyMR: tip.assetKeyMR, height, index: 0 } },
  ];
  let index = 1;
  for (const period of pl.periods)
    for (const t of period) {
      t.blockIndex = index;
      transactions.push({
        keys: [t.txId, t.fullHash],
        location: { assetBlockKeyMR: tip.assetKeyMR, height, index: index++ },
      });
    }
  const commits = new CommitRows(pl, tip.ecHeaderHash, height);
  return { transactions, commits };
}

/**
 * The open block's reveals as the save's entry rows, each made when it is read (blockSet.ts RowList): classes,
 * not closures made at each close, so that the code reading them stays optimized from one block to the next.
 */
class RevealRows implements RowList<EntryWrite> {
  constructor(
    private readonly pl: ProcessList,
    private readonly height: number,
  ) {}

  get length(): number {
    return this.pl.revealCount;
  }

  at(index: number): EntryWrite {
    return this.pl.entryWriteAt(index, this.height);
  }
}

/** The open block's paid-commit records (one per entry hash, by slot) as the save's rows. */
class PaidCommitRows implements RowList<{ entryHash: Uint8Array; record: PaidCommit }> {
  constructor(private readonly pl: ProcessList) {}

  get length(): number {
    return this.pl.paidCommitCount;
  }

  at(slot: number): { entryHash: Uint8Array; record: PaidCommit } {
    return this.pl.paidCommitAt(slot);
  }
}

/** The open block's commits as the save's rows: each under its txid and full hash, at its EC block item. */
class CommitRows implements RowList<{ keys: Uint8Array[]; location: CommitLocation }> {
  constructor(
    private readonly pl: ProcessList,
    private readonly ecBlockHeaderHash: Uint8Array,
    private readonly height: number,
  ) {}

  get length(): number {
    return this.pl.commitCount;
  }

  at(index: number): { keys: Uint8Array[]; location: CommitLocation } {
    const c = this.pl.commitKeysAt(index);
    return {
      keys: [c.txId, c.fullHash],
      location: { ecBlockHeaderHash: this.ecBlockHeaderHash, height: this.height, index: c.ecIndex },
    };
  }
}
