/**
 * The cluster tests' devnet: tools/devnet's Devnet with its processes attached to the test (they die with
 * it), in a temp directory, plus the checks every cluster test makes — saved heights, byte-identical
 * blocks on every node, and directory-block signatures verified from the admin blocks.
 *
 * Usage:
 *   const net = await startTestDevnet({ federated: 3, audit: 1, followers: 1, nats: 3, blockTimeSeconds: 2 });
 *   after(() => net.cleanup());
 *   await waitSavedHeight(net.devnet.nodes, 3);
 *   await assertIdenticalBlocks(net.devnet.nodes, 1, 3);
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { HeightsResult } from "../../src/client/index.js";
import { verifyEd25519 } from "../../src/crypto/ed25519.js";
import { Devnet, type DevnetOptions } from "../../tools/devnet/devnet.js";
import type { LedgerdNode } from "../../tools/devnet/ledgerdNode.js";
import { killAllAttached } from "../../tools/devnet/process.js";
import { waitFor } from "./waitFor.js";

/** Bytes of a directory-block header: what a directory-block signature signs (FEDERATION.md §1.2). */
export const DBLOCK_HEADER_BYTES = 113;
/** Milliseconds between polls of the nodes. */
const POLL_MS = 200;

export interface TestDevnet {
  devnet: Devnet;
  /** stop every process (SIGKILL) and remove the directory */
  cleanup(): Promise<void>;
}

/** Start a devnet in a new temp directory; its processes are SIGKILLed by cleanup() or when the test process exits. */
export async function startTestDevnet(options: Omit<DevnetOptions, "dir">): Promise<TestDevnet> {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-devnet-"));
  let devnet: Devnet;
  try {
    // a start may take minutes on a loaded machine: the bound is a net for a node that never serves
    devnet = await Devnet.up({ serveTimeoutSeconds: 300, ...options, dir }, false);
  } catch (e) {
    await killAllAttached();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    devnet,
    async cleanup() {
      devnet.close();
      await killAllAttached();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function hex(s: string): Uint8Array {
  return Uint8Array.from(Buffer.from(s, "hex"));
}

/** heights of a node, or undefined when it does not answer. */
export async function heightsOf(node: LedgerdNode): Promise<HeightsResult | undefined> {
  try {
    return await node.client.call<HeightsResult>("heights");
  } catch {
    return undefined;
  }
}

/** Wait until every given node has saved directory block `height`; returns the lowest saved height seen. */
export async function waitSavedHeight(
  nodes: readonly LedgerdNode[],
  height: number,
  timeoutMs = 60_000,
): Promise<number> {
  let seen: (number | undefined)[] = [];
  return waitFor(
    `saved height ${height}`,
    async () => {
      seen = (await Promise.all(nodes.map(heightsOf))).map((h) => h?.directoryblockheight);
      const low = Math.min(...seen.map((h) => h ?? -1));
      return low >= height ? low : undefined;
    },
    timeoutMs,
    POLL_MS,
    () =>
      `saved height ${height} on ${nodes.map((n, i) => `${n.name}=${seen[i] ?? "no answer"}`).join(", ")}:\n` +
      nodes.map((n) => `--- ${n.name}\n${n.process.logTail(800)}`).join("\n"),
  );
}

/** dblock-by-height rawdata (hex) and the keymrs of the blocks it references. */
async function dblockAt(
  node: LedgerdNode,
  height: number,
): Promise<{ raw: string; refs: { chainid: string; keymr: string }[] }> {
  const r = await node.client.call<{ dblock: { dbentries: { chainid: string; keymr: string }[] }; rawdata: string }>(
    "dblock-by-height",
    { height },
  );
  return { raw: r.rawdata, refs: r.dblock.dbentries };
}

/** Chain IDs of the admin, EC and asset chains (their blocks are fetched by keymr like entry blocks). */
const SYSTEM_CHAINS = new Set([
  "000000000000000000000000000000000000000000000000000000000000000a",
  "000000000000000000000000000000000000000000000000000000000000000c",
  "000000000000000000000000000000000000000000000000000000000000000f",
]);

/**
 * Every node's directory block at every height in [from, to] is byte-identical, and so is every block it
 * references (admin, EC, asset and entry blocks, by `raw-data`) and every entry of those entry blocks.
 * Returns the number of objects compared.
 */
export async function assertIdenticalBlocks(nodes: readonly LedgerdNode[], from: number, to: number): Promise<number> {
  assert.ok(nodes.length >= 2, "compare at least two nodes");
  let compared = 0;
  const same = async (what: string, get: (n: LedgerdNode) => Promise<string>): Promise<string> => {
    const values = await Promise.all(nodes.map(get));
    for (let i = 1; i < nodes.length; i++)
      assert.equal(values[i], values[0], `${what}: ${nodes[i]!.name} differs from ${nodes[0]!.name}`);
    compared++;
    return values[0]!;
  };
  for (let h = from; h <= to; h++) {
    await same(`dblock ${h}`, async (n) => (await dblockAt(n, h)).raw);
    const { refs } = await dblockAt(nodes[0]!, h);
    for (const ref of refs) {
      await same(
        `block ${ref.keymr} (chain ${ref.chainid}) of dblock ${h}`,
        async (n) => (await n.client.call<{ data: string }>("raw-data", { hash: ref.keymr })).data,
      );
      if (SYSTEM_CHAINS.has(ref.chainid)) continue;
      const eblock = await nodes[0]!.client.call<{ entrylist: { entryhash: string }[] }>("entry-block", {
        keymr: ref.keymr,
      });
      for (const e of eblock.entrylist)
        await same(
          `entry ${e.entryhash} of dblock ${h}`,
          async (n) => (await n.client.call<{ data: string }>("raw-data", { hash: e.entryhash })).data,
        );
    }
  }
  return compared;
}

/** An admin entry as `ablock-by-height` shows it (only the fields the checks read). */
interface AdminEntryJson {
  adminidtype: number;
  identityadminchainid?: string;
  prevdbsig?: { pub: string; sig: string };
  identitychainid?: string;
  dbheight?: number;
}

/** The admin block at `height` as JSON entries. */
export async function adminEntries(node: LedgerdNode, height: number): Promise<AdminEntryJson[]> {
  const r = await node.client.call<{ ablock: { abentries: AdminEntryJson[] } }>("ablock-by-height", { height });
  return r.ablock.abentries;
}

/**
 * Admin block `height` carries type-01 signatures over directory block height−1's 113-byte header from at
 * least a majority of `federated` (the federated servers at that height), each by a distinct member of that
 * set, with the key `keys` records for it (identity → public key, hex), each verifying. Returns the signers.
 */
export async function assertSignatureMajority(
  node: LedgerdNode,
  height: number,
  federated: ReadonlySet<string>,
  keys: ReadonlyMap<string, string>,
): Promise<string[]> {
  const header = hex((await dblockAt(node, height - 1)).raw).subarray(0, DBLOCK_HEADER_BYTES);
  const sigs = (await adminEntries(node, height)).filter((e) => e.adminidtype === 1);
  const signers: string[] = [];
  for (const s of sigs) {
    const id = s.identityadminchainid!;
    assert.ok(federated.has(id), `admin block ${height}: signature by ${id}, not a federated server at ${height}`);
    const key = keys.get(id);
    assert.equal(s.prevdbsig!.pub, key, `admin block ${height}: ${id} signed with a key that is not its own`);
    assert.ok(
      verifyEd25519(hex(key!), header, hex(s.prevdbsig!.sig)),
      `admin block ${height}: ${id}'s signature does not verify over dblock ${height - 1}'s header`,
    );
    assert.ok(!signers.includes(id), `admin block ${height}: ${id} signed twice`);
    signers.push(id);
  }
  // factomd's order (SortDBSigs): by the signer's minute-0 VM index at this height
  const vms = signers.map((id) => minuteZeroVm(federated, height, id));
  for (let i = 1; i < vms.length; i++)
    assert.ok(
      vms[i]! > vms[i - 1]!,
      `admin block ${height}: signatures not in minute-0 VM order (VM indexes ${vms.join(", ")})`,
    );
  const majority = Math.floor(federated.size / 2) + 1;
  assert.ok(
    signers.length >= majority,
    `admin block ${height}: ${signers.length} signatures, a majority of ${federated.size} is ${majority}`,
  );
  return signers;
}

/**
 * The minute-0 VM a federated server leads at `height` (factomd state/processList.go MakeMap: the leader of
 * VM j in minute m is fed (uint32(h·131) + 1 + m + j) mod N, feds sorted by chain ID; so j = (f − h·131 − 1) mod N).
 */
export function minuteZeroVm(federated: ReadonlySet<string>, height: number, identity: string): number {
  const sorted = [...federated].sort();
  const n = sorted.length;
  const f = sorted.indexOf(identity);
  const rotation = (Math.imul(height, 131) >>> 0) % n;
  return (((f - rotation - 1) % n) + n) % n;
}

/**
 * The federated servers at every height 1..`to`, read from the chain alone: LOCAL's bootstrap server, then
 * each admin entry 05 (add federated) and 06 (add audit: leaves the federated set) in force from the
 * height its `dbheight` names.
 */
export async function federatedSetsFromChain(
  node: LedgerdNode,
  to: number,
  bootstrap: string,
): Promise<Map<number, Set<string>>> {
  const changes: { at: number; id: string; add: boolean }[] = [];
  const out = new Map<number, Set<string>>();
  const current = new Set([bootstrap]);
  for (let h = 1; h <= to; h++) {
    for (const c of changes.filter((x) => x.at === h)) c.add ? current.add(c.id) : current.delete(c.id);
    out.set(h, new Set(current));
    for (const e of await adminEntries(node, h))
      if ((e.adminidtype === 5 || e.adminidtype === 6) && e.identitychainid !== undefined)
        changes.push({ at: Math.max(e.dbheight ?? h + 1, h + 1), id: e.identitychainid, add: e.adminidtype === 5 });
  }
  return out;
}

/** identity → public key of every server of the devnet (federated and audit), from the devnet's own records. */
export function serverKeys(devnet: Devnet): Map<string, string> {
  return new Map(
    devnet.nodes.filter((n) => n.layout.key !== undefined).map((n) => [n.layout.key!.identity, n.layout.key!.pubkey]),
  );
}

/**
 * Every entry hash in the entry blocks and every commit's entry hash in the EC blocks of saved heights
 * [1, to] on `node`: what the ledger holds, read from the blocks alone.
 */
export async function savedHashes(
  node: LedgerdNode,
  to: number,
): Promise<{ entries: Set<string>; commits: Set<string> }> {
  const entries = new Set<string>();
  const commits = new Set<string>();
  for (let h = 1; h <= to; h++) {
    const { refs } = await dblockAt(node, h);
    for (const ref of refs) {
      if (ref.chainid === "000000000000000000000000000000000000000000000000000000000000000c") {
        const ec = await node.client.call<{ ecblock: { body: { entries: { entryhash?: string }[] } } }>(
          "entrycredit-block",
          { keymr: ref.keymr },
        );
        for (const item of ec.ecblock.body.entries) if (item.entryhash !== undefined) commits.add(item.entryhash);
      } else if (!SYSTEM_CHAINS.has(ref.chainid)) {
        const eb = await node.client.call<{ entrylist: { entryhash: string }[] }>("entry-block", { keymr: ref.keymr });
        for (const e of eb.entrylist) entries.add(e.entryhash);
      }
    }
  }
  return { entries, commits };
}
