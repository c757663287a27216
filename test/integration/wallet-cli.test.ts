// End to end: the real node process (bin/ledgerd, LOCAL, 2-second blocks, temp home, loopback port)
// and the real wallet CLI (bin/ledgerd-wallet). Happy path from the genesis key to a verified receipt,
// then every error path: insufficient balance (wallet check and the node's own refusal), bad address,
// unreachable node, authentication, TLS.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { NodeClient, type NodeClientOptions, RpcError } from "../../src/client/index.js";
import { decodeAddress, keyPairFromSeed } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { chainIdFromExtIds } from "../../src/protocol/entry.js";
import { formatAssetAmount } from "../../tools/wallet/amount.js";
import { isBalanceError } from "../../tools/wallet/commands.js";
import { composeChain } from "../../tools/wallet/compose.js";
import { killAllNodes, LedgerdProcess } from "../support/nodeProcess.js";

const here = dirname(fileURLToPath(import.meta.url));
const ROOT = join(here, "..", "..", "..");
const WALLET_BIN = join(ROOT, "bin", "ledgerd-wallet");

const SAND_SECRET = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";
const SAND = "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q";
const BASE = 100_000_000n;

const scratch = mkdtempSync(join(tmpdir(), "ledgerd-wallet-it-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

// ───────────────────────────── the real node ─────────────────────────────

after(() => killAllNodes());

interface RunningNode {
  url: string;
  home: string;
  stop: () => Promise<void>;
}

/** A plain node (test/support/nodeProcess.ts: loopback only, 2-second blocks, ready once `heights` answers). */
async function startNode(): Promise<RunningNode> {
  const p = await LedgerdProcess.start({ blockTimeSeconds: 2 });
  return { url: p.url, home: p.homeDir, stop: () => stopAndClean(p) };
}

/**
 * A node whose `heights` needs something the shared readiness probe does not send (credentials, TLS):
 * started without waiting, then polled with NodeClient and those options until it answers — and is this
 * node (its `configuration` HomeDir). A port taken meanwhile by a parallel test means another try.
 */
async function startNodeWith(
  extraArgs: string[],
  scheme: "http" | "https",
  probe: (home: string) => Partial<NodeClientOptions>,
): Promise<RunningNode> {
  for (let attempt = 1; ; attempt++) {
    const started = await LedgerdProcess.startExpectingExit({ blockTimeSeconds: 2, extraArgs, waitMs: 200 });
    const p = started.process;
    const url = `${scheme}://127.0.0.1:${p.port}`;
    const deadline = Date.now() + 60_000;
    let lastError: unknown;
    while (p.isRunning && Date.now() < deadline) {
      let client: NodeClient | undefined;
      try {
        // constructed each round: with TLS the certificate file appears only once the node has made it
        client = new NodeClient({ url, timeoutMs: 2000, ...probe(p.homeDir) });
        await client.heights();
        if ((await client.configuration()).App?.HomeDir === p.homeDir)
          return { url, home: p.homeDir, stop: () => stopAndClean(p) };
      } catch (e) {
        lastError = e;
      } finally {
        client?.close();
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await stopAndClean(p);
    if (!(/EADDRINUSE|in use/i.test(p.log) && attempt < 3))
      throw new Error(`ledgerd ${extraArgs.join(" ")} did not answer on ${url} (${String(lastError)}):\n${p.tail()}`);
  }
}

async function stopAndClean(p: LedgerdProcess): Promise<void> {
  await p.stop();
  p.cleanup();
}

// ───────────────────────────── the real wallet ─────────────────────────────

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function runWallet(home: string, env: Record<string, string>, args: string[]): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("LEDGERD_")));
  return new Promise((resolve) => {
    execFile(WALLET_BIN, args, { env: { ...clean, HOME: home, ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
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

/** "Key: value" lines of a command's output. */
function fields(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of stdout.split("\n")) {
    const m = /^([A-Za-z]+): (.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

// ───────────────────────────── tests ─────────────────────────────

describe("ledgerd-wallet against a real node", () => {
  let node: RunningNode;
  let client: NodeClient;
  const walletHome = join(scratch, "home");
  let wallet: (...args: string[]) => Promise<Run>;
  let FA = "";
  let EC = "";
  let chainId = "";
  let firstEntry = "";
  let secondEntry = "";
  let rate = 0n;

  before(async () => {
    node = await startNode();
    client = new NodeClient({ url: node.url });
    wallet = (...args) => runWallet(walletHome, { LEDGERD_NODE: node.url }, args);
    rate = BigInt((await client.entryCreditRate()).rate);
  });
  after(async () => {
    client?.close();
    await node?.stop();
  });

  test("import the genesis key; new keys", async () => {
    assert.equal(ok(await wallet("import", SAND_SECRET), "import"), SAND);
    FA = ok(await wallet("new-fa"), "new-fa");
    EC = ok(await wallet("new-ec"), "new-ec");
    decodeAddress(FA, "FA");
    decodeAddress(EC, "EC");
    assert.deepEqual(ok(await wallet("list"), "list").split("\n"), [SAND, FA, EC]);
    assert.equal(ok(await wallet("balance", SAND), "balance"), "20000");
  });

  test("send: exact decimal amount arrives, fee is charged at the node's rate", async () => {
    const r = await wallet("send", SAND, FA, "12.5");
    const f = fields(ok(r, "send"));
    assert.match(f.TxID ?? "", /^[0-9a-f]{64}$/);
    // with 2-second blocks on a loaded machine the block may close before the wallet's first poll: the state
    // it then reports is the later DBlockConfirmed, which satisfies the wait as well (tools/wallet/progress.ts)
    assert.match(
      r.stderr,
      /: (TransactionACK|DBlockConfirmed) \(\d+s\)\n$/,
      "progress on stderr ends with the acknowledgement (or the confirmation, when the block closed first)",
    );
    assert.equal(ok(await wallet("balance", FA), "balance FA"), "12.5");
    const ack = await client.ack({ hash: f.TxID!, chainid: "f" });
    assert.ok(ack.status === "TransactionACK" || ack.status === "DBlockConfirmed", ack.status);
    const sandLeft = BigInt((await client.assetBalance({ address: SAND })).balance);
    assert.equal(sandLeft, 20000n * BASE - 1250000000n - 12n * rate, "fee = 12 EC × rate");
  });

  test("buy-ec: the EC address receives exactly the credits; the FA pays credits × rate + fee", async () => {
    ok(await wallet("buy-ec", FA, EC, "30"), "buy-ec");
    assert.equal(ok(await wallet("balance", EC), "balance EC"), "30");
    const left = BigInt((await client.assetBalance({ address: FA })).balance);
    assert.equal(left, 1250000000n - 30n * rate - 12n * rate);
  });

  test("add-chain: commit + reveal, acknowledged; chain-head knows it", async () => {
    const ext = `wallet-it-${Date.now()}`;
    const r = await wallet("add-chain", "--ext", ext, "--ext-hex", "00ff", "--content", "Hello, ledger", EC);
    const f = fields(ok(r, "add-chain"));
    chainId = f.ChainID!;
    firstEntry = f.EntryHash!;
    assert.equal(chainId, toHex(chainIdFromExtIds([new Uint8Array(Buffer.from(ext)), Uint8Array.of(0, 255)])));
    assert.match(f.CommitTxID ?? "", /^[0-9a-f]{64}$/);
    assert.match(r.stderr, /TransactionACK|DBlockConfirmed/);
    const head = await client.chainHead({ chainid: chainId });
    assert.ok(head.chaininprocesslist || head.chainhead !== "");
    assert.equal(ok(await wallet("balance", EC), "balance EC"), "19", "a chain with a small first entry costs 11 EC");
  });

  test("add-entry --wait-confirmed: waits for DBlockConfirmed", async () => {
    const r = await wallet(
      "add-entry",
      "-q",
      "--wait-confirmed",
      "--chain",
      chainId,
      "--ext",
      "second",
      "--content",
      "My first entry",
      EC,
    );
    secondEntry = ok(r, "add-entry");
    assert.match(secondEntry, /^[0-9a-f]{64}$/, "-q prints only the entry hash");
    assert.match(r.stderr, /DBlockConfirmed/);
    const ack = await client.ack({ hash: secondEntry, chainid: chainId });
    assert.ok("entrydata" in ack);
    assert.equal(ack.entrydata.status, "DBlockConfirmed");
    assert.equal(ok(await wallet("balance", EC), "balance EC"), "18");
  });

  test("entry, chain-head, entries read it back", async () => {
    const e = ok(await wallet("entry", secondEntry), "entry");
    assert.equal(
      e,
      [`EntryHash: ${secondEntry}`, `ChainID: ${chainId}`, "ExtID: second", "Content:", "My first entry"].join("\n"),
    );
    const first = ok(await wallet("entry", firstEntry), "entry (first)");
    assert.match(first, /ExtID \(hex\): 00ff/, "binary ext IDs print as hex");

    const head = fields(ok(await wallet("chain-head", chainId), "chain-head"));
    assert.match(head.ChainHead ?? "", /^[0-9a-f]{64}$/);

    const all = ok(await wallet("entries", chainId), "entries");
    assert.match(all, /^Entry \[1\/2\]\nEntryHash: /);
    assert.ok(all.indexOf(firstEntry) < all.indexOf(secondEntry), "oldest first");
    assert.ok(all.includes("Hello, ledger") && all.includes("My first entry"));
    const json = JSON.parse(ok(await wallet("entries", chainId, "--json"), "entries --json")) as {
      entryhash: string;
    }[];
    assert.deepEqual(
      json.map((x) => x.entryhash),
      [firstEntry, secondEntry],
    );
  });

  test("receipt --verify checks the Merkle path locally and against the node's directory block", async () => {
    const r = ok(await wallet("receipt", "--verify", secondEntry), "receipt --verify");
    assert.match(r, new RegExp(`^Receipt verified: entry ${secondEntry}`));
    const receipt = JSON.parse(ok(await wallet("receipt", secondEntry), "receipt")) as {
      entry: { entryhash: string };
      merklebranch: unknown[];
    };
    assert.equal(receipt.entry.entryhash, secondEntry);
    assert.ok(receipt.merklebranch.length >= 2);
  });

  test("receipt --verify fails when the node's receipt is altered (proxy flips one hash)", async () => {
    // A pass-through HTTP proxy to the real node that damages one Merkle node of receipts.
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const body = Buffer.concat(chunks);
        const up = http.request(
          `${node.url}${req.url}`,
          { method: "POST", headers: { "content-type": "text/plain;" } },
          (ur) => {
            const parts: Buffer[] = [];
            ur.on("data", (c: Buffer) => parts.push(c));
            ur.on("end", () => {
              let text = Buffer.concat(parts).toString();
              if (body.toString().includes('"receipt"')) {
                const j = JSON.parse(text) as { result: { receipt: { merklebranch: { top: string }[] } } };
                const node0 = j.result.receipt.merklebranch[0]!;
                node0.top = (node0.top[0] === "0" ? "1" : "0") + node0.top.slice(1);
                text = JSON.stringify(j);
              }
              res.writeHead(ur.statusCode ?? 500);
              res.end(text);
            });
          },
        );
        up.end(body);
      });
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const r = await runWallet(walletHome, { LEDGERD_NODE: url }, ["receipt", "--verify", secondEntry]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /receipt does NOT verify: its Merkle branch does not lead from entry/);
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((r) => proxy.close(() => r()));
    }
  });

  test("a commit already paid (Repeated Commit): add-chain sends the reveal only", async () => {
    // Pay for the chain's first entry with a commit sent straight to the node, then let the wallet add the
    // same chain: its own commit is refused as repeated, and it goes on to the reveal (spec §3 rule 3).
    const ext = `repeated-${Date.now()}`;
    const ecPair = keyPairFromSeed("EC", new Uint8Array(32).fill(0x11));
    ok(await wallet("import", ecPair.privateAddress), "import EC");
    ok(await wallet("buy-ec", FA, ecPair.publicAddress, "20"), "buy-ec");
    const pre = composeChain({
      extIds: [new Uint8Array(Buffer.from(ext))],
      content: new Uint8Array(Buffer.from("paid twice?")),
      ecSeed: ecPair.seed,
      milliTime: Date.now(),
    });
    await client.commitChain(pre.commit.params);
    const r = await wallet("add-chain", "--ext", ext, "--content", "paid twice?", ecPair.publicAddress);
    const f = fields(ok(r, "add-chain after a paid commit"));
    assert.match(r.stderr, /already paid for \(repeated commit\); sending the reveal only/);
    assert.equal(f.EntryHash, pre.entryHash);
    assert.equal(ok(await wallet("balance", ecPair.publicAddress), "balance"), "9", "charged once: 20 − 11");

    // A commit whose reveal never came: `entry` and `receipt` say "not yet confirmed", not "unknown".
    ok(await wallet("buy-ec", FA, ecPair.publicAddress, "11"), "buy-ec");
    const orphan = composeChain({
      extIds: [new Uint8Array(Buffer.from(`orphan-${Date.now()}`))],
      content: new Uint8Array(0),
      ecSeed: ecPair.seed,
      milliTime: Date.now(),
    });
    await client.commitChain(orphan.commit.params);
    const entry = await wallet("entry", orphan.entryHash);
    assert.equal(entry.code, 2);
    assert.match(
      entry.stderr,
      /is not yet confirmed: its commit is known \(commit (TransactionACK|DBlockConfirmed), reveal Unknown\)/,
    );
    const receipt = await wallet("receipt", orphan.entryHash);
    assert.equal(receipt.code, 2);
    assert.match(receipt.stderr, /no receipt for entry [0-9a-f]{64} yet: it is not yet confirmed/);
    const unknown = await wallet("receipt", "0f".repeat(32));
    assert.match(unknown.stderr, /no receipt for entry (0f){32}: the entry is unknown to the node/);
  });

  test("insufficient balance is refused before anything is submitted", async () => {
    const poorFa = ok(await wallet("new-fa"), "new-fa");
    const poorEc = ok(await wallet("new-ec"), "new-ec");
    const send = await wallet("send", poorFa, SAND, "1");
    assert.equal(send.code, 2);
    assert.match(send.stderr, new RegExp(`insufficient balance: ${poorFa} holds 0, this transaction needs 1\\.`));
    assert.match(
      send.stderr,
      new RegExp(`fund it from an address that holds assets: ledgerd-wallet send <FA…> ${poorFa} 1\\.`),
    );
    const buy = await wallet("buy-ec", FA, EC, "100000000");
    assert.equal(buy.code, 2);
    const faLeft = formatAssetAmount(BigInt((await client.assetBalance({ address: FA })).balance));
    const need = formatAssetAmount(100000000n * rate + 12n * rate);
    assert.ok(
      buy.stderr.includes(
        `insufficient balance: ${FA} holds ${faLeft}, this transaction needs ${need} (100000000 EC at ${rate} base units each + fee `,
      ),
      buy.stderr,
    );
    const chain = await wallet("add-chain", "--ext", `poor-${Date.now()}`, "--content", "x", poorEc);
    assert.equal(chain.code, 2);
    assert.match(chain.stderr, /insufficient entry credits: EC.* holds 0 EC, this chain costs 11 EC/);
    assert.match(chain.stderr, /buy more: ledgerd-wallet buy-ec <FA…> EC.* 11/);
  });

  test("the node's own refusal of an unfunded commit is recognised as a balance error", async () => {
    // Bypass the wallet's check: submit a commit from a key with no credits straight to the node.
    const poor = keyPairFromSeed("EC", new Uint8Array(32).fill(0x5a));
    const c = composeChain({
      extIds: [new Uint8Array(Buffer.from(`unfunded-${Date.now()}`))],
      content: new Uint8Array(0),
      ecSeed: poor.seed,
      milliTime: Date.now(),
    });
    await assert.rejects(client.commitChain(c.commit.params), (e: unknown) => {
      assert.ok(e instanceof RpcError, String(e));
      assert.ok(isBalanceError(e), `not recognised as a balance error: ${e.message}`);
      return true;
    });
  });

  test("bad addresses, unknown entries and chains: exit 2 with the reason", async () => {
    const cases: [string[], RegExp][] = [
      [["balance", `${SAND.slice(0, -1)}X`], /is not a valid FA address \(address checksum does not match\)/],
      [["send", SAND, EC, "1"], /to: .* is not a valid FA address \(expected an FA address, got EC\)/],
      [["buy-ec", FA, FA, "1"], /to: .* is not a valid EC address \(expected an EC address, got FA\)/],
      [["entry", "00".repeat(32)], /entry 0{64} is unknown to the node/],
      [["entries", "ab".repeat(32)], /chain (ab){32} not found on the node/],
      [["add-entry", "--chain", "cd".repeat(32), "--content", "x", EC], /chain (cd){32} does not exist/],
    ];
    for (const [args, pattern] of cases) {
      const r = await wallet(...args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, pattern, args.join(" "));
    }
    // the chain created above exists: add-chain with the same ext IDs is refused before paying
    const info = JSON.parse(ok(await wallet("entries", chainId, "--json"), "entries")) as { extids: string[] }[];
    const exts = info[0]!.extids;
    const again = await wallet("add-chain", "--ext-hex", exts[0]!, "--ext-hex", exts[1]!, "--content", "dup", EC);
    assert.equal(again.code, 2);
    assert.match(again.stderr, new RegExp(`chain ${chainId} already exists`));
  });

  test("a node that is not running: exit 2 naming the URL", async () => {
    const port = 1; // tcpmux: privileged and unused; a released listen(0) port may be reused by a parallel test
    const r = await runWallet(walletHome, {}, ["balance", SAND, `-node=http://127.0.0.1:${port}`]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      new RegExp(`cannot reach the node at http://127\\.0\\.0\\.1:${port}/v2: connection refused`),
    );
  });
});

describe("ledgerd-wallet hints (newcomer review 3)", () => {
  let p: LedgerdProcess;
  let panelPort = 0;
  const home = join(scratch, "hints");
  const wallet = (...args: string[]) => runWallet(home, { LEDGERD_NODE: p.url }, args);
  before(async () => {
    p = await LedgerdProcess.start({ blockTimeSeconds: 2, extraArgs: ["-controlpanelport=0"] });
    panelPort = Number(/control panel listening.*?:(\d+)\//.exec(p.log)?.[1]);
    assert.ok(panelPort > 0, p.tail());
  });
  after(() => stopAndClean(p));

  test("--version; options: given twice, a prefix, only the command's own suggested", async () => {
    for (const v of ["--version", "-v", "version"]) assert.equal(ok(await wallet(v), v), "ledgerd-wallet 0.1.0");
    const twice = await wallet("add-entry", "--chain", "ab".repeat(32), "--content", "hi", "--content", "ho", "EC1");
    assert.equal(twice.code, 1, twice.stderr);
    assert.match(twice.stderr, /option -content given twice: give it once/);
    const wait = await wallet("send", SAND, SAND, "1", "--wait");
    assert.match(wait.stderr, /unknown option --wait; did you mean --wait-confirmed\?/);
    // balance takes no --json: it is not offered
    const jsn = await wallet("balance", SAND, "--jsn");
    assert.match(jsn.stderr, /unknown option --jsn/);
    assert.doesNotMatch(jsn.stderr, /did you mean --json/);
    assert.match((await wallet("list", "--jsn")).stderr, /did you mean --json\?/);
  });

  test("addresses: case, an EC address to send, a private key never printed back", async () => {
    const lower = await wallet("balance", `fa${SAND.slice(2)}`);
    assert.match(lower.stderr, /addresses are case-sensitive: they start with FA/);
    const ec = "EC2Ptf9rMHoYWgTZLHUnUSLdzWe5Nm4SRPsjR8bpZ8nqyBEn7ke2";
    const send = await wallet("send", SAND, ec, "1");
    assert.match(send.stderr, /an EC address is funded with buy-ec: ledgerd-wallet buy-ec <FA…> <EC…> <credits>/);
    const secret = await wallet("balance", SAND_SECRET);
    assert.match(secret.stderr, /that is a private key \(Fs…, not shown\)/);
    assert.ok(!secret.stderr.includes(SAND_SECRET.slice(2)), secret.stderr);
  });

  test("the panel's port, an https URL for an http node, a URL's password", async () => {
    const panel = await runWallet(home, {}, ["balance", SAND, `-node=http://127.0.0.1:${panelPort}`]);
    assert.equal(panel.code, 2, panel.stderr);
    assert.match(
      panel.stderr,
      new RegExp(
        `that is the node's control panel .*; its JSON-RPC API is on port ${p.port}: -node=http://127\\.0\\.0\\.1:${p.port}`,
      ),
    );
    const tls = await runWallet(home, {}, ["balance", SAND, `-node=https://127.0.0.1:${p.port}`]);
    assert.equal(tls.code, 2, tls.stderr);
    assert.match(
      tls.stderr,
      new RegExp(`if the node serves plain HTTP \\(no -tls\\), use -node=http://127\\.0\\.0\\.1:${p.port}`),
    );
    // the client's own handshake bound answered, not the node's 10-s idle close
    assert.match(tls.stderr, /no TLS handshake within 5000 ms/);
    const secret = await runWallet(home, {}, ["balance", SAND, "-node=http://bob:Pa55word@127.0.0.1:1/?x=1"]);
    assert.equal(secret.code, 2);
    assert.ok(!secret.stderr.includes("Pa55word"), secret.stderr);
  });
});

describe("ledgerd-wallet against a node with -rpcuser/-rpcpass", () => {
  let node: RunningNode;
  const home = join(scratch, "home-auth");
  before(async () => {
    node = await startNodeWith(["-rpcuser=u", "-rpcpass=p"], "http", () => ({ user: "u", password: "p" }));
  });
  after(async () => node?.stop());

  test("missing credentials, wrong password, right credentials", async () => {
    const missing = await runWallet(home, { LEDGERD_NODE: node.url }, ["balance", SAND]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /authentication required at http:\/\/127\.0\.0\.1:\d+\/v2/);
    assert.match(missing.stderr, /pass -rpcuser=USER -rpcpass=PASS/);

    const wrong = await runWallet(home, { LEDGERD_NODE: node.url }, ["balance", SAND, "-rpcuser=u", "-rpcpass=nope"]);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /authentication failed .* rejected the user name or password/);

    const right = await runWallet(home, { LEDGERD_NODE: node.url }, ["balance", SAND, "-rpcuser=u", "-rpcpass=p"]);
    assert.equal(right.code, 0, right.stderr);
    assert.equal(right.stdout.trim(), "20000");

    const viaEnv = await runWallet(home, { LEDGERD_NODE: node.url, LEDGERD_RPCUSER: "u", LEDGERD_RPCPASS: "p" }, [
      "balance",
      SAND,
    ]);
    assert.equal(viaEnv.code, 0, viaEnv.stderr);
  });
});

describe("ledgerd-wallet against a node with -tls=true", () => {
  let node: RunningNode;
  const home = join(scratch, "home-tls");
  let caFile = "";
  before(async () => {
    node = await startNodeWith(["-tls=true"], "https", (nodeHome) => ({ caFile: join(nodeHome, "tls", "node.crt") }));
    caFile = join(node.home, "tls", "node.crt");
  });
  after(async () => node?.stop());

  test("https with the node's certificate works; without it the TLS failure is named", async () => {
    const trusted = await runWallet(home, { LEDGERD_NODE: node.url }, ["balance", SAND, `-cafile=${caFile}`]);
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(trusted.stdout.trim(), "20000");
    const untrusted = await runWallet(home, { LEDGERD_NODE: node.url }, ["balance", SAND]);
    assert.equal(untrusted.code, 2);
    assert.match(untrusted.stderr, /TLS handshake failed/);
    assert.match(untrusted.stderr, /-cafile=FILE/);
    const plain = await runWallet(home, { LEDGERD_NODE: node.url.replace("https:", "http:") }, ["balance", SAND]);
    assert.equal(plain.code, 2);
    assert.match(plain.stderr, new RegExp(`if it serves HTTPS \\(-tls\\), use -node=${node.url.replace(/\/$/, "")} `));
  });
});
