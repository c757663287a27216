/**
 * The state a node needs to go on from a saved height, as one canonical byte string (docs/cluster.md §1.13):
 * what a certified snapshot holds. Read from the store at its saved height (`readSnapshotState`), encoded in
 * one fixed order with every list sorted by key (`encodeSnapshotState`: two nodes with the same saved state
 * write the same bytes, whatever their history), decoded and checked (`decodeSnapshotState`,
 * `checkSnapshotBlocks`), and written into a fresh store as one block-set save (`snapshotBlockSetWrite`).
 *
 * What it holds, and why:
 * * the blocks of genesis (height 0: a start checks its genesis against the network's) and the four system
 *   blocks of the height (the tip the next block links to), with the entry block at the head of every chain
 *   (the next entry block of a chain links to it; `chain-head` reads it) and the entries of the height's own
 *   entry blocks;
 * * every chain head, asset balance and EC balance;
 * * the paid commits still live for the next block (a commit whose lifetime ended before the open block's
 *   start can never pay again: COMMIT_LIFETIME_MS after its own time), and every transaction id (the
 *   duplicate-transaction rule reads them; a transaction location carries no time to window it by);
 * * the open block's start and the log sequence that closed the height (where the log is followed from);
 * * `extra`: bytes the caller adds (the cluster's authority set), hashed with the rest.
 *
 * Not held: blocks, entries and indexes of the heights before (history: a node started from a snapshot
 * answers reads of them with "not found", docs/cluster.md §1.13).
 */
import { ByteReader, ByteWriter, bytesEqual, compareBytes, toHex } from "../protocol/bytes.js";
import { decodeEntryBlock, ENTRY_BLOCK_HEADER_SIZE, entriesWithMinutes } from "../protocol/eblock.js";
import { ProtocolError } from "../protocol/errors.js";
import { sha256 } from "../protocol/hash.js";
import { merkleParent } from "../protocol/merkle.js";
import { BlockKind } from "../store/keys.js";
import {
  decodeBalance,
  decodeChainHead,
  decodeEntryLocation,
  decodePaidCommit,
  decodeTransactionLocation,
  encodeEntryLocation,
  type PaidCommit,
} from "../store/records.js";
import type { BlockSetWrite, BlockWrite, LedgerStore, StateReadTransaction } from "../store/store.js";
import { tipFromRaw } from "./blockBuilder.js";
import { COMMIT_LIFETIME_MS } from "./constants.js";

/** First bytes of every snapshot (a version of this layout). */
const MAGIC = new TextEncoder().encode("ledgerd-snapshot/1");

/** The state records a snapshot copies whole, in this order (keys and values as the store keeps them). */
const TABLES = ["chainHeads", "assetBalances", "ecBalances", "paidCommits", "transactionLocations"] as const;
type Table = (typeof TABLES)[number];

export interface SnapshotBlock {
  kind: BlockKind;
  raw: Uint8Array;
  /** the height index (system blocks); entry blocks have none */
  height?: number;
}

export interface SnapshotState {
  networkId: number;
  /** the saved height the snapshot is of */
  height: number;
  /** start of the block after it, ms since epoch */
  openBlockStartMs: number;
  /** stream sequence of the log record that closed `height` (0 on a single node) */
  logSequence: number;
  /** genesis and height's system blocks, then the chains' head entry blocks; sorted by (kind, sha256(raw)) */
  blocks: SnapshotBlock[];
  /** the entries of height's entry blocks, sorted by hash */
  entries: { hash: Uint8Array; raw: Uint8Array; location: Uint8Array }[];
  /** each table's (key, value) pairs, sorted by key */
  tables: Record<Table, [Uint8Array, Uint8Array][]>;
  /** the caller's bytes (a cluster node: its authority set, cluster/snapshots.ts) */
  extra: Uint8Array;
}

/** The store's reads a snapshot needs. */
export type SnapshotSource = Pick<
  LedgerStore,
  | "savedHeight"
  | "openBlockStartMs"
  | "logSequence"
  | "blockHashAt"
  | "block"
  | "entryRaw"
  | "entryLocation"
  | "stateRecords"
>;

const SYSTEM_KINDS = [BlockKind.directory, BlockKind.admin, BlockKind.ec, BlockKind.asset] as const;

/** The snapshot of `store`'s saved height, in one turn. Call between saves (a cluster node: right after a block's save). */
export function readSnapshotState(store: SnapshotSource, networkId: number, extra: Uint8Array): SnapshotState {
  const steps = snapshotSteps(store, networkId, extra, undefined);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** State records read between two yields of `readSnapshotStateInTurns`: a few milliseconds of work. */
const RECORDS_PER_TURN = 4096;

/** The store's reads of a snapshot read in turns: `SnapshotSource` and a read transaction held across them. */
export type SnapshotTurnsSource = SnapshotSource & Pick<LedgerStore, "readTransaction">;

/**
 * The same snapshot as `readSnapshotState`, read in turns of RECORDS_PER_TURN records so the node's other work
 * (the apply of the next block) goes on between them: the state tables are read through one read transaction
 * opened in the calling turn (the view of the saved height, whatever commits meanwhile); blocks and entries are
 * found by hash, and a saved block never changes. Call in the turn right after the save, as `readSnapshotState`.
 */
export async function readSnapshotStateInTurns(
  store: SnapshotTurnsSource,
  networkId: number,
  extra: Uint8Array,
  turns: { records?: number; pause?: () => Promise<void> } = {},
): Promise<SnapshotState> {
  const pause = turns.pause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  const transaction = store.readTransaction();
  try {
    const steps = snapshotSteps(store, networkId, extra, transaction, turns.records ?? RECORDS_PER_TURN);
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      await pause();
    }
  } finally {
    transaction.done();
  }
}

/** The reads of a snapshot, yielding every RECORDS_PER_TURN state records (the one code of both readers). */
function* snapshotSteps(
  store: SnapshotSource,
  networkId: number,
  extra: Uint8Array,
  transaction: StateReadTransaction | undefined,
  perTurn = RECORDS_PER_TURN,
): Generator<void, SnapshotState> {
  const height = store.savedHeight();
  const openBlockStartMs = store.openBlockStartMs();
  const logSequence = store.logSequence();
  let read = 0;
  const records = function* (t: Table): Generator<[Uint8Array, Uint8Array] | undefined> {
    for (const kv of store.stateRecords(t, transaction)) {
      yield kv;
      if (++read % perTurn === 0) yield undefined;
    }
  };
  const blocks: SnapshotBlock[] = [];
  const seen = new Set<string>();
  const add = (hash: Uint8Array, h: number | undefined): SnapshotBlock | undefined => {
    const b = store.block(hash);
    if (b === undefined)
      throw new ProtocolError("BAD_VALUE", "snapshot.blocks", `block ${toHex(hash)} not in the store`);
    const key = toHex(b.primary);
    if (seen.has(key)) return undefined;
    seen.add(key);
    const block: SnapshotBlock = { kind: b.kind, raw: b.raw.slice(), ...(h === undefined ? {} : { height: h }) };
    blocks.push(block);
    return block;
  };
  for (const h of height === 0 ? [0] : [0, height])
    for (const kind of SYSTEM_KINDS) {
      const hash = store.blockHashAt(kind, h);
      if (hash === undefined) throw new ProtocolError("BAD_VALUE", "snapshot.blocks", `no block ${kind} at ${h}`);
      add(hash, h);
    }
  const tables = {} as SnapshotState["tables"];
  for (const t of TABLES) tables[t] = [];
  const entries: SnapshotState["entries"] = [];
  for (const kv of records("chainHeads")) {
    if (kv === undefined) {
      yield;
      continue;
    }
    const [key, value] = kv;
    tables.chainHeads.push([key, value]);
    const head = decodeChainHead(value);
    const b = add(head.keyMR, undefined);
    // the height's own entry blocks: their entries too (reads of the snapshot's height)
    if (b === undefined || b.kind !== BlockKind.entry || head.height !== height) continue;
    for (const e of entriesWithMinutes(decodeEntryBlock(b.raw))) {
      const raw = store.entryRaw(e.entryHash);
      const location = store.entryLocation(e.entryHash);
      if (raw === undefined || location === undefined) continue;
      entries.push({ hash: e.entryHash.slice(), raw, location: encodeEntryLocation(location) });
    }
  }
  for (const t of ["assetBalances", "ecBalances", "transactionLocations"] as const)
    for (const kv of records(t)) {
      if (kv === undefined) yield;
      else tables[t].push(kv);
    }
  for (const kv of records("paidCommits")) {
    if (kv === undefined) yield;
    else if (livePaid(decodePaidCommit(kv[1]), openBlockStartMs)) tables.paidCommits.push(kv);
  }
  return canonical({ networkId, height, openBlockStartMs, logSequence, blocks, entries, tables, extra });
}

/** A paid commit that may still pay for a reveal in a block starting at `openBlockStartMs` or later. */
function livePaid(p: PaidCommit, openBlockStartMs: number): boolean {
  return openBlockStartMs - p.milliTime <= COMMIT_LIFETIME_MS;
}

/** Every list in its canonical order (so the bytes do not depend on how the state was read). */
function canonical(s: SnapshotState): SnapshotState {
  const blocks = s.blocks
    .map((b) => ({ b, h: sha256(b.raw) }))
    .sort((x, y) => x.b.kind - y.b.kind || compareBytes(x.h, y.h))
    .map((x) => x.b);
  const entries = [...s.entries].sort((a, b) => compareBytes(a.hash, b.hash));
  const tables = {} as SnapshotState["tables"];
  for (const t of TABLES) tables[t] = [...s.tables[t]].sort((a, b) => compareBytes(a[0], b[0]));
  return { ...s, blocks, entries, tables };
}

/** The canonical bytes of a snapshot. */
export function encodeSnapshotState(state: SnapshotState): Uint8Array {
  const s = canonical(state);
  let size = 256 + s.extra.length;
  for (const b of s.blocks) size += 10 + b.raw.length;
  for (const e of s.entries) size += 44 + e.raw.length + e.location.length;
  for (const t of TABLES) for (const [k, v] of s.tables[t]) size += 8 + k.length + v.length;
  const w = new ByteWriter(size)
    .bytes(MAGIC)
    .u32(s.networkId)
    .u32(s.height)
    .u64(BigInt(s.openBlockStartMs))
    .u64(BigInt(s.logSequence));
  w.u32(s.blocks.length);
  for (const b of s.blocks)
    w.u8(b.kind)
      .u32(b.height ?? 0xffffffff)
      .u32(b.raw.length)
      .bytes(b.raw);
  w.u32(s.entries.length);
  for (const e of s.entries) w.bytes(e.hash).u32(e.raw.length).bytes(e.raw).u32(e.location.length).bytes(e.location);
  for (const t of TABLES) {
    w.u32(s.tables[t].length);
    for (const [k, v] of s.tables[t]) w.u32(k.length).bytes(k).u32(v.length).bytes(v);
  }
  w.u32(s.extra.length).bytes(s.extra);
  return w.finish();
}

/** Decode a snapshot; throws ProtocolError naming the field on bytes `encodeSnapshotState` did not write. */
export function decodeSnapshotState(bytes: Uint8Array): SnapshotState {
  const r = new ByteReader(bytes, "snapshot");
  if (!bytesEqual(r.bytesN(MAGIC.length, "magic"), MAGIC))
    throw new ProtocolError("BAD_VALUE", "snapshot.magic", "not a ledgerd snapshot of this version");
  const networkId = r.u32("networkId");
  const height = r.u32("height");
  const openBlockStartMs = Number(r.u64("openBlockStartMs"));
  const logSequence = Number(r.u64("logSequence"));
  const blocks: SnapshotBlock[] = [];
  const nb = r.u32("blocks.count");
  for (let i = 0; i < nb; i++) {
    const kind = r.u8(`blocks[${i}].kind`);
    if (kind < BlockKind.directory || kind > BlockKind.entry)
      throw new ProtocolError("BAD_VALUE", `snapshot.blocks[${i}].kind`, `unknown kind ${kind}`);
    const h = r.u32(`blocks[${i}].height`);
    const raw = r.bytesN(r.u32(`blocks[${i}].length`), `blocks[${i}].raw`).slice();
    blocks.push({ kind: kind as BlockKind, raw, ...(h === 0xffffffff ? {} : { height: h }) });
  }
  const entries: SnapshotState["entries"] = [];
  const ne = r.u32("entries.count");
  for (let i = 0; i < ne; i++) {
    const hash = r.bytesN(32, `entries[${i}].hash`).slice();
    const raw = r.bytesN(r.u32(`entries[${i}].length`), `entries[${i}].raw`).slice();
    const location = r.bytesN(r.u32(`entries[${i}].locationLength`), `entries[${i}].location`).slice();
    entries.push({ hash, raw, location });
  }
  const tables = {} as SnapshotState["tables"];
  for (const t of TABLES) {
    tables[t] = [];
    const n = r.u32(`${t}.count`);
    for (let i = 0; i < n; i++) {
      const k = r.bytesN(r.u32(`${t}[${i}].keyLength`), `${t}[${i}].key`).slice();
      const v = r.bytesN(r.u32(`${t}[${i}].valueLength`), `${t}[${i}].value`).slice();
      tables[t].push([k, v]);
    }
  }
  const extra = r.bytesN(r.u32("extra.length"), "extra").slice();
  r.end();
  return { networkId, height, openBlockStartMs, logSequence, blocks, entries, tables, extra };
}

/** The snapshot's system blocks of one height (undefined when one is missing). */
function systemBlocks(s: SnapshotState, height: number): Record<"directory" | "admin" | "ec" | "asset", Uint8Array> {
  const of = (kind: BlockKind, name: string): Uint8Array => {
    const b = s.blocks.find((x) => x.kind === kind && x.height === height);
    if (b === undefined) throw new ProtocolError("BAD_VALUE", "snapshot.blocks", `no ${name} block at ${height}`);
    return b.raw;
  };
  return {
    directory: of(BlockKind.directory, "directory"),
    admin: of(BlockKind.admin, "admin"),
    ec: of(BlockKind.ec, "EC"),
    asset: of(BlockKind.asset, "asset"),
  };
}

/**
 * Check the snapshot's blocks against the directory block it names: that block is directory block
 * `height` with keyMR `directoryKeyMR`, and it names the snapshot's admin, EC and asset blocks of that height.
 * Returns what is wrong, or undefined.
 */
export function checkSnapshotBlocks(s: SnapshotState, directoryKeyMR: Uint8Array): string | undefined {
  try {
    const tip = tipFromRaw(systemBlocks(s, s.height));
    if (tip.height !== s.height) return `its directory block is of height ${tip.height}, not ${s.height}`;
    if (!bytesEqual(tip.directoryKeyMR, directoryKeyMR))
      return `its directory block's keyMR ${toHex(tip.directoryKeyMR)} is not the certified ${toHex(directoryKeyMR)}`;
    const named = tip.directory.entries;
    const want = [tip.adminLookupHash, tip.ecHeaderHash, tip.assetKeyMR];
    for (let i = 0; i < want.length; i++)
      if (named[i] === undefined || !bytesEqual(named[i]!.keyMR, want[i]!))
        return `directory block ${s.height} does not name its system block ${i}`;
    if (s.networkId !== tip.directory.networkId) return `network id ${s.networkId} is not the block's`;
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** The directory block keyMR of the snapshot's height (what a certificate names). */
export function snapshotDirectoryKeyMR(s: SnapshotState): Uint8Array {
  return tipFromRaw(systemBlocks(s, s.height)).directoryKeyMR;
}

/** The snapshot as one save of a fresh store (LedgerStore.initialize): its blocks, indexes and balances. */
export function snapshotBlockSetWrite(s: SnapshotState): BlockSetWrite {
  const blocks: BlockWrite[] = [];
  const tips = new Map<number, ReturnType<typeof tipFromRaw>>();
  for (const h of s.height === 0 ? [0] : [0, s.height]) tips.set(h, tipFromRaw(systemBlocks(s, h)));
  for (const b of s.blocks) {
    if (b.kind === BlockKind.entry) {
      const keyMR = merkleParent(sha256(b.raw.subarray(0, ENTRY_BLOCK_HEADER_SIZE)), decodeEntryBlock(b.raw).bodyMR);
      blocks.push({ kind: b.kind, primary: keyMR, secondary: sha256(b.raw), raw: b.raw });
      continue;
    }
    const tip = tips.get(b.height ?? -1);
    if (tip === undefined) throw new ProtocolError("BAD_VALUE", "snapshot.blocks", `a system block of no known height`);
    const [primary, secondary] =
      b.kind === BlockKind.directory
        ? [tip.directoryKeyMR, tip.directoryFullHash]
        : b.kind === BlockKind.admin
          ? [tip.adminLookupHash, tip.adminBackRefHash]
          : b.kind === BlockKind.ec
            ? [tip.ecHeaderHash, tip.ecFullHash]
            : [tip.assetKeyMR, tip.assetLedgerKeyMR];
    blocks.push({ kind: b.kind, primary, secondary, raw: b.raw, height: b.height! });
  }
  return {
    height: s.height,
    openBlockStartMs: s.openBlockStartMs,
    blocks,
    entries: s.entries.map((e) => ({ entryHash: e.hash, raw: e.raw, location: decodeEntryLocation(e.location) })),
    transactions: s.tables.transactionLocations.map(([k, v]) => ({
      keys: [k],
      location: decodeTransactionLocation(v),
    })),
    commits: [],
    paidCommits: s.tables.paidCommits.map(([k, v]) => ({ entryHash: k, record: decodePaidCommit(v) })),
    chainHeads: s.tables.chainHeads.map(([k, v]) => ({ chainId: k, head: decodeChainHead(v) })),
    assetBalances: s.tables.assetBalances.map(([k, v]) => ({ address: k, balance: decodeBalance(v) })),
    ecBalances: s.tables.ecBalances.map(([k, v]) => ({ publicKey: k, balance: decodeBalance(v) })),
    journalCarry: [],
    ...(s.logSequence > 0 ? { logSequence: s.logSequence } : {}),
  };
}

/** The sha256 of a snapshot's bytes: what federated servers sign (cluster/snapshotCertification.ts). */
export function snapshotHash(bytes: Uint8Array): Uint8Array {
  return sha256(bytes);
}

/**
 * The raw directory and admin blocks of saved height `height` (a federated server writes them into the header
 * segments a starting node checks from genesis, cluster/snapshotChain.ts), or undefined when the store does not
 * hold that height (a node that itself started from a snapshot holds no earlier block).
 */
export function readHeaderBlocks(
  store: Pick<LedgerStore, "blockHashAt" | "block">,
  height: number,
): { directory: Uint8Array; admin: Uint8Array } | undefined {
  const raw = (kind: BlockKind): Uint8Array | undefined => {
    const hash = store.blockHashAt(kind, height);
    return hash === undefined ? undefined : store.block(hash)?.raw;
  };
  const directory = raw(BlockKind.directory);
  const admin = raw(BlockKind.admin);
  return directory === undefined || admin === undefined ? undefined : { directory, admin };
}
