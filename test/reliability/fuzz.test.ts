// Hostile input (issue "Reliability"): (a) every protocol decoder over random bytes and mutations of the
// vectors and of freshly signed objects — only ProtocolError may come out, and an accepted input must
// re-encode to itself; (b) the JSON-RPC dispatcher of a running node over HTTP — every answer is a
// well-formed JSON-RPC response, the node never dies, and invalid input changes no state.
//
// Case counts: CI 5,000 per decoder; LEDGERD_LONG=1 100,000 per decoder (make test-long). The seed is
// printed; LEDGERD_FUZZ_SEED=<n> replays a run.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { isValidAddress, rcd1Hash } from "../../src/protocol/address.js";
import { buildChainCommit, buildEntryCommit } from "../../src/protocol/commit.js";
import { chainIdFromExtIds, marshalEntry } from "../../src/protocol/entry.js";
import { buildTransaction } from "../../src/protocol/transaction.js";
import { fuzzDecoder } from "../support/fuzz.js";
import { type HttpAnswer, killAllNodes, LedgerdProcess } from "../support/nodeProcess.js";
import { Random } from "../support/random.js";
import { buildCorpus, vectorAddressStrings, vectorBlobs } from "./corpus.js";
import { decoderTable } from "./decoderTable.js";
import { type FuzzCase, type FuzzMaterial, fuzzCase, WRITE_METHODS } from "./jsonFuzz.js";
import { savedHeight, waitForHeight } from "./ledgerChecks.js";
import { fuzzSeed, LONG } from "./mode.js";
import { testWallet, type Wallet, Workload } from "./workload.js";

/** Inputs per decoder: CI and long mode (issue: ≥ 5,000 in CI, ≥ 100,000 long). */
const CASES_PER_DECODER = LONG ? 100_000 : 5_000;
/** Share of the cases given to structure-aware variants (extreme field values, splices of two seeds). */
const STRUCTURED_SHARE = 0.25;

/** Big-endian extremes for 1-, 2-, 4- and 8-byte fields: counts, sizes, heights, amounts. */
const EXTREMES: readonly number[][] = [
  [0x00],
  [0xff],
  [0x80],
  [0x7f],
  [0xff, 0xff],
  [0x00, 0x00],
  [0x28, 0x01], // 10241: one over the entry payload limit
  [0xff, 0xff, 0xff, 0xff],
  [0x7f, 0xff, 0xff, 0xff],
  [0x00, 0x01, 0x86, 0xa1], // 100,001: one over the directory block entry limit
  [0x00, 0x00, 0x00, 0x00],
  [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
  [0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00], // a 10-byte varint
  [0x80, 0x01], // non-minimal varint
];

/** Inputs that keep most of a valid object: one field set to an extreme, or two objects spliced. */
function structuredVariants(rng: Random, seeds: readonly Uint8Array[], count: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const a = rng.pick(seeds);
    if (rng.chance(0.7) || seeds.length < 2) {
      const ext = rng.pick(EXTREMES);
      const at = a.length === 0 ? 0 : rng.int(0, a.length - 1);
      const b = a.slice();
      for (let k = 0; k < ext.length && at + k < b.length; k++) b[at + k] = ext[k]!;
      out.push(b);
    } else {
      const b = rng.pick(seeds);
      out.push(Uint8Array.from([...a.subarray(0, rng.int(0, a.length)), ...b.subarray(rng.int(0, b.length))]));
    }
  }
  return out;
}

/** The vector blobs a decoder accepts: its "own" real-world inputs. */
function acceptedBy(decode: (b: Uint8Array) => unknown, blobs: readonly Uint8Array[]): Uint8Array[] {
  return blobs.filter((b) => {
    try {
      decode(b);
      return true;
    } catch {
      return false;
    }
  });
}

describe("protocol decoders under random and mutated input", { concurrency: false }, () => {
  const seed = fuzzSeed();
  const corpus = buildCorpus();
  corpus.addresses.push(...vectorAddressStrings().filter((a) => isValidAddress(a)));
  const blobs = vectorBlobs();
  const table = decoderTable(corpus);
  let total = 0;

  table.forEach((d, index) => {
    it(`${d.name}: ${CASES_PER_DECODER} cases, only ProtocolError`, () => {
      const rng = new Random(seed + index * 7919);
      const own = [...d.ownSeeds, ...acceptedBy(d.decode, blobs)];
      // every own seed must decode: otherwise the table or the corpus is wrong and the fuzz is blind
      for (const s of d.ownSeeds) d.decode(s);
      // a decoder without valid inputs of its own is fed every blob (cross-format bytes)
      const seeds = own.length > 0 ? own : blobs.slice();
      const structuredCases = Math.floor(CASES_PER_DECODER * STRUCTURED_SHARE);
      // No time limit per case here (a loaded machine is not a measurement): a decoder that loops on hostile
      // input hangs this test until its timeout; the slowest decode is make bench's budget.fuzz.slowestDecode.
      const onAccept = (value: unknown, bytes: Uint8Array): void => {
        try {
          d.onAccept?.(value as never, bytes);
        } catch (e) {
          assert.fail(`seed ${rng.seed}: ${d.name}: ${e instanceof Error ? e.message : String(e)}`);
        }
      };
      const accepted =
        fuzzDecoder(rng, d.decode, {
          seeds,
          cases: CASES_PER_DECODER - structuredCases,
          maxRandomLength: d.maxRandomLength,
          onAccept,
        }) +
        fuzzDecoder(rng, d.decode, { seeds: structuredVariants(rng, seeds, 256), cases: structuredCases, onAccept });
      total += CASES_PER_DECODER;
      // Every case ran (fuzzDecoder fails on anything but ProtocolError); the accept count shows the fuzz
      // reached past the first checks for decoders that have valid inputs.
      if (own.length > 0) assert.ok(accepted > 0, `${d.name}: no mutated input was ever accepted (seed ${seed})`);
    });
  });

  it("ran the issue's number of cases", () => {
    assert.ok(total >= (LONG ? 100_000 : 5_000), `${total} cases`);
    process.stdout.write(`# decoder fuzz: ${table.length} decoders, ${total} cases, seed ${seed}\n`);
  });
});

// ───────────────────────────── (b) the JSON-RPC dispatcher over HTTP ─────────────────────────────

/** HTTP fuzz cases: CI and long mode. */
const HTTP_CASES = LONG ? 60_000 : 3_000;
/** Requests in flight at once. */
const HTTP_CONCURRENCY = 8;
/** Error codes the node may answer (spec §7 and the reference's custom codes); -32603 is never right for bad input. */
const KNOWN_CODES = new Set([-32700, -32600, -32601, -32602, -32000, -32008, -32009, -32010, -32011, -32050]);
/** Default limits (docs/configuration.md): body bytes and batch size. */
const MAX_BODY = 1024 * 1024;
const MAX_BATCH = 100;

/** What is wrong with one response object, or undefined. */
function responseProblem(r: unknown): string | undefined {
  if (typeof r !== "object" || r === null || Array.isArray(r))
    return `not a response object: ${JSON.stringify(r)?.slice(0, 120)}`;
  const o = r as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => !["jsonrpc", "id", "result", "error"].includes(k));
  if (extra.length > 0) return `unexpected members ${extra.join(",")}`;
  if (o.jsonrpc !== "2.0") return `jsonrpc is ${JSON.stringify(o.jsonrpc)}`;
  if (!("id" in o)) return "no id";
  if ("result" in o === "error" in o) return "must have exactly one of result and error";
  if ("error" in o) {
    const e = o.error as Record<string, unknown> | null;
    if (typeof e !== "object" || e === null) return "error is not an object";
    if (!Number.isInteger(e.code)) return `error.code ${JSON.stringify(e.code)}`;
    if (typeof e.message !== "string" || e.message === "") return "error.message missing";
    if (e.code === -32603) return `-32603 Internal error for client input (data ${JSON.stringify(e.data)})`;
    if (!KNOWN_CODES.has(e.code as number)) return `unknown error code ${e.code}`;
  }
  return undefined;
}

/** Check one HTTP answer against what the case allows. */
function answerProblem(c: FuzzCase, a: HttpAnswer): string | undefined {
  const bytes = Buffer.byteLength(c.body);
  // the body limit applies first (before routing), then /debug answers only GET and POST (empty 404)
  if (bytes > MAX_BODY) return a.status === 413 ? undefined : `body of ${bytes} bytes: HTTP ${a.status}`;
  if (c.endpoint === "debug" && c.httpMethod !== "GET" && c.httpMethod !== "POST")
    return a.status === 404 ? undefined : `/debug ${c.httpMethod}: HTTP ${a.status}`;
  if (a.status !== 200 && a.status !== 400) return `HTTP ${a.status}`;
  let json: unknown;
  try {
    json = JSON.parse(a.text);
  } catch {
    return `HTTP ${a.status} body is not JSON: ${JSON.stringify(a.text.slice(0, 120))}`;
  }
  if (Array.isArray(json)) {
    if (a.status !== 200) return `batch answer with HTTP ${a.status}`;
    if (c.kind === "batch" && json.length !== c.batchSize) return `batch of ${c.batchSize}, ${json.length} answers`;
    for (const item of json) {
      const p = responseProblem(item);
      if (p !== undefined) return `batch item: ${p}`;
    }
    return undefined;
  }
  const p = responseProblem(json);
  if (p !== undefined) return p;
  const o = json as Record<string, unknown>;
  if ("result" in o && a.status !== 200) return `result with HTTP ${a.status}`;
  if ("error" in o && a.status !== 400) return `error with HTTP ${a.status}`;
  if (c.kind === "batch" && c.batchSize >= 1 && c.batchSize <= MAX_BATCH)
    return "a batch within the limit answered with one object";
  return undefined;
}

/** Write methods of the case that were answered with a result (a real submission). */
function writeMethodsAnswered(c: FuzzCase, a: HttpAnswer): string[] {
  let json: unknown;
  try {
    json = JSON.parse(a.text);
  } catch {
    return [];
  }
  const items = Array.isArray(json) ? json : [json];
  return items.flatMap((item, k) => {
    const method = c.methods[k];
    const ok = typeof item === "object" && item !== null && "result" in item;
    return ok && method !== undefined && WRITE_METHODS.has(method) ? [method] : [];
  });
}

/** The node's state that no invalid request may change (independent of the height). */
async function stateSnapshot(node: LedgerdProcess, wallet: Wallet, chains: string[]): Promise<Record<string, unknown>> {
  const pendingEntries = ((await node.rpc<{ entryhash: string; status: string }[] | null>("pending-entries", {})) ?? [])
    .map((e) => `${e.entryhash}:${e.status}`)
    .sort();
  const pendingTxs = (
    (await node.rpc<{ transactionid: string; inputs: unknown[] }[] | null>("pending-transactions", {})) ?? []
  )
    .filter((t) => t.inputs.length > 0)
    .map((t) => t.transactionid);
  const held = ((await node.rpc<{ Messages: unknown[] | null }>("holding-queue", undefined, "debug")).Messages ?? [])
    .map((m) => JSON.stringify(m))
    .sort();
  return {
    assetBalances: await node
      .rpc("multiple-asset-balances", { addresses: wallet.all.map((k) => k.publicAddress) })
      .then((r) => (r as { balances: unknown }).balances),
    ecBalances: await node
      .rpc("multiple-ec-balances", { addresses: [wallet.ec.publicAddress] })
      .then((r) => (r as { balances: unknown }).balances),
    chainHeads: await Promise.all(chains.map((chainid) => node.rpc("chain-head", { chainid }))),
    pendingEntries,
    pendingTxs,
    held,
    dropRate: await node.rpc("drop-rate", undefined, "debug"),
    delay: await node.rpc("delay", undefined, "debug"),
    configuration: await node.rpc("configuration", undefined, "debug"),
    rate: await node.rpc("entry-credit-rate"),
  };
}

/** Fresh valid signed messages (never submitted) for the generator to mutate. */
function freshMessages(wallet: Wallet, chainId: string, rate: bigint): FuzzMaterial["hexMessages"] {
  const now = Date.now();
  const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
  const entry = marshalEntry({
    version: 0,
    chainId: Buffer.from(chainId, "hex"),
    extIds: [Buffer.from("fuzz")],
    content: Buffer.from("fuzz content"),
  });
  const commit = buildEntryCommit({ entryRaw: entry, milliTime: now, ecSeed: wallet.ec.seed });
  const firstExt = [Buffer.from("fuzz chain"), Buffer.from(String(now))];
  const first = marshalEntry({
    version: 0,
    chainId: chainIdFromExtIds(firstExt),
    extIds: firstExt,
    content: Buffer.from("x"),
  });
  const chainCommit = buildChainCommit({ entryRaw: first, milliTime: now, ecSeed: wallet.ec.seed });
  const tx = buildTransaction({
    milliTimestamp: now,
    inputs: [{ seed: wallet.genesis.seed, amount: 1_000_000n + 100n * rate }],
    outputs: [{ address: rcd1Hash(wallet.others[0]!.publicKey), amount: 1_000_000n }],
    ecOutputs: [],
  });
  const ts = Buffer.alloc(6);
  ts.writeUIntBE(now, 0, 6);
  return [
    { method: "commit-entry", param: "message", hex: hex(commit.raw) },
    { method: "reveal-entry", param: "entry", hex: hex(entry) },
    { method: "commit-chain", param: "message", hex: hex(chainCommit.raw) },
    { method: "reveal-chain", param: "entry", hex: hex(first) },
    { method: "asset-submit", param: "transaction", hex: hex(tx.raw) },
    { method: "send-raw-message", param: "message", hex: `06${hex(commit.raw)}` },
    { method: "send-raw-message", param: "message", hex: `05${hex(chainCommit.raw)}` },
    { method: "send-raw-message", param: "message", hex: `09${hex(tx.raw)}` },
    { method: "send-raw-message", param: "message", hex: `0d${ts.toString("hex")}${hex(entry)}` },
    { method: "ack", param: "fulltransaction", hex: hex(tx.raw) },
  ];
}

describe("the JSON-RPC dispatcher over HTTP under hostile requests", { concurrency: false }, () => {
  const seed = fuzzSeed();
  const wallet = testWallet(2);
  let node: LedgerdProcess;
  let w: Workload;
  let material: FuzzMaterial;

  before(async () => {
    node = await LedgerdProcess.start({ blockTimeSeconds: 2 });
    const rate = BigInt((await node.rpc<{ rate: number }>("entry-credit-rate")).rate);
    w = new Workload(wallet, rate);
    assert.ok(await w.transfer(node, wallet.genesis, [{ to: wallet.others[0]!, amount: 10n ** 10n }], rate * 1000n));
    assert.ok(await w.createChain(node, `fuzz ${seed}`));
    await waitForHeight(node, (await savedHeight(node)) + 2);
    const rng = new Random(seed);
    assert.ok(await w.addEntry(node, rng, w.chains[0]!.chainId, false));
    await waitForHeight(node, (await savedHeight(node)) + 2);
    const confirmed = [w.chains[0]!.firstEntry, ...w.sent.map((s) => ("txId" in s ? s.txId : s.entryHash))];
    material = {
      hexMessages: freshMessages(wallet, w.chains[0]!.chainId, rate),
      addresses: [
        ...wallet.all.map((k) => k.publicAddress),
        wallet.ec.publicAddress,
        wallet.ec.privateAddress,
        wallet.genesis.privateAddress,
      ],
      hashes: [...confirmed, w.chains[0]!.chainId, "0".repeat(63) + "a", "0".repeat(64)],
    };
  });
  after(async () => {
    await killAllNodes();
    node?.cleanup();
  });

  it(`${HTTP_CASES} random requests: well-formed answers, the node stays up, invalid input changes nothing`, async () => {
    const rng = new Random(seed ^ 0x9e3779b9);
    const before = await stateSnapshot(
      node,
      wallet,
      w.chains.map((c) => c.chainId),
    );
    const problems: string[] = [];
    const writeSuccesses: string[] = [];
    let next = 0;
    const counts = { single: 0, batch: 0, broken: 0, errors: 0, results: 0 };
    await Promise.all(
      Array.from({ length: HTTP_CONCURRENCY }, async () => {
        while (next < HTTP_CASES && problems.length < 20) {
          const i = next++;
          const c = fuzzCase(rng, material);
          counts[c.kind]++;
          if (c.kind !== "broken") {
            try {
              JSON.parse(c.body);
            } catch (e) {
              problems.push(
                `case ${i}: the generator wrote invalid JSON for a ${c.kind} case (${String(e)}): ${c.body.slice(0, 200)}`,
              );
              continue;
            }
          }
          let a: HttpAnswer;
          try {
            a = await node.post(c.body, {
              path: `/${c.endpoint}`,
              headers: { "X-Fuzz-Case": String(i) },
              timeoutMs: 30_000,
              method: c.httpMethod,
            });
          } catch (e) {
            problems.push(
              `case ${i} (seed ${seed}): no answer (${e instanceof Error ? e.message : String(e)}; node ${node.exitDescription || "running"}) to ${c.httpMethod} /${c.endpoint} ${JSON.stringify(c.body.slice(0, 300))}`,
            );
            continue;
          }
          const p = answerProblem(c, a);
          if (p !== undefined)
            problems.push(
              `case ${i} (seed ${seed}): ${p}\n  request ${c.httpMethod} /${c.endpoint} ${JSON.stringify(c.body.slice(0, 200))}\n  answer ${a.status} ${a.text.slice(0, 200)}`,
            );
          if (a.text.includes('"result"')) counts.results++;
          if (a.text.includes('"error"')) counts.errors++;
          for (const m of writeMethodsAnswered(c, a)) writeSuccesses.push(`case ${i} ${m}`);
        }
      }),
    );
    assert.ok(node.isRunning, `the node died (${node.exitDescription}):\n${node.tail()}`);
    assert.deepEqual(problems, [], `${problems.length} bad answers`);

    // A mutated reveal can still be a valid entry for an existing chain: it then waits in the holding queue
    // (NotConfirmed) for a commit. That is the only state a fuzz request may legitimately add.
    const after = await stateSnapshot(
      node,
      wallet,
      w.chains.map((c) => c.chainId),
    );
    const newPending = (after.pendingEntries as string[]).filter(
      (e) => !(before.pendingEntries as string[]).includes(e),
    );
    assert.ok(
      newPending.every((e) => e.endsWith(":NotConfirmed")),
      `fuzz requests added pending entries other than held reveals: ${newPending.join(", ")}`,
    );
    assert.ok(
      newPending.length <= writeSuccesses.length,
      `${newPending.length} new held reveals but ${writeSuccesses.length} successful writes`,
    );
    assert.equal(
      (after.held as string[]).length - (before.held as string[]).length,
      newPending.length,
      "holding queue grew by the held reveals only",
    );
    const { pendingEntries: _a, held: _b, ...restAfter } = after;
    const { pendingEntries: _c, held: _d, ...restBefore } = before;
    assert.deepEqual(
      restAfter,
      restBefore,
      `state changed by the fuzz (write successes: ${writeSuccesses.slice(0, 5).join(" | ")})`,
    );
    process.stdout.write(
      `# http fuzz: ${HTTP_CASES} cases (${counts.single} single, ${counts.batch} batches, ${counts.broken} broken bodies), seed ${seed}; ` +
        `${writeSuccesses.length} write successes (held reveals: ${newPending.length})\n`,
    );
  });
});
