/**
 * What a page of the query index costs at depth (store/queryIndexReader.ts): one chain of CHAIN_ENTRIES
 * entries (entry blocks of PER_HEIGHT, each with its qChainEntries record: the reader reads the entry hashes
 * from the block's body) in a real LMDB environment of the node's layout, among OTHER_CHAINS chains of OTHER_ENTRIES each,
 * and the time of a 100-entry `chain-entries` page read from the start, from a cursor at the middle, and from a
 * cursor near the end, ascending and descending. The reader alone (no HTTP, no entry bodies): the figure that
 * says whether a deep page costs what the first one costs.
 *
 *   node dist/bench/queryIndexDepth.js [chainEntries]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENTRY_BLOCK_HEADER_SIZE, MINUTES_PER_BLOCK } from "../src/protocol/eblock.js";
import { openDatabases, openEnvironment } from "../src/store/environment.js";
import { BlockKind } from "../src/store/keys.js";
import { chainHeightKey, encodeChainHeightValue, itemPosition } from "../src/store/queryIndexKeys.js";
import { QueryIndexReader } from "../src/store/queryIndexReader.js";

/** Entries of the big chain (default 1,000,000: the store size). */
const CHAIN_ENTRIES = Number(process.argv[2] ?? 1_000_000);
/** Entries per height of the big chain (a busy chain: 1,000 per 10-minute block). */
const PER_HEIGHT = 1000;
/** Other chains, sharing the same database, with keys before and after the big chain's. */
const OTHER_CHAINS = 20;
const OTHER_ENTRIES = 10_000;
/** Page size read. */
const LIMIT = 100;
/** Pages timed per case (after WARMUP untimed). */
const ROUNDS = 2000;
const WARMUP = 200;

function chainId(n: number): Uint8Array {
  return new Uint8Array(32).fill(n);
}

const dir = mkdtempSync(join(tmpdir(), "ledgerd-bench-qindex-"));
const env = openEnvironment(dir);
const dbs = openDatabases(env);
try {
  const big = chainId(0x80);
  const started = performance.now();
  let blocks = 0;
  /**
   * One chain's entry block of `entries` entries at `height` (a minute marker after each tenth of them, as a
   * busy chain's block has), saved as the store saves it (kind byte ‖ raw, by keyMR), and its qChainEntries
   * record. The item index (markers counted) of each entry, by its place.
   */
  const put = (chain: Uint8Array, height: number, entries: number): number[] => {
    const perMinute = Math.ceil(entries / MINUTES_PER_BLOCK);
    const body: Uint8Array[] = [];
    const markers: number[] = [];
    const places: number[] = [];
    for (let i = 0; i < entries; i++) {
      places.push(body.length);
      body.push(new Uint8Array(32).fill((i % 250) + 1));
      if ((i + 1) % perMinute === 0 || i === entries - 1) {
        markers.push(body.length);
        const m = new Uint8Array(32);
        m[31] = markers.length;
        body.push(m);
      }
    }
    const raw = Buffer.alloc(1 + ENTRY_BLOCK_HEADER_SIZE + 32 * body.length);
    raw[0] = BlockKind.entry;
    for (let i = 0; i < body.length; i++) raw.set(body[i]!, 1 + ENTRY_BLOCK_HEADER_SIZE + 32 * i);
    const keyMR = Buffer.alloc(32);
    keyMR.writeUInt32BE(++blocks, 0);
    dbs.blocks.putSync(keyMR, raw);
    const value = encodeChainHeightValue({ entryBlockKeyMR: keyMR, directoryTimestampMinutes: 30_000_000, markers });
    dbs.qChainEntries.putSync(chainHeightKey(chain, height), value);
    return places;
  };
  let bigPlaces: number[] = [];
  env.transactionSync(() => {
    for (let h = 0; h * PER_HEIGHT < CHAIN_ENTRIES; h++) bigPlaces = put(big, h, PER_HEIGHT);
    for (let c = 0; c < OTHER_CHAINS; c++) {
      // half the chains sort before the big one, half after
      const id = chainId(c < OTHER_CHAINS / 2 ? 0x10 + c : 0x90 + c);
      for (let h = 0; h * 10 < OTHER_ENTRIES; h++) put(id, h, 10);
    }
  });
  const loadMs = performance.now() - started;
  const reader = new QueryIndexReader(dbs);

  /** The position after which a page starts `depth` entries into the chain (ascending). */
  const at = (depth: number): Uint8Array =>
    itemPosition(chainHeightKey(big, Math.floor((depth - 1) / PER_HEIGHT)), bigPlaces[(depth - 1) % PER_HEIGHT]!);
  const cases: { name: string; desc: boolean; after?: Uint8Array }[] = [
    { name: "asc, page 1", desc: false },
    {
      name: `asc, from entry ${CHAIN_ENTRIES / 2} (page ${CHAIN_ENTRIES / 2 / LIMIT + 1})`,
      desc: false,
      after: at(CHAIN_ENTRIES / 2),
    },
    {
      name: `asc, from entry ${CHAIN_ENTRIES - 1000} (page ${(CHAIN_ENTRIES - 1000) / LIMIT + 1})`,
      desc: false,
      after: at(CHAIN_ENTRIES - 1000),
    },
    { name: "desc, page 1", desc: true },
    { name: `desc, from entry ${CHAIN_ENTRIES / 2}`, desc: true, after: at(CHAIN_ENTRIES / 2) },
    { name: "desc, from entry 1001", desc: true, after: at(1001) },
  ];
  console.log(
    `query index depth: chain of ${CHAIN_ENTRIES.toLocaleString("en")} entries + ${OTHER_CHAINS} × ${OTHER_ENTRIES.toLocaleString("en")}, ` +
      `loaded in ${(loadMs / 1000).toFixed(1)} s; ${LIMIT}-entry pages, ${ROUNDS} timed each`,
  );
  for (const c of cases) {
    const times: number[] = [];
    for (let r = 0; r < WARMUP + ROUNDS; r++) {
      const t0 = performance.now();
      const page = reader.chainEntries({
        chainId: big,
        desc: c.desc,
        limit: LIMIT,
        ...(c.after ? { after: c.after } : {}),
      });
      const ms = performance.now() - t0;
      if ("refused" in page || page.items.length !== LIMIT) throw new RangeError(`${c.name}: not a full page`);
      if (r >= WARMUP) times.push(ms);
    }
    times.sort((a, b) => a - b);
    const q = (p: number): string => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(3);
    console.log(`  ${c.name.padEnd(40)} median ${q(0.5)} ms, p99 ${q(0.99)} ms`);
  }
} finally {
  await env.close();
  rmSync(dir, { recursive: true, force: true });
}
