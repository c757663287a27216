// Security defaults against a real `bin/ledgerd` process (issue 19): the API listens on loopback unless told
// otherwise, an exposed node without credentials refuses to start, /debug cannot change the node's state
// unless switched to readwrite, every knob change is logged with the caller, and no knob makes the node
// acknowledge a write and then drop it.
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { verifyEd25519 } from "../../src/crypto/ed25519.js";
import { keyPairFromPrivate } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { chainIdFromExtIds, marshalEntry } from "../../src/protocol/entry.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX, LOCAL_BOOTSTRAP_SEED_HEX, } from "../../src/protocol/genesis.js";
import { customNetworkFixture } from "../support/customNetwork.js";
import { killAllNodes, LedgerdProcess, RpcCallError } from "../support/nodeProcess.js";
after(() => killAllNodes());
const text = (s) => new TextEncoder().encode(s);
let unique = 0;
/** A first entry of a new chain, never committed: the node holds its reveal (no funds needed). */
function heldReveal() {
    const extIds = [text("security test"), text(`${process.pid}-${Date.now()}-${unique++}`)];
    return toHex(marshalEntry({ version: 0, chainId: chainIdFromExtIds(extIds), extIds, content: new Uint8Array() }));
}
/** Listening sockets on `port` from /proc/net/tcp{,6}: their local addresses as the kernel prints them. */
function listenAddresses(port) {
    const portHex = port.toString(16).toUpperCase().padStart(4, "0");
    const out = [];
    for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
        let lines;
        try {
            lines = readFileSync(file, "utf8").split("\n").slice(1);
        }
        catch {
            continue;
        }
        for (const line of lines) {
            const [, local, , state] = line.trim().split(/\s+/);
            if (state === "0A" && local?.endsWith(`:${portHex}`))
                out.push(local.slice(0, -5));
        }
    }
    return out;
}
/** 127.0.0.1, ::1 and ::ffff:127.0.0.1 as /proc/net/tcp{,6} print them (little-endian words). */
const LOOPBACK_HEX = new Set(["0100007F", "00000000000000000000000001000000", "0000000000000000FFFF00000100007F"]);
async function expectRpcError(p) {
    try {
        await p;
    }
    catch (e) {
        assert.ok(e instanceof RpcCallError, String(e));
        return e;
    }
    return assert.fail("expected a JSON-RPC error");
}
describe("listen address", () => {
    it("without ListenHost the node listens on loopback only", async (t) => {
        const dir = mkdtempSync(join(tmpdir(), "ledgerd-sec-"));
        t.after(() => rmSync(dir, { recursive: true, force: true }));
        const conf = join(dir, "plain.conf");
        writeFileSync(conf, "[App]\nPortNumber = 8088\n"); // no ListenHost: the default decides
        const node = await LedgerdProcess.start({ extraArgs: [`-config=${conf}`] });
        t.after(() => node.cleanup());
        const bound = listenAddresses(node.port);
        assert.ok(bound.length > 0, `no listening socket on port ${node.port}`);
        for (const a of bound)
            assert.ok(LOOPBACK_HEX.has(a), `listens on ${a}, not loopback (${bound.join(", ")})`);
        await node.stop();
    });
    it("a non-loopback -listenhost without credentials: refuses to start, says why, binds nothing", async (t) => {
        const r = await LedgerdProcess.startExpectingExit({ extraArgs: ["-listenhost=0.0.0.0"], waitMs: 20_000 });
        t.after(() => r.process.cleanup());
        assert.notEqual(r.code, undefined, `the node started:\n${r.output}`);
        assert.notEqual(r.code, 0);
        assert.match(r.output, /refusing to serve 0\.0\.0\.0 without authentication/);
        assert.match(r.output, /-insecure-noauth/);
        assert.doesNotMatch(r.output, /rpc listening/);
    });
});
describe("debug API modes and the write knobs", () => {
    it("readonly (the default): state-changing debug methods are refused and change nothing", async (t) => {
        const node = await LedgerdProcess.start();
        t.after(() => node.cleanup());
        for (const [method, params] of [
            ["set-drop-rate", { DropRate: 1000 }],
            ["set-delay", { Delay: 60000 }],
            ["reload-configuration", undefined],
        ]) {
            const e = await expectRpcError(node.rpc(method, params, "debug"));
            assert.equal(e.code, -32000, method);
            assert.equal(e.rpcMessage, "Debug method not allowed", method);
            assert.match(String(e.data), /-debugapi=readwrite/, method);
        }
        assert.deepEqual(await node.rpc("drop-rate", undefined, "debug"), { DropRate: 0 });
        assert.deepEqual(await node.rpc("delay", undefined, "debug"), { Delay: 0 });
        // reads still work; LOCAL keeps its reference bootstrap identity and key
        assert.equal((await node.rpc("network-info", undefined, "debug")).NetworkName, "LOCAL");
        const { Authorities } = (await node.rpc("authorities", undefined, "debug"));
        assert.deepEqual(Authorities.map((a) => [a.AuthorityChainID, a.SigningKey]), [[LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX]]);
        await node.stop();
    });
    it("off: /debug does not exist", async (t) => {
        const node = await LedgerdProcess.start({ extraArgs: ["-debugapi=off"] });
        t.after(() => node.cleanup());
        const a = await node.post('{"jsonrpc":"2.0","id":1,"method":"drop-rate"}', { path: "/debug" });
        assert.equal(a.status, 404);
        await node.stop();
    });
    it("readwrite: a dropped write is refused with an error, never acknowledged; changes logged with the caller", async (t) => {
        const node = await LedgerdProcess.start({ extraArgs: ["-debugapi=readwrite"] });
        t.after(() => node.cleanup());
        assert.match(node.log, /the \/debug API can change this node's state/);
        assert.deepEqual(await node.rpc("set-drop-rate", { DropRate: 1000 }, "debug"), { DropRate: 1000 });
        const e = await expectRpcError(node.rpc("reveal-entry", { entry: heldReveal() }));
        assert.equal(e.code, -32000);
        assert.equal(e.rpcMessage, "Message dropped");
        assert.match(String(e.data), /not processed; send it again/);
        // nothing was kept: an acknowledged reveal would sit in the holding queue
        assert.deepEqual(await node.rpc("holding-queue", undefined, "debug"), { Messages: null });
        // the change is a warning naming the method, the values and the caller
        const line = node.log.split("\n").find((l) => l.includes("debug drop rate changed") && l.includes("set-drop-rate"));
        assert.ok(line, `no warning line for the change:\n${node.tail()}`);
        assert.match(line, /warn/i);
        assert.match(line, /"caller":"(::ffff:)?127\.0\.0\.1"/);
        assert.match(line, /"to":1000/);
        assert.deepEqual(await node.rpc("set-drop-rate", { DropRate: 0 }, "debug"), { DropRate: 0 });
        await node.rpc("reveal-entry", { entry: heldReveal() });
        const held = (await node.rpc("holding-queue", undefined, "debug"));
        assert.equal(held.Messages?.length, 1);
        await node.stop();
    });
    it("readwrite: a delayed batch is kept whole and waits the delay once, not once per write", async (t) => {
        const node = await LedgerdProcess.start({ extraArgs: ["-debugapi=readwrite"] });
        t.after(() => node.cleanup());
        const DELAY_MS = 1000;
        const WRITES = 8;
        await node.rpc("set-delay", { Delay: DELAY_MS }, "debug");
        const started = Date.now();
        const answers = await node.rpcBatch(Array.from({ length: WRITES }, () => ({ method: "reveal-entry", params: { entry: heldReveal() } })));
        const elapsed = Date.now() - started;
        for (const a of answers)
            assert.ok("result" in a, JSON.stringify(a));
        // every acknowledged write is kept
        const held = (await node.rpc("holding-queue", undefined, "debug"));
        assert.equal(held.Messages?.length, WRITES);
        // waited at least the delay; far less than one delay per write (the old behaviour: ≥ 8 s)
        assert.ok(elapsed >= DELAY_MS, `answered after ${elapsed} ms, before the delay`);
        assert.ok(elapsed < WRITES * DELAY_MS, `${elapsed} ms: the delay was applied per write`);
        await node.stop();
    });
});
/** The LOCAL genesis address whose private key the README prints. */
const LOCAL_GENESIS_KEY = keyPairFromPrivate("Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK");
describe("CUSTOM networks own their genesis and keys", () => {
    const custom = (label, appConfig) => LedgerdProcess.startExpectingExit({
        network: "CUSTOM",
        extraArgs: [`-customnet=${label}`],
        appConfig,
        waitMs: 20_000,
    });
    it("refuses to start without its own identity, with LOCAL's published key, or paying LOCAL's genesis address", async (t) => {
        const own = customNetworkFixture("sec-refusals");
        const cases = [
            ["nothing configured", [], /needs its own \[App\] CustomBootstrapIdentity/],
            [
                "LOCAL's key",
                [
                    `CustomBootstrapIdentity = ${own.identityHex}`,
                    `LocalServerPrivKey = ${LOCAL_BOOTSTRAP_SEED_HEX}`,
                    `CustomBootstrapKey = ${LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX}`,
                    own.appLines[3],
                ],
                /needs its own \[App\] LocalServerPrivKey/,
            ],
            [
                "a key that is not the bootstrap key",
                [own.appLines[0], own.appLines[1], `CustomBootstrapKey = ${"ab".repeat(32)}`, own.appLines[3]],
                /CustomBootstrapKey must be the public key of LocalServerPrivKey/,
            ],
            [
                "LOCAL's genesis address",
                [...own.appLines.slice(0, 3), `CustomGenesisAllocation = ${LOCAL_GENESIS_KEY.publicAddress}:100`],
                /is paid by LOCAL's genesis and its key is public/,
            ],
            ["no allocation", own.appLines.slice(0, 3), /needs \[App\] CustomGenesisAllocation/],
        ];
        for (const [what, lines, message] of cases) {
            const r = await custom("sec-refusals", lines);
            t.after(() => r.process.cleanup());
            assert.equal(r.code, 2, `${what}: ${r.output}`);
            assert.match(r.output, message, what);
            // the secret never appears in the message
            assert.doesNotMatch(r.output, new RegExp(own.seedHex), what);
        }
    });
    it("its genesis pays the configured address, and its blocks are signed with the configured key", async (t) => {
        const own = customNetworkFixture("sec-own", 4321);
        const node = await LedgerdProcess.start({
            network: "CUSTOM",
            extraArgs: ["-customnet=sec-own"],
            appConfig: own.appLines,
            blockTimeSeconds: 1,
        });
        t.after(() => node.cleanup());
        const balance = async (address) => (await node.rpc("asset-balance", { address })).balance;
        assert.equal(await balance(own.genesisKey.publicAddress), own.genesisUnits * 1e8);
        assert.equal(await balance(LOCAL_GENESIS_KEY.publicAddress), 0);
        const { Authorities } = (await node.rpc("authorities", undefined, "debug"));
        assert.deepEqual(Authorities.map((a) => [a.AuthorityChainID, a.SigningKey]), [[own.identityHex, own.publicKeyHex]]);
        const ablock = async (height) => (await node.rpc("ablock-by-height", { height })).ablock.abentries;
        assert.deepEqual((await ablock(0)).map((e) => [e.adminidtype, e.identitychainid]), [[5, own.identityHex]]);
        // block 1's directory-block signature: the configured identity and key, a valid signature over block 0
        for (let i = 0;; i++) {
            const h = (await node.rpc("heights"));
            if (h.directoryblockheight >= 1)
                break;
            assert.ok(i < 200, "block 1 was not saved within 20 s");
            await new Promise((r) => setTimeout(r, 100));
        }
        const sig = (await ablock(1)).find((e) => e.adminidtype === 1);
        assert.ok(sig?.prevdbsig, "block 1 has a directory block signature");
        assert.equal(sig.identityadminchainid, own.identityHex);
        assert.equal(sig.prevdbsig.pub, own.publicKeyHex);
        const d0 = (await node.rpc("dblock-by-height", { height: 0 }));
        const header0 = fromHex(d0.rawdata).subarray(0, 113);
        assert.ok(verifyEd25519(fromHex(sig.prevdbsig.pub), header0, fromHex(sig.prevdbsig.sig)), "signature verifies");
        await node.stop();
        // the same directory under a changed genesis allocation: refused, naming both genesis blocks
        const changed = customNetworkFixture("sec-own", 4322);
        const r = await LedgerdProcess.startExpectingExit({
            homeDir: node.homeDir,
            network: "CUSTOM",
            extraArgs: ["-customnet=sec-own"],
            appConfig: changed.appLines,
            waitMs: 20_000,
        });
        assert.equal(r.code, 1, r.output);
        assert.match(r.output, /whose genesis block [0-9a-f]{64} is not the configured one/);
    });
});
//# sourceMappingURL=security.test.js.map