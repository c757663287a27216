/**
 * Checks of a node's state against a Workload's model, over the public API only: message statuses
 * (`ack`), balances, chains walked block by block, the directory chain's links. Each check throws an
 * AssertionError naming what differs.
 */
import assert from "node:assert/strict";
import type { LedgerdProcess } from "../support/nodeProcess.js";
import { waitFor } from "../support/waitFor.js";
import type { FinalStatus, Sent, SentReveal, Wallet, Workload } from "./workload.js";
import { rcdHex } from "./workload.js";

const ZERO_HASH = "0".repeat(64);
const STATUSES: readonly FinalStatus[] = ["DBlockConfirmed", "TransactionACK", "NotConfirmed", "Unknown"];

interface Heights {
  directoryblockheight: number;
  leaderheight: number;
}

/** Current saved height. */
export async function savedHeight(node: LedgerdProcess): Promise<number> {
  return (await node.rpc<Heights>("heights")).directoryblockheight;
}

/** Wait until the saved height reaches `height` (each block takes -blktime seconds). */
export function waitForHeight(node: LedgerdProcess, height: number, timeoutMs = 60_000): Promise<number> {
  return waitFor(
    `saved height ${height}`,
    async () => {
      const h = await savedHeight(node);
      return h >= height ? h : undefined;
    },
    timeoutMs,
    100,
    () => node.tail(),
  );
}

/** The ack request that reads a message's status. */
function ackCall(s: Sent): { method: string; params: Record<string, string> } {
  switch (s.kind) {
    case "commit":
      return { method: "ack", params: { hash: s.txId, chainid: "c" } };
    case "reveal":
      return { method: "ack", params: { hash: s.entryHash, chainid: s.chainId } };
    case "transaction":
      return { method: "ack", params: { hash: s.txId, chainid: "f" } };
  }
}

function statusOf(s: Sent, result: unknown): FinalStatus {
  const r = result as { status?: string; commitdata?: { status?: string }; entrydata?: { status?: string } };
  const status = s.kind === "transaction" ? r.status : s.kind === "commit" ? r.commitdata?.status : r.entrydata?.status;
  assert.ok(
    STATUSES.includes(status as FinalStatus),
    `ack of ${s.kind}: unexpected status ${JSON.stringify(status)} in ${JSON.stringify(result)}`,
  );
  return status as FinalStatus;
}

/** Read the status of every sent message that is not yet known to be in a block (`all`: re-read those too). */
export async function resolveStatuses(node: LedgerdProcess, sent: readonly Sent[], all = false): Promise<void> {
  const open = sent.filter((s) => all || s.final !== "DBlockConfirmed");
  const answers = await node.rpcBatch(open.map(ackCall));
  answers.forEach((a, i) => {
    const s = open[i]!;
    if ("error" in a) assert.fail(`ack of ${s.kind} ${"txId" in s ? s.txId : s.entryHash}: ${JSON.stringify(a.error)}`);
    const status = statusOf(s, a.result);
    if (s.final === "DBlockConfirmed" && status !== "DBlockConfirmed")
      assert.fail(
        `${s.kind} ${"txId" in s ? s.txId : s.entryHash} was DBlockConfirmed and is now ${status}: a saved block was lost`,
      );
    s.final = status;
  });
}

function describeSent(s: Sent): string {
  return `${s.kind} ${"txId" in s ? s.txId : s.entryHash} (answer: ${s.outcome}, status: ${s.final})`;
}

/**
 * After the node has settled (two blocks after the last write), every message must be where its answer
 * says: acknowledged ⇒ DBlockConfirmed (a reveal sent before its commit may still wait for a commit that
 * never made it); rejected ⇒ Unknown; unknown outcome ⇒ confirmed or Unknown, never half-done.
 * Nothing may be TransactionACK any more.
 */
export function checkStatuses(sent: readonly Sent[]): void {
  const problems: string[] = [];
  for (const s of sent) {
    const heldWithoutCommit = s.kind === "reveal" && s.heldFirst && s.commit.final !== "DBlockConfirmed";
    if (heldWithoutCommit) {
      // waits in the holding queue (NotConfirmed) or was lost with an unanswered request (Unknown)
      const allowed: FinalStatus[] = s.outcome === "acked" ? ["NotConfirmed"] : ["NotConfirmed", "Unknown"];
      if (!allowed.includes(s.final!))
        problems.push(`${describeSent(s)}: its commit is ${s.commit.final}, expected ${allowed.join(" or ")}`);
      continue;
    }
    if (s.outcome === "acked" && s.final !== "DBlockConfirmed")
      problems.push(`${describeSent(s)}: acknowledged but not confirmed`);
    if (s.outcome === "rejected" && s.final !== "Unknown")
      problems.push(`${describeSent(s)}: rejected but known to the ledger`);
    if (s.outcome === "unknown" && s.final !== "DBlockConfirmed" && s.final !== "Unknown")
      problems.push(`${describeSent(s)}: half-done after a crash`);
    if (s.kind === "reveal" && s.final === "DBlockConfirmed" && s.commit.final !== "DBlockConfirmed")
      problems.push(`${describeSent(s)}: confirmed without its commit (${s.commit.final})`);
  }
  assert.deepEqual(problems.slice(0, 20), [], `${problems.length} message(s) in the wrong state`);
}

interface BalanceList {
  balances: { ack: number; saved: number; err: string }[];
}

/** Balances of the test addresses and EC key equal the model; the asset total is conserved. */
export async function checkBalances(
  node: LedgerdProcess,
  w: Workload,
  initial: ReadonlyMap<string, bigint>,
  genesisTotal: bigint,
): Promise<void> {
  const wallet: Wallet = w.wallet;
  const expected = w.expectedAssetBalances(initial);
  const list = await node.rpc<BalanceList>("multiple-asset-balances", {
    addresses: wallet.all.map((k) => k.publicAddress),
  });
  let sum = 0n;
  wallet.all.forEach((k, i) => {
    const b = list.balances[i]!;
    const want = expected.get(rcdHex(k)) ?? 0n;
    const have = b.err === "" ? BigInt(b.saved) : 0n;
    assert.equal(
      have,
      want,
      `saved asset balance of ${k.publicAddress}: node ${have}, model ${want} (item ${JSON.stringify(b)})`,
    );
    if (b.err === "")
      assert.equal(BigInt(b.ack), have, `${k.publicAddress}: ack ${b.ack} ≠ saved ${b.saved} with nothing pending`);
    sum += have;
  });
  const burned = w.burnedAndConverted();
  assert.equal(
    sum + burned,
    genesisTotal,
    `asset balances ${sum} + fees and EC purchases ${burned} ≠ genesis total ${genesisTotal}`,
  );

  const ec = await node.rpc<BalanceList>("multiple-ec-balances", { addresses: [wallet.ec.publicAddress] });
  const e = ec.balances[0]!;
  const ecHave = e.err === "" ? BigInt(e.saved) : 0n;
  assert.equal(
    ecHave,
    w.expectedEcBalance(),
    `EC balance of ${wallet.ec.publicAddress}: node ${ecHave}, model bought − spent ${w.expectedEcBalance()}`,
  );
  if (e.err === "") assert.equal(BigInt(e.ack), ecHave, "EC ack ≠ saved with nothing pending");
}

interface EntryBlockJson {
  header: { blocksequencenumber: number; chainid: string; prevkeymr: string; dbheight: number };
  entrylist: { entryhash: string }[];
}
interface DBlockJson {
  dblock: {
    keymr: string;
    header: { prevkeymr: string; dbheight: number };
    dbentries: { chainid: string; keymr: string }[];
  };
}

/**
 * Walk each chain from its head back to its first entry block: sequence numbers count down to 0, heights
 * go down, each block is listed in its directory block, and the entries found are exactly the model's
 * confirmed entries of the chain, each readable with `entry`.
 */
export async function checkChains(node: LedgerdProcess, w: Workload): Promise<{ blocks: number; entries: number }> {
  let blocks = 0;
  let entries = 0;
  for (const chain of w.chains) {
    const expected = w.expectedChainEntries(chain.chainId);
    if (expected.size === 0) continue; // never confirmed (its creation was cut by a crash)
    const head = await node.rpc<{ chainhead: string }>("chain-head", { chainid: chain.chainId });
    let keymr = head.chainhead;
    let lastSeq = Number.POSITIVE_INFINITY;
    let lastHeight = Number.POSITIVE_INFINITY;
    const found = new Set<string>();
    while (keymr !== ZERO_HASH) {
      assert.match(keymr, /^[0-9a-f]{64}$/, `chain ${chain.chainId}: bad keymr ${JSON.stringify(keymr)}`);
      const eb = await node.rpc<EntryBlockJson>("entry-block", { keymr });
      blocks++;
      assert.equal(eb.header.chainid, chain.chainId, `entry block ${keymr} belongs to another chain`);
      assert.ok(
        eb.header.blocksequencenumber < lastSeq && eb.header.dbheight < lastHeight,
        `chain ${chain.chainId}: sequence/height do not go down at ${keymr}`,
      );
      if (lastSeq !== Number.POSITIVE_INFINITY)
        assert.equal(eb.header.blocksequencenumber, lastSeq - 1, `chain ${chain.chainId}: sequence gap at ${keymr}`);
      lastSeq = eb.header.blocksequencenumber;
      lastHeight = eb.header.dbheight;
      const d = await node.rpc<DBlockJson>("dblock-by-height", { height: eb.header.dbheight, noraw: true });
      assert.ok(
        d.dblock.dbentries.some((x) => x.chainid === chain.chainId && x.keymr === keymr),
        `entry block ${keymr} of chain ${chain.chainId} is not listed in directory block ${eb.header.dbheight}`,
      );
      for (const e of eb.entrylist) {
        assert.ok(!found.has(e.entryhash), `entry ${e.entryhash} twice in chain ${chain.chainId}`);
        found.add(e.entryhash);
      }
      keymr = eb.header.prevkeymr;
    }
    assert.equal(lastSeq, 0, `chain ${chain.chainId}: the walk did not end at sequence 0`);
    assert.ok(found.has(chain.firstEntry), `chain ${chain.chainId}: first entry missing`);
    const missing = [...expected].filter((h) => !found.has(h));
    const extra = [...found].filter((h) => !expected.has(h));
    assert.deepEqual(
      { missing: missing.slice(0, 5), extra: extra.slice(0, 5) },
      { missing: [], extra: [] },
      `chain ${chain.chainId}: ${missing.length} confirmed entries missing, ${extra.length} unexpected`,
    );
    entries += found.size;
    // every entry readable (batched)
    const reads = await node.rpcBatch([...found].map((hash) => ({ method: "entry", params: { hash } })));
    const hashes = [...found];
    reads.forEach((r, i) => {
      assert.ok("result" in r, `entry ${hashes[i]} of chain ${chain.chainId} not readable: ${JSON.stringify(r)}`);
    });
  }
  return { blocks, entries };
}

/** Directory blocks `from`..`to` link up: each one's prevkeymr is the keymr of the one before. Returns the keymr at `to`. */
export async function checkDirectoryChain(node: LedgerdProcess, from: number, to: number): Promise<string> {
  const heights = Array.from({ length: to - Math.max(0, from - 1) + 1 }, (_, i) => Math.max(0, from - 1) + i);
  const answers = await node.rpcBatch(
    heights.map((height) => ({ method: "dblock-by-height", params: { height, noraw: true } })),
  );
  let prev: string | undefined;
  answers.forEach((a, i) => {
    assert.ok("result" in a, `dblock-by-height ${heights[i]}: ${JSON.stringify(a)}`);
    const d = (a.result as DBlockJson).dblock;
    assert.equal(d.header.dbheight, heights[i]);
    if (prev !== undefined)
      assert.equal(d.header.prevkeymr, prev, `directory block ${heights[i]} does not link to ${heights[i]! - 1}`);
    prev = d.keymr;
  });
  return prev!;
}

interface PendingEntry {
  entryhash: string;
  status: string;
}
interface PendingTx {
  transactionid: string;
  inputs: unknown[] | null;
}

/** With the workload stopped and settled, nothing is pending except reveals still waiting for a commit. */
export async function checkNothingPending(node: LedgerdProcess, w: Workload): Promise<void> {
  const waiting = new Set(
    w.sent
      .filter((s): s is SentReveal => s.kind === "reveal" && s.heldFirst && s.final === "NotConfirmed")
      .map((r) => r.entryHash),
  );
  const entries = (await node.rpc<PendingEntry[] | null>("pending-entries", {})) ?? [];
  const unexpected = entries.filter((e) => !waiting.has(e.entryhash));
  assert.deepEqual(unexpected.slice(0, 5), [], `${unexpected.length} unexpected pending entries`);
  const txs = (await node.rpc<PendingTx[] | null>("pending-transactions", {})) ?? [];
  const nonCoinbase = txs.filter((t) => Array.isArray(t.inputs) && t.inputs.length > 0);
  assert.deepEqual(
    nonCoinbase.map((t) => t.transactionid),
    [],
    "transactions still pending after two blocks",
  );
}
