// An anchored proof (docs/api.md §5.8 `proof`, §7 `anchored`): a node anchoring into a real local Ethereum chain
// (ganache, in this process) reports each recorded anchor on /live as an `anchored` event; once the entry's
// block is anchored its proof carries the anchor, verifies with no node, and with --anchor-rpc the wallet checks
// the transaction itself in the chain.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { toHex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import WebSocket from "ws";
import type { ProofJson } from "../../src/protocol/proof.js";
import { EthereumChain } from "../support/ethereumChain.js";
import { addEntry, buyCredits, createChain, ecKeyOf, type RpcCall } from "../support/ledgerWrites.js";
import { LedgerdProcess, PROJECT_ROOT } from "../support/nodeProcess.js";
import { Random } from "../support/random.js";
import { waitFor, waitUntil } from "../support/waitFor.js";

const WALLET_BIN = join(PROJECT_ROOT, "bin", "ledgerd-wallet");
const CHAIN_ID = 1337;

function wallet(home: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("LEDGERD_")));
  return new Promise((resolve) => {
    execFile(WALLET_BIN, args, { env: { ...clean, HOME: home }, timeout: 120_000 }, (err, stdout, stderr) => {
      const code =
        err === null ? 0 : typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

describe("an anchored proof, and anchored events on /live", () => {
  const scratch = mkdtempSync(join(tmpdir(), "ledgerd-proof-anchored-"));
  const ethKey = toHex(new Random(29).bytes(32)).slice(2);
  let chain: EthereumChain;
  let node: LedgerdProcess;
  const anchoredEvents: Record<string, unknown>[] = [];
  let ws: WebSocket | undefined;

  before(async () => {
    chain = await EthereumChain.start({ chainId: CHAIN_ID, fundedKeys: [`0x${ethKey}`], blockTimeSeconds: 1 });
    const keyFile = join(scratch, "eth.key");
    writeFileSync(keyFile, `${ethKey}\n`, { mode: 0o600 });
    const anchorEc = ecKeyOf("proof-anchored anchor EC");
    const ecFile = join(scratch, "ec.key");
    writeFileSync(ecFile, `${anchorEc.privateAddress}\n`, { mode: 0o600 });
    node = await LedgerdProcess.start({
      blockTimeSeconds: 2,
      extraArgs: [`-anchorrpc=${chain.relayUrl}`, `-anchorkey=${keyFile}`],
      appConfig: ["[Anchor]", `ECKeyFile = ${ecFile}`, `ChainId = ${CHAIN_ID}`, "Confirmations = 3"],
    });
    const call: RpcCall = (m, p) => node.rpc(m, p);
    await buyCredits(call, anchorEc, 500);
    ws = new WebSocket(`ws://127.0.0.1:${node.port}/live`);
    ws.on("message", (d) => {
      const e = JSON.parse(d.toString()) as Record<string, unknown>;
      if (e.event === "anchored" || e.event === "subscribed") anchoredEvents.push(e);
    });
    await new Promise((resolve, reject) => {
      ws!.once("open", resolve);
      ws!.once("error", reject);
    });
    ws.send(JSON.stringify({ op: "subscribe", anchored: true }));
  });

  after(async () => {
    ws?.close();
    await node?.stop();
    node?.cleanup();
    await chain?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("the proof carries the anchor once recorded; it verifies offline, and against the chain with --anchor-rpc", async (t) => {
    const call: RpcCall = (m, p) => node.rpc(m, p);
    const ec = ecKeyOf("proof-anchored writer");
    await buyCredits(call, ec, 50);
    await waitUntil(
      "credits",
      async () =>
        ((await call("entry-credit-balance", { address: ec.publicAddress })) as { balance: number }).balance >= 50,
      60_000,
    );
    const c = await createChain(call, ec, `anchored proof ${Date.now()}`);
    const { entryHash } = await addEntry(call, ec, c.chainId, "anchored document", { extIds: ["doc"] });
    const proof = await waitFor(
      "an anchored proof",
      async () => {
        const p = await node.rpc<ProofJson>("proof", { hash: entryHash }).catch(() => undefined);
        return p?.anchor !== undefined ? p : undefined;
      },
      240_000,
      500,
      () => node.tail(),
    );
    const anchor = proof.anchor!;
    assert.ok(anchor.dbheightmin <= proof.receipt.directoryblockheight);
    assert.ok(proof.receipt.directoryblockheight <= anchor.dbheightmax);
    const file = join(scratch, "proof.json");
    writeFileSync(file, JSON.stringify(proof, null, 2));
    const offline = await wallet(scratch, ["proof", "--verify", file]);
    assert.equal(offline.code, 0, offline.stderr);
    assert.match(offline.stdout, new RegExp(`anchored in window root ${anchor.windowmr}, transaction ${anchor.txid}`));
    const online = await wallet(scratch, ["proof", "--verify", file, "--anchor-rpc", chain.directUrl]);
    assert.equal(online.code, 0, online.stderr);
    assert.match(online.stdout, new RegExp(`Ethereum transaction ${anchor.txid} carries`));
    // a window root changed in the file: refused offline (the branch from the keyMR no longer reaches it)
    const bad = {
      ...proof,
      anchor: { ...anchor, windowmr: anchor.windowmr.replace(/^./, (d) => (d === "0" ? "1" : "0")) },
    };
    writeFileSync(file, JSON.stringify(bad));
    const refused = await wallet(scratch, ["proof", "--verify", file]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /proof\.anchor\.merklebranch/);
    // /live reported that window's record as it was saved, with the same transaction
    const event = await waitFor(
      "the anchored event of the proof's window",
      () => anchoredEvents.find((e) => e.event === "anchored" && e.txid === anchor.txid),
      60_000,
    );
    t.diagnostic(`anchored event: ${JSON.stringify(event)}`);
    t.diagnostic(`wallet --anchor-rpc: ${online.stdout.trim().split("\n").join(" | ")}`);
    assert.equal(event.dbheightmin, anchor.dbheightmin);
    assert.equal(event.dbheightmax, anchor.dbheightmax);
    assert.equal(event.windowmr, anchor.windowmr);
    assert.equal(event.blockhash, anchor.blockhash);
    assert.equal(anchoredEvents.find((e) => e.event === "subscribed")?.anchored, true);
    // the events come in height order, each window once
    const windows = anchoredEvents.filter((e) => e.event === "anchored").map((e) => e.dbheightmin as number);
    assert.deepEqual(
      windows,
      [...new Set(windows)].sort((a, b) => a - b),
    );
    const address = privateKeyToAccount(`0x${ethKey}`).address.toLowerCase();
    const tx = await chain.rpc<{ from: string }>("eth_getTransactionByHash", [anchor.txid]);
    assert.equal(tx.from.toLowerCase(), address);
  });
});
