/**
 * Fill a LOCAL data directory fast, for the start-up and disk measurements of docs/performance.md §Restart and
 * §Disk: the ledger's own write path (commits and reveals through `Ledger.submitCommit` / `submitReveal`, blocks
 * closed by ends of minutes and saved by the block-set writer thread, the query index with them), in process,
 * without HTTP, a clock moved by hand. **Not signed**: each entry commit carries the EC key and 64 bytes where
 * its signature goes, but they are not an ed25519 signature, and the ledger is given a verifier that accepts
 * every check (TRUSTING below): signing and verifying cost ~7 ms per entry on this shared machine at load 16,
 * which made 1,000,000 entries a day's work. The blocks, records and indexes are byte for byte the shape and
 * size a signed fill makes (a signature is always 64 bytes); a node started on the store never re-verifies
 * saved blocks, so start-up, memory and disk figures are those of a real store. Entries as the load generator's (tools/loadgen/presign.ts): one 8-byte
 * ext ID and `--content-bytes` of content (default 64), round `--chains` chains. A directory already filled
 * is continued (the ledger reopens and goes on from its saved height), so 1,000,000 and then 10,000,000
 * entries are one store grown in steps. The node then starts on it with `ledgerd -homedir=DIR -network=LOCAL`.
 *
 *   node dist/bench/fillStore.js --homedir DIR --entries N [--per-block 20000] [--chains 16] [--content-bytes 64]
 *                                [--min-free-gb 25]
 *
 * One progress line per block: entries added, stored in total, entries/s, `data.mdb` bytes in use, and the
 * process's CPU per entry (every thread: the ledger, the journal and block-set writer threads). It is CPU-bound:
 * `CONCURRENCY` submissions are in flight (they share journal group commits) and a block's save overlaps the
 * next block's submissions (the ledger waits for it only at the next close), so on a shared machine its rate is
 * the CPU share it gets (2026-11-28, load 14–25: ~800 entries/s at nice 0, a third of that niced). SIGINT or
 * SIGTERM, or free space on the store's file system below `--min-free-gb`, stop it cleanly after the block
 * being filled (saved, store closed): run it again to continue.
 */
import { statfsSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type Commit, ENTRY_COMMIT_SIZE, parseEntryCommit } from "../src/protocol/commit.js";
import { entryHash, marshalEntry } from "../src/protocol/entry.js";
import type { SignatureCheck, Verifier } from "../src/workers/verifier.js";
import {
  buyEC,
  chainCommit,
  closeNode,
  ecKey,
  finishBlock,
  firstEntry,
  ManualClock,
  openNode,
} from "../test/unit/ledger/harness.js";

/** Accepts every signature check (module comment: the fill does not sign). */
const TRUSTING: Verifier = {
  verify: (checks: readonly SignatureCheck[]) => Promise.resolve(checks.map(() => true)),
  close: () => Promise.resolve(),
};

/** Bytes where an entry commit's signature goes (after version, time, entry hash, credits, key). */
const SIGNATURE_AT = 1 + 6 + 32 + 1 + 32;

/** An entry commit of 1 credit for `raw` at `milliTime`, with the EC key and an unsigned signature field. */
function unsignedCommit(raw: Uint8Array, milliTime: number): Commit {
  const b = Buffer.alloc(ENTRY_COMMIT_SIZE);
  b.writeUIntBE(milliTime, 1, 6);
  b.set(entryHash(raw), 7);
  b[39] = 1;
  b.set(ecKey.publicKey, 40);
  // distinct per entry, as a signature is: the entry hash twice
  b.set(b.subarray(7, 39), SIGNATURE_AT);
  b.set(b.subarray(7, 39), SIGNATURE_AT + 32);
  return parseEntryCommit(b);
}

/** Submissions in flight at once (their journal appends share commits). */
const CONCURRENCY = 2000;
/** Block time of the filled blocks, ms: the clock moves this much per block (6-s blocks, as the tests'). */
const BLOCK_MS = 6000;
/** The load generator's ext ID (tools/loadgen/presign.ts LOAD_EXT_ID). */
const EXT_ID = Buffer.from("loadgen1", "latin1");

const { values } = parseArgs({
  options: {
    homedir: { type: "string" },
    entries: { type: "string" },
    "per-block": { type: "string", default: "20000" },
    chains: { type: "string", default: "16" },
    "content-bytes": { type: "string", default: "64" },
    "min-free-gb": { type: "string", default: "25" },
  },
});
if (values.homedir === undefined || values.entries === undefined) {
  process.stderr.write(
    "usage: fillStore.js --homedir DIR --entries N [--per-block 20000] [--chains 16] [--content-bytes 64]\n",
  );
  process.exit(2);
}
const home = values.homedir;
const total = Number(values.entries);
const perBlock = Number(values["per-block"]);
const chainCount = Number(values.chains);
const contentBytes = Number(values["content-bytes"]);
const minFreeBytes = Number(values["min-free-gb"]) * 2 ** 30;

/** Set by SIGINT/SIGTERM: the fill stops after the block being filled. */
let stopAsked = false;
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => {
    stopAsked = true;
    process.stdout.write(`${signal}: stopping after this block\n`);
  });

function freeBytes(): number {
  const s = statfsSync(home);
  return s.bavail * s.bsize;
}

async function inBatches<T>(items: readonly T[], fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += CONCURRENCY) await Promise.all(items.slice(i, i + CONCURRENCY).map(fn));
}

function dataBytes(): number {
  // the write map's file is sparse: the blocks allocated are what the disk holds
  const s = statSync(join(home, "local", "db", "data.mdb"));
  return s.blocks * 512;
}

async function main(): Promise<void> {
  const blocks = Math.ceil(total / perBlock);
  // the last block ends about now, so a node started on the store afterwards finds a recent open block
  const clock = new ManualClock(Date.now() - (blocks + 2) * BLOCK_MS);
  const n = openNode(home, { clock, blockTimeSeconds: BLOCK_MS / 1000, verifier: TRUSTING });
  // a continued store: never before its open block (a long run's clock starts further back than the last ended)
  clock.ms = Math.max(clock.ms, n.ledger.openBlock().minuteStartMs + BLOCK_MS);
  // a run id from the saved height: entries of a continued store differ from the earlier runs' ones
  const runId = `h${n.store.savedHeight()}`;
  const chains = Array.from({ length: chainCount }, (_, i) => firstEntry(["fill", runId, String(i)], `chain ${i}`));
  await buyEC(n, ecKey, BigInt(chainCount * 11 + total + 10));
  const commits: Commit[] = chains.map((c) => chainCommit(c.raw, clock.ms));
  await inBatches(commits, (c) => n.ledger.submitCommit(c));
  await inBatches(chains, (c) => n.ledger.submitReveal(c.raw));
  await finishBlock(n, BLOCK_MS / 10);
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  let added = 0;
  while (added < total) {
    if (stopAsked) break;
    if (freeBytes() < minFreeBytes) {
      process.stdout.write(`stopping: ${(freeBytes() / 2 ** 30).toFixed(1)} GiB free, below --min-free-gb\n`);
      break;
    }
    const count = Math.min(perBlock, total - added);
    const raws: Uint8Array[] = [];
    for (let i = 0; i < count; i++) {
      const index = added + i;
      const text = `ledgerd fill ${runId} entry ${index} `;
      raws.push(
        marshalEntry({
          version: 0,
          chainId: chains[index % chainCount]!.chainId,
          extIds: [EXT_ID],
          content: Buffer.from(text.padEnd(contentBytes, "."), "latin1"),
        }),
      );
    }
    await inBatches(raws, (r) => n.ledger.submitCommit(unsignedCommit(r, clock.ms)));
    await inBatches(raws, (r) => n.ledger.submitReveal(r));
    await finishBlock(n, BLOCK_MS / 10);
    added += count;
    const s = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    const cpuMsPerEntry = (cpu.user + cpu.system) / 1000 / added;
    process.stdout.write(
      `height ${n.store.savedHeight()}: ${added} entries added in ${s.toFixed(0)} s (${Math.round(added / s)}/s), data.mdb ${(dataBytes() / 2 ** 20).toFixed(0)} MiB on disk, CPU ${cpuMsPerEntry.toFixed(3)} ms/entry\n`,
    );
  }
  await n.ledger.flush();
  await closeNode(n, true);
}

await main();
