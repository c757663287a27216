/**
 * The store directories of the format-2 tests (entryRecords.test.ts, formatMigration.test.ts): genesis and two heights
 * of entries, paid commits and commit locations in every combination a block set writes, a dump of every record, and
 * the inverse of the migration (`toFormat1`: a format-2 directory rewritten as format 1 wrote it, records.ts
 * encodeEntryLocation / encodePaidCommit and the 40-byte commit locations).
 */
import { networkId } from "../../../src/protocol/network.js";
import { decodeEntryRecord } from "../../../src/store/entryRecord.js";
import { openBinaryDb, openDatabases, openEnvironment, type RootEnv } from "../../../src/store/environment.js";
import { BlockKind, heightKey, LEGACY_DB_NAMES, META_KEYS, u32Bytes } from "../../../src/store/keys.js";
import type { PaidCommit } from "../../../src/store/records.js";
import { encodeEntryLocation, encodePaidCommit } from "../../../src/store/records.js";
import { type BlockSetWrite, LedgerStore } from "../../../src/store/store.js";
import { noOtherRecords } from "../../support/blockSetWrites.js";

export const LOCAL = { network: "LOCAL" as const, networkId: networkId("LOCAL") };

export function hash(n: number, i = 0): Uint8Array {
  const h = new Uint8Array(32).fill(n);
  h[0] = i >> 8;
  h[1] = i & 0xff;
  return h;
}

export function paid(height: number, txId: Uint8Array, over: Partial<PaidCommit> = {}): PaidCommit {
  return {
    kind: "entry",
    credits: 1,
    revealed: false,
    height,
    milliTime: 1_700_000_000_000 + height,
    txId,
    chainIdHash: new Uint8Array(32),
    ...over,
  };
}

export function blockSet(height: number, over: Partial<BlockSetWrite> = {}): BlockSetWrite {
  return {
    height,
    openBlockStartMs: 1_700_000_000_000 + height,
    blocks: [
      { kind: BlockKind.directory, primary: hash(200 + height), raw: Uint8Array.of(height), height },
      { kind: BlockKind.ec, primary: hash(220 + height), raw: Uint8Array.of(3, height), height },
    ],
    ...noOtherRecords(),
    ...over,
  };
}

export const N = 120;
export const entry = (i: number): Uint8Array => Uint8Array.of(0, ...hash(7), 0, 0, i & 0xff, 1, 2, 3);
export const location = (height: number, txId: Uint8Array) => ({
  entryBlockKeyMR: hash(40 + height),
  height,
  commitTxId: txId,
});

/**
 * Height 1: N entries committed and revealed (whole records), N commits not revealed (paid only), N entries
 * without a paid commit (as a snapshot writes them), a chain commit; height 2: the unrevealed ones revealed
 * (whole records again), the first N entries paid again (a paid commit merged over a saved entry).
 */
export function heights(): BlockSetWrite[] {
  const one: BlockSetWrite = blockSet(1, {
    entries: [
      ...Array.from({ length: N }, (_, i) => ({
        entryHash: hash(1, i),
        raw: entry(i),
        location: location(1, hash(11, i)),
      })),
      ...Array.from({ length: N }, (_, i) => ({
        entryHash: hash(3, i),
        raw: entry(i),
        location: location(1, hash(13, i)),
      })),
    ],
    paidCommits: [
      ...Array.from({ length: N }, (_, i) => ({
        entryHash: hash(1, i),
        record: paid(1, hash(11, i), { revealed: true }),
      })),
      ...Array.from({ length: N }, (_, i) => ({ entryHash: hash(2, i), record: paid(1, hash(12, i)) })),
      { entryHash: hash(4), record: paid(1, hash(14), { kind: "chain", credits: 11, chainIdHash: hash(15) }) },
    ],
    commits: Array.from({ length: N }, (_, i) => ({
      keys: [hash(11, i), hash(16, i)],
      location: { ecBlockHeaderHash: hash(221), height: 1, index: i },
    })),
  });
  const two: BlockSetWrite = blockSet(2, {
    entries: Array.from({ length: N }, (_, i) => ({
      entryHash: hash(2, i),
      raw: entry(i),
      location: location(2, hash(12, i)),
    })),
    paidCommits: [
      ...Array.from({ length: N }, (_, i) => ({
        entryHash: hash(2, i),
        record: paid(1, hash(12, i), { revealed: true }),
      })),
      ...Array.from({ length: N }, (_, i) => ({ entryHash: hash(1, i), record: paid(2, hash(17, i)) })),
    ],
    commits: Array.from({ length: N }, (_, i) => ({
      keys: [hash(17, i), hash(18, i)],
      location: { ecBlockHeaderHash: hash(222), height: 2, index: i },
    })),
  });
  return [one, two];
}

/** A store of genesis and `heights()`, saved on the writer thread (`threaded`) or synchronously. */
export async function filled(path: string, threaded: boolean): Promise<void> {
  const s = LedgerStore.open({ path, ...LOCAL });
  s.initialize({ path, ...LOCAL }, blockSet(0));
  for (const set of heights()) {
    if (threaded) await s.savePacked(await s.packBlockSet(set));
    else s.saveBlockSet(set);
  }
  await s.close();
}

/** Every record of every database but the store id (and the root's database names), as hex. */
export async function dump(path: string): Promise<Record<string, string[]>> {
  const env = openEnvironment(path);
  const out: Record<string, string[]> = {
    "(names)": [...env.getKeys()].map((k) => Buffer.from(k as Uint8Array).toString("latin1")),
  };
  for (const [name, db] of Object.entries(openDatabases(env)))
    out[name] = [...db.getRange()]
      // each directory has an id of its own (random)
      .filter(({ key }) => !(name === "meta" && Buffer.from(key).toString("latin1") === META_KEYS.storeId))
      .map(({ key, value }) => `${Buffer.from(key).toString("hex")}=${Buffer.from(value).toString("hex")}`);
  await env.close();
  return out;
}

/** The names of the databases in the environment at `path` (opening none of them: that would create it). */
export async function names(path: string): Promise<string[]> {
  const env = openEnvironment(path);
  const list = [...env.getKeys()].map((k) =>
    Buffer.from(k as Uint8Array)
      .toString("latin1")
      .replace(/\0$/, ""),
  );
  await env.close();
  return list;
}

/** Rewrite a format-2 directory as format 1 wrote it (module comment). */
export async function toFormat1(path: string): Promise<void> {
  const env: RootEnv = openEnvironment(path);
  const dbs = openDatabases(env);
  const legacy = Object.fromEntries(Object.entries(LEGACY_DB_NAMES).map(([k, n]) => [k, openBinaryDb(env, n)]));
  env.transactionSync(() => {
    for (const { key, value } of [...dbs.entryRecords.getRange()]) {
      const parts = decodeEntryRecord(value);
      if (parts.entry !== undefined) {
        legacy.entries!.putSync(key, parts.entry.raw);
        legacy.entryLocations!.putSync(key, encodeEntryLocation(parts.entry.location));
      }
      if (parts.paid !== undefined) legacy.paidCommits!.putSync(key, encodePaidCommit(parts.paid));
    }
    for (const { key, value } of [...dbs.commitPlaces.getRange()]) {
      const height = Buffer.from(value).readUInt32BE(0);
      const ec = dbs.heights.getBinary(heightKey(BlockKind.ec, height))!;
      legacy.commitLocations!.putSync(key, Buffer.concat([ec, value]));
    }
    dbs.entryRecords.dropSync();
    dbs.commitPlaces.dropSync();
    dbs.meta.putSync(Buffer.from(META_KEYS.format, "ascii"), u32Bytes(1));
  });
  await env.close();
}
