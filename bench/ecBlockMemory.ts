/**
 * Bytes a decoded entry-credit block holds per commit (issue 16: the node's caches keep up to 16 MiB of raw EC
 * blocks decoded, ledger/queries.ts EC_BLOCK_CACHE). A block of COMMITS entry commits (random bytes, version
 * 0: decodeECBlock parses commits structurally) is encoded once, decoded BLOCKS times and every result held;
 * V8 heap used + external memory after a full GC, before and after, ÷ commits. Also the decode's time.
 * Run alone: `node dist/bench/ecBlockMemory.js`.
 */
import { randomBytes } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parseEntryCommit } from "../src/protocol/commit.js";
import { buildECBlock, decodeECBlock, type ECBlock, type ECBlockItem, encodeECBlock } from "../src/protocol/ecblock.js";

/** Commits per block: a 6-s block at ~1,700 entries/s; the loss check's acks decode blocks of this size. */
const COMMITS = 10_000;
/** Decoded copies held at once: enough that per-block constants vanish in the quotient. */
const BLOCKS = 10;

function held(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

function main(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const items: ECBlockItem[] = [{ type: "serverIndex", number: 0 }];
  for (let i = 0; i < COMMITS; i++) {
    const b = new Uint8Array(randomBytes(136));
    b[0] = 0; // version
    items.push({ type: "entryCommit", commit: parseEntryCommit(b) });
  }
  items.push({ type: "minute", number: 1 });
  const raw = encodeECBlock(
    buildECBlock({
      prevHeaderHash: new Uint8Array(32),
      prevFullHash: new Uint8Array(32),
      dbHeight: 1,
      headerExpansion: new Uint8Array(0),
      items,
    }),
  );
  items.length = 0;
  gc();
  gc();
  const before = held();
  const kept: ECBlock[] = [];
  for (let i = 0; i < BLOCKS; i++) kept.push(decodeECBlock(raw));
  gc();
  gc();
  const perCommit = (held() - before) / (BLOCKS * COMMITS);
  const t0 = performance.now();
  for (let i = 0; i < BLOCKS; i++) decodeECBlock(raw);
  const decodeMs = (performance.now() - t0) / BLOCKS;
  console.log(
    `EC block of ${COMMITS} commits (${raw.length} bytes): ${Math.round(perCommit)} bytes held per commit decoded ` +
      `(${kept.length} blocks held), decode ${decodeMs.toFixed(1)} ms`,
  );
}

main();
