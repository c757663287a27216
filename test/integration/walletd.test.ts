// End to end: a real node (bin/ledgerd, LOCAL, 2-second blocks) and a real wallet service (bin/ledgerd-walletd),
// driven through the service's JSON-RPC alone (WalletClient); the node is only sent what the service composed,
// and asked what the test checks against. Restore from the reference's mnemonic → the reference's addresses;
// a multi-input, multi-output transaction funding EC addresses, built and signed in the service, submitted and
// confirmed; a chain and an entry composed, submitted and confirmed; history and balances that match the node;
// and the refusals (locked wallet, wrong passphrase, unknown address, insufficient funds, a node method, auth).
import assert from "node:assert/strict";
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { NodeClient, RpcError, WalletClient } from "../../src/client/index.js";
import type { ComposedEntryResult } from "../../src/client/walletMethods.js";
import { verifyEd25519 } from "../../src/crypto/ed25519.js";
import { keyPairFromPrivate } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { entryHash } from "../../src/protocol/entry.js";
import { freeLoopbackPort, killAllNodes, LedgerdProcess, PROJECT_ROOT } from "../support/nodeProcess.js";
import { waitFor } from "../support/waitFor.js";

const WALLETD_BIN = join(PROJECT_ROOT, "bin", "ledgerd-walletd");
const WALLET_BIN = join(PROJECT_ROOT, "bin", "ledgerd-wallet");
/** The LOCAL network's genesis key (20 000 asset units). */
const SAND_SECRET = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";
const SAND = "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q";
const YELLOW = Array(12).fill("yellow").join(" ");
/** FactomProject/wallet walletDBO_test.go: the first two keys of each kind of "yellow ×12". */
const REF_FA = [
  "FA22de5NSG2FA2HmMaD4h8qSAZAJyztmmnwgLPghCQKoSekwYYct",
  "FA3heCmxKCk1tCCfiAMDmX8Ctg6XTQjRRaJrF5Jagc9rbo7wqQLV",
];
const REF_EC = [
  "EC2KnJQN86MYq4pQyeSGTHSiVdkhRCPXS3udzD4im6BXRBjZFMmR",
  "EC2UNG5LztGN3BNiVMEgkBP8ra8ud3HjjWWXKjrQozJ98rTvXKYy",
];
const UNIT = 100_000_000;
const USER = "app";
const PASS = "walletd-it-pass";
/** Generous: a block is 2 s, but the machine is shared and slow. */
const CONFIRM_MS = 120_000;

const scratch = mkdtempSync(join(tmpdir(), "ledgerd-walletd-it-"));
const daemons: ChildProcess[] = [];
after(async () => {
  for (const d of daemons) if (d.exitCode === null) d.kill("SIGKILL");
  await killAllNodes();
  rmSync(scratch, { recursive: true, force: true });
});

interface Daemon {
  proc: ChildProcess;
  url: string;
  output: () => string;
}

/** Start bin/ledgerd-walletd on a free loopback port; ready once `properties` answers. */
async function startWalletd(args: string[], auth = true, caFile?: string): Promise<Daemon> {
  const port = await freeLoopbackPort();
  const proc = spawn(WALLETD_BIN, [`-port=${port}`, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  daemons.push(proc);
  let out = "";
  proc.stdout!.on("data", (c: Buffer) => (out += c.toString()));
  proc.stderr!.on("data", (c: Buffer) => (out += c.toString()));
  const url = `${caFile === undefined ? "http" : "https"}://127.0.0.1:${port}`;
  // with -tls the certificate exists only once the service made it: the probe is created then
  let probe: WalletClient | undefined;
  try {
    await waitFor(
      "ledgerd-walletd to answer properties",
      async () => {
        if (proc.exitCode !== null) throw new Error(`ledgerd-walletd exited ${proc.exitCode}: ${out}`);
        if (caFile !== undefined && !existsSync(caFile)) return undefined;
        probe ??= new WalletClient({ url, caFile, ...(auth ? { user: USER, password: PASS } : {}) });
        return probe.properties().catch(() => undefined);
      },
      60_000,
      100,
      () => out,
    );
  } finally {
    probe?.close();
  }
  return { proc, url, output: () => out };
}

/** Run bin/ledgerd-walletd expecting it to refuse to start: its exit code and output. */
function refusedStart(args: string[]): Promise<{ code: number; text: string }> {
  return new Promise((resolve) => {
    execFile(WALLETD_BIN, args, { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: typeof err?.code === "number" ? err.code : 0, text: stdout + stderr });
    });
  });
}

/** An RpcError with this code whose data matches. */
function rpcError(code: number, data: RegExp) {
  return (e: unknown): boolean => {
    assert.ok(e instanceof RpcError, `expected an RpcError, got ${String(e)}`);
    assert.equal(e.code, code, `code of ${e.message}`);
    assert.match(String(e.data), data);
    return true;
  };
}

describe("ledgerd-walletd: the wallet service against a real node", () => {
  let node: LedgerdProcess;
  let nodeClient: NodeClient;
  let wallet: WalletClient;
  const walletPath = join(scratch, "wallet.json");
  let rate = 0;
  let chainOfTest = "";
  let walletdUrl = "";

  before(async () => {
    node = await LedgerdProcess.start({ blockTimeSeconds: 2 });
    nodeClient = new NodeClient({ url: node.url });
    const d = await startWalletd([
      `-wallet=${walletPath}`,
      `-node=${node.url}`,
      `-rpcuser=${USER}`,
      `-rpcpass=${PASS}`,
    ]);
    wallet = new WalletClient({ url: d.url, user: USER, password: PASS });
    walletdUrl = d.url;
    rate = Number((await nodeClient.entryCreditRate()).rate);
  });
  after(() => {
    wallet?.close();
    nodeClient?.close();
  });

  /** Send a composed request to the node as an application would, by its method name. */
  async function toNode(request: { method: string; params: unknown }): Promise<unknown> {
    return nodeClient.call(request.method, request.params);
  }

  async function confirmedTx(txid: string): Promise<void> {
    await waitFor(
      `transaction ${txid} DBlockConfirmed`,
      async () =>
        (await nodeClient.ack({ hash: txid, chainid: "f" })).status === "DBlockConfirmed" ? true : undefined,
      CONFIRM_MS,
      250,
    );
  }

  async function confirmedEntry(composed: ComposedEntryResult): Promise<{ entry: string; chain: string }> {
    const raw = fromHex(composed.reveal.params.entry);
    const hash = toHex(entryHash(raw));
    const chain = toHex(raw.subarray(1, 33));
    await waitFor(
      `entry ${hash} DBlockConfirmed`,
      async () => {
        const a = (await nodeClient.ack({ hash, chainid: chain })) as { entrydata: { status: string } };
        return a.entrydata.status === "DBlockConfirmed" ? true : undefined;
      },
      CONFIRM_MS,
      250,
    );
    return { entry: hash, chain };
  }

  test("restore from the reference's mnemonic: the reference's addresses, in order; backup returns seed and keys", async () => {
    assert.deepEqual(await wallet.importMnemonic({ words: `  ${YELLOW.toUpperCase()} ` }), { success: true });
    const fa0 = await wallet.generateAssetAddress();
    const ec0 = await wallet.generateEcAddress();
    const fa1 = await wallet.generateAssetAddress();
    const ec1 = await wallet.generateEcAddress();
    assert.deepEqual([fa0.public, fa1.public], REF_FA);
    assert.deepEqual([ec0.public, ec1.public], REF_EC);
    assert.match(fa0.secret, /^Fs/);
    const backup = await wallet.walletBackup();
    assert.equal(backup["wallet-seed"], YELLOW);
    assert.deepEqual(
      backup.addresses.map((a) => a.public),
      [REF_FA[0], REF_EC[0], REF_FA[1], REF_EC[1]],
    );
    assert.deepEqual(await wallet.address({ address: REF_EC[1]! }), ec1);
    await assert.rejects(
      wallet.importMnemonic({ words: "legal winner thank year wave sausage worth useful legal winner thank yellow" }),
      rpcError(-32602, /different seed/),
    );
    await assert.rejects(
      wallet.importMnemonic({ words: Array(12).fill("abandon").join(" ") }),
      rpcError(-32602, /checksum/),
    );
  });

  test("a multi-input, multi-output transaction built and signed in the service funds two EC addresses", async () => {
    const imported = await wallet.importAddresses({ addresses: [{ secret: SAND_SECRET }] });
    assert.equal(imported.addresses[0]!.public, SAND);
    // 1: the genesis key funds both restored FA addresses
    await wallet.newTransaction({ "tx-name": "fund-fa" });
    await wallet.addInput({ "tx-name": "fund-fa", address: SAND, amount: 20 * UNIT });
    await wallet.addOutput({ "tx-name": "fund-fa", address: REF_FA[0]!, amount: 10 * UNIT });
    await wallet.addOutput({ "tx-name": "fund-fa", address: REF_FA[1]!, amount: 10 * UNIT });
    const withFee = await wallet.addFee({ "tx-name": "fund-fa", address: SAND });
    assert.equal(withFee.totalinputs, 20 * UNIT + withFee.feesrequired!);
    const signed1 = await wallet.signTransaction({ "tx-name": "fund-fa" });
    assert.equal(signed1.signed, true);
    const request1 = await wallet.composeTransaction({ "tx-name": "fund-fa" });
    assert.equal(request1.method, "asset-submit");
    const sent1 = (await toNode(request1)) as { txid: string };
    assert.equal(sent1.txid, signed1.txid);
    await confirmedTx(sent1.txid);
    // 2: two inputs, one asset output and two EC outputs
    const name = "fund-ec";
    await wallet.newTransaction({ "tx-name": name });
    await wallet.addInput({ "tx-name": name, address: REF_FA[0]!, amount: 6 * UNIT });
    await wallet.addInput({ "tx-name": name, address: REF_FA[1]!, amount: 4 * UNIT });
    await wallet.addOutput({ "tx-name": name, address: SAND, amount: 2 * UNIT });
    await wallet.addEcOutput({ "tx-name": name, address: REF_EC[0]!, amount: 300 * rate });
    await wallet.addEcOutput({ "tx-name": name, address: REF_EC[1]!, amount: 8 * UNIT - 300 * rate });
    await wallet.addFee({ "tx-name": name, address: REF_FA[0]! });
    const tmp = (await wallet.tmpTransactions()).transactions.find((t) => t.name === name)!;
    assert.equal(tmp.inputs.length, 2);
    assert.equal(tmp.outputs.length, 1);
    assert.equal(tmp.ecoutputs.length, 2);
    assert.equal(tmp.signed, false);
    await assert.rejects(wallet.composeTransaction({ "tx-name": name }), rpcError(-32602, /not signed/));
    const signed2 = await wallet.signTransaction({ "tx-name": name });
    assert.equal((await wallet.transactionHash({ "tx-name": name })).txid, signed2.txid);
    const sent2 = (await toNode(await wallet.composeTransaction({ "tx-name": name }))) as { txid: string };
    assert.equal(sent2.txid, signed2.txid);
    await confirmedTx(sent2.txid);
    assert.equal(Number((await nodeClient.entryCreditBalance({ address: REF_EC[0]! })).balance), 300);
    assert.equal(
      Number((await nodeClient.entryCreditBalance({ address: REF_EC[1]! })).balance),
      Math.floor((8 * UNIT - 300 * rate) / rate),
    );
    await wallet.deleteTransaction({ "tx-name": name });
    await wallet.deleteTransaction({ "tx-name": "fund-fa" });
    assert.deepEqual((await wallet.tmpTransactions()).transactions, []);

    // history and balances agree with the node
    const byAddress = await wallet.transactions({ address: REF_EC[0]! });
    assert.deepEqual(
      byAddress.transactions.map((t) => t.txid),
      [sent2.txid],
    );
    const byId = (await wallet.transactions({ txid: sent2.txid })).transactions[0]!;
    assert.equal(byId.inputs.length, 2);
    assert.equal(byId.ecoutputs.length, 2);
    assert.ok(byId.blockheight! > 0);
    const inRange = await wallet.transactions({ range: { start: byId.blockheight!, end: byId.blockheight! } });
    assert.ok(inRange.transactions.some((t) => t.txid === sent2.txid));
    const mine = (await wallet.transactions()).transactions.map((t) => t.txid);
    assert.ok(mine.includes(sent1.txid) && mine.includes(sent2.txid), JSON.stringify(mine));
    const height = (await wallet.getHeight()).height;
    assert.ok(height >= byId.blockheight!);
    const balances = await wallet.walletBalances();
    const fa = await nodeClient.multipleAssetBalances({ addresses: [REF_FA[0]!, REF_FA[1]!, SAND] });
    const ec = await nodeClient.multipleEcBalances({ addresses: [...REF_EC] });
    const sum = (r: typeof fa, k: "ack" | "saved") => r.balances.reduce((s, b) => s + Number(b[k]), 0);
    assert.deepEqual(balances, {
      assetaccountbalances: { ack: sum(fa, "ack"), saved: sum(fa, "saved") },
      ecaccountbalances: { ack: sum(ec, "ack"), saved: sum(ec, "saved") },
    });
  });

  test("compose-chain and compose-entry: requests the node accepts and confirms", async () => {
    const extids = [Buffer.from("walletd-it").toString("hex"), Buffer.from(String(process.pid)).toString("hex")];
    const chain = await wallet.composeChain({
      chain: { firstentry: { extids, content: Buffer.from("first entry").toString("hex") } },
      ecpub: REF_EC[0]!,
    });
    assert.equal(chain.commit.method, "commit-chain");
    assert.equal(chain.reveal.method, "reveal-chain");
    await toNode(chain.commit);
    await toNode(chain.reveal);
    const first = await confirmedEntry(chain);
    await assert.rejects(
      wallet.composeChain({ chain: { firstentry: { extids, content: "00" } }, ecpub: REF_EC[0]! }),
      rpcError(-32602, /already exists/),
    );
    const entry = await wallet.composeEntry({
      entry: { chainid: first.chain, extids: ["01"], content: Buffer.from("second entry").toString("hex") },
      ecpub: REF_EC[0]!,
    });
    assert.equal(entry.commit.method, "commit-entry");
    await toNode(entry.commit);
    await toNode(entry.reveal);
    const second = await confirmedEntry(entry);
    chainOfTest = first.chain;
    const saved = (await nodeClient.entry({ hash: second.entry })) as { content: string };
    assert.equal(Buffer.from(saved.content, "hex").toString(), "second entry");
    // 11 + 1 credits paid from the 300
    assert.equal(Number((await nodeClient.entryCreditBalance({ address: REF_EC[0]! })).balance), 288);
  });

  test("ledgerd-wallet -walletd=URL uses the service's keys: the CLI and the service cannot disagree", async () => {
    const cli = (args: string[], env: Record<string, string> = {}) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
        execFile(
          WALLET_BIN,
          [`-walletd=${walletdUrl}`, `-node=${node.url}`, ...args],
          { env: { ...process.env, LEDGERD_WALLETD_RPCUSER: USER, LEDGERD_WALLETD_RPCPASS: PASS, ...env } },
          (err, stdout, stderr) => resolve({ code: typeof err?.code === "number" ? err.code : 0, stdout, stderr }),
        ),
      );
    const listed = await cli(["list"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual(
      listed.stdout.trim().split("\n"),
      (await wallet.allAddresses()).addresses.map((a) => a.public),
    );
    const made = await cli(["new-ec"]);
    assert.equal(made.code, 0, made.stderr);
    assert.ok((await wallet.allAddresses()).addresses.some((a) => a.public === made.stdout.trim()));
    // the CLI signs with the service's EC key, and the node accepts the entry
    const added = await cli(["add-entry", "-q", "--chain", chainOfTest, "--content", "via the CLI", REF_EC[0]!]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout.trim(), /^[0-9a-f]{64}$/);
    const refused = await cli(["list"], { LEDGERD_WALLETD_RPCPASS: "wrong" });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /wallet service at http:\/\/127\.0\.0\.1:\d+.*\n.*-walletduser/);
  });

  test("refusals name what was wrong: unknown address, insufficient funds and credits, a node method", async () => {
    await assert.rejects(
      wallet.call("heights" as never),
      rpcError(-32601, /heights is a node method: send it to the node/),
    );
    await assert.rejects(wallet.call("no-such-method" as never), rpcError(-32601, /no-such-method/));
    await assert.rejects(
      wallet.call("generate-factoid-address" as never),
      rpcError(-32601, /neutral names: call generate-asset-address/),
    );
    // and the node, for a wallet method, says it belongs to the wallet service (spec §7)
    await assert.rejects(
      nodeClient.call("compose-chain", {}),
      rpcError(-32601, /compose-chain is a wallet service method: send it to ledgerd-walletd/),
    );
    const stranger = "FA3cih2o2tjEUsnnFR4jX1tQXPpSXFwsp3rhVp6odL5PNCHWvZV1";
    await assert.rejects(wallet.address({ address: stranger }), rpcError(-32602, /is not in the wallet/));
    await wallet.newTransaction({ "tx-name": "too-much" });
    await assert.rejects(
      wallet.addInput({ "tx-name": "too-much", address: stranger, amount: 1 }),
      rpcError(-32602, /is not in the wallet/),
    );
    // more than the address holds (on LOCAL it holds more than the 6 units sent above: check the node)
    const have = BigInt((await nodeClient.assetBalance({ address: REF_FA[1]! })).balance);
    const ask = Number(have) + 1000 * UNIT;
    await wallet.addInput({ "tx-name": "too-much", address: REF_FA[1]!, amount: ask });
    await wallet.addOutput({ "tx-name": "too-much", address: SAND, amount: ask });
    const priced = await wallet.addFee({ "tx-name": "too-much", address: REF_FA[1]! });
    await assert.rejects(
      wallet.signTransaction({ "tx-name": "too-much" }),
      rpcError(
        -32602,
        new RegExp(
          `insufficient funds: ${REF_FA[1]} holds [0-9.]+ \\(${have} base units\\), its input is [0-9.]+ \\(${priced.totalinputs} base units\\)`,
        ),
      ),
    );
    await assert.rejects(wallet.newTransaction({ "tx-name": "too-much" }), rpcError(-32602, /already exists/));
    await assert.rejects(
      wallet.addInput({ "tx-name": "nope", address: SAND, amount: 1 }),
      rpcError(-32602, /no transaction named/),
    );
    const poor = await wallet.generateEcAddress();
    await assert.rejects(
      wallet.composeChain({ chain: { firstentry: { extids: ["aa"], content: "bb" } }, ecpub: poor.public }),
      rpcError(-32602, new RegExp(`insufficient entry credits: ${poor.public} holds 0, the chain costs 11`)),
    );
  });

  test("sign-data signs with the address's key; sub-fee takes the fee from an output; remove-address forgets a key", async () => {
    const data = Buffer.from("sign me");
    const signed = await wallet.signData({ signer: REF_EC[1]!, data: data.toString("base64") });
    const held = keyPairFromPrivate((await wallet.address({ address: REF_EC[1]! })).secret);
    assert.deepEqual(Buffer.from(signed.pubkey, "base64"), Buffer.from(held.publicKey));
    assert.ok(verifyEd25519(held.publicKey, data, Buffer.from(signed.signature, "base64")));
    assert.ok(!verifyEd25519(held.publicKey, Buffer.from("other"), Buffer.from(signed.signature, "base64")));
    await wallet.newTransaction({ "tx-name": "subfee" });
    await wallet.addInput({ "tx-name": "subfee", address: REF_FA[0]!, amount: UNIT });
    await wallet.addOutput({ "tx-name": "subfee", address: SAND, amount: UNIT });
    const after = await wallet.subFee({ "tx-name": "subfee", address: SAND });
    assert.equal(after.outputs[0]!.amount, UNIT - after.feesrequired!);
    assert.equal(after.feespaid, after.feesrequired);
    await assert.rejects(
      wallet.subFee({ "tx-name": "subfee", address: SAND }),
      rpcError(-32602, /needs the inputs equal/),
    );
    await wallet.deleteTransaction({ "tx-name": "subfee" });
    const spare = await wallet.generateAssetAddress();
    assert.deepEqual(await wallet.removeAddress({ address: spare.public }), { success: true });
    assert.ok(!(await wallet.allAddresses()).addresses.some((a) => a.public === spare.public));
    await assert.rejects(wallet.removeAddress({ address: spare.public }), rpcError(-32602, /not in the wallet/));
  });

  test("security: credentials required, no non-loopback listen without them, a wallet file others can read is refused", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${wallet.baseUrl}/v2`, { method: "POST" }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end('{"jsonrpc":"2.0","id":1,"method":"properties"}');
    });
    assert.equal(status, 401);
    // the envelope: not JSON, a batch, a GET, another path — each answered with the reason
    const raw = (method: string, path: string, body: string) =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(
          `${wallet.baseUrl}${path}`,
          { method, headers: { authorization: `Basic ${Buffer.from(`${USER}:${PASS}`).toString("base64")}` } },
          (res) => {
            let text = "";
            res.on("data", (c: Buffer) => (text += c.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    const notJson = await raw("POST", "/v2", "{nope");
    assert.equal(JSON.parse(notJson.text).error.code, -32700);
    const batch = await raw("POST", "/v2", '[{"jsonrpc":"2.0","id":1,"method":"properties"}]');
    assert.match(JSON.parse(batch.text).error.data, /batch requests are not supported/);
    assert.equal((await raw("GET", "/v2", "")).status, 405);
    assert.equal((await raw("POST", "/v1", "{}")).status, 404);
    const open = await refusedStart([`-wallet=${walletPath}`, "-listenhost=0.0.0.0", "-port=0"]);
    assert.equal(open.code, 1);
    assert.match(open.text, /not loopback.*without -rpcuser and -rpcpass/);
    const readable = join(scratch, "readable.json");
    copyFileSync(walletPath, readable);
    chmodSync(readable, 0o644);
    const refused = await refusedStart([`-wallet=${readable}`, "-port=0"]);
    assert.equal(refused.code, 2);
    assert.match(refused.text, /can be read or written by other users \(mode 644\).*chmod 600/);
  });

  test("-tls: the service answers over HTTPS with its generated certificate", async () => {
    const cert = join(scratch, "walletd-tls.crt");
    const d = await startWalletd(
      [`-wallet=${walletPath}`, `-node=${node.url}`, "-tls", `-tlscert=${cert}`],
      false,
      cert,
    );
    const secure = new WalletClient({ url: d.url, caFile: cert });
    const plain = new WalletClient({ url: d.url.replace("https:", "http:") });
    try {
      assert.equal((await secure.allAddresses()).addresses[0]!.public, REF_FA[0]);
      await assert.rejects(plain.properties());
    } finally {
      secure.close();
      plain.close();
      d.proc.kill("SIGTERM");
    }
  });

  test("an encrypted wallet stays locked until unlock-wallet, refuses a wrong passphrase, and locks again", async () => {
    const encrypted = join(scratch, "encrypted.json");
    const passfile = join(scratch, "pass.txt");
    writeFileSync(passfile, "correct horse battery staple\n", { mode: 0o600 });
    // the CLI creates the encrypted wallet and a key; the service must see the same key
    const cliAddress = await new Promise<string>((resolve, reject) =>
      execFile(WALLET_BIN, [`-wallet=${encrypted}`, `-passfile=${passfile}`, "new-fa"], (err, stdout, stderr) =>
        err ? reject(new Error(stderr)) : resolve(stdout.trim()),
      ),
    );
    const d = await startWalletd([`-wallet=${encrypted}`, `-node=${node.url}`], false);
    const locked = new WalletClient({ url: d.url });
    try {
      await assert.rejects(locked.allAddresses(), rpcError(-32001, /locked: call unlock-wallet/));
      assert.deepEqual(await locked.properties(), { walletversion: "0.1.0", walletapiversion: "2.0" });
      await assert.rejects(
        locked.unlockWallet({ passphrase: "wrong", timeout: 60 }),
        rpcError(-32003, /wrong passphrase/),
      );
      await assert.rejects(locked.walletBackup(), rpcError(-32001, /locked/));
      const unlocked = await locked.unlockWallet({ passphrase: "correct horse battery staple", timeout: 3 });
      assert.equal(unlocked.success, true);
      assert.ok(unlocked.unlockeduntil * 1000 > Date.now() - 1000);
      assert.deepEqual(
        (await locked.allAddresses()).addresses.map((a) => a.public),
        [cliAddress],
      );
      await waitFor(
        "the wallet to lock again after its timeout",
        () =>
          locked.allAddresses().then(
            () => undefined,
            (e: unknown) => (e instanceof RpcError && e.code === -32001 ? true : undefined),
          ),
        60_000,
        250,
      );
      assert.doesNotMatch(d.output(), /correct horse|Fs[1-9A-HJ-NP-Za-km-z]{50}/);
    } finally {
      locked.close();
    }
  });
});
