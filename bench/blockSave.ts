/**
 * The block save alone, for an A/B of two builds' store (docs/performance.md §Disk): `--blocks` block sets of
 * `--entries` entries each (109-byte entries under random hashes, as real blocks have them; each with its paid
 * commit, revealed, and a commit under two keys), packed on the main thread (`LedgerStore.packBlockSet`) and saved
 * by the writer thread (`savePacked`) into a fresh store in DIR (removed after). `--dist` loads the store of another
 * build's dist/ (e.g. a copy of main's) instead of this one's, so the same script measures both.
 *
 *   node dist/bench/blockSave.js --dir /tmp/x [--dist /path/to/other/dist] [--blocks 8] [--entries 20000]
 *
 * One JSON line: writer-thread ms per block, the process's CPU per entry (both threads), packing µs per entry.
 */
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { parseArgs } from "node:util";
import type { BlockSetWrite, LedgerStore as Store } from "../src/store/store.js";

const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    dist: { type: "string" },
    blocks: { type: "string", default: "8" },
    entries: { type: "string", default: "20000" },
  },
});
if (values.dir === undefined) {
  process.stderr.write("usage: blockSave.js --dir DIR [--dist OTHER_DIST] [--blocks N] [--entries N]\n");
  process.exit(2);
}
const dir = values.dir;
const blocks = Number(values.blocks);
const perBlock = Number(values.entries);
const from = values.dist === undefined ? "../src" : `${values.dist}/src`;
const { LedgerStore } = (await import(`${from}/store/store.js`)) as { LedgerStore: typeof Store };
const { networkId } = (await import(`${from}/protocol/network.js`)) as { networkId: (n: "LOCAL") => number };

const EC_BLOCK_BYTES_PER_COMMIT = 136;
const ENTRY_BYTES = 109;
const keyMR = randomBytes(32);

function blockSet(height: number, n: number): BlockSetWrite {
  const hashes = Array.from({ length: n }, () => randomBytes(32));
  const txIds = Array.from({ length: n }, () => randomBytes(32));
  return {
    height,
    openBlockStartMs: 1_700_000_000_000 + height * 600_000,
    blocks: [
      { kind: 1, primary: randomBytes(32), raw: randomBytes(200), height },
      { kind: 3, primary: randomBytes(32), raw: randomBytes(n * EC_BLOCK_BYTES_PER_COMMIT + 100), height },
    ],
    entries: hashes.map((entryHash, i) => ({
      entryHash,
      raw: randomBytes(ENTRY_BYTES),
      location: { entryBlockKeyMR: keyMR, height, commitTxId: txIds[i]! },
    })),
    transactions: [],
    commits: txIds.map((txId, index) => ({
      keys: [txId, randomBytes(32)],
      location: { ecBlockHeaderHash: keyMR, height, index },
    })),
    paidCommits: hashes.map((entryHash, i) => ({
      entryHash,
      record: {
        kind: "entry" as const,
        credits: 1,
        revealed: true,
        height,
        milliTime: 1_700_000_000_000,
        txId: txIds[i]!,
        chainIdHash: new Uint8Array(32),
      },
    })),
    chainHeads: [],
    assetBalances: [],
    ecBalances: [],
    journalCarry: [],
  };
}

rmSync(dir, { recursive: true, force: true });
const options = { path: dir, network: "LOCAL" as const, networkId: networkId("LOCAL") };
const store = LedgerStore.open(options);
store.initialize(options, blockSet(0, 0));
const sets = Array.from({ length: blocks }, (_, i) => blockSet(i + 1, perBlock));
let packMs = 0;
let writeMs = 0;
const cpu = process.cpuUsage();
for (const set of sets) {
  const packed = await store.packBlockSet(set);
  packMs += packed.busyMs;
  writeMs += await store.savePacked(packed);
}
const used = process.cpuUsage(cpu);
await store.close();
rmSync(dir, { recursive: true, force: true });
const entries = blocks * perBlock;
process.stdout.write(
  `${JSON.stringify({
    store: from,
    entries,
    writerMsPerBlock: Math.round(writeMs / blocks),
    processCpuUsPerEntry: +((used.user + used.system) / entries).toFixed(1),
    packUsPerEntry: +((packMs * 1000) / entries).toFixed(1),
  })}\n`,
);
