/**
 * Brain swap on a devnet (issue 33 item 3): 3 nats-servers, 3 federated servers, 1 audit server and 1 follower
 * — real processes on loopback, 2-second blocks — under entry writes sent through the follower. fed1's identity
 * moves from its machine (A) to a second process (B: same identity and key, its own data directory) at h1 with
 * `ledgerd-cluster swap --reload-from A`, B started before h1 and A stopped after it; then back from B to A at h2
 * (A restarted with its activation height, B stopped after h2). While A is down only B can sign for fed1, and
 * the other way round, so fed1's signature in every block shows which machine signed. Checked: fed1 signed
 * every block on both sides of both swaps, the federated set never changed (no fault vote), every block
 * majority-signed by the servers federated at its height, byte-identical blocks on every node, every
 * acknowledged write in a saved block. Runtime: ~150 s on a loaded 2-core machine.
 */
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX } from "../../src/protocol/genesis.js";
import { main as clusterTool } from "../../tools/cluster/commands.js";
import { PROJECT_ROOT } from "../../tools/devnet/devnet.js";
import { LedgerdNode } from "../../tools/devnet/ledgerdNode.js";
import { sleep } from "../../tools/devnet/process.js";
import { freeLoopbackPorts } from "../../tools/net/freePorts.js";
import { ClusterWriter } from "../support/clusterWriter.js";
import {
  assertIdenticalBlocks,
  assertSignatureMajority,
  federatedSetsFromChain,
  heightsOf,
  savedHashes,
  serverKeys,
  startTestDevnet,
  type TestDevnet,
  waitSavedHeight,
} from "../support/testDevnet.js";

const BLOCK_SECONDS = 2;
/**
 * Short enough that a swap that left fed1 silent would be voted out within the test (fed1's signature would be
 * missing and the federated set would change), long enough that a busy machine's slow minute is no fault.
 */
const FAULT_TIMEOUT_SECONDS = 30;
/** Blocks between the swap command and its height: B starts and catches up meanwhile (2 s blocks). */
const LEAD_BLOCKS = 10;

describe("brain swap on a devnet (3 nats, 3 federated, 1 audit, 1 follower)", () => {
  let net: TestDevnet;
  const writer = new ClusterWriter("brainswap");

  before(async () => {
    net = await startTestDevnet({
      federated: 3,
      audit: 1,
      followers: 1,
      nats: 3,
      blockTimeSeconds: BLOCK_SECONDS,
      faultTimeoutSeconds: FAULT_TIMEOUT_SECONDS,
    });
  });
  after(() => net?.cleanup());

  test("fed1 moves A → B at h1 and B → A at h2 under writes: signed every block, no vote, identical blocks", async (t) => {
    const devnet = net.devnet;
    const follower = devnet.node("follower0");
    const a = devnet.node("fed1");
    const id1 = a.layout.key!.identity;
    const confA = join(a.layout.home, "ledgerd.conf");
    // machine B: fed1's configuration (identity, key, NATS user) in a data directory of its own
    const homeB = join(devnet.dir, "fed1b");
    mkdirSync(homeB, { recursive: true });
    const confB = join(homeB, "ledgerd.conf");
    copyFileSync(confA, confB);
    const [portB, panelB] = await freeLoopbackPorts(2);
    const argsB = a.layout.args.map((x) =>
      x.startsWith("-homedir=")
        ? `-homedir=${homeB}`
        : x.startsWith("-config=")
          ? `-config=${confB}`
          : x.startsWith("-port=")
            ? `-port=${portB}`
            : x.startsWith("-controlpanelport=")
              ? `-controlpanelport=${panelB}`
              : x,
    );
    const b = new LedgerdNode(
      { ...a.layout, name: "fed1b", home: homeB, port: portB!, panelPort: panelB!, args: argsB },
      join(PROJECT_ROOT, "bin", "ledgerd"),
    );

    let h1 = 0;
    let h2 = 0;
    /** what an operator sees on the follower (docs/cluster.md "Maintenance without downtime") */
    const views = async () => {
      const ids = (l: { ChainID: string; Online?: boolean }[]) =>
        l.map((x) => `${x.ChainID.slice(0, 8)}${x.Online === false ? "(offline)" : ""}`).join(",");
      const fed = await follower.client.call<{ FederatedServers: { ChainID: string; Online: boolean }[] }>(
        "federated-servers",
        {},
        "debug",
      );
      const audit = await follower.client.call<{ AuditServers: { ChainID: string }[] }>("audit-servers", {}, "debug");
      const auth = await follower.client.call<{
        Authorities: { AuthorityChainID: string; SigningKey: string; Status: number }[];
      }>("authorities", {}, "debug");
      const authorities = auth.Authorities.map(
        (x) => `${x.AuthorityChainID.slice(0, 8)} key ${x.SigningKey.slice(0, 8)} status ${x.Status}`,
      ).join(",");
      return `federated-servers [${ids(fed.FederatedServers)}] audit-servers [${ids(audit.AuditServers)}] authorities [${authorities}]`;
    };

    assert.equal(await writer.buyCredits(devnet.node("fed0"), 5000), true, writer.records.at(-1)?.error);
    const chainId = await writer.createChain(follower, "main");
    assert.ok(chainId !== undefined, `chain via the follower: ${writer.records.at(-1)?.error}`);
    const shown: string[] = [`before: ${await views()}`];
    let writing = true;
    const loop = (async () => {
      while (writing) if (!(await writer.addEntry(follower, chainId))) await sleep(100);
    })();
    try {
      // A → B: A reloads its stop height at once; B starts with its activation height and catches up
      h1 = (await heightsOf(follower))!.directoryblockheight + 1 + LEAD_BLOCKS;
      assert.equal(
        await clusterTool(["swap", "--from", confA, "--to", confB, "--height", `${h1}`, "--reload-from", a.url]),
        0,
      );
      b.start(false);
      await b.waitServing();
      // A is retired once B signs: from here only B can sign for fed1
      await waitSavedHeight([follower], h1 + 1, 120_000);
      await a.process.kill("SIGTERM");
      await waitSavedHeight([follower, b], h1 + 4, 120_000);
      shown.push(`on B, A stopped: ${await views()}`);

      // B → A: A restarts with its activation height h2 (written by the swap), B reloads its stop height
      h2 = (await heightsOf(follower))!.directoryblockheight + 1 + LEAD_BLOCKS;
      assert.equal(
        await clusterTool(["swap", "--from", confB, "--to", confA, "--height", `${h2}`, "--reload-from", b.url]),
        0,
      );
      await devnet.restart("fed1");
      await waitSavedHeight([follower], h2 + 1, 120_000);
      await b.process.kill("SIGTERM");
      await waitSavedHeight(devnet.nodes, h2 + 4, 120_000);
      shown.push(`back on A, B stopped: ${await views()}`);
    } finally {
      writing = false;
      await loop;
      if (b.isRunning) await b.process.kill("SIGKILL");
    }

    // (the last acknowledged writes may be in the open block: two more blocks hold them)
    const to = (await heightsOf(follower))!.directoryblockheight + 2;
    await waitSavedHeight(devnet.nodes, to);
    await assertIdenticalBlocks(devnet.nodes, 1, to);
    const sets = await federatedSetsFromChain(follower, to, LOCAL_BOOTSTRAP_IDENTITY_HEX);
    const keys = serverKeys(devnet);
    const unsigned: number[] = [];
    assert.equal(sets.get(h1 - 2)!.size, 3, "3 federated servers before the swap");
    for (let h = 2; h <= to; h++) {
      // (the devnet's servers join in its first blocks; from two blocks before the swap the set is the full one)
      if (h >= h1 - 2)
        assert.deepEqual(sets.get(h), sets.get(h1 - 2), `block ${h}: the federated set never changed (no vote)`);
      const signers = await assertSignatureMajority(follower, h, sets.get(h)!, keys);
      if (h >= h1 - 2 && !signers.includes(id1)) unsigned.push(h);
    }
    // (while A was down only B could sign, and the other way round)
    assert.deepEqual(unsigned, [], `blocks from ${h1 - 2} without fed1's signature (h1 ${h1}, h2 ${h2})`);
    for (const n of devnet.nodes) {
      const fed = await n.client.call<{ FederatedServers: { ChainID: string }[] }>("federated-servers", {}, "debug");
      assert.ok(
        fed.FederatedServers.some((s) => s.ChainID === id1),
        `${n.name}: fed1 still federated`,
      );
    }
    const saved = await savedHashes(follower, to);
    const lost = [...writer.acknowledged("reveal")].filter((x) => !saved.entries.has(x));
    assert.deepEqual(lost, [], `acknowledged reveals missing (${writer.summary()})`);
    assert.ok(writer.acknowledged("reveal").size >= 20, `writes went on: ${writer.summary()}`);
    const acks = writer.records.filter((r) => r.atMs !== undefined).map((r) => r.atMs!);
    let gapMs = 0;
    for (let i = 1; i < acks.length; i++) gapMs = Math.max(gapMs, acks[i]! - acks[i - 1]!);
    t.diagnostic(
      `swap A→B at ${h1}, B→A at ${h2}, compared 1..${to}; fed1 signed every block from ${h1 - 2}; ${writer.summary()}; longest gap between acknowledged writes ${gapMs} ms | ${shown.join(" | ")}`,
    );
  });
});
