// The control panel in a real headless Chromium (the OS package /usr/bin/chromium, driven by playwright-core;
// `make os-packages-test` installs it): the overview's height advances with the live feed; height →
// directory block → entry block → entry; the entry's receipt verified in the page; its proof verified in the
// page by the protocol's own rules (and, flipped one byte at a time, refused naming the check, as the wallet's
// verifier refuses it); an unknown hash searched
// ("Not found"); the readwrite knobs; no console errors. Screenshots go to test-output/panel/ (gitignored).
// Without the browser, HTTP-level checks of the panel: readonly refuses the knobs and every write, auth.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { ProtocolError } from "../../src/protocol/errors.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX } from "../../src/protocol/genesis.js";
import { type ProofCheckPassed, type ProofJson, pinnedBootstrapKey, verifyProof } from "../../src/protocol/proof.js";
import { CHROMIUM_PATH } from "../../tools/panel/headlessChromium.js";
import { addEntry, buyCredits, createChain, ecKeyOf, type RpcCall } from "../support/ledgerWrites.js";
import { PROJECT_ROOT } from "../support/nodeProcess.js";
import { openPanelBrowser, type PanelBrowser } from "../support/panelBrowser.js";
import { startTestNode, type TestNode, waitFor } from "../unit/rpc/nodeHarness.js";

const SCREENSHOTS = join(PROJECT_ROOT, "test-output", "panel");

function rpcOf(t: TestNode): RpcCall {
  return async (method, params) => {
    const r = await t.call(method, params);
    if (r.error !== undefined) throw new Error(`${method}: ${r.text}`);
    return r.result;
  };
}

/** `hex` with byte `index` XORed with 1 (still lower-case hex of the same length). */
function flipByte(hex: string, index: number): string {
  const at = index < 0 ? hex.length / 2 + index : index;
  const b = (Number.parseInt(hex.slice(2 * at, 2 * at + 2), 16) ^ 1).toString(16).padStart(2, "0");
  return `${hex.slice(0, 2 * at)}${b}${hex.slice(2 * at + 2)}`;
}

/** The field the Node verifier names for `proof` (as the wallet calls it), or undefined when it verifies. */
function nodeVerdict(proof: unknown): string | undefined {
  try {
    verifyProof(proof, { trustedBootstrapKey: pinnedBootstrapKey(proof) });
    return undefined;
  } catch (e) {
    if (e instanceof ProtocolError) return e.field;
    throw e;
  }
}

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body), headers });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

// Not skipped without Chromium: `make test` installs it (os-packages-test), and a run without it fails saying so.
describe("control panel in headless Chromium", () => {
  let t: TestNode;
  let panel: string;
  let browser: PanelBrowser;
  let page: Page;
  let profile: string;
  const problems: string[] = [];
  const written = { chainId: "", entryHash: "", height: 0, eblock: "", buyTxId: "", ecAddress: "" };

  before(async () => {
    assert.ok(existsSync(CHROMIUM_PATH), `${CHROMIUM_PATH} missing: run make os-packages-test as root`);
    t = await startTestNode({
      // 6-s blocks: a minute of 600 ms, so the node calls itself stalled only when a minute runs 900 ms late
      // (STALL_FACTOR), not at every hiccup of a loaded machine (a 2-s block's threshold is 300 ms)
      blockTimeSeconds: 6,
      // the knobs need both: the panel's readwrite and the debug API's (rpc/debug/access.ts)
      config: { controlPanel: { port: 0, host: "127.0.0.1", setting: "readwrite" }, debugApi: "readwrite" },
    });
    panel = `http://127.0.0.1:${t.node.panel!.port}`;
    const call = rpcOf(t);
    const ec = ecKeyOf("ledgerd panel browser test EC key");
    written.buyTxId = await buyCredits(call, ec, 50);
    written.ecAddress = ec.publicAddress;
    await waitFor(
      "credits",
      async () =>
        ((await call("entry-credit-balance", { address: ec.publicAddress })) as { balance: number }).balance >= 50
          ? true
          : undefined,
      120_000,
    );
    const chain = await createChain(call, ec, `panel test ${Date.now()}`);
    const entry = await addEntry(call, ec, chain.chainId, "hello from the panel test", { extIds: ["greeting"] });
    const confirmed = await waitFor(
      "the entry confirmed",
      async () => {
        const r = (await call("ack", { hash: entry.entryHash, chainid: chain.chainId })) as {
          entrydata: { status: string };
        };
        return r.entrydata.status === "DBlockConfirmed" ? true : undefined;
      },
      120_000,
    );
    assert.ok(confirmed);
    const receipt = (await call("receipt", { hash: entry.entryHash })) as {
      receipt: { directoryblockheight: number; entryblockkeymr: string };
    };
    Object.assign(written, {
      chainId: chain.chainId,
      entryHash: entry.entryHash,
      height: receipt.receipt.directoryblockheight,
      eblock: receipt.receipt.entryblockkeymr,
    });

    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await openPanelBrowser({ panel, problems, failedRequests: true });
    page = browser.page;
    profile = browser.profile;
  });

  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  it("the overview shows the heights and the height advances with the live feed", async () => {
    const started = Date.now();
    await page.goto(`${panel}/`);
    await page.waitForSelector("#dbheight");
    const first = Number(await page.textContent("#dbheight"));
    process.stdout.write(`# overview painted in ${Date.now() - started} ms\n`);
    await waitFor(
      "the height to advance",
      async () => (Number(await page.textContent("#dbheight")) > first ? true : undefined),
      60_000,
    );
    await page.waitForSelector("#feed-state.on");
    await page.waitForSelector("#entries-chart canvas");
    // The node calls itself stalled while a minute runs late: beside two CPU hogs a 1-s block can, for a moment.
    // The page must show the node's health as it changes: healthy once the blocks keep their pace again.
    await waitFor(
      "the overview to show the node healthy",
      async () => ((await page.textContent("#health")) === "healthy" ? true : undefined),
      120_000,
      500,
      async () =>
        `page: ${await page.textContent("#health")}; node: ${JSON.stringify(await rpcOf(t)("current-minute"))}`,
    );
    await page.screenshot({ path: join(SCREENSHOTS, "overview.png") });
  });

  it("height → directory block → entry block → entry, and the receipt verified in the page", async () => {
    await page.fill("#search input", String(written.height));
    await page.press("#search input", "Enter");
    await page.waitForSelector("#dblock-keymr");
    assert.match((await page.textContent("h1")) ?? "", new RegExp(`Directory block ${written.height}`));
    await page.click(`a[href="#/eblock/${written.eblock}"]`);
    await page.waitForSelector("text=Entry block");
    await page.click(`a[href="#/entry/${written.entryHash}"]`);
    await page.waitForSelector("#entry-hash");
    assert.equal(await page.textContent("#entry-hash"), written.entryHash);
    assert.equal(await page.textContent("#entry-status"), "DBlockConfirmed");
    assert.ok((await page.textContent("main"))?.includes("hello from the panel test"));
    // the entry page names its directory block (and entry block and time)
    assert.equal(await page.textContent("a.entry-dblock"), `block ${written.height}`);
    await page.click("#verify-receipt");
    await page.waitForSelector("#receipt-verdict");
    const verdict = await page.textContent("#receipt-verdict");
    assert.match(verdict ?? "", /^✓ Verified in this browser/);
    const steps = await page.$$eval("ol.steps li", (l) => l.map((x) => x.className));
    assert.ok(steps.length >= 4, `steps shown: ${steps.length}`);
    assert.ok(!steps.includes("bad"), `a step failed: ${steps.join(",")}`);
    await page.screenshot({ path: join(SCREENSHOTS, "entry-receipt.png"), fullPage: true });
  });

  it("the entry's proof verified in the page with no trust in the node; a flipped byte fails naming the check", async () => {
    const call = rpcOf(t);
    // the proof exists once admin block H+1 holds the majority's signatures over directory block H
    const proof = (await waitFor(
      "the entry's proof",
      async () => (await call("proof", { hash: written.entryHash }).catch(() => undefined)) as ProofJson | undefined,
      120_000,
    ))!;
    // from another page: the previous test left this entry's page open, and a goto to the same URL renders nothing
    await page.goto(`${panel}/#/blocks`);
    await page.goto(`${panel}/#/entry/${written.entryHash}`);
    await page.click("#verify-proof");
    await page.waitForSelector("#proof-verdict");
    assert.match((await page.textContent("#proof-verdict")) ?? "", /^✓ Verified in this browser, trusting no node/);
    assert.match(
      (await page.textContent("#proof-trust-root")) ?? "",
      /the network's bootstrap key, as this page knows it/,
    );
    // the page ran the wallet's rules: the same checks, in the same order, saying the same
    const nodeChecks: ProofCheckPassed[] = [];
    verifyProof(proof, { trustedBootstrapKey: pinnedBootstrapKey(proof), onCheck: (c) => nodeChecks.push(c) });
    const pageChecks = await page.$$eval("#proof-checks li", (l) =>
      l.map((x) => ({ field: x.getAttribute("data-field"), cls: x.className, text: x.textContent ?? "" })),
    );
    assert.deepEqual(
      pageChecks.map((c) => c.field),
      nodeChecks.map((c) => c.field),
    );
    pageChecks.forEach((c, i) => {
      assert.equal(c.cls, "ok");
      assert.ok(c.text.includes(nodeChecks[i]!.detail), `${c.text} / ${nodeChecks[i]!.detail}`);
    });
    await page.screenshot({ path: join(SCREENSHOTS, "proof.png"), fullPage: true });

    // one byte flipped at a time, in the page's editable JSON: each refused, naming the check that failed
    const entryHashAt = proof.receipt.merklebranch[0]!.left === proof.entry.entryhash ? "right" : "left";
    const flips: [string, string, (p: ProofJson) => void][] = [
      ["the entry's content (its last byte)", "proof.entry.raw", (p) => (p.entry.raw = flipByte(p.entry.raw, -1))],
      [
        "the entry's Merkle sibling",
        "proof.receipt.merklebranch",
        (p) => {
          const n = p.receipt.merklebranch[0]!;
          n[entryHashAt] = flipByte(n[entryHashAt], 5);
        },
      ],
      [
        "a signature over the header",
        "proof.signatures.signers[0].signature",
        (p) => {
          const s = p.signatures.signers[0]!;
          s.signature = flipByte(s.signature, 10);
        },
      ],
      [
        "the header's timestamp",
        "proof.directoryblockheader",
        (p) => (p.directoryblockheader = flipByte(p.directoryblockheader, 102)),
      ],
    ];
    if (proof.authority.changes.length > 0)
      flips.push([
        "a signature over an authority change's block",
        "proof.authority.changes[0].signatures[0].signature",
        (p) => {
          const s = p.authority.changes[0]!.signatures[0]!;
          s.signature = flipByte(s.signature, 40);
        },
      ]);
    for (const [what, field, flip] of flips) {
      const bad = structuredClone(proof);
      flip(bad);
      assert.equal(nodeVerdict(bad), field, `the wallet's verifier on ${what}`);
      await page.fill("#proof-text", JSON.stringify(bad, null, 2));
      await page.click("#proof-verify");
      await page.waitForSelector("#proof-verdict.bad");
      assert.equal(await page.getAttribute("#proof-verdict", "data-field"), field, what);
      assert.match((await page.textContent("#proof-verdict")) ?? "", /^✗ The proof does not verify: /);
      // the checks before it passed; the failed one is last, and named
      const shown = await page.$$eval("#proof-checks li", (l) =>
        l.map((x) => [x.className, x.getAttribute("data-field")]),
      );
      assert.deepEqual(shown.at(-1), ["bad", field], what);
      assert.ok(
        shown.slice(0, -1).every(([cls]) => cls === "ok"),
        `${what}: ${JSON.stringify(shown)}`,
      );
    }
    await page.screenshot({ path: join(SCREENSHOTS, "proof-refused.png"), fullPage: true });
    // and the untouched proof, pasted back, verifies again
    await page.fill("#proof-text", JSON.stringify(proof));
    await page.click("#proof-verify");
    await page.waitForSelector("#proof-verdict.ok");
    // a saved proof file, loaded on #/proof (no node named): checked on loading, as the wallet's --verify FILE
    const saved = join(profile, "proof.json");
    writeFileSync(saved, `${JSON.stringify(proof, null, 2)}\n`);
    await page.goto(`${panel}/#/proof`);
    await page.waitForSelector("#proof-file");
    await page.setInputFiles("#proof-file", saved);
    await page.waitForSelector("#proof-verdict.ok");
    assert.match((await page.textContent("#proof-verdict")) ?? "", /^✓ Verified in this browser, trusting no node/);
    // a file that is not JSON is refused as such
    writeFileSync(saved, "{ not json");
    await page.setInputFiles("#proof-file", saved);
    await page.waitForSelector('#proof-verdict.bad[data-field="proof"]');
  });

  it("directory block → asset block → transaction; a chain's page", async () => {
    await page.goto(`${panel}/#/dblock/${written.height}`);
    await page.click('a[href^="#/fblock/"]');
    await page.waitForSelector("text=Asset block");
    await page.click('a[href^="#/transaction/"]');
    await page.waitForSelector("text=Inputs");
    // the first transaction of an asset block is its coinbase, and the page says so
    assert.equal(await page.textContent("h1"), "Transaction (coinbase)");
    await page.waitForSelector("#coinbase-note");
    await page.goto(`${panel}/#/chain/${written.chainId}`);
    await page.waitForSelector(`a[href="#/eblock/${written.eblock}"]`);
  });

  it("a transaction's page lists its inputs and outputs, linked to their addresses", async () => {
    await page.goto(`${panel}/#/transaction/${written.buyTxId}`);
    await page.waitForSelector("#txid");
    assert.equal(await page.textContent("h1"), "Transaction");
    const inputs = await page.$$eval('ul[data-kind="Inputs"] a', (l) => l.map((a) => a.textContent ?? ""));
    assert.equal(inputs.length, 1, `inputs shown: ${inputs.join(",")}`);
    assert.match(inputs[0] ?? "", /^FA/);
    const ecOut = await page.$$eval('ul[data-kind="EC outputs"] a', (l) => l.map((a) => a.getAttribute("href")));
    assert.deepEqual(ecOut, [`#/address/${written.ecAddress}`]);
    await page.screenshot({ path: join(SCREENSHOTS, "transaction.png"), fullPage: true });
  });

  it("a search for an unknown hash says not found", async () => {
    const unknown = "ab".repeat(32);
    await page.fill("#search input", unknown);
    await page.press("#search input", "Enter");
    await page.waitForSelector(".notfound");
    assert.match(
      (await page.textContent(".notfound")) ?? "",
      /Not found.*no block, entry, transaction or chain has the hash/s,
    );
    // any other text is an ext ID: none has this one
    await page.fill("#search input", "nonsense!");
    await page.press("#search input", "Enter");
    await page.waitForSelector("text=no chain or entry has the first ext ID “nonsense!”");
    assert.equal(await page.textContent(".notfound h2"), "Not found");
    // what cannot be read is still "Not understood", not "Something went wrong": an address with a bad checksum
    await page.fill("#search input", `FA${"1".repeat(50)}`);
    await page.press("#search input", "Enter");
    await page.waitForSelector(".notunderstood");
    assert.equal(await page.textContent(".notunderstood h2"), "Not understood");
    await page.screenshot({ path: join(SCREENSHOTS, "not-found.png") });
  });

  it("the search box takes ext-ID text: the chains and entries of the query index", async () => {
    await page.fill("#search input", "greeting");
    await page.press("#search input", "Enter");
    await page.waitForSelector("#extid-entries");
    assert.equal(await page.textContent("h1"), "Ext ID “greeting”");
    const entries = await page.$$eval("#extid-entries a", (l) => l.map((a) => a.getAttribute("href")));
    assert.ok(entries.includes(`#/entry/${written.entryHash}`), `entry links: ${entries.join(",")}`);
    assert.ok(entries.includes(`#/chain/${written.chainId}`), `chain links: ${entries.join(",")}`);
    // `text*` is a prefix search; the chain is found by its first entry's first ext ID
    await page.fill("#search input", "panel test*");
    await page.press("#search input", "Enter");
    // the greeting page before it has a chains list too: wait for this page's heading, then its list
    await page.waitForSelector('h1:text-is("Ext ID starting with “panel test”")');
    await page.waitForSelector(`#extid-chains a[href="#/chain/${written.chainId}"]`);
    const chains = await page.$$eval("#extid-chains a", (l) => l.map((a) => a.getAttribute("href")));
    assert.ok(chains.includes(`#/chain/${written.chainId}`), `chain links: ${chains.join(",")}`);
    // what the page lists is what search-entries answers
    const call = rpcOf(t);
    const answer = (await call("search-entries", {
      extids: [Buffer.from("greeting").toString("hex")],
      match: "exact",
      limit: 25,
    })) as { entries: { entryhash: string }[] };
    await page.fill("#search input", '"greeting"');
    await page.press("#search input", "Enter");
    // the new page's list, not the one the page before left: the prefix search's page has an entries list too,
    // and a busy machine let `$$eval` read it while the new search was still answering (an empty list)
    await page.waitForSelector(`#extid-entries a[href="#/entry/${written.entryHash}"]`);
    assert.equal(await page.textContent("h1"), "Ext ID “greeting”");
    const shown = await page.$$eval('#extid-entries a[href^="#/entry/"]', (l) => l.map((a) => a.getAttribute("href")));
    assert.deepEqual(
      shown,
      answer.entries.map((e) => `#/entry/${e.entryhash}`),
    );
    await page.click(`#extid-entries a[href="#/entry/${written.entryHash}"]`);
    await page.waitForSelector("#entry-hash");
    await page.screenshot({ path: join(SCREENSHOTS, "extid-search.png"), fullPage: true });
  });

  it("an address page lists the address's history from address-history, newest first", async () => {
    await page.fill("#search input", written.ecAddress);
    await page.press("#search input", "Enter");
    await page.waitForSelector("table.history");
    assert.equal(await page.textContent("h1"), "Entry credit address");
    const rows = await page.$$eval("table.history tbody tr", (l) =>
      l.map((tr) => Array.from({ length: tr.children.length }, (_, k) => tr.children[k]?.textContent ?? "")),
    );
    const call = rpcOf(t);
    const history = (await call("address-history", { address: written.ecAddress, order: "desc", limit: 25 })) as {
      items: { kind: string; txid: string; dbheight: number; amount: string }[];
    };
    assert.equal(rows.length, history.items.length);
    const kinds: Record<string, string> = {
      ecpurchase: "EC bought",
      commit: "entry commit",
      chaincommit: "chain commit",
    };
    rows.forEach((r, i) => {
      const it = history.items[i]!;
      assert.equal(r[0], String(it.dbheight));
      assert.equal(r[2], kinds[it.kind]);
      assert.equal(r[3], `${it.amount} EC`);
    });
    // the purchase, the chain's commit and the entry's, at least
    const shown = rows.map((r) => r[2]);
    for (const k of ["EC bought", "chain commit", "entry commit"])
      assert.ok(shown.includes(k), `${k}: ${shown.join(",")}`);
    // the purchase links to its transaction, whose inputs link back to the paying address
    await page.click(`table.history a[href="#/transaction/${written.buyTxId}"]`);
    await page.waitForSelector("#txid");
    const payer = await page.$eval('ul[data-kind="Inputs"] a', (a) => a.getAttribute("href"));
    await page.click(`ul[data-kind="Inputs"] a[href="${payer}"]`);
    await page.waitForSelector("table.history");
    assert.equal(await page.textContent("h1"), "Asset address");
    const faKinds = await page.$$eval("table.history tbody td:nth-child(3)", (l) => l.map((x) => x.textContent));
    assert.ok(faKinds.includes("sent"), `FA kinds: ${faKinds.join(",")}`);
    await page.screenshot({ path: join(SCREENSHOTS, "address.png"), fullPage: true });
  });

  it("block lists name the coinbase; at 420 px nothing runs off the right edge", async () => {
    await page.goto(`${panel}/#/blocks`);
    await page.waitForSelector("text=Directory blocks");
    const cells = await page.$$eval("table.list tbody td", (l) => l.map((x) => x.textContent ?? ""));
    assert.ok(cells.includes("coinbase only"), `block list cells: ${cells.slice(0, 12).join(" | ")}`);
    await page.setViewportSize({ width: 420, height: 900 });
    try {
      await page.goto(`${panel}/`);
      await page.waitForSelector("#entries-chart canvas");
      const widths = {
        page: await page.$eval("html", (el) => el.scrollWidth),
        search: await page.$eval("#search input", (el) => el.getBoundingClientRect().right),
        chart: await page.$eval("#entries-chart", (el) => el.getBoundingClientRect().right),
      };
      assert.ok(widths.page <= 420, `the page is ${widths.page} px wide`);
      assert.ok(widths.search <= 420 && widths.chart <= 420, JSON.stringify(widths));
      await page.screenshot({ path: join(SCREENSHOTS, "overview-420.png"), fullPage: true });
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("a page left before it rendered stops: the overview's 2-s status poll does not outlive a quick navigation away", async () => {
    await page.goto(`${panel}/#/blocks`);
    await page.waitForSelector("text=Directory blocks");
    // the overview's first status answer held back 800 ms, so the next navigation begins while it renders
    await page.route("**/panel/status", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    const statusAsked: number[] = [];
    const onRequest = (r: { url(): string }): void => {
      if (new URL(r.url()).pathname === "/panel/status") statusAsked.push(Date.now());
    };
    page.on("request", onRequest);
    try {
      const isStatus = (r: { url(): string }): boolean => new URL(r.url()).pathname === "/panel/status";
      const asked = page.waitForRequest(isStatus);
      const answered = page.waitForResponse(isStatus);
      // the script runs in the page (a string: the test's own types have no DOM)
      await page.evaluate('location.hash = "#/"');
      await asked;
      await page.evaluate('location.hash = "#/blocks"');
      await page.waitForSelector("text=Directory blocks");
      // the held answer delivered, the overview's render finishes on the blocks page; the hold is taken off only
      // then (taken off while it held one, Playwright answered that one itself)
      await answered;
      await page.unroute("**/panel/status");
      const before = statusAsked.length;
      // a window, not a wait for something: a leaked 2-s poll asks at least twice in it, once even if delayed 3 s
      await new Promise((resolve) => setTimeout(resolve, 5000));
      assert.equal(await page.textContent("h1"), "Directory blocks", "the blocks page stayed");
      assert.equal(
        statusAsked.length,
        before,
        `status asked ${statusAsked.length - before} times after the overview was left`,
      );
    } finally {
      page.off("request", onRequest);
      await page.unroute("**/panel/status").catch(() => undefined);
    }
  });

  it("readwrite: the drop-rate knob sets the node's drop rate", async () => {
    await page.goto(`${panel}/#/settings`);
    await page.waitForSelector("#drop-rate");
    await page.fill("#drop-rate", "7");
    await page.click("#drop-rate-set");
    await page.waitForSelector("#settings-result.ok");
    const dr = await t.call("drop-rate", undefined, { path: "/debug" });
    assert.equal(dr.result.DropRate, 7);
    await page.fill("#drop-rate", "0");
    await page.click("#drop-rate-set");
    await waitFor("the drop rate back to 0", async () =>
      (await page.textContent("#settings-result"))?.includes('"DropRate":0') ? true : undefined,
    );
  });

  it("no console errors, and nothing loaded from outside the panel", () => {
    assert.deepEqual(problems, []);
  });
});

describe("control panel over HTTP", () => {
  let t: TestNode;
  let panel: string;
  before(async () => {
    t = await startTestNode({
      blockTimeSeconds: 2,
      config: { controlPanel: { port: 0, host: "127.0.0.1", setting: "readonly" }, rpcUser: "op", rpcPass: "pw" },
    });
    panel = `http://127.0.0.1:${t.node.panel!.port}`;
  });
  after(async () => {
    await t?.stop();
  });
  const auth = { Authorization: `Basic ${Buffer.from("op:pw").toString("base64")}` };

  it("asks for the node's credentials", async () => {
    const res = await fetch(`${panel}/`);
    assert.equal(res.status, 401);
    assert.match(res.headers.get("www-authenticate") ?? "", /^Basic /);
    const ok = await fetch(`${panel}/`, { headers: auth });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /<title>ledgerd control panel<\/title>/);
  });

  it("readonly: reads answer; the knobs and every write are not there", async () => {
    const heights = await post(`${panel}/rpc/v2`, { jsonrpc: "2.0", id: 1, method: "heights" }, auth);
    assert.equal(heights.status, 200);
    for (const [path, method] of [
      ["/rpc/debug", "set-drop-rate"],
      ["/rpc/debug", "reload-configuration"],
      ["/rpc/v2", "commit-entry"],
      ["/rpc/v2", "asset-submit"],
    ] as const) {
      const r = await post(`${panel}${path}`, { jsonrpc: "2.0", id: 1, method, params: {} }, auth);
      assert.deepEqual(
        r.json.error,
        { code: -32601, message: "Method not found", data: method },
        `${method}: ${JSON.stringify(r.json)}`,
      );
    }
    const status = (await (await fetch(`${panel}/panel/status`, { headers: auth })).json()) as {
      setting: string;
      federatedservers: { chainid: string; online: boolean }[];
      auditservers: unknown[];
    };
    assert.equal(status.setting, "readonly");
    // a single LOCAL node: its bootstrap identity, online; no audit servers
    assert.deepEqual(status.federatedservers, [{ chainid: LOCAL_BOOTSTRAP_IDENTITY_HEX, online: true }]);
    assert.deepEqual(status.auditservers, []);
  });

  it("serves the proof verifier's modules, hash.js as the browser's, and nothing else of dist or node_modules", async () => {
    const get = async (path: string) => {
      const res = await fetch(`${panel}${path}`, { headers: auth });
      return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
    };
    for (const path of [
      "/assets/protocol/proofRules.js",
      "/assets/protocol/bytes.js",
      "/assets/errors.js",
      "/assets/noble-ed25519/index.js",
    ]) {
      const r = await get(path);
      assert.equal(r.status, 200, path);
      assert.equal(r.type, "text/javascript; charset=utf-8", path);
    }
    const hash = await get("/assets/protocol/hash.js");
    assert.equal(hash.status, 200);
    assert.ok(hash.text.includes("/assets/noble-hashes/sha2.js") && !hash.text.includes("node:crypto"), hash.text);
    // modules outside the verifier's closure, and other files of the same folders, are not served
    for (const path of [
      "/assets/protocol/genesis.js",
      "/assets/protocol/proof.js",
      "/assets/crypto/ed25519.js",
      "/assets/protocol/bytes.js.map",
      "/assets/noble-ed25519/package.json",
      "/assets/protocolHash.js",
    ])
      assert.equal((await get(path)).status, 404, path);
  });

  it("panel views name what is wrong with a request", async () => {
    const bad = await fetch(`${panel}/panel/blocks?limit=x`, { headers: auth });
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { error: 'limit: expected a whole number, got "x"' });
    const missing = await fetch(`${panel}/panel/search?q=${"cd".repeat(32)}`, { headers: auth });
    assert.equal(missing.status, 200);
    assert.deepEqual(await missing.json(), {
      found: false,
      notfound: true,
      message: `not found: no block, entry, transaction or chain has the hash ${"cd".repeat(32)}`,
    });
    const height = (await (await fetch(`${panel}/panel/search?q=0`, { headers: auth })).json()) as unknown;
    assert.deepEqual(height, { found: true, kind: "dblock", id: "0" });
    // 64 hex characters are a hash even when they are all digits: not directory block 1
    const digits = `${"0".repeat(63)}1`;
    const hash = (await (await fetch(`${panel}/panel/search?q=${digits}`, { headers: auth })).json()) as unknown;
    assert.deepEqual(hash, {
      found: false,
      notfound: true,
      message: `not found: no block, entry, transaction or chain has the hash ${digits}`,
    });
  });
});
