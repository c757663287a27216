/**
 * Make the README's control panel screenshot (docs/images/panel-overview.png) from a real node: start a LOCAL
 * node (6-second blocks) in a temp directory, write entries and transactions at a varying rate for a few
 * minutes so the charts have something to show, then open the panel's overview in headless Chromium (the OS
 * package) and save the picture.
 *
 *   node dist/tools/panel/screenshot.js [-minutes=12] [-out=docs/images/panel-overview.png]
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { loadConfig } from "../../src/config/index.js";
import { createLogger } from "../../src/log/logger.js";
import { startNode } from "../../src/node.js";
import { keyPairFromPrivate, keyPairFromSeed } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { sha256 } from "../../src/protocol/hash.js";
import { composeChain, composeEntry, composeTransaction } from "../wallet/compose.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./headlessChromium.js";

const args = new Map(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--?/, "").split("=");
    return [k ?? "", v ?? ""];
  }),
);
const minutes = Number(args.get("minutes") ?? 12);
const out = resolve(args.get("out") ?? "docs/images/panel-overview.png");

const home = mkdtempSync(join(tmpdir(), "ledgerd-screenshot-"));
const argv = ["-network=LOCAL", `-homedir=${home}`, "-blktime=6", "-port=0", "-controlpanelport=0"];
const config = { ...loadConfig(argv, { HOME: home }), listenHost: "127.0.0.1" };
const node = await startNode(config, { argv, log: createLogger({ level: "none", consoleLevel: "error" }) });
const api = `http://127.0.0.1:${node.port}/v2`;
const call = async (method: string, params?: unknown): Promise<Record<string, unknown>> => {
  const res = await fetch(api, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) });
  const json = (await res.json()) as { result?: Record<string, unknown>; error?: unknown };
  if (json.error !== undefined) throw new Error(`${method}: ${JSON.stringify(json.error)}`);
  return json.result!;
};
const text = (s: string) => new TextEncoder().encode(s);

try {
  const funded = keyPairFromPrivate("Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK");
  const ec = keyPairFromSeed("EC", sha256(text("ledgerd panel screenshot")));
  const rate = BigInt(Number((await call("entry-credit-rate")).rate));
  const buy = composeTransaction({
    inputSeed: funded.seed,
    outputs: [],
    ecOutputs: [{ address: ec.publicKey, amount: 200_000n * rate }],
    rate,
    milliTimestamp: Date.now(),
  });
  await call("asset-submit", { transaction: toHex(buy.tx.raw) });
  await new Promise((r) => setTimeout(r, 13_000));
  const chains: Uint8Array[] = [];
  for (const name of ["sensor readings", "invoices", "audit trail"]) {
    const c = composeChain({
      extIds: [text(name)],
      content: text(`the ${name} chain`),
      ecSeed: ec.seed,
      milliTime: Date.now(),
    });
    await call("commit-chain", c.commit.params);
    await call("reveal-chain", c.reveal.params);
    chains.push(Buffer.from(c.chainId, "hex"));
  }
  const end = Date.now() + minutes * 60_000;
  let n = 0;
  while (Date.now() < end) {
    // a slow wave of load: 1 to ~25 entries a second, and a transaction now and then
    const phase = (Date.now() % 240_000) / 240_000;
    const count = Math.round(1 + 12 * (1 + Math.sin(2 * Math.PI * phase)));
    for (let i = 0; i < count; i++) {
      const e = composeEntry({
        chainId: chains[n % chains.length]!,
        extIds: [text(`#${n}`)],
        content: text(`reading ${n}: ${(20 + 5 * Math.sin(n / 10)).toFixed(2)} °C`),
        ecSeed: ec.seed,
        milliTime: Date.now(),
      });
      await call("commit-entry", e.commit.params);
      await call("reveal-entry", e.reveal.params);
      n++;
    }
    if (n % 7 < 2) {
      const tx = composeTransaction({
        inputSeed: funded.seed,
        outputs: [{ address: sha256(text(`payee ${n}`)), amount: 100_000_000n }],
        ecOutputs: [],
        rate,
        milliTimestamp: Date.now(),
      });
      await call("asset-submit", { transaction: toHex(tx.tx.raw) });
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  process.stdout.write(`wrote ${n} entries\n`);
  const profile = mkdtempSync(join(tmpdir(), "ledgerd-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1280, height: 1000 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`http://127.0.0.1:${node.panel!.port}/`);
  await page.waitForSelector("#tx-chart canvas");
  // a loaded machine can stall a minute for a moment (6-second blocks: 0.6 s minutes); picture a steady node
  await page.waitForSelector("#health.ok", { timeout: 60_000 });
  await new Promise((r) => setTimeout(r, 3000));
  mkdirSync(dirname(out), { recursive: true });
  await page.screenshot({ path: out });
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  process.stdout.write(`saved ${out}\n`);
} finally {
  await node.stop();
  rmSync(home, { recursive: true, force: true });
}
