/**
 * A block set's records as the packer writes them (store/blockSet.ts BlockSetPacker: plain loops, values encoded
 * in place in the stream) against a reference written here the plain way — each record encoded on its own by
 * the records' encoders, entries joined to their paid commits through a Map — on random sets holding every case:
 * entries with and without their paid commit's row given, an entry hash revealed twice, an entry paid by another
 * commit than the set's, an entry without a paid commit, chain commits, paid commits no entry joined, rows made
 * afresh at each read (as the process list's are), and chunks small enough that values land across many chunk
 * ends. Same records, same bytes, same order.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { InvariantError } from "../../../src/errors.js";
import { toHex } from "../../../src/protocol/bytes.js";
import {
  type BlockSetWrite,
  type EntryWrite,
  forEachBlockSetRecord,
  packBlockSet,
  type RowList,
} from "../../../src/store/blockSet.js";
import { encodeEntryRecord } from "../../../src/store/entryRecord.js";
import type { DbName } from "../../../src/store/environment.js";
import { heightKey, META_KEYS, u32Bytes } from "../../../src/store/keys.js";
import { forEachRecord } from "../../../src/store/recordStream.js";
import {
  type CommitLocation,
  encodeBalance,
  encodeChainHead,
  encodeCommitPlace,
  encodeTransactionLocation,
  type PaidCommit,
} from "../../../src/store/records.js";
import { Random } from "../../support/random.js";

type Row = string;

const row = (db: DbName, key: Uint8Array, value: Uint8Array): Row => `${db} ${toHex(key)} ${toHex(value)}`;

function u64(n: number): Uint8Array {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n), 0);
  return b;
}

/** What a block set writes, the plain way (the order docs/ledger.md §5 gives). */
function reference(set: BlockSetWrite): Row[] {
  const out: Row[] = [];
  for (const b of set.blocks) {
    out.push(row("blocks", b.primary, Buffer.concat([Uint8Array.of(b.kind), b.raw])));
    if (b.secondary !== undefined) out.push(row("blockAlias", b.secondary, b.primary));
    if (b.height !== undefined) out.push(row("heights", heightKey(b.kind, b.height), b.primary));
  }
  const paidByHash = new Map<string, number>();
  for (let i = 0; i < set.paidCommits.length; i++) paidByHash.set(toHex(set.paidCommits.at(i)!.entryHash), i);
  const joined = new Set<number>();
  for (let i = 0; i < set.entries.length; i++) {
    const e = set.entries.at(i)!;
    const p = paidByHash.get(toHex(e.entryHash));
    const entry = { location: e.location, raw: e.raw };
    if (p !== undefined && !joined.has(p)) {
      joined.add(p);
      out.push(row("entryRecords", e.entryHash, encodeEntryRecord({ paid: set.paidCommits.at(p)!.record, entry })));
    } else out.push(row("entryRecords", e.entryHash, encodeEntryRecord({ entry })));
  }
  for (const t of set.transactions)
    for (const k of t.keys) out.push(row("transactionLocations", k, encodeTransactionLocation(t.location)));
  for (let i = 0; i < set.commits.length; i++) {
    const c = set.commits.at(i)!;
    for (const k of c.keys) out.push(row("commitPlaces", k, encodeCommitPlace(c.location)));
  }
  for (let i = 0; i < set.paidCommits.length; i++)
    if (!joined.has(i)) {
      const p = set.paidCommits.at(i)!;
      out.push(row("entryRecords", p.entryHash, encodeEntryRecord({ paid: p.record })));
    }
  for (const h of set.chainHeads) out.push(row("chainHeads", h.chainId, encodeChainHead(h.head)));
  for (const a of set.assetBalances) out.push(row("assetBalances", a.address, encodeBalance(a.balance)));
  for (const a of set.ecBalances) out.push(row("ecBalances", a.publicKey, encodeBalance(a.balance)));
  const meta = (name: string): Uint8Array => Buffer.from(name, "ascii");
  // the latest timestamp among the set's paid commits (0: none), before the saved height
  let paidMaxMs = 0;
  for (let i = 0; i < set.paidCommits.length; i++)
    paidMaxMs = Math.max(paidMaxMs, set.paidCommits.at(i)!.record.milliTime);
  const bound = Buffer.alloc(12);
  bound.writeUInt32BE(set.height, 0);
  bound.writeBigUInt64BE(BigInt(paidMaxMs), 4);
  out.push(row("meta", meta(META_KEYS.paidCommitBound), bound));
  out.push(row("meta", meta(META_KEYS.savedHeight), u32Bytes(set.height)));
  out.push(row("meta", meta(META_KEYS.openBlockStartMs), u64(set.openBlockStartMs)));
  if (set.logSequence !== undefined) out.push(row("meta", meta(META_KEYS.logSequence), u64(set.logSequence)));
  return out;
}

/** A random block set of about `n` entries holding every case named at the top. */
function randomSet(rng: Random, n: number, withPaidRows: boolean): BlockSetWrite {
  const height = rng.int(1, 1_000_000);
  const keyMR = rng.bytes(32);
  const paidCommits: { entryHash: Uint8Array; record: PaidCommit }[] = [];
  const entries: EntryWrite[] = [];
  const pay = (entryHash: Uint8Array, revealed: boolean): { row: number; txId: Uint8Array } => {
    const chain = rng.chance(0.2);
    const txId = rng.bytes(32);
    paidCommits.push({
      entryHash,
      record: {
        kind: chain ? "chain" : "entry",
        credits: rng.int(1, chain ? 20 : 10),
        revealed,
        height,
        milliTime: 1_700_000_000_000 + rng.int(0, 2 ** 30),
        txId,
        chainIdHash: chain ? rng.bytes(32) : new Uint8Array(32),
      },
    });
    return { row: paidCommits.length - 1, txId };
  };
  const reveal = (entryHash: Uint8Array, paid: { row: number; txId: Uint8Array } | undefined, txId: Uint8Array) => {
    const e: EntryWrite = {
      entryHash,
      raw: rng.bytes(rng.int(35, rng.chance(0.05) ? 10_275 : 300)),
      location: { entryBlockKeyMR: keyMR, height, commitTxId: txId },
    };
    if (withPaidRows && paid !== undefined) e.paidRow = paid.row;
    entries.push(e);
  };
  for (let i = 0; i < n; i++) {
    const hash = rng.bytes(32);
    const kind = rng.int(0, 9);
    if (kind <= 5) {
      // the usual case: paid and revealed in the set
      const p = pay(hash, true);
      reveal(hash, p, p.txId);
    } else if (kind === 6) {
      // revealed twice: the second reveal is not joined (its record is the entry part alone)
      const p = pay(hash, true);
      reveal(hash, p, p.txId);
      reveal(hash, p, p.txId);
    } else if (kind === 7) {
      // paid by another commit than the set's (the entry's own txid is kept)
      const p = pay(hash, true);
      reveal(hash, p, rng.bytes(32));
    } else if (kind === 8) {
      // an entry without a paid commit in the set (a snapshot's)
      reveal(hash, undefined, rng.bytes(32));
    } else pay(hash, false); // paid, not revealed yet
  }
  // the entries in an order of their own: a paid commit's row is not its entry's index
  for (let i = entries.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  const commits: { keys: Uint8Array[]; location: CommitLocation }[] = paidCommits.map((p, index) => ({
    keys: [p.record.txId, rng.bytes(32)],
    location: { ecBlockHeaderHash: rng.bytes(32), height, index },
  }));
  return {
    height,
    openBlockStartMs: 1_700_000_000_000 + rng.int(0, 2 ** 30),
    blocks: [
      { kind: 1, primary: rng.bytes(32), secondary: rng.bytes(32), raw: rng.bytes(200), height },
      { kind: 3, primary: rng.bytes(32), raw: rng.bytes(n * 137 + 100), height },
      { kind: 4, primary: rng.bytes(32), secondary: rng.bytes(32), raw: rng.bytes(300) },
    ],
    entries,
    transactions: [{ keys: [rng.bytes(32), rng.bytes(32)], location: { assetBlockKeyMR: keyMR, height, index: 0 } }],
    commits,
    paidCommits,
    chainHeads: [{ chainId: rng.bytes(32), head: { keyMR, fullHash: rng.bytes(32), sequence: 4, height } }],
    assetBalances: [{ address: rng.bytes(32), balance: 12_345n }],
    ecBalances: [{ publicKey: rng.bytes(32), balance: 77n }],
    journalCarry: [],
    ...(rng.chance(0.5) ? { logSequence: rng.int(1, 2 ** 40) } : {}),
  };
}

/** The same rows, made afresh at each read (as the process list's are), and reused by nobody. */
function fresh<T extends object>(rows: T[]): RowList<T> {
  return {
    get length() {
      return rows.length;
    },
    at: (i: number) => (i < rows.length ? { ...rows[i]! } : undefined),
  };
}

async function packed(set: BlockSetWrite, chunkBytes?: number): Promise<Row[]> {
  const out: Row[] = [];
  const p = await packBlockSet(set, chunkBytes);
  forEachRecord(p.stream, (db, key, value) => out.push(row(db, key, value)));
  assert.equal(p.records, out.length);
  return out;
}

describe("block set packing", () => {
  test("the packed records are the plain encoders' records, in the same order, across chunk ends", async () => {
    const rng = new Random(0xb10c5e7);
    for (let round = 0; round < 6; round++) {
      const withPaidRows = round % 2 === 0;
      const set = randomSet(rng, rng.int(1, 400), withPaidRows);
      const want = reference(set);
      for (const chunkBytes of [64, 333, 4096, undefined])
        assert.deepEqual(await packed(set, chunkBytes), want, `round ${round}, chunks of ${chunkBytes ?? "default"}`);
      const viaRows: BlockSetWrite = {
        ...set,
        entries: fresh(set.entries as EntryWrite[]),
        commits: fresh(set.commits as { keys: Uint8Array[]; location: CommitLocation }[]),
        paidCommits: fresh(set.paidCommits as { entryHash: Uint8Array; record: PaidCommit }[]),
      };
      assert.deepEqual(await packed(viaRows, 500), want, `round ${round}, rows made at each read`);
      const sync: Row[] = [];
      forEachBlockSetRecord(set, (db, key, value) => sync.push(row(db, key, value)));
      assert.deepEqual(sync, want, `round ${round}, the synchronous path`);
    }
  });

  test("a set bigger than a turn is packed in several turns with the same records", async () => {
    const set = randomSet(new Random(7), 9_000, true);
    const p = await packBlockSet(set);
    assert.ok(p.longestTurnMs <= p.busyMs);
    const out: Row[] = [];
    forEachRecord(p.stream, (db, key, value) => out.push(row(db, key, value)));
    assert.deepEqual(out, reference(set));
  });

  test("an empty set writes its blocks and meta records only", async () => {
    const set = randomSet(new Random(3), 0, false);
    assert.deepEqual(await packed(set), reference(set));
  });

  test("an entry hash paid twice in one set is refused (one paid-commit row per entry hash)", async () => {
    const set = randomSet(new Random(11), 20, false);
    const paid = set.paidCommits as { entryHash: Uint8Array; record: PaidCommit }[];
    paid.push({ entryHash: paid[0]!.entryHash, record: paid[0]!.record });
    // found when an entry without its row asks for the rows by hash
    await assert.rejects(packBlockSet(set), (e: unknown) => e instanceof InvariantError && /twice/.test(e.message));
  });
});
