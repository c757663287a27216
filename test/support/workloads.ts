/**
 * Workloads shared by the tests and the budget rows of `make bench` (bench/budgets.ts), so that the bench
 * times exactly what the tests check: a big block of entries in many chains (test/unit/ledger/
 * close-performance.test.ts), and a flood of invalid requests (test/reliability/limits.test.ts).
 */
import * as http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { Commit } from "../../src/protocol/commit.js";
import { buyEC, chainCommit, ecKey, entryCommit, entryRaw, firstEntry, type TestNode } from "../unit/ledger/harness.js";
import type { LedgerdProcess } from "./nodeProcess.js";

/** The big block: entries in chains. */
export const BIG_BLOCK = { chains: 50, entries: 10_000 } as const;
/** Submissions in flight at once (their journal writes share LMDB commits). */
const BIG_BLOCK_CONCURRENCY = 1000;

async function inBatches<T>(items: T[], fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += BIG_BLOCK_CONCURRENCY)
    await Promise.all(items.slice(i, i + BIG_BLOCK_CONCURRENCY).map(fn));
}

/**
 * Fill the open block of `n` with `shape.entries` entries in `shape.chains` chains (each chain's first
 * entry, then ~100-byte entries round the chains): buys the credits, then commits and reveals everything.
 * BIG_BLOCK (the budget row's workload) unless a test asks for less.
 */
export async function submitBigBlock(
  n: TestNode,
  shape: { chains: number; entries: number } = BIG_BLOCK,
): Promise<void> {
  const { chains: chainCount, entries } = shape;
  await buyEC(n, ecKey, BigInt(chainCount * 11 + entries));
  const chains = Array.from({ length: chainCount }, (_, i) => firstEntry(["perf", String(i)], `chain ${i}`));
  const reveals: Uint8Array[] = [];
  const commits: Commit[] = [];
  for (const c of chains) {
    commits.push(chainCommit(c.raw, n.clock.ms));
    reveals.push(c.raw);
  }
  for (let i = 0; reveals.length < entries; i++) {
    const raw = entryRaw(chains[i % chainCount]!.chainId, [`e${i}`], `entry ${i} `.padEnd(100, "."));
    commits.push(entryCommit(raw, n.clock.ms));
    reveals.push(raw);
  }
  await inBatches(commits, (c) => n.ledger.submitCommit(c));
  await inBatches(reveals, (r) => n.ledger.submitReveal(r));
}

/** Parallel connections of the flood. */
export const FLOOD_CONCURRENCY = 32;
/** Requests of the warm-up before the baseline RSS is taken, with the flood's concurrency. */
export const FLOOD_WARMUP_REQUESTS = 2_000;

/**
 * The invalid requests of the flood: malformed JSON, an unknown method, oversized hex, a bad hash, a batch
 * of bad addresses, deep nesting, and two of ~0.4 MB (a hex member of 400,000 characters, a 500,000-character
 * id), which cost ~50× a small one to parse (`isBigFloodBody`).
 */
export function floodBodies(): string[] {
  const bigHex = "zz".repeat(200_000);
  return [
    "{",
    "garbage",
    `{"jsonrpc":"2.0","id":1,"method":"no-such-method"}`,
    `{"jsonrpc":"2.0","id":1,"method":"commit-entry","params":{"message":"${bigHex}"}}`,
    `{"jsonrpc":"2.0","id":1,"method":"reveal-entry","params":{"entry":"${"00".repeat(10_300)}"}}`,
    `{"jsonrpc":"2.0","id":1,"method":"entry","params":{"hash":"${"ab".repeat(40)}"}}`,
    JSON.stringify(
      Array.from({ length: 100 }, (_, i) => ({
        jsonrpc: "2.0",
        id: i,
        method: "asset-balance",
        params: { address: `FA${i}` },
      })),
    ),
    "[".repeat(5000) + "]".repeat(5000),
    `{"jsonrpc":"2.0","id":"${"x".repeat(500_000)}","method":"heights","params":[]}`,
  ];
}

/** True for the flood's ~0.4 MB bodies. */
export function isBigFloodBody(body: string): boolean {
  return body.length > 100_000;
}

/** POSTs to `/v2` of a node on loopback over FLOOD_CONCURRENCY kept-alive connections; resolves with the status. */
export function floodPoster(port: number): { post(body: string): Promise<number>; destroy(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: FLOOD_CONCURRENCY });
  const post = (body: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/v2",
          agent,
          headers: { "Content-Length": Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  return { post, destroy: () => agent.destroy() };
}

/** The node's RSS once it settles after a flood (V8 collects and returns pages): the least of 9 samples over 2 s. */
export async function settledRss(node: LedgerdProcess): Promise<number | undefined> {
  let rss = node.rssBytes();
  for (let i = 0; i < 8; i++) {
    await sleep(250);
    const r = node.rssBytes();
    if (r !== undefined && (rss === undefined || r < rss)) rss = r;
  }
  return rss;
}
