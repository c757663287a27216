// The control panel's "verify in this browser" with an Ethereum RPC URL, in a real headless Chromium (as
// panel-browser.test.ts: /usr/bin/chromium driven by playwright-core): a node anchoring into a real local
// Ethereum chain (ganache, test/support/ethereumChain.ts, as proof-anchored.test.ts), an entry's anchored
// proof opened on #/proof/<hash>. Without the URL the page verifies offline and says the anchor is not checked;
// with it the page itself asks ganache (fetch, JSON-RPC) for the transaction and applies the wallet's rules
// (src/protocol/anchorCheck.ts): it passes with the same checks, in the same order, as the wallet's
// `proof --verify --anchor-rpc` function. Tampered anchors fail in the page naming the member, as in Node: a
// transaction hash that is not the one in the block, and a real transaction to the anchor's address whose
// data names another window (with its own block, height and index, so only the data is wrong).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { privateKeyToAccount } from "viem/accounts";
import { anchorCalldata } from "../../src/anchor/ethereum.js";
import { fetchEthereumRpc } from "../../src/protocol/anchorCheck.js";
import { toHex } from "../../src/protocol/bytes.js";
import { ProtocolError } from "../../src/protocol/errors.js";
import { type ProofCheckPassed, type ProofJson, verifyProofAndAnchor } from "../../src/protocol/proof.js";
import { CHROMIUM_PATH } from "../../tools/panel/headlessChromium.js";
import { EthereumChain } from "../support/ethereumChain.js";
import { addEntry, buyCredits, createChain, ecKeyOf, type RpcCall } from "../support/ledgerWrites.js";
import { PROJECT_ROOT } from "../support/nodeProcess.js";
import { openPanelBrowser, type PanelBrowser } from "../support/panelBrowser.js";
import { Random } from "../support/random.js";
import { startTestNode, type TestNode, waitFor } from "../unit/rpc/nodeHarness.js";

const SCREENSHOTS = join(PROJECT_ROOT, "test-output", "panel");
const CHAIN_ID = 1337;

function rpcOf(t: TestNode): RpcCall {
  return async (method, params) => {
    const r = await t.call(method, params);
    if (r.error !== undefined) throw new Error(`${method}: ${r.text}`);
    return r.result;
  };
}

/** The checks Node's verifier (the wallet's function) passes, and the field of its failure, if any. */
async function nodeVerdict(proof: unknown, url: string): Promise<{ passed: string[]; failed?: string }> {
  const passed: string[] = [];
  try {
    await verifyProofAndAnchor(proof, {
      ethereum: fetchEthereumRpc(url),
      onCheck: (c: ProofCheckPassed) => passed.push(c.field),
    });
    return { passed };
  } catch (e) {
    if (e instanceof ProtocolError) return { passed, failed: e.field };
    throw e;
  }
}

describe("control panel in headless Chromium: an anchored proof checked against Ethereum", () => {
  const scratch = mkdtempSync(join(tmpdir(), "ledgerd-panel-anchor-"));
  const rand = new Random(2929);
  const anchorKey = toHex(rand.bytes(32));
  /** another funded account: sends the test's own transactions, never the node's nonce */
  const otherKey = `0x${toHex(rand.bytes(32))}`;
  let chain: EthereumChain;
  let t: TestNode;
  let panel: string;
  let browser: PanelBrowser;
  let page: Page;
  let proof: ProofJson;
  const problems: string[] = [];

  before(async () => {
    assert.ok(existsSync(CHROMIUM_PATH), `${CHROMIUM_PATH} missing: run make os-packages-test as root`);
    chain = await EthereumChain.start({
      chainId: CHAIN_ID,
      fundedKeys: [`0x${anchorKey}`, otherKey],
      blockTimeSeconds: 1,
    });
    const keyFile = join(scratch, "eth.key");
    writeFileSync(keyFile, `${anchorKey}\n`, { mode: 0o600 });
    const anchorEc = ecKeyOf("panel-anchor anchor EC");
    const ecFile = join(scratch, "ec.key");
    writeFileSync(ecFile, `${anchorEc.privateAddress}\n`, { mode: 0o600 });
    t = await startTestNode({
      blockTimeSeconds: 2,
      config: { controlPanel: { port: 0, host: "127.0.0.1", setting: "readonly" } },
      configFile: [
        "[App]",
        "ListenHost = 127.0.0.1",
        "[Anchor]",
        `RpcUrl = ${chain.relayUrl}`,
        `KeyFile = ${keyFile}`,
        `ECKeyFile = ${ecFile}`,
        `ChainId = ${CHAIN_ID}`,
        "Confirmations = 3",
        "",
      ].join("\n"),
    });
    panel = `http://127.0.0.1:${t.node.panel!.port}`;
    const call = rpcOf(t);
    await buyCredits(call, anchorEc, 500);
    const ec = ecKeyOf("panel-anchor writer");
    await buyCredits(call, ec, 50);
    await waitFor(
      "credits",
      async () =>
        ((await call("entry-credit-balance", { address: ec.publicAddress })) as { balance: number }).balance >= 50
          ? true
          : undefined,
      120_000,
    );
    const c = await createChain(call, ec, `panel anchored proof ${Date.now()}`);
    const { entryHash } = await addEntry(call, ec, c.chainId, "anchored, checked in a browser", { extIds: ["doc"] });
    proof = await waitFor(
      "an anchored proof",
      async () => {
        const p = (await call("proof", { hash: entryHash }).catch(() => undefined)) as ProofJson | undefined;
        return p?.anchor !== undefined ? p : undefined;
      },
      240_000,
    );

    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await openPanelBrowser({
      panel,
      problems,
      allowed: [chain.directUrl],
      what: "the panel and the given Ethereum node",
    });
    page = browser.page;
  });

  after(async () => {
    await browser?.close();
    await t?.stop();
    await chain?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** Verify the text area's proof in the page with the URL field as it is; the verdict, checks and anchor line. */
  async function verifyInPage(): Promise<{ ok: boolean; field: string; checks: string[]; anchor: string }> {
    await page.click("#proof-verify");
    await page.waitForSelector("#proof-verdict", { timeout: 120_000 });
    const verdict = page.locator("#proof-verdict");
    return {
      ok: (await verdict.getAttribute("class")) === "ok",
      field: (await verdict.getAttribute("data-field")) ?? "",
      checks: await page.$$eval("#proof-checks li.ok", (l) => l.map((x) => x.getAttribute("data-field") ?? "")),
      anchor: (await page.textContent("#proof-anchor").catch(() => "")) ?? "",
    };
  }

  it("offline, the anchor is reported not checked; with the URL, the page checks the transaction as the wallet does", async () => {
    const a = proof.anchor!;
    await page.goto(`${panel}/#/proof/${proof.entry.entryhash}`);
    await page.waitForSelector("#proof-verdict.ok", { timeout: 120_000 });
    assert.match((await page.textContent("#proof-anchor")) ?? "", /not checked: give an Ethereum RPC URL/);
    await page.fill("#proof-anchor-rpc", chain.directUrl);
    const v = await verifyInPage();
    await page.screenshot({ path: join(SCREENSHOTS, "proof-anchor.png"), fullPage: true });
    assert.ok(v.ok, `verdict: ${v.field}`);
    assert.match(v.anchor, new RegExp(`✓ .*Ethereum transaction ${a.txid} in block ${a.blockheight}`));
    assert.match(v.anchor, new RegExp(`checked by this page at ${chain.directUrl}`));
    const node = await nodeVerdict(proof, chain.directUrl);
    assert.equal(node.failed, undefined);
    assert.deepEqual(v.checks, node.passed, "the page's checks are the wallet's, in order");
    for (const f of ["proof.anchor.blockhash", "proof.anchor.txid", "proof.anchor.windowmr"])
      assert.ok(v.checks.includes(f), f);
    assert.equal(v.checks.at(-1), "proof.anchor");
    // a URL the page refuses: the proof still verifies offline, the anchor says why it was not checked
    await page.fill("#proof-anchor-rpc", "ftp://127.0.0.1/");
    const refused = await verifyInPage();
    assert.ok(refused.ok);
    assert.match(refused.anchor, /not checked: "ftp:\/\/127\.0\.0\.1\/" is not an http/);
  });

  it("a tampered anchor fails in the page naming the member, as it fails in Node", async () => {
    const a = proof.anchor!;
    // a real transaction to the anchor's address, by another account, whose setAnchor names another window
    const from = privateKeyToAccount(otherKey as `0x${string}`).address;
    const root = rand.bytes(32);
    const txid = await chain.rpc<string>("eth_sendTransaction", [
      { from, to: a.contractaddress, data: anchorCalldata(a.dbheightmax + 1000, root), gas: "0x186a0" },
    ]);
    const mined = await waitFor(
      "the other transaction mined",
      async () =>
        (await chain.rpc<{ blockHash: string; blockNumber: string; transactionIndex: string } | null>(
          "eth_getTransactionReceipt",
          [txid],
        )) ?? undefined,
      60_000,
    );
    const otherWindow = {
      txid: txid.toLowerCase(),
      blockhash: mined.blockHash.toLowerCase(),
      blockheight: Number(mined.blockNumber),
      txindex: Number(mined.transactionIndex),
    };
    const cases: [string, ProofJson, string][] = [
      [
        "a transaction hash not in the named block",
        { ...proof, anchor: { ...a, txid: `0x${"5a".repeat(32)}` } },
        "proof.anchor.txid",
      ],
      [
        "another window's transaction, block and index",
        { ...proof, anchor: { ...a, ...otherWindow } },
        "proof.anchor.windowmr",
      ],
    ];
    await page.fill("#proof-anchor-rpc", chain.directUrl);
    for (const [what, tampered, field] of cases) {
      await page.fill("#proof-text", JSON.stringify(tampered, null, 2));
      const v = await verifyInPage();
      assert.equal(v.ok, false, `${what}: verified in the page`);
      assert.equal(v.field, field, what);
      const node = await nodeVerdict(tampered, chain.directUrl);
      assert.equal(node.failed, field, `${what}: Node`);
      assert.deepEqual(v.checks, node.passed, `${what}: the same checks passed before the failure`);
      // offline, each still verifies: only the chain can tell
      assert.ok(v.checks.includes("proof.anchor"), `${what}: the offline anchor check passed`);
    }
    await page.screenshot({ path: join(SCREENSHOTS, "proof-anchor-tampered.png"), fullPage: true });
  });

  it("no console errors, and nothing asked outside the panel but the Ethereum node given", () => {
    assert.deepEqual(problems, []);
  });
});
