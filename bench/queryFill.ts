/**
 * The store the query rows of `make bench` read (queryRows.ts): ≥ 1,000,000 entries written through the
 * ledger's own accept and save path in process (real commits signed and verified, real block closes on the
 * block-set writer thread, the query index built in the save's transaction), no HTTP. It is the LOCAL network
 * at `<home>/local/db`, the layout a node started with `-homedir=<home>` opens.
 *
 * Filling takes minutes on 2 shared cores (most of it signing and verifying the commits), so the store is
 * cached outside the repository (QUERY_STORE_HOME) and reused while its `fill.json` says it holds this
 * workload (FILL_VERSION). Workload: one big chain of BIG_CHAIN_ENTRIES entries (for a page 1,000 levels deep),
 * OTHER_CHAINS chains sharing the rest, every entry tagged with two ext IDs (`tag<i mod TAGS>`, `id<i>`), all
 * commits paid from one EC address (a history of 1,000,000 commits) and a few payments per block to
 * PAYEES factoid addresses.
 *
 *   node dist/bench/queryFill.js [--entries=1000000] [--home=DIR]
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Ledger } from "../src/ledger/ledger.js";
import { buildChainCommit, decodeEntryCommit } from "../src/protocol/commit.js";
import { networkId } from "../src/protocol/network.js";
import { openDatabases, openEnvironment } from "../src/store/environment.js";
import { catchUpQueryIndex } from "../src/store/queryIndex.js";
import { LedgerStore } from "../src/store/store.js";
import { InlineVerifier } from "../src/workers/verifier.js";
import {
  assetKey,
  ecKey,
  entryRaw,
  finishBlock,
  firstEntry,
  LOCAL_RATE,
  ManualClock,
  MemoryLog,
  payment,
  type TestNode,
} from "../test/unit/ledger/harness.js";
import { EntryCommitSigner } from "../tools/loadgen/presign.js";

/** Bumped when the workload changes: a cached store of another version is filled again. */
export const FILL_VERSION = 1;
/** Entries in total (the store size). */
export const FILL_ENTRIES = 1_000_000;
/** Entries of the big chain: page 1,000 of 100 needs 100,000; half the store makes it the busy chain. */
export const BIG_CHAIN_ENTRIES = 500_000;
/** Other chains, sharing FILL_ENTRIES − BIG_CHAIN_ENTRIES round-robin. */
export const OTHER_CHAINS = 50;
/** Distinct first ext IDs: a `search-entries` of one tag matches FILL_ENTRIES / TAGS entries. */
export const TAGS = 1000;
/** Entries per block: a busy 10-minute block of a 2-core node (3,300 entries/s × 6 s = 20,000). */
const ENTRIES_PER_BLOCK = 20_000;
/** Commit + reveal pairs in flight at once (journal writes share commits, as under load). */
const IN_FLIGHT = 500;
/** Factoid addresses paid each block (their histories are the `address-history` targets). */
export const PAYEES = 20;
/** Block time of the fill, s: the 6-s blocks of reads.ts, on a manual clock. */
const BLOCK_SECONDS = 6;

/** The ext IDs of entry `i` of the fill. */
export function fillExtIds(i: number): string[] {
  return [`tag${i % TAGS}`, `id${i}`];
}

/** The chains' first entries: the big chain first. */
export function fillChains(): { raw: Uint8Array; chainId: Uint8Array }[] {
  return [
    firstEntry(["bench", "big"], "the big chain"),
    ...Array.from({ length: OTHER_CHAINS }, (_, c) => firstEntry(["bench", `chain${c}`], `chain ${c}`)),
  ];
}

/** What the cache's fill.json records. */
export interface FillRecord {
  version: number;
  entries: number;
  savedHeight: number;
  seconds: number;
  date: string;
}

/** Default cache: outside the repository, kept between runs (LEDGERD_BENCH_QUERY_HOME overrides). */
export function defaultQueryHome(): string {
  return process.env.LEDGERD_BENCH_QUERY_HOME ?? path.join(tmpdir(), "ledgerd-bench-query-store");
}

function recordFile(home: string): string {
  return path.join(home, "fill.json");
}

/** The cache's record when it holds this workload with at least `entries` entries. */
export function cachedFill(home: string, entries: number): FillRecord | undefined {
  try {
    const r = JSON.parse(readFileSync(recordFile(home), "utf8")) as FillRecord;
    return r.version === FILL_VERSION && r.entries >= entries ? r : undefined;
  } catch {
    return undefined;
  }
}

/** A ledger over the LOCAL store of `home`, as the node opens it (network LOCAL, no custom name). */
export function openLocal(home: string, clock: ManualClock): TestNode {
  const dir = path.join(home, "local", "db");
  mkdirSync(dir, { recursive: true });
  const log = new MemoryLog();
  const verifier = new InlineVerifier();
  const store = LedgerStore.open({ path: dir, network: "LOCAL", networkId: networkId("LOCAL") });
  const ledger = Ledger.open(
    // no journal: the fill needs no crash recovery of accepted messages, and its flushes would pace the fill
    { network: "LOCAL", customNet: "", blockTimeSeconds: BLOCK_SECONDS, journaling: false },
    { store, verifier, log, now: clock.now },
  );
  return { dir, store, ledger, log, clock, verifier };
}

/**
 * Write `count` entries (entry numbers from `first`) as commit + reveal pairs, IN_FLIGHT at a time, with
 * their ext IDs (fillExtIds) over `chains` (entry i goes to the big chain when i is even while it has room,
 * else round-robin over the others). Builds each pair just before it is submitted (bounded memory).
 */
export async function writeEntries(
  n: TestNode,
  chains: readonly { chainId: Uint8Array }[],
  first: number,
  count: number,
  bigRoom: { left: number },
  signer: EntryCommitSigner = new EntryCommitSigner(ecKey.seed),
): Promise<void> {
  for (let i = first; i < first + count; i += IN_FLIGHT) {
    const end = Math.min(first + count, i + IN_FLIGHT);
    const raws: Uint8Array[] = [];
    for (let j = i; j < end; j++) {
      const big = j % 2 === 0 && bigRoom.left > 0;
      if (big) bigRoom.left--;
      const chain = big ? chains[0]! : chains[1 + (j % (chains.length - 1))]!;
      raws.push(entryRaw(chain.chainId, fillExtIds(j), `entry ${j} `.padEnd(64, ".")));
    }
    const ms = n.clock.ms;
    await Promise.all(raws.map((raw) => n.ledger.submitCommit(decodeEntryCommit(signer.sign(raw, ms)))));
    await Promise.all(raws.map((raw) => n.ledger.submitReveal(raw)));
  }
}

/** Fill `home` with `entries` entries; returns the record written to its fill.json. */
export async function fillQueryStore(
  home: string,
  entries: number,
  log: (line: string) => void = (l) => console.error(`query fill: ${l}`),
): Promise<FillRecord> {
  rmSync(home, { recursive: true, force: true });
  const blocks = Math.ceil(entries / ENTRIES_PER_BLOCK);
  // ends about now, so a node started on it soon after closes its next block on time
  const clock = new ManualClock(Date.now() - (blocks + 2) * BLOCK_SECONDS * 1000);
  const n = openLocal(home, clock);
  const started = performance.now();
  try {
    const chains = fillChains();
    const payees = Array.from({ length: PAYEES }, (_, k) => assetKey(100 + k));
    // credits for every entry, chain and margin; entries are 1 credit each (< 1 KiB)
    const credits = BigInt(entries + chains.length * 11 + 1000);
    await n.ledger.submitTransaction(
      payment({ milliTime: clock.ms, ec: [{ to: ecKey, amount: credits * LOCAL_RATE }] }),
    );
    await finishBlock(n);
    for (const c of chains) {
      await n.ledger.submitCommit(buildChainCommit({ entryRaw: c.raw, milliTime: clock.ms, ecSeed: ecKey.seed }));
      await n.ledger.submitReveal(c.raw);
    }
    await finishBlock(n);
    const bigRoom = { left: BIG_CHAIN_ENTRIES - 1 };
    const signer = new EntryCommitSigner(ecKey.seed);
    let written = chains.length;
    for (let b = 0; written < entries; b++) {
      const count = Math.min(ENTRIES_PER_BLOCK, entries - written);
      for (let k = 0; k < 2; k++)
        await n.ledger.submitTransaction(
          payment({ milliTime: clock.ms + k, outputs: [{ to: payees[(2 * b + k) % PAYEES]!, amount: 100_000_000n }] }),
        );
      await writeEntries(n, chains, written, count, bigRoom, signer);
      written += count;
      await finishBlock(n);
      const s = (performance.now() - started) / 1000;
      log(`${written.toLocaleString("en")} entries, ${s.toFixed(0)} s (${Math.round(written / s)} entries/s)`);
    }
    const savedHeight = n.store.savedHeight();
    await n.ledger.close();
    await n.store.close();
    const record: FillRecord = {
      version: FILL_VERSION,
      entries: written,
      savedHeight,
      seconds: Math.round((performance.now() - started) / 1000),
      date: new Date().toISOString(),
    };
    writeFileSync(recordFile(home), `${JSON.stringify(record, null, 2)}\n`);
    return record;
  } catch (e) {
    await n.ledger.close().catch(() => undefined);
    await n.store.close().catch(() => undefined);
    throw e;
  }
}

/**
 * The cached store when it is there, its query index brought to this build's layout first, else a fresh fill.
 * A store filled by an older build holds the index of its layout: a node started on it would serve while it
 * rebuilt the index in the background, answering the query methods -32000 "Query index rebuilding" (the read
 * rows would be skipped) and the index's bytes would be the old layout's. So the catch-up runs here, before any
 * row, as the node's start once did (minutes per million entries; the progress is logged).
 */
export async function queryStore(home: string, entries: number): Promise<FillRecord & { cached: boolean }> {
  const cached = cachedFill(home, entries);
  const dbDir = path.join(home, "local", "db");
  const say = (line: string): void => console.error(`query fill: ${line}`);
  if (cached !== undefined && existsSync(dbDir)) {
    const env = openEnvironment(dbDir, "store");
    try {
      const started = performance.now();
      let lastLog = started;
      const heights = catchUpQueryIndex(env, openDatabases(env), (p) => {
        if (performance.now() - lastLog < 10_000) return;
        lastLog = performance.now();
        say(`query index of the cached store: height ${p.next} of ${p.savedHeight}`);
      });
      if (heights > 0)
        say(
          `query index of the cached store rebuilt: ${heights} heights in ${Math.round((performance.now() - started) / 1000)} s`,
        );
    } finally {
      await env.close();
    }
    return { ...cached, cached: true };
  }
  return { ...(await fillQueryStore(home, entries)), cached: false };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { entries: { type: "string", default: String(FILL_ENTRIES) }, home: { type: "string" } },
  });
  const home = values.home ?? defaultQueryHome();
  const r = await fillQueryStore(home, Number(values.entries));
  console.log(`query store: ${r.entries} entries, height ${r.savedHeight}, ${r.seconds} s, in ${home}`);
}
