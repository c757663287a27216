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
import { freeLoopbackPort, killAllNodes, LedgerdProcess, sleep } from "../support/nodeProcess.js";
import { Random } from "../support/random.js";
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
function runWallet(args) {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("LEDGERD_")));
    return new Promise((resolve) => {
        execFile(WALLET_BIN, args, { env: { ...clean, HOME: scratch }, timeout: 120_000 }, (err, stdout, stderr) => {
            const code = err === null ? 0 : typeof err.code === "number" ? err.code : -1;
            resolve({ code, stdout, stderr });
        });
    });
}
function ok(r, what) {
    assert.equal(r.code, 0, `${what} failed (exit ${r.code}):\n${r.stderr}`);
    return r.stdout.trim();
}
describe("anchoring into a local Ethereum chain (ganache)", { timeout: 300_000 }, () => {
    let chain;
    let node;
    let pendingFile = "";
    /** Records of the anchor chain as the node serves them, in chain order. */
    async function records(n = node) {
        // -32009 until the anchoring node has created the chain
        const head = await n
            .rpc("chain-head", { chainid: ANCHOR_CHAIN })
            .catch(() => ({ chainhead: "" }));
        const blocks = [];
        for (let keymr = head.chainhead; keymr !== "" && !/^0+$/.test(keymr);) {
            const b = await n.rpc("entry-block", {
                keymr,
            });
            blocks.unshift(b.entrylist.map((e) => e.entryhash));
            keymr = b.header.prevkeymr;
        }
        const out = [];
        for (const hash of blocks.flat()) {
            const e = await n.rpc("entry", { hash });
            const text = Buffer.from(fromHex(e.content)).toString("utf8");
            if (text.startsWith("{"))
                out.push(JSON.parse(text));
        }
        return out;
    }
    /**
     * Anchored windows are contiguous from 0, each with its own transaction sent by the account; the account sent
     * nothing else but `otherSent` transactions and at most the one in flight.
     */
    async function checkNothingTwiceOrSkipped(n = node, address = ethAddress, otherSent = 0) {
        const all = await records(n);
        assert.ok(all.length > 0, "some anchor records");
        let next = 0;
        const txs = new Set();
        for (const r of all) {
            assert.equal(r.DBHeightMin ?? 0, next, `window ${r.DBHeightMin}..${r.DBHeightMax} follows ${next - 1}`);
            assert.ok((r.DBHeightMax ?? 0) >= (r.DBHeightMin ?? 0));
            next = (r.DBHeightMax ?? 0) + 1;
            assert.ok(!txs.has(r.Ethereum.TxID), `transaction ${r.Ethereum.TxID} recorded twice`);
            txs.add(r.Ethereum.TxID);
            const tx = await chain.rpc("eth_getTransactionByHash", [
                r.Ethereum.TxID,
            ]);
            assert.equal(tx.from.toLowerCase(), address);
            assert.equal(tx.blockHash.toLowerCase(), r.Ethereum.BlockHash);
            assert.ok(tx.input.endsWith(r.WindowMR), "the transaction carries the window's Merkle root");
        }
        // Every transaction the account sent is recorded, except at most the one in flight now.
        const sent = Number.parseInt(await chain.rpc("eth_getTransactionCount", [address, "latest"]), 16) - otherSent;
        assert.ok(sent === all.length || sent === all.length + 1, `${sent} transactions sent, ${all.length} recorded`);
        return all;
    }
    async function anchoredReceipt(entryHash, timeoutMs = 90_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            try {
                const r = await node.rpc("receipt", { hash: entryHash });
                if (r.receipt.anchortransactionhash !== "")
                    return r.receipt;
            }
            catch {
                // not yet in a saved block
            }
            if (Date.now() > deadline)
                throw new Error(`entry ${entryHash} not anchored within ${timeoutMs} ms\n${node.tail()}`);
            await sleep(250);
        }
    }
    async function addEntry(text) {
        const out = ok(await runWallet([
            "add-chain",
            `-node=${node.url}`,
            "--ext",
            text,
            "--ext",
            `${Date.now()}`,
            "--content",
            text,
            ec.publicAddress,
        ]), "add-chain");
        const m = /EntryHash: ([0-9a-f]{64})/.exec(out);
        assert.ok(m, out);
        return m[1];
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
        writeFileSync(ecFile, `${ec.privateAddress}\n`, { mode: 0o600 });
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
        if (process.env.ANCHOR_TEST_LOG)
            writeFileSync(process.env.ANCHOR_TEST_LOG, node.log);
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
        const summary = await node.rpc("summary", undefined, "debug");
        assert.match(summary.Summary, /anchor anchor_records=\d+ anchor_transactions_sent_total=\d+/);
        assert.doesNotMatch(node.log, new RegExp(ethKey, "i"), "the key never reaches the log");
    });
    test("killed while an anchor is in flight, the restarted node finishes that anchor: nothing twice or skipped", async () => {
        const deadline = Date.now() + 60_000;
        let inFlight;
        while (inFlight === undefined || inFlight.recordEntry !== undefined) {
            assert.ok(Date.now() < deadline, `no anchor in flight seen within 60 s\n${node.tail()}`);
            await sleep(20);
            try {
                inFlight = existsSync(pendingFile) ? JSON.parse(readFileSync(pendingFile, "utf8")) : undefined;
            }
            catch {
                inFlight = undefined; // replaced while read
            }
        }
        await node.kill9();
        await node.restart();
        const entry = await addEntry("after restart");
        await anchoredReceipt(entry);
        const all = await checkNothingTwiceOrSkipped();
        assert.equal(all.filter((r) => r.Ethereum.TxID === inFlight.tx.hash).length, 1, "the in-flight anchor recorded once");
    });
    test("with the chain unreachable blocks and receipts go on without anchors; anchoring catches up after", async () => {
        await chain.cut();
        const before = (await node.rpc("heights")).directoryblockheight;
        const entry = await addEntry("while unreachable");
        let r;
        while (r === undefined) {
            await sleep(250);
            r = await node.rpc("receipt", { hash: entry }).catch(() => undefined);
        }
        await sleep(4000);
        assert.equal((await node.rpc("receipt", { hash: entry })).receipt.anchortransactionhash, "");
        const h = (await node.rpc("heights")).directoryblockheight;
        assert.ok(h >= before + 2, `blocks go on: ${before} → ${h}`);
        assert.match(node.log, /the Ethereum RPC does not answer/);
        const summary = await node.rpc("summary", undefined, "debug");
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
        for (const home of copies)
            cpSync(node.dataDir, join(home, "local", "db"), { recursive: true });
        await node.restart();
        const trusting = await LedgerdProcess.start({
            homeDir: copies[0],
            appConfig: [`EthereumAnchorRecordPublicKeys = ${toHex(ec.publicKey)}`],
        });
        const r = await trusting.rpc("receipt", { hash: entry });
        assert.deepEqual(r, anchored, "the same receipt, anchor included");
        const other = await LedgerdProcess.start({ homeDir: copies[1] });
        const r2 = await other.rpc("receipt", { hash: entry });
        assert.equal(r2.receipt.anchortransactionhash, "", "records signed by a key it does not list are ignored");
        assert.equal(r2.receipt.ethereum, undefined);
        await trusting.stop();
        await other.stop();
        for (const home of copies)
            rmSync(home, { recursive: true, force: true });
    });
    test("an in-flight anchor that does not match the node's blocks is never sent or recorded; the node anchors the window itself", async () => {
        const account = privateKeyToAccount(`0x${ethKey2}`);
        const address = account.address.toLowerCase();
        // A damaged (or another node's) pending file: a well-formed, signed setAnchor of window 0..0, but with a
        // root that is not the keyMR of this node's block 0.
        const wrongRoot = random.bytes(32);
        const stray = await account.signTransaction({
            type: "eip1559",
            chainId: CHAIN_ID,
            nonce: 0,
            to: account.address,
            data: anchorCalldata(0, wrongRoot),
            gas: 50000n,
            maxFeePerGas: 10n ** 10n,
            maxPriorityFeePerGas: 10n ** 9n,
        });
        const strayHash = keccak256(stray);
        const home = mkdtempSync(join(tmpdir(), "ledgerd-anchor-stray-"));
        const pending2 = join(home, "local", "anchor", "pending.json");
        mkdirSync(dirname(pending2), { recursive: true });
        writeFileSync(pending2, JSON.stringify({
            dbHeightMin: 0,
            dbHeightMax: 0,
            windowMR: toHex(wrongRoot),
            tx: { hash: strayHash, raw: stray, nonce: 0, to: address },
        }));
        const keyFile = join(scratch, "eth2.key");
        writeFileSync(keyFile, `0x${ethKey2}\n`, { mode: 0o600 });
        const second = await LedgerdProcess.start({
            homeDir: home,
            blockTimeSeconds: 2,
            extraArgs: [`-anchorrpc=${chain.relayUrl}`, `-anchorkey=${keyFile}`],
            appConfig: ["[Anchor]", `ECKeyFile = ${join(scratch, "ec.key")}`, `ChainId = ${CHAIN_ID}`, "Confirmations = 1"],
        });
        ok(await runWallet(["buy-ec", `-node=${second.url}`, SAND, ec.publicAddress, "100"]), "buy-ec");
        const deadline = Date.now() + 60_000;
        while ((await records(second)).length === 0) {
            assert.ok(Date.now() < deadline, `not anchored within 60 s\n${second.tail()}`);
            await sleep(250);
        }
        assert.match(second.log, /the anchor in flight does not match this node's blocks/);
        assert.equal(await chain.rpc("eth_getTransactionByHash", [strayHash]), null, "the stray was never sent");
        const all = await checkNothingTwiceOrSkipped(second, address);
        assert.ok(all.every((r) => r.Ethereum.TxID !== strayHash));
        await second.stop();
        rmSync(home, { recursive: true, force: true });
    });
});
//# sourceMappingURL=anchoring.test.js.map