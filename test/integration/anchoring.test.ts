// Anchoring into a real local Ethereum chain (ganache, in this process, on loopback) by a real node process:
// a run of blocks is anchored and recorded in the anchor chain, receipts carry the anchor and the real wallet
// verifies one end to end against the chain; the node is killed while an anchor is in flight and restarted;
// the chain is made unreachable for a while. After each, the anchor chain must hold contiguous windows from
// height 0, each with its own transaction, and the account must have sent no transaction without a record.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { keccak256 } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { anchorCalldata } from "../../src/anchor/ethereum.js";
import { ETHEREUM_ANCHOR_CHAIN_ID } from "../../src/anchor/record.js";
import { keyPairFromSeed } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { EthereumChain } from "../support/ethereumChain.js";
import { freeLoopbackPort, httpRequest, killAllNodes, LedgerdProcess } from "../support/nodeProcess.js";
import { Random } from "../support/random.js";
import { waitFor, waitUntil } from "../support/waitFor.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const WALLET_BIN = join(ROOT, "bin", "ledgerd-wallet");
const SAND_SECRET = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";
const SAND = "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q";
const ANCHOR_CHAIN = toHex(ETHEREUM_ANCHOR_CHAIN_ID);
const CHAIN_ID = 1337;

const scratch = mkdtempSync(join(tmpdir(), "ledgerd-anchoring-"));
const random = new Random(18);
const ethKey = toHex(random.bytes(32));
const ethAddress = privateKeyToAccount(`0x${ethKey}`).address.toLowerCase();
const ethKey2 = toHex(random.bytes(32));
const ec = keyPairFromSeed("EC", random.bytes(32));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runWallet(args: string[]): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("LEDGERD_")));
  return new Promise((resolve) => {
    execFile(WALLET_BIN, args, { env: { ...clean, HOME: scratch }, timeout: 120_000 }, (err, stdout, stderr) => {
      const code =
        err === null ? 0 : typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

function ok(r: Run, what: string): string {
  assert.equal(r.code, 0, `${what} failed (exit ${r.code}):\n${r.stderr}`);
  return r.stdout.trim();
}

interface RecordJson {
  DBHeightMin?: number;
  DBHeightMax?: number;
  WindowMR: string;
  Ethereum: { TxID: string; BlockHash: string; BlockHeight: number; TxIndex: number; ContractAddress: string };
}

interface ReceiptAnswer {
  receipt: { anchortransactionhash: string; anchorblockhash: string; directoryblockheight: number };
}

describe("anchoring into a local Ethereum chain (ganache)", () => {
  let chain: EthereumChain;
  let node: LedgerdProcess;
  let pendingFile = "";

  /** Records of the anchor chain as the node serves them, in chain order. */
  async function records(n = node): Promise<RecordJson[]> {
    // -32009 until the anchoring node has created the chain
    const head = await n
      .rpc<{ chainhead: string }>("chain-head", { chainid: ANCHOR_CHAIN })
      .catch(() => ({ chainhead: "" }));
    const blocks: string[][] = [];
    for (let keymr = head.chainhead; keymr !== "" && !/^0+$/.test(keymr); ) {
      const b = await n.rpc<{ header: { prevkeymr: string }; entrylist: { entryhash: string }[] }>("entry-block", {
        keymr,
      });
      blocks.unshift(b.entrylist.map((e) => e.entryhash));
      keymr = b.header.prevkeymr;
    }
    const out: RecordJson[] = [];
    for (const hash of blocks.flat()) {
      const e = await n.rpc<{ content: string }>("entry", { hash });
      const text = Buffer.from(fromHex(e.content)).toString("utf8");
      if (text.startsWith("{")) out.push(JSON.parse(text) as RecordJson);
    }
    return out;
  }

  /**
   * Anchored windows are contiguous from 0, each with its own transaction sent by the account; the account sent
   * nothing else but `otherSent` transactions and at most the one in flight.
   */
  async function checkNothingTwiceOrSkipped(n = node, address = ethAddress, otherSent = 0): Promise<RecordJson[]> {
    const all = await records(n);
    assert.ok(all.length > 0, "some anchor records");
    let next = 0;
    const txs = new Set<string>();
    for (const r of all) {
      assert.equal(r.DBHeightMin ?? 0, next, `window ${r.DBHeightMin}..${r.DBHeightMax} follows ${next - 1}`);
      assert.ok((r.DBHeightMax ?? 0) >= (r.DBHeightMin ?? 0));
      next = (r.DBHeightMax ?? 0) + 1;
      assert.ok(!txs.has(r.Ethereum.TxID), `transaction ${r.Ethereum.TxID} recorded twice`);
      txs.add(r.Ethereum.TxID);
      const tx = await chain.rpc<{ from: string; input: string; blockHash: string }>("eth_getTransactionByHash", [
        r.Ethereum.TxID,
      ]);
      assert.equal(tx.from.toLowerCase(), address);
      assert.equal(tx.blockHash.toLowerCase(), r.Ethereum.BlockHash);
      assert.ok(tx.input.endsWith(r.WindowMR), "the transaction carries the window's Merkle root");
      if (r.Ethereum.ContractAddress === address) {
        // To the paying account itself: 21,000 + 68 bytes of calldata at 4 or 16 gas each (docs/anchoring.md)
        const receipt = await chain.rpc<{ gasUsed: string }>("eth_getTransactionReceipt", [r.Ethereum.TxID]);
        const gas = Number.parseInt(receipt.gasUsed, 16);
        assert.ok(gas >= 21_000 + 68 * 4 && gas <= 21_000 + 68 * 16, `${gas} gas for an anchor`);
      }
    }
    // Every transaction the account sent is recorded, except at most the one in flight now.
    const sent =
      Number.parseInt(await chain.rpc<string>("eth_getTransactionCount", [address, "latest"]), 16) - otherSent;
    assert.ok(sent === all.length || sent === all.length + 1, `${sent} transactions sent, ${all.length} recorded`);
    return all;
  }

  function anchoredReceipt(entryHash: string, timeoutMs = 90_000): Promise<ReceiptAnswer["receipt"]> {
    return waitFor(
      `entry ${entryHash} anchored`,
      async () => {
        // (an error: not yet in a saved block)
        const r = await node.rpc<ReceiptAnswer>("receipt", { hash: entryHash }).catch(() => undefined);
        return r !== undefined && r.receipt.anchortransactionhash !== "" ? r.receipt : undefined;
      },
      timeoutMs,
      250,
      () => node.tail(),
    );
  }

  async function addEntry(text: string): Promise<string> {
    const out = ok(
      await runWallet([
        "add-chain",
        `-node=${node.url}`,
        "--ext",
        text,
        "--ext",
        `${Date.now()}`,
        "--content",
        text,
        ec.publicAddress,
      ]),
      "add-chain",
    );
    const m = /EntryHash: ([0-9a-f]{64})/.exec(out);
    assert.ok(m, out);
    return m[1]!;
  }

  before(async () => {
    chain = await EthereumChain.start({
      chainId: CHAIN_ID,
      fundedKeys: [`0x${ethKey}`, `0x${ethKey2}`],
      blockTimeSeconds: 1,
    });
    const keyFile = join(scratch, "eth.key");
    writeFileSync(keyFile, `${ethKey}\n`, { mode: 0o600 }); // without 0x: both forms are accepted
    const ecFile = join(scratch, "ec.key");
    writeFileSync(ecFile, `${ec.privateAddress}\n`, { mode: 0o644 }); // readable by others: the node warns
    node = await LedgerdProcess.start({
      blockTimeSeconds: 2,
      extraArgs: [`-anchorrpc=${chain.relayUrl}`, `-anchorkey=${keyFile}`],
      appConfig: ["[Anchor]", `ECKeyFile = ${ecFile}`, `ChainId = ${CHAIN_ID}`, "Confirmations = 3"],
    });
    pendingFile = join(node.dataDir, "..", "anchor", "pending.json");
    ok(await runWallet(["import", SAND_SECRET]), "import");
    ok(await runWallet(["import", ec.privateAddress]), "import EC");
    ok(await runWallet(["buy-ec", `-node=${node.url}`, SAND, ec.publicAddress, "500"]), "buy-ec");
  });
  after(async () => {
    if (process.env.ANCHOR_TEST_LOG) writeFileSync(process.env.ANCHOR_TEST_LOG, node.log);
    await killAllNodes();
    await chain?.close();
    node?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  test("a run of blocks is anchored; the wallet verifies a receipt up to the transaction in its block", async () => {
    const entry = await addEntry("anchored");
    const r = await anchoredReceipt(entry);
    assert.match(r.anchortransactionhash, /^0x[0-9a-f]{64}$/);
    assert.match(r.anchorblockhash, /^0x[0-9a-f]{64}$/);
    const v = await runWallet(["receipt", `-node=${node.url}`, "--verify", "--anchor-rpc", chain.directUrl, entry]);
    const out = ok(v, "receipt --verify --anchor-rpc");
    assert.match(out, new RegExp(`Ethereum transaction ${r.anchortransactionhash} carries`));
    assert.match(out, new RegExp(`in block ${r.anchorblockhash}`));
    // The same check against a chain that does not answer fails, saying so.
    const dead = await freeLoopbackPort();
    const v2 = await runWallet([
      "receipt",
      `-node=${node.url}`,
      "--verify",
      "--anchor-rpc",
      `http://127.0.0.1:${dead}`,
      entry,
    ]);
    assert.notEqual(v2.code, 0);
    assert.match(v2.stderr, /does not answer/);
    // An entry written after that anchor was recorded lands in a later block, so in a later window.
    const second = await addEntry("anchored later");
    const r2 = await anchoredReceipt(second);
    assert.notEqual(r2.anchortransactionhash, r.anchortransactionhash);
    const all = await checkNothingTwiceOrSkipped();
    assert.ok(all.length >= 2, "several windows anchored");
    const summary = await node.rpc<{ Summary: string }>("summary", undefined, "debug");
    assert.match(summary.Summary, /anchor anchor_records=\d+ anchor_transactions_sent_total=\d+/);
    const metrics = await httpRequest(node.port, { method: "GET", path: "/metrics" });
    assert.equal(metrics.status, 200);
    const anchoredHeight = Number(/^ledgerd_anchor_anchored_height (\d+)$/m.exec(metrics.text)?.[1]);
    assert.ok(anchoredHeight >= r2.directoryblockheight, metrics.text.slice(0, 300));
    assert.match(metrics.text, /^ledgerd_anchor_transactions_sent_total [1-9]\d*$/m);
    assert.match(metrics.text, /^ledgerd_anchor_rpc_unreachable 0$/m);
    assert.doesNotMatch(node.log, new RegExp(ethKey, "i"), "the key never reaches the log");
    assert.doesNotMatch(node.log, new RegExp(ec.privateAddress), "nor the entry credit key");
    assert.match(node.log, /the entry credit key file can be read by other users; chmod 600 it/);
    assert.doesNotMatch(node.log, /the Ethereum key file can be read/);
  });

  test("killed while an anchor is in flight, the restarted node finishes that anchor: nothing twice or skipped", async () => {
    type InFlight = { tx: { hash: string }; dbHeightMax: number; recordEntry?: string };
    const inFlight = await waitFor(
      "an anchor in flight",
      () => {
        let pending: InFlight | undefined;
        try {
          pending = existsSync(pendingFile) ? (JSON.parse(readFileSync(pendingFile, "utf8")) as InFlight) : undefined;
        } catch {
          pending = undefined; // replaced while read
        }
        return pending !== undefined && pending.recordEntry === undefined ? pending : undefined;
      },
      60_000,
      20,
      () => node.tail(),
    );
    await node.kill9();
    await node.restart();
    const entry = await addEntry("after restart");
    await anchoredReceipt(entry);
    const all = await checkNothingTwiceOrSkipped();
    assert.equal(
      all.filter((r) => r.Ethereum.TxID === inFlight.tx.hash).length,
      1,
      "the in-flight anchor recorded once",
    );
  });

  test("with the chain unreachable blocks and receipts go on without anchors; anchoring catches up after", async () => {
    await chain.cut();
    const before = (await node.rpc<{ directoryblockheight: number }>("heights")).directoryblockheight;
    const entry = await addEntry("while unreachable");
    // blocks go on (two more saved), the entry has its receipt, and the node has said the chain is gone
    await waitUntil(
      "two more blocks, the entry's receipt and the unreachable chain in the log",
      async () =>
        (await node.rpc<{ directoryblockheight: number }>("heights")).directoryblockheight >= before + 2 &&
        (await node.rpc<ReceiptAnswer>("receipt", { hash: entry }).catch(() => undefined)) !== undefined &&
        /the Ethereum RPC does not answer/.test(node.log),
      60_000,
      250,
      () => node.tail(),
    );
    assert.equal((await node.rpc<ReceiptAnswer>("receipt", { hash: entry })).receipt.anchortransactionhash, "");
    const summary = await node.rpc<{ Summary: string }>("summary", undefined, "debug");
    assert.match(summary.Summary, /anchor_rpc_unreachable=1/);
    await chain.restore();
    await anchoredReceipt(entry);
    assert.match(node.log, /the Ethereum RPC answers again/);
    await checkNothingTwiceOrSkipped();
  });

  test("another node with the same blocks reports the same anchors when it trusts the anchoring key, none otherwise", async () => {
    const entry = await addEntry("read elsewhere");
    const anchored = { receipt: await anchoredReceipt(entry) };
    // The same blocks on another node: a copy of the data directory of the stopped anchoring node.
    await node.stop();
    const copies = [
      mkdtempSync(join(tmpdir(), "ledgerd-anchor-reader-")),
      mkdtempSync(join(tmpdir(), "ledgerd-anchor-other-")),
    ];
    for (const home of copies) cpSync(node.dataDir, join(home, "local", "db"), { recursive: true });
    // (the anchoring node stays stopped: the last test runs a node of its own)
    const [trusting, other] = await Promise.all([
      LedgerdProcess.start({
        homeDir: copies[0]!,
        appConfig: [`EthereumAnchorRecordPublicKeys = ${toHex(ec.publicKey)}`],
      }),
      LedgerdProcess.start({ homeDir: copies[1]! }),
    ]);
    const r = await trusting.rpc<ReceiptAnswer>("receipt", { hash: entry });
    assert.deepEqual(r, anchored, "the same receipt, anchor included");
    const r2 = await other.rpc<ReceiptAnswer>("receipt", { hash: entry });
    assert.equal(r2.receipt.anchortransactionhash, "", "records signed by a key it does not list are ignored");
    assert.equal((r2.receipt as { ethereum?: unknown }).ethereum, undefined);
    await trusting.stop();
    await other.stop();
    for (const home of copies) rmSync(home, { recursive: true, force: true });
  });

  test("a stray in-flight anchor is never sent or recorded; the node anchors the window itself, into a contract ([Anchor] To)", async () => {
    const account = privateKeyToAccount(`0x${ethKey2}`);
    const address = account.address.toLowerCase();
    const fees = {
      type: "eip1559" as const,
      chainId: CHAIN_ID,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 10n ** 9n,
    };
    // A contract that keeps each anchor as the reference's does (storage[blockNumber] = merkleRoot; the
    // reference also emits an event): runtime 6024 35 6004 35 55 00 = SSTORE(calldata[4..36], calldata[36..68]).
    const runtime = "6024356004355500";
    const initcode = `0x6008600c60003960086000f3${runtime}` as const;
    const deploy = await account.signTransaction({ ...fees, nonce: 0, data: initcode, gas: 100_000n });
    const deployHash = await chain.rpc<string>("eth_sendRawTransaction", [deploy]);
    const deployed = await waitFor(
      "the contract deployed",
      async () =>
        (await chain.rpc<{ contractAddress: string } | null>("eth_getTransactionReceipt", [deployHash])) ?? undefined,
      30_000,
      100,
    );
    const contract = deployed.contractAddress.toLowerCase();
    assert.equal(await chain.rpc<string>("eth_getCode", [contract, "latest"]), `0x${runtime}`);

    // A damaged (or another node's) pending file: a well-formed, signed setAnchor of window 0..0, but with a
    // root that is not the keyMR of this node's block 0.
    const wrongRoot = random.bytes(32);
    const stray = await account.signTransaction({
      ...fees,
      nonce: 1,
      to: contract as `0x${string}`,
      data: anchorCalldata(0, wrongRoot),
      gas: 100_000n,
    });
    const strayHash = keccak256(stray);
    const home = mkdtempSync(join(tmpdir(), "ledgerd-anchor-stray-"));
    const pending2 = join(home, "local", "anchor", "pending.json");
    mkdirSync(dirname(pending2), { recursive: true });
    writeFileSync(
      pending2,
      JSON.stringify({
        dbHeightMin: 0,
        dbHeightMax: 0,
        windowMR: toHex(wrongRoot),
        tx: { hash: strayHash, raw: stray, nonce: 1, to: contract },
      }),
    );
    const keyFile = join(scratch, "eth2.key");
    writeFileSync(keyFile, `0x${ethKey2}\n`, { mode: 0o600 });
    const second = await LedgerdProcess.start({
      homeDir: home,
      blockTimeSeconds: 2,
      extraArgs: [`-anchorrpc=${chain.relayUrl}`, `-anchorkey=${keyFile}`],
      appConfig: [
        "[Anchor]",
        `ECKeyFile = ${join(scratch, "ec.key")}`,
        `ChainId = ${CHAIN_ID}`,
        "Confirmations = 1",
        `To = ${contract}`,
      ],
    });
    ok(await runWallet(["buy-ec", `-node=${second.url}`, SAND, ec.publicAddress, "100"]), "buy-ec");
    await waitUntil(
      "the second node's first anchor",
      async () => (await records(second)).length > 0,
      60_000,
      250,
      () => second.tail(),
    );
    assert.match(second.log, /the anchor in flight does not match this node's blocks/);
    assert.equal(await chain.rpc<unknown>("eth_getTransactionByHash", [strayHash]), null, "the stray was never sent");
    const all = await checkNothingTwiceOrSkipped(second, address, 1);
    assert.ok(all.every((r) => r.Ethereum.TxID !== strayHash));
    for (const r of all) {
      assert.equal(r.Ethereum.ContractAddress, contract);
      const slot = `0x${(r.DBHeightMax ?? 0).toString(16).padStart(64, "0")}`;
      assert.equal(await chain.rpc<string>("eth_getStorageAt", [contract, slot, "latest"]), `0x${r.WindowMR}`);
      const receipt = await chain.rpc<{ gasUsed: string }>("eth_getTransactionReceipt", [r.Ethereum.TxID]);
      const gas = Number.parseInt(receipt.gasUsed, 16);
      assert.ok(gas >= 43_000 && gas <= 44_000, `a new storage slot was written: ${gas} gas (docs/anchoring.md)`);
    }
    await second.stop();
    rmSync(home, { recursive: true, force: true });
  });
});
