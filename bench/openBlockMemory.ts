/**
 * `budget.ledger.openBlockBytes`: memory the open block holds per entry, bytes — what bounds the node's
 * anonymous RSS under sustained writes (issue 16: ≤ 400 MB during a 60-s write run; a 6-s block at 8,000
 * entries/s holds 48,000 entries, and the block being saved overlaps the next). In process, through the
 * ledger's real accept path, with messages decoded as the RPC layer decodes them (hex → Buffer → commit
 * decoder / raw entry): ENTRIES commit + reveal pairs of 64-byte content and one ext ID over CHAINS chains,
 * as tools/loadgen writes them; V8 heap used + external memory (ArrayBuffers, all of it malloc'ed) after a
 * full GC, before and after, ÷ entries. Run alone: `node dist/bench/openBlockMemory.js`.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { toHex } from "../src/protocol/bytes.js";
import { decodeChainCommit, decodeEntryCommit } from "../src/protocol/commit.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  entryCommit,
  entryRaw,
  finishBlock,
  firstEntry,
  openNode,
  tempDir,
} from "../test/unit/ledger/harness.js";
import type { BenchRow } from "./row.js";

/** Entries in the measured open block (a 6-s block at ~3,300 entries/s). */
export const OPEN_BLOCK_ENTRIES = 20_000;
const CHAINS = 50;
/** Submissions in flight at once (their journal writes share commits, as under load). */
const IN_FLIGHT = 500;
/**
 * Most bytes the open block may hold per entry: 800 leaves the 7-s blocks of a 7,000-entries/s run
 * (~50,000 entries, two blocks alive while one is saved) at ~80 MB. Measured 3,545 before the byte arena,
 * 1,459–1,830 with its views, 537–539 with handles, columns and digest tables (issue 35 change 19,
 * docs/performance.md §Memory).
 */
export const OPEN_BLOCK_BYTES_LIMIT = 800;

function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

function held(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** Hex text → bytes the way rpc/params.ts decodes a hex member (a view of Node's Buffer pool for short text). */
function fromHexLikeRpc(hex: string): Uint8Array {
  const b = Buffer.from(hex, "hex");
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Bytes held per open-block entry (median of `rounds` fresh ledgers). */
export async function measureOpenBlockBytes(rounds = 1): Promise<number[]> {
  const gc = collector();
  const out: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const dir = tempDir("ledgerd-bench-openblock-");
    const n = openNode(dir);
    try {
      await buyEC(n, ecKey, BigInt(CHAINS * 11 + OPEN_BLOCK_ENTRIES));
      const chains = Array.from({ length: CHAINS }, (_, i) => firstEntry(["mem", String(i)], `chain ${i}`));
      for (const c of chains) {
        await n.ledger.submitCommit(decodeChainCommit(chainCommit(c.raw, n.clock.ms).raw));
        await n.ledger.submitReveal(c.raw);
      }
      await finishBlock(n);
      // the messages as the RPC layer receives them: hex text, pre-built so that only the ledger's holdings count
      const commits: string[] = [];
      const reveals: string[] = [];
      for (let i = 0; i < OPEN_BLOCK_ENTRIES; i++) {
        const raw = entryRaw(chains[i % CHAINS]!.chainId, [`e${i}`], `${round}-${i}-`.padEnd(64, "."));
        commits.push(toHex(entryCommit(raw, n.clock.ms).raw));
        reveals.push(toHex(raw));
      }
      gc();
      gc();
      const before = held();
      for (let i = 0; i < OPEN_BLOCK_ENTRIES; i += IN_FLIGHT) {
        const end = Math.min(OPEN_BLOCK_ENTRIES, i + IN_FLIGHT);
        const pending: Promise<unknown>[] = [];
        for (let j = i; j < end; j++)
          pending.push(n.ledger.submitCommit(decodeEntryCommit(fromHexLikeRpc(commits[j]!))));
        await Promise.all(pending);
        pending.length = 0;
        for (let j = i; j < end; j++) pending.push(n.ledger.submitReveal(fromHexLikeRpc(reveals[j]!)));
        await Promise.all(pending);
      }
      commits.length = 0;
      reveals.length = 0;
      gc();
      gc();
      const entries = n.ledger.openBlockSizes().reveals;
      if (entries !== OPEN_BLOCK_ENTRIES)
        throw new Error(`open block holds ${entries} entries, not ${OPEN_BLOCK_ENTRIES}`);
      out.push((held() - before) / OPEN_BLOCK_ENTRIES);
    } finally {
      await closeNode(n);
      cleanup(dir);
    }
  }
  return out;
}

/**
 * The budget row: one round (~30 s here, most of it signing the 20,000 commits; three rounds agreed within
 * 0.4 %: 1,810, 1,814, 1,816 bytes).
 */
export async function openBlockMemoryRow(): Promise<BenchRow> {
  const bytes = await measureOpenBlockBytes(1);
  const median = [...bytes].sort((a, b) => a - b)[bytes.length >> 1]!;
  return {
    id: "budget.ledger.openBlockBytes",
    section: "budget",
    name: `open block: bytes held per entry (${OPEN_BLOCK_ENTRIES.toLocaleString("en-US")} entries, heap + external after GC)`,
    opsPerSec: 0,
    meanUs: 0,
    p99Us: 0,
    samples: bytes.length,
    itemUnit: "entry",
    note: `rounds: ${bytes.map((b) => Math.round(b)).join(", ")} bytes per entry`,
    budget: { value: Math.round(median), limit: OPEN_BLOCK_BYTES_LIMIT, unit: "bytes" },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bytes = await measureOpenBlockBytes(Number(process.argv[2] ?? 3));
  console.log(`open block: ${bytes.map((b) => Math.round(b)).join(", ")} bytes per entry`);
}
