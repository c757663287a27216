// Security defaults against a real `bin/ledgerd` process (issue 19): the API listens on loopback unless told
// otherwise, an exposed node without credentials refuses to start, /debug cannot change the node's state
// unless switched to readwrite, every knob change is logged with the caller, and no knob makes the node
// acknowledge a write and then drop it.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type ConnectionOptions, connect as tlsConnect } from "node:tls";
import WebSocket from "ws";
import { verifyEd25519 } from "../../src/crypto/ed25519.js";
import { keyPairFromPrivate } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { chainIdFromExtIds, marshalEntry } from "../../src/protocol/entry.js";
import {
  LOCAL_BOOTSTRAP_IDENTITY_HEX,
  LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX,
  LOCAL_BOOTSTRAP_SEED_HEX,
} from "../../src/protocol/genesis.js";
import { customNetworkFixture } from "../support/customNetwork.js";
import { freeLoopbackPort, killAllNodes, LedgerdProcess, PROJECT_ROOT, RpcCallError } from "../support/nodeProcess.js";
import { tcpSockets } from "../support/procNet.js";
import { waitFor, waitUntil } from "../support/waitFor.js";

after(() => killAllNodes());

const text = (s: string) => new TextEncoder().encode(s);
let unique = 0;
/** A first entry of a new chain, never committed: the node holds its reveal (no funds needed). */
function heldReveal(): string {
  const extIds = [text("security test"), text(`${process.pid}-${Date.now()}-${unique++}`)];
  return toHex(marshalEntry({ version: 0, chainId: chainIdFromExtIds(extIds), extIds, content: new Uint8Array() }));
}

/** Listening sockets on `port` from /proc/net/tcp{,6}: their local addresses as the kernel prints them. */
function listenAddresses(port: number): string[] {
  return tcpSockets()
    .filter((s) => s.state === "0A" && s.localPort === port)
    .map((s) => s.localAddress);
}

/** 127.0.0.1, ::1 and ::ffff:127.0.0.1 as /proc/net/tcp{,6} print them (little-endian words). */
const LOOPBACK_HEX = new Set(["0100007F", "00000000000000000000000001000000", "0000000000000000FFFF00000100007F"]);

async function expectRpcError(p: Promise<unknown>): Promise<RpcCallError> {
  try {
    await p;
  } catch (e) {
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
    for (const a of bound) assert.ok(LOOPBACK_HEX.has(a), `listens on ${a}, not loopback (${bound.join(", ")})`);
    await node.stop();
  });

  it("a non-loopback -listenhost without credentials: refuses to start, says why, binds nothing", async (t) => {
    const r = await LedgerdProcess.startExpectingExit({ extraArgs: ["-listenhost=0.0.0.0"], waitMs: 180_000 });
    t.after(() => r.process.cleanup());
    assert.notEqual(r.code, undefined, `the node started:\n${r.output}`);
    assert.notEqual(r.code, 0);
    assert.match(r.output, /refusing to serve 0\.0\.0\.0 without authentication/);
    assert.match(r.output, /-insecure-noauth/);
    assert.doesNotMatch(r.output, /rpc listening/);
  });

  it("the control panel on a non-loopback address without credentials: refused, unless -insecure-noauth (warned)", async (t) => {
    const panelOnAll = ["ControlPanelListenHost = 0.0.0.0", "ControlPanelPort = 0"];
    const r = await LedgerdProcess.startExpectingExit({ appConfig: panelOnAll, waitMs: 180_000 });
    t.after(() => r.process.cleanup());
    assert.equal(r.code, 2, `the node started:\n${r.output}`);
    assert.match(r.output, /refusing to serve the control panel on 0\.0\.0\.0 without authentication/);
    assert.match(r.output, /-insecure-noauth/);
    assert.doesNotMatch(r.output, /rpc listening/);

    const risky = await LedgerdProcess.startExpectingExit({
      appConfig: panelOnAll,
      extraArgs: ["-insecure-noauth"],
      waitMs: 180_000,
    });
    t.after(() => risky.process.cleanup());
    assert.equal(risky.code, undefined, risky.output);
    await waitFor("the warning", async () =>
      /INSECURE: the control panel listens on a non-loopback address WITHOUT authentication/.test(risky.process.log)
        ? true
        : undefined,
    );
    await risky.process.stop();

    const guarded = await startWithAuth({ appConfig: [...panelOnAll, "NodeRpcUser = alice", "NodeRpcPass = s3cret"] });
    t.after(() => guarded.cleanup());
    await waitFor("the panel", async () => (/control panel listening/.test(guarded.log) ? true : undefined));
    assert.doesNotMatch(guarded.log, /INSECURE/);
    await guarded.stop();
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
    ] as const) {
      const e = await expectRpcError(node.rpc(method, params, "debug"));
      assert.equal(e.code, -32000, method);
      assert.equal(e.rpcMessage, "Debug method not allowed", method);
      assert.equal(
        e.data,
        `${method} changes the node's state and the debug API is readonly: start the node with -debugapi=readwrite ([App] DebugApi = readwrite) to allow it`,
        method,
      );
    }
    assert.deepEqual(await node.rpc("drop-rate", undefined, "debug"), { DropRate: 0 });
    assert.deepEqual(await node.rpc("delay", undefined, "debug"), { Delay: 0 });
    // reads still work; LOCAL keeps its reference bootstrap identity and key
    assert.equal(
      ((await node.rpc("network-info", undefined, "debug")) as { NetworkName: string }).NetworkName,
      "LOCAL",
    );
    const { Authorities } = (await node.rpc("authorities", undefined, "debug")) as {
      Authorities: { AuthorityChainID: string; SigningKey: string }[];
    };
    assert.deepEqual(
      Authorities.map((a) => [a.AuthorityChainID, a.SigningKey]),
      [[LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX]],
    );
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
    assert.equal(
      e.data,
      "the debug drop rate (1000 per 1000) dropped this reveal: it was not processed; send it again",
    );
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
    const held = (await node.rpc("holding-queue", undefined, "debug")) as { Messages: unknown[] | null };
    assert.equal(held.Messages?.length, 1);
    await node.stop();
  });

  it("readwrite: a delayed batch is kept whole and waits the delay once, not once per write", async (t) => {
    const node = await LedgerdProcess.start({ extraArgs: ["-debugapi=readwrite"] });
    t.after(() => node.cleanup());
    // per write, the batch would wait WRITES × DELAY_MS (60 s): the upper bound below is for that, not a
    // measurement (only a 58 s stall of the machine crosses it)
    const DELAY_MS = 2000;
    const WRITES = 30;
    await node.rpc("set-delay", { Delay: DELAY_MS }, "debug");
    const started = Date.now();
    const answers = await node.rpcBatch(
      Array.from({ length: WRITES }, () => ({ method: "reveal-entry", params: { entry: heldReveal() } })),
    );
    const elapsed = Date.now() - started;
    for (const a of answers) assert.ok("result" in a, JSON.stringify(a));
    // every acknowledged write is kept
    const held = (await node.rpc("holding-queue", undefined, "debug")) as { Messages: unknown[] | null };
    assert.equal(held.Messages?.length, WRITES);
    // waited at least the delay; far less than one delay per write (the old behaviour: ≥ 60 s)
    assert.ok(elapsed >= DELAY_MS, `answered after ${elapsed} ms, before the delay`);
    assert.ok(elapsed < WRITES * DELAY_MS, `${elapsed} ms: the delay was applied per write`);
    await node.stop();
  });
});

/** The LOCAL genesis address whose private key the README prints. */
const LOCAL_GENESIS_KEY = keyPairFromPrivate("Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK");

describe("CUSTOM networks own their genesis and keys", () => {
  const custom = (label: string, appConfig: string[]) =>
    LedgerdProcess.startExpectingExit({
      network: "CUSTOM",
      extraArgs: [`-customnet=${label}`],
      appConfig,
      waitMs: 180_000,
    });

  it("refuses to start without its own identity, with LOCAL's published key, or paying LOCAL's genesis address", async (t) => {
    const own = customNetworkFixture("sec-refusals");
    const cases: [string, string[], RegExp][] = [
      ["nothing configured", [], /needs its own \[App\] CustomBootstrapIdentity/],
      [
        "LOCAL's key",
        [
          `CustomBootstrapIdentity = ${own.identityHex}`,
          `LocalServerPrivKey = ${LOCAL_BOOTSTRAP_SEED_HEX}`,
          `CustomBootstrapKey = ${LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX}`,
          own.appLines[3]!,
        ],
        /needs its own \[App\] LocalServerPrivKey/,
      ],
      [
        "a key that is not the bootstrap key",
        [own.appLines[0]!, own.appLines[1]!, `CustomBootstrapKey = ${"ab".repeat(32)}`, own.appLines[3]!],
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
    const balance = async (address: string) =>
      ((await node.rpc("asset-balance", { address })) as { balance: number }).balance;
    assert.equal(await balance(own.genesisKey.publicAddress), own.genesisUnits * 1e8);
    assert.equal(await balance(LOCAL_GENESIS_KEY.publicAddress), 0);

    const { Authorities } = (await node.rpc("authorities", undefined, "debug")) as {
      Authorities: { AuthorityChainID: string; SigningKey: string }[];
    };
    assert.deepEqual(
      Authorities.map((a) => [a.AuthorityChainID, a.SigningKey]),
      [[own.identityHex, own.publicKeyHex]],
    );

    // the genesis admin block names the configured identity
    type AdminEntry = {
      adminidtype: number;
      identitychainid?: string;
      identityadminchainid?: string;
      prevdbsig?: { pub: string; sig: string };
    };
    const ablock = async (height: number) =>
      ((await node.rpc("ablock-by-height", { height })) as { ablock: { abentries: AdminEntry[] } }).ablock.abentries;
    assert.deepEqual(
      (await ablock(0)).map((e) => [e.adminidtype, e.identitychainid]),
      [[5, own.identityHex]],
    );
    // block 1's directory-block signature: the configured identity and key, a valid signature over block 0
    await waitUntil(
      "block 1 saved",
      async () => ((await node.rpc("heights")) as { directoryblockheight: number }).directoryblockheight >= 1,
      20_000,
      100,
    );
    const sig = (await ablock(1)).find((e) => e.adminidtype === 1);
    assert.ok(sig?.prevdbsig, "block 1 has a directory block signature");
    assert.equal(sig.identityadminchainid, own.identityHex);
    assert.equal(sig.prevdbsig.pub, own.publicKeyHex);
    const d0 = (await node.rpc("dblock-by-height", { height: 0 })) as { rawdata: string };
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
      waitMs: 180_000,
    });
    assert.equal(r.code, 1, r.output);
    assert.match(r.output, /whose genesis block [0-9a-f]{64} is not the configured one/);
  });
});

/** One raw HTTP/1.1 exchange over a socket (any Host, any headers); resolves with the status line's code and the body. */
function rawExchange(port: number, request: string, localAddress?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: "127.0.0.1", ...(localAddress ? { localAddress } : {}) }, () =>
      socket.write(request),
    );
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => {
      data += d;
      // a 101, or an answer on a kept-alive connection, leaves the socket open: stop once the answer is whole
      const end = data.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(data.slice(0, end))?.[1] ?? "0");
      if (/^HTTP\/1\.1 101/.test(data) || Buffer.byteLength(data.slice(end + 4)) >= length) socket.destroy();
    });
    socket.on("close", () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, text: data.slice(data.indexOf("\r\n\r\n") + 4) });
    });
    socket.on("error", reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error("no answer")));
  });
}

function post(path: string, host: string, body: string, extra: string[] = []): string {
  return [
    `POST ${path} HTTP/1.1`,
    `Host: ${host}`,
    "Content-Type: text/plain;charset=UTF-8",
    ...extra,
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

/** A node with credentials: start() polls `heights` without them, so wait for its "rpc listening" line instead. */
async function startWithAuth(
  options: Parameters<typeof LedgerdProcess.startExpectingExit>[0],
): Promise<LedgerdProcess> {
  const r = await LedgerdProcess.startExpectingExit({ waitMs: 180_000, ...options });
  assert.equal(r.code, undefined, `the node did not start:\n${r.output}`);
  return r.process;
}

describe("cross-site requests, DNS rebinding, password guessing, per-call work", () => {
  it("a foreign Host or Origin is refused before anything runs; this node's names and text/plain clients work", async (t) => {
    const node = await LedgerdProcess.start({
      extraArgs: ["-debugapi=readwrite"],
      appConfig: ["AllowedHosts = node.example", "CorsDomains = https://explorer.example"],
    });
    t.after(() => node.cleanup());
    const setDelay = '{"jsonrpc":"2.0","id":1,"method":"set-delay","params":{"Delay":60000}}';
    const heights = '{"jsonrpc":"2.0","id":1,"method":"heights"}';
    // DNS rebinding: the attacker's name pointing at 127.0.0.1
    const rebound = await rawExchange(node.port, post("/debug", `attacker.example:${node.port}`, setDelay));
    assert.equal(rebound.status, 403);
    assert.match(rebound.text, /Host "attacker\.example:\d+" is not a name of this node/);
    // a page elsewhere posting text/plain to localhost
    const crossSite = await rawExchange(
      node.port,
      post("/debug", `127.0.0.1:${node.port}`, setDelay, ["Origin: https://evil.example"]),
    );
    assert.equal(crossSite.status, 403);
    assert.match(crossSite.text, /Origin "https:\/\/evil\.example" is not allowed/);
    assert.deepEqual(await node.rpc("delay", undefined, "debug"), { Delay: 0 });
    // this node's names, IP literals, a listed origin, the same origin, and no Origin at all (text/plain)
    for (const [host, extra] of [
      [`localhost:${node.port}`, []],
      [`127.0.0.1:${node.port}`, []],
      [`[::1]:${node.port}`, []],
      ["node.example", []],
      [`127.0.0.1:${node.port}`, ["Origin: https://explorer.example"]],
      [`localhost:${node.port}`, [`Origin: http://localhost:${node.port}`]],
    ] as [string, string[]][]) {
      const a = await rawExchange(node.port, post("/v2", host, heights, extra));
      assert.equal(a.status, 200, `${host} ${extra.join(" ")}: ${a.text}`);
      assert.match(a.text, /"directoryblockheight"/);
    }
    // the live feed's WebSocket upgrade: browsers apply no CORS there
    const upgrade = (origin: string) =>
      rawExchange(
        node.port,
        [
          "GET /live HTTP/1.1",
          `Host: 127.0.0.1:${node.port}`,
          "Connection: Upgrade",
          "Upgrade: websocket",
          "Sec-WebSocket-Version: 13",
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
          `Origin: ${origin}`,
          "",
          "",
        ].join("\r\n"),
      );
    assert.equal((await upgrade("https://evil.example")).status, 403);
    assert.equal((await upgrade("https://explorer.example")).status, 101);
    await node.stop();
  });

  it("failed logins wait, are counted and logged with the address; an empty password is refused", async (t) => {
    const node = await startWithAuth({ appConfig: ["NodeRpcUser = alice", "NodeRpcPass = s3cret"] });
    t.after(() => node.cleanup());
    const heights = '{"jsonrpc":"2.0","id":1,"method":"heights"}';
    const wrong = `Authorization: Basic ${Buffer.from("alice:guess").toString("base64")}`;
    const started = Date.now();
    for (let i = 0; i < 4; i++) {
      const a = await rawExchange(node.port, post("/v2", `127.0.0.1:${node.port}`, heights, [wrong]));
      assert.equal(a.status, 401);
    }
    // each refusal waited its 250 ms (a lower bound: a loaded machine only adds)
    assert.ok(Date.now() - started >= 4 * 250, `4 refusals in ${Date.now() - started} ms`);
    const right = `Authorization: Basic ${Buffer.from("alice:s3cret").toString("base64")}`;
    assert.equal((await rawExchange(node.port, post("/v2", `127.0.0.1:${node.port}`, heights, [right]))).status, 200);
    const lines = node.log.split("\n").filter((l) => l.includes('"msg":"failed login"'));
    // the first failure from an address is logged at once, the next ones summed up later (no log flood)
    assert.equal(lines.length, 1, lines.join("\n"));
    assert.match(lines[0]!, /warn/i);
    assert.match(lines[0]!, /"remote":"(::ffff:)?127\.0\.0\.1"/);
    assert.doesNotMatch(node.log, /guess/);
    await node.stop();

    const empty = await LedgerdProcess.startExpectingExit({ appConfig: ["NodeRpcUser = alice"], waitMs: 180_000 });
    t.after(() => empty.process.cleanup());
    assert.equal(empty.code, 2, empty.output);
    assert.match(empty.output, /NodeRpcPass .* is empty: an empty password is refused/);
  });

  it("multiple-asset-balances takes at most 1000 addresses per call", async (t) => {
    const node = await LedgerdProcess.start();
    t.after(() => node.cleanup());
    const address = LOCAL_GENESIS_KEY.publicAddress;
    const ok = (await node.rpc("multiple-asset-balances", { addresses: Array(1000).fill(address) })) as {
      balances: unknown[];
    };
    assert.equal(ok.balances.length, 1000);
    const e = await expectRpcError(node.rpc("multiple-asset-balances", { addresses: Array(1001).fill(address) }));
    assert.equal(e.code, -32602);
    assert.equal(e.data, "addresses: at most 1000 per call, got 1001; split the list into several calls");
    await node.stop();
  });

  it("the live feed, /metrics, the metrics port and the control panel: failed logins wait and are logged; foreign Host/Origin refused", async (t) => {
    const metricsPort = await freeLoopbackPort();
    const node = await startWithAuth({
      appConfig: ["NodeRpcUser = alice", "NodeRpcPass = s3cret"],
      extraArgs: [`-metricsport=${metricsPort}`],
    });
    t.after(() => node.cleanup());
    const panelPort = Number(/control panel listening.*?:(\d+)\//.exec(node.log)?.[1]);
    assert.ok(panelPort > 0, node.tail());
    const wrong = `Authorization: Basic ${Buffer.from("alice:guess").toString("base64")}`;
    const right = `Authorization: Basic ${Buffer.from("alice:s3cret").toString("base64")}`;
    const get = (path: string, host: string, extra: string[]) =>
      [`GET ${path} HTTP/1.1`, `Host: ${host}`, ...extra, "Connection: close", "", ""].join("\r\n");
    const upgrade = (host: string, extra: string[]) =>
      [
        "GET /live HTTP/1.1",
        `Host: ${host}`,
        "Connection: Upgrade",
        "Upgrade: websocket",
        "Sec-WebSocket-Version: 13",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        ...extra,
        "",
        "",
      ].join("\r\n");
    /** status of one exchange, and whether it took the failed-login delay (a lower bound: load only adds) */
    const timed = async (port: number, request: string) => {
      const started = Date.now();
      const a = await rawExchange(port, request);
      return { ...a, waited: Date.now() - started >= 250 };
    };
    const api = `127.0.0.1:${node.port}`;
    const panel = `127.0.0.1:${panelPort}`;
    const metrics = `localhost:${metricsPort}`;

    // wrong or missing credentials: 401 after the delay, wherever the node asks for them
    for (const [port, request] of [
      [node.port, upgrade(api, [wrong])],
      [node.port, upgrade(api, [])],
      [node.port, get("/metrics", api, [wrong])],
      [metricsPort, get("/metrics", metrics, [wrong])],
      [panelPort, upgrade(panel, [wrong])],
      [panelPort, get("/", panel, [])],
    ] as [number, string][]) {
      const a = await timed(port, request);
      assert.equal(a.status, 401, `${port} ${request.split("\r\n")[0]}: ${a.text}`);
      assert.ok(a.waited, `${port} ${request.split("\r\n")[0]} answered 401 without the delay`);
    }
    // one guard for every listener (API, metrics port, panel): the first failure from an address is logged at
    // once, with the address, the others summed up later
    const lines = node.log.split("\n").filter((l) => l.includes('"msg":"failed login"'));
    assert.deepEqual(
      lines.map((l) => /"path":"([^"]*)"/.exec(l)?.[1]),
      ["/live"],
      lines.join("\n"),
    );
    for (const l of lines) assert.match(l, /"remote":"(::ffff:)?127\.0\.0\.1"/);
    assert.doesNotMatch(node.log, /guess/);

    // DNS rebinding and cross-site reads: refused on the metrics port and the panel as on the API port
    for (const [port, request, why] of [
      [metricsPort, get("/metrics", `attacker.example:${metricsPort}`, [right]), /Host "attacker\.example:\d+"/],
      [metricsPort, get("/health", metrics, ["Origin: https://evil.example"]), /Origin "https:\/\/evil\.example"/],
      [panelPort, get("/", `attacker.example:${panelPort}`, [right]), /Host "attacker\.example:\d+"/],
      [panelPort, upgrade(panel, [right, "Origin: https://evil.example"]), /Origin "https:\/\/evil\.example"/],
    ] as [number, string, RegExp][]) {
      const a = await rawExchange(port, request);
      assert.equal(a.status, 403, `${port} ${request.split("\r\n")[0]}: ${a.text}`);
      assert.match(a.text, why);
    }
    // the right credentials and this node's names still get through
    assert.equal((await rawExchange(metricsPort, get("/metrics", metrics, [right]))).status, 200);
    assert.equal((await rawExchange(metricsPort, get("/health", `127.0.0.1:${metricsPort}`, []))).status, 200);
    assert.equal((await rawExchange(node.port, upgrade(api, [right]))).status, 101);
    assert.equal((await rawExchange(panelPort, upgrade(panel, [right]))).status, 101);
    assert.equal((await rawExchange(panelPort, get("/", `localhost:${panelPort}`, [right]))).status, 200);
    await node.stop();
  });
});

describe("security review 3: one Host, one Origin, one Content-Length (L3)", () => {
  for (const front of [false, true])
    it(`repeated headers are refused with 400${front ? " (-httpfront)" : ""}`, async (t) => {
      const node = await LedgerdProcess.start(front ? { extraArgs: ["-httpfront"] } : {});
      t.after(() => node.cleanup());
      const host = `127.0.0.1:${node.port}`;
      const body = '{"jsonrpc":"2.0","id":1,"method":"heights"}';
      const head = (extra: string[]) =>
        ["POST /v2 HTTP/1.1", ...extra, "Content-Type: text/plain", "Connection: close", "", body].join("\r\n");
      for (const [extra, what] of [
        [[`Host: ${host}`, `Content-Length: ${body.length}`, "Content-Length: 5"], "Content-Length"],
        [["Host: evil.example", `Host: ${host}`, `Content-Length: ${body.length}`], "Host"],
        [
          [`Host: ${host}`, "Origin: https://evil.example", `Origin: http://${host}`, `Content-Length: ${body.length}`],
          "Origin",
        ],
      ] as [string[], string][]) {
        const a = await rawExchange(node.port, head(extra));
        assert.equal(a.status, 400, `${what}: ${a.text}`);
        assert.match(a.text, new RegExp(`more than one ${what}`));
      }
      // one of each still works
      const ok = await rawExchange(node.port, head([`Host: ${host}`, `Content-Length: ${body.length}`]));
      assert.equal(ok.status, 200, ok.text);
      await node.stop();
    });
});

describe("security review 3: limits with real sockets (M3, M4)", () => {
  const heights = '{"jsonrpc":"2.0","id":1,"method":"heights"}';
  const basic = (pass: string) => `Authorization: Basic ${Buffer.from(`alice:${pass}`).toString("base64")}`;

  it("failed logins: a budget per address, answered 429 before the credentials are looked at; the summary is written by a timer", async (t) => {
    const node = await startWithAuth({ appConfig: ["NodeRpcUser = alice", "NodeRpcPass = s3cret"] });
    t.after(() => node.cleanup());
    const api = `127.0.0.1:${node.port}`;
    const started = Date.now();
    const guesses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => rawExchange(node.port, post("/v2", api, heights, [basic(`guess${i}`)]))),
    );
    const seconds = (Date.now() - started) / 1000;
    const count = (status: number) => guesses.filter((a) => a.status === status).length;
    // 10 at once, then 2 a second (loginGuard.ts): far from the 1,079 a second of the review
    assert.ok(count(401) <= 10 + Math.ceil(2 * seconds), `${count(401)} guesses answered 401 in ${seconds} s`);
    assert.equal(count(401) + count(429), 60);
    assert.ok(count(429) >= 60 - 10 - Math.ceil(2 * seconds));
    assert.match(guesses.find((a) => a.status === 429)!.text, /too many failed logins .* try again in \d+ s/);
    // the right password from the same address does not get around a spent budget…
    const same = await rawExchange(node.port, post("/v2", api, heights, [basic("s3cret")]));
    assert.equal(same.status, 429, same.text);
    // …and another address is not held up by it
    const other = await rawExchange(node.port, post("/v2", api, heights, [basic("s3cret")]), "127.0.0.2");
    assert.equal(other.status, 200, other.text);
    // counted in /metrics
    const metrics = await rawExchange(
      node.port,
      `GET /metrics HTTP/1.1\r\nHost: ${api}\r\n${basic("s3cret")}\r\nConnection: close\r\n\r\n`,
      "127.0.0.3",
    );
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, new RegExp(`^ledgerd_failed_logins_total ${count(401)}$`, "m"));
    assert.match(metrics.text, /^ledgerd_login_throttled_total [1-9]\d*$/m);
    // the failures after the first line are summed up by the timer, with no later failure needed
    const summary = await waitFor(
      "the failed-login summary",
      async () => node.log.split("\n").find((l) => l.includes('"msg":"failed logins"')),
      30_000,
    );
    assert.match(summary, new RegExp(`"failuresSinceLastLine":${count(401) - 1}\\b`));
    await node.stop();
  });

  it("failed logins: a budget for all addresses together", async (t) => {
    const node = await startWithAuth({ appConfig: ["NodeRpcUser = alice", "NodeRpcPass = s3cret"] });
    t.after(() => node.cleanup());
    const api = `127.0.0.1:${node.port}`;
    const started = Date.now();
    // 30 addresses, each within its own burst of 10: 300 guesses against a total of 100 at once, 20 a second
    const guesses = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        rawExchange(node.port, post("/v2", api, heights, [basic(`guess${i}`)]), `127.0.1.${1 + (i % 30)}`),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    const wrong = guesses.filter((a) => a.status === 401).length;
    const throttled = guesses.filter((a) => a.status === 429).length;
    assert.equal(wrong + throttled, 300);
    assert.ok(wrong <= 100 + Math.ceil(20 * seconds), `${wrong} guesses answered 401 in ${seconds} s`);
    await node.stop();
  });

  it("/live: one address gets a share of the connections; another still gets in; refusals warned and counted", async (t) => {
    const node = await LedgerdProcess.start();
    t.after(() => node.cleanup());
    const url = `ws://127.0.0.1:${node.port}/live`;
    const open = (localAddress: string) =>
      new Promise<{ ws: WebSocket } | { status: number; body: string }>((resolve, reject) => {
        const ws = new WebSocket(url, { localAddress });
        ws.on("open", () => resolve({ ws }));
        ws.on("unexpected-response", (_req, res) => {
          let body = "";
          res.on("data", (d: Buffer) => (body += d.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        ws.on("error", reject);
      });
    const held: WebSocket[] = [];
    t.after(() => {
      for (const ws of held) ws.terminate();
    });
    for (let i = 0; i < 32; i++) {
      const r = await open("127.0.0.1");
      assert.ok("ws" in r, `connection ${i + 1}: ${JSON.stringify(r)}`);
      held.push(r.ws);
    }
    const refused = await open("127.0.0.1");
    assert.deepEqual(refused, {
      status: 503,
      body: "too many live feed connections from 127.0.0.1 (at most 32 per address)\n",
    });
    const other = await open("127.0.0.2");
    assert.ok("ws" in other, JSON.stringify(other));
    held.push(other.ws);
    await waitFor("the warning", async () =>
      node.log.includes('"msg":"live feed: connection refused, too many from one address"') ? true : undefined,
    );
    const metrics = await (await fetch(`http://127.0.0.1:${node.port}/metrics`)).text();
    assert.match(metrics, /^ledgerd_live_refusals_total\{limit="source_connections"\} 1$/m);
    assert.match(metrics, /^ledgerd_live_connections 33$/m);
    await node.stop();
  });
});

describe("the holding queue's share per caller", () => {
  it("one address holds at most 1,000 reveals without commits; the next is refused naming the bound, another address is served", async (t) => {
    const node = await LedgerdProcess.start();
    t.after(() => node.cleanup());
    const answers = await node.rpcBatch(
      Array.from({ length: 1001 }, () => ({ method: "reveal-entry", params: { entry: heldReveal() } })),
    );
    assert.equal(answers.filter((a) => "result" in a).length, 1000);
    const refused = answers.at(-1)!;
    assert.ok("error" in refused, JSON.stringify(refused));
    assert.equal(refused.error.code, -32000);
    assert.equal(
      refused.error.data,
      "holding queue full: 1000 reveals held from your address, the limit is 1000 (bound: source reveals); " +
        "send the commit first, or retry once held reveals are paid or expire",
    );
    // another caller (a second loopback address) still gets its reveal held
    const other = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "reveal-entry", params: { entry: heldReveal() } });
    const a = await rawExchange(node.port, post("/v2", `127.0.0.1:${node.port}`, other), "127.0.0.2");
    assert.equal(a.status, 200, a.text);
    assert.match(a.text, /"message":"Entry Reveal Success"/);
    // nothing acknowledged was dropped: all 1,001 are held
    const queue = (await node.rpc("holding-queue", undefined, "debug")) as { Messages: unknown[] | null };
    assert.equal(queue.Messages?.length, 1001);
    await node.stop();
  });
});

describe("reload-configuration never echoes a value of the file", () => {
  it("a broken line with a secret is refused without quoting it; the node's log has the details", async (t) => {
    const node = await LedgerdProcess.start({ extraArgs: ["-debugapi=readwrite"] });
    t.after(() => node.cleanup());
    const secret = "hunter2-do-not-echo";
    const conf = join(node.homeDir, "ledgerd.conf");
    for (const [broken, what] of [
      [`[App]\nListenHost = 127.0.0.1\nMaxBatch = ${secret}\n`, "App.MaxBatch: expected an integer from 1 to 100000"],
      [
        `[App]\nListenHost = 127.0.0.1\nNodeRpcPass = "${secret}\n`,
        "syntax error: a quoted value has no closing quote",
      ],
      [`[App]\nListenHost = 127.0.0.1\n${secret}\n`, "unknown field name (the log names it)"],
    ]) {
      writeFileSync(conf, broken!);
      const e = await expectRpcError(node.rpc("reload-configuration", undefined, "debug"));
      assert.equal(e.code, -32000);
      assert.equal(e.rpcMessage, "Configuration error");
      assert.equal(
        e.data,
        `${conf}:3: ${what}; nothing changed (values are not echoed here: the node's log at warning level says what is wrong)`,
      );
      assert.doesNotMatch(String(e.data), /hunter2/);
    }
    assert.match(node.log, /reload-configuration: the file was refused/);
    await node.stop();
  });
});

describe("the API password off the command line; secrets others can read", () => {
  it("from LEDGERD_RPC_PASS or -rpcpassfile; -rpcpass and a group/world-readable file holding a secret are warned about", async (t) => {
    const heights = '{"jsonrpc":"2.0","id":1,"method":"heights"}';
    const auth = (pass: string) => `Authorization: Basic ${Buffer.from(`alice:${pass}`).toString("base64")}`;
    const status = async (node: LedgerdProcess, pass: string) =>
      (await rawExchange(node.port, post("/v2", `127.0.0.1:${node.port}`, heights, [auth(pass)]))).status;

    const fromEnv = await startWithAuth({
      appConfig: ["NodeRpcUser = alice"],
      env: { LEDGERD_RPC_PASS: "env-pass" },
    });
    t.after(() => fromEnv.cleanup());
    assert.equal(await status(fromEnv, "env-pass"), 200);
    assert.equal(await status(fromEnv, "other"), 401);
    assert.doesNotMatch(fromEnv.log, /password on the command line|readable by other users/);
    await fromEnv.stop();

    const dir = mkdtempSync(join(tmpdir(), "ledgerd-sec-pass-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const passFile = join(dir, "rpc.pass");
    writeFileSync(passFile, "file-pass\n", { mode: 0o600 });
    const fromFile = await startWithAuth({
      appConfig: ["NodeRpcUser = alice"],
      extraArgs: [`-rpcpassfile=${passFile}`],
    });
    t.after(() => fromFile.cleanup());
    assert.equal(await status(fromFile, "file-pass"), 200);
    await fromFile.stop();

    // on the command line, and in a configuration file others can read: two warnings, no secret in them
    const exposed = await startWithAuth({
      appConfig: ["NodeRpcUser = alice", "NodeRpcPass = conf-pass"],
      extraArgs: ["-rpcpass=cli-pass"],
    });
    t.after(() => exposed.cleanup());
    // (the test support writes the configuration file with the default umask: mode 0644)
    assert.equal(statSync(join(exposed.homeDir, "ledgerd.conf")).mode & 0o777, 0o644);
    assert.equal(await status(exposed, "cli-pass"), 200);
    assert.match(exposed.log, /-rpcpass puts the API password on the command line/);
    assert.match(
      exposed.log,
      /ledgerd\.conf holds NodeRpcPass and is readable by other users \(mode 0644\): chmod 600/,
    );
    // (the launcher's own "--- <time> start: <command line>" lines quote it; the node's lines must not)
    const nodeLines = exposed.log.split("\n").filter((l) => !/^--- \S+ start: /.test(l));
    assert.doesNotMatch(nodeLines.join("\n"), /cli-pass|conf-pass/);
    await exposed.stop();
  });
});

describe("the backup tool's destination", () => {
  it("a symbolic link is refused and left alone; a pre-created empty directory is written into, its mode kept", async (t) => {
    const node = await LedgerdProcess.start();
    t.after(() => node.cleanup());
    const dir = mkdtempSync(join(tmpdir(), "ledgerd-sec-backup-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const backup = (dest: string) =>
      spawnSync(process.execPath, [join(PROJECT_ROOT, "dist", "tools", "backup", "cli.js"), node.dataDir, dest], {
        encoding: "utf8",
      });

    const target = join(dir, "elsewhere");
    mkdirSync(target);
    const link = join(dir, "link");
    symlinkSync(target, link);
    const viaLink = backup(link);
    assert.notEqual(viaLink.status, 0, viaLink.stdout);
    assert.match(viaLink.stderr, /is a symbolic link: give the directory it points to/);
    assert.ok(lstatSync(link).isSymbolicLink(), "the link is still a link");
    assert.deepEqual(readdirSync(target), []);

    const prepared = join(dir, "prepared");
    mkdirSync(prepared, { mode: 0o700 });
    chmodSync(prepared, 0o700);
    const inode = statSync(prepared).ino;
    const ok = backup(prepared);
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(statSync(prepared).mode & 0o777, 0o700);
    assert.equal(statSync(prepared).ino, inode, "the same directory, not a replacement");
    assert.ok(existsSync(join(prepared, "data.mdb")));

    const file = join(dir, "file");
    writeFileSync(file, "x");
    assert.match(backup(file).stderr, /exists and is not a directory/);
    // a destination inside the data directory (or the directory itself) is refused before anything is written
    for (const inner of [join(node.dataDir, "inner"), node.dataDir]) {
      const r = backup(inner);
      assert.equal(r.status, 1, r.stdout);
      assert.match(r.stderr, /is inside the data directory .*: .* give a directory outside it/);
    }
    assert.ok(!existsSync(join(node.dataDir, "inner")));
    // a destination the tool creates is its owner's only
    const fresh = join(dir, "fresh");
    assert.equal(backup(fresh).status, 0);
    assert.equal(statSync(fresh).mode & 0o777, 0o700);
    await node.stop();
  });
});

describe("TLS", () => {
  it("a leaf certificate for the configured names only; no CBC or SHA-1 suites on the API, the panel and the metrics port (TLS too)", async (t) => {
    // start() polls over plain HTTP, which a TLS node does not answer: wait for its "rpc listening" line instead
    const metricsPort = await freeLoopbackPort();
    const started = await LedgerdProcess.startExpectingExit({
      extraArgs: ["-tls", "-selfaddr=node.test.example", "-controlpanelport=0", `-metricsport=${metricsPort}`],
      waitMs: 180_000,
    });
    const r = started.process;
    assert.equal(started.code, undefined, started.output);
    t.after(() => r.cleanup());
    const cert = new X509Certificate(readFileSync(join(r.homeDir, "tls", "node.crt")));
    assert.equal(cert.ca, false, "not a CA");
    const days = (Date.parse(cert.validTo) - Date.now()) / 86_400_000;
    assert.ok(days < 826, `valid ${days.toFixed(0)} days`);
    const names = (cert.subjectAltName ?? "").split(", ").sort();
    assert.deepEqual(names, [
      "DNS:localhost",
      "DNS:node.test.example",
      "IP Address:0:0:0:0:0:0:0:1",
      "IP Address:127.0.0.1",
    ]);
    const ca = readFileSync(join(r.homeDir, "tls", "node.crt"));
    const handshake = (options: ConnectionOptions, port = r.port) =>
      new Promise<string>((resolve, reject) => {
        const s = tlsConnect({ host: "127.0.0.1", port, ca, ...options }, () => {
          const suite = s.getCipher().name;
          s.destroy();
          resolve(suite);
        });
        s.on("error", reject);
      });
    assert.match(await handshake({ maxVersion: "TLSv1.2" }), /GCM|CHACHA20/);
    await assert.rejects(
      handshake({
        maxVersion: "TLSv1.2",
        ciphers: "ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA:AES128-SHA:AES256-SHA",
      }),
      /handshake failure|no shared cipher|alert/i,
    );
    // the control panel offers the same suites (security review 3, L2: it took CBC/SHA-1 ones)
    const panelPort = Number(
      (await waitFor(
        "the panel",
        async () => /control panel listening.*?"url":"https:[^"]*:(\d+)\//.exec(r.log)?.[1],
      ))!,
    );
    assert.match(await handshake({ maxVersion: "TLSv1.2" }, panelPort), /GCM|CHACHA20/);
    await assert.rejects(
      handshake({ maxVersion: "TLSv1.2", ciphers: "ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA" }, panelPort),
      /handshake failure|no shared cipher|alert/i,
    );
    // the metrics port speaks TLS with the node's certificate (M5: it stayed plain HTTP), with the same suites
    await waitFor("the metrics port", async () => (/metrics listening.*https:/.test(r.log) ? true : undefined));
    assert.match(await handshake({ maxVersion: "TLSv1.2" }, metricsPort), /GCM|CHACHA20/);
    await assert.rejects(
      handshake({ maxVersion: "TLSv1.2", ciphers: "ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES128-SHA" }, metricsPort),
      /handshake failure|no shared cipher|alert/i,
    );
    const scrape = await new Promise<string>((resolve, reject) => {
      const s = tlsConnect({ host: "127.0.0.1", port: metricsPort, ca, servername: "localhost" }, () =>
        s.write(`GET /metrics HTTP/1.1\r\nHost: localhost:${metricsPort}\r\nConnection: close\r\n\r\n`),
      );
      let text = "";
      s.setEncoding("utf8");
      s.on("data", (d: string) => (text += d));
      s.on("end", () => resolve(text));
      s.on("error", reject);
    });
    assert.match(scrape, /^HTTP\/1\.1 200/);
    assert.match(scrape, /^ledgerd_directory_block_height \d+$/m);
    // plain HTTP to it gets no answer
    const plain = await rawExchange(
      metricsPort,
      `GET /metrics HTTP/1.1\r\nHost: localhost:${metricsPort}\r\n\r\n`,
    ).catch(() => ({ status: 0, text: "" }));
    assert.notEqual(plain.status, 200);
    await r.stop();
  });
});

describe("request bodies are held only as they arrive", () => {
  const MiB = 1024 * 1024;
  /** Open `n` connections, each declaring `declared` bytes and sending `sent` of them; resolves with the sockets. */
  async function slowUploads(port: number, n: number, declared: number, sent: number): Promise<Socket[]> {
    // all at once, not one after another: the node's 10-s limit on an unfinished body runs from each connect
    const open = async (): Promise<Socket> => {
      const s = connect({ port, host: "127.0.0.1" });
      await new Promise<void>((resolve, reject) => {
        s.once("connect", () => resolve());
        s.once("error", reject);
      });
      s.on("error", () => {});
      s.write(
        `POST /v2 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/plain\r\nContent-Length: ${declared}\r\n\r\n`,
      );
      s.write(Buffer.alloc(sent, 0x20));
      return s;
    };
    return Promise.all(Array.from({ length: n }, open));
  }

  it("a declared length over the limit is answered 413 at once, before the upload; the rest is dropped and the connection serves on", async (t) => {
    const node = await LedgerdProcess.start();
    t.after(() => node.cleanup());
    const heights = '{"jsonrpc":"2.0","id":1,"method":"heights"}';
    // 100 MiB declared, one byte sent: the whole answer arrives without the upload
    const [early] = await slowUploads(node.port, 1, 100 * MiB, 1);
    const answer = await new Promise<string>((resolve, reject) => {
      let text = "";
      early!.on("data", (d: Buffer) => {
        text += d.toString("utf8");
        if (/\r\n\r\n\{.*\}$/s.test(text)) resolve(text);
      });
      early!.setTimeout(30_000, () => reject(new Error(`no whole answer before the upload: ${JSON.stringify(text)}`)));
    });
    early!.destroy();
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /"code":-32600.*request body exceeds the limit of 1048576 bytes/);
    // a client that asked to close the connection, declaring 100 MiB: answered at once too, then closed
    const closing = connect({ port: node.port, host: "127.0.0.1" });
    closing.on("error", () => {});
    closing.write(`POST /v2 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: ${100 * MiB}\r\n\r\n{`);
    const closed = await new Promise<string>((resolve) => {
      let text = "";
      closing.on("data", (d: Buffer) => {
        text += d.toString("utf8");
      });
      closing.on("close", () => resolve(text));
      closing.setTimeout(30_000, () => closing.destroy());
    });
    assert.match(closed, /^HTTP\/1\.1 413 [\s\S]*request body exceeds the limit/);
    // a client that writes its whole 2 MiB body before reading gets the same answer, then its next request served
    const [whole] = await slowUploads(node.port, 1, 2 * MiB, 2 * MiB);
    let text = "";
    whole!.on("data", (d: Buffer) => {
      text += d.toString("utf8");
    });
    whole!.write(
      `POST /v2 HTTP/1.1\r\nHost: 127.0.0.1:${node.port}\r\nContent-Length: ${heights.length}\r\n\r\n${heights}`,
    );
    await waitUntil(
      "the answer to the request after the 413",
      () => text.includes('"directoryblockheight"'),
      10_000,
      100,
    );
    whole!.destroy();
    assert.match(text, /^HTTP\/1\.1 413 [\s\S]*HTTP\/1\.1 200 [\s\S]*"directoryblockheight"/);
    await node.stop();
  });

  it("declared sizes reserve nothing; unfinished bodies share one 64 MiB budget (503 past it), released on close", async (t) => {
    const node = await LedgerdProcess.start();
    t.after(() => node.cleanup());
    const heights = '{"jsonrpc":"2.0","id":1,"method":"heights"}';
    await node.rpc("heights");
    // 300 connections declaring 1 MiB and sending 1 byte: the old reader reserved 300 MiB. Nothing is
    // reserved: with all 300 held by the node, a whole 1 MiB body still fits the 64 MiB budget and is served.
    const fullBody = " ".repeat(MiB - heights.length) + heights;
    // uWS closes a connection whose body is unfinished ~10 s after it opened (measured; more body bytes do not
    // extend it), so the 300 must be opened, seen held and the full body answered inside that window. On a
    // machine too loaded to do so within 8 s the round is set up again, at most 3 times; the assertion is the same.
    const ROUND_MS = 8_000;
    const rounds: string[] = [];
    let servedWhileHeld: number | undefined;
    for (let round = 0; round < 3 && servedWhileHeld === undefined; round++) {
      const openedAt = performance.now();
      const idle = await slowUploads(node.port, 300, MiB, 1);
      const ports = new Set(idle.map((s) => s.localPort ?? 0));
      try {
        await waitUntil(
          "the node to accept the 300 connections",
          () => node.acceptedConnectionsFrom(ports) === 300 || performance.now() - openedAt > ROUND_MS,
          ROUND_MS + 2_000,
        );
        const acceptedBefore = node.acceptedConnectionsFrom(ports);
        const status =
          acceptedBefore === 300
            ? (await rawExchange(node.port, post("/v2", `127.0.0.1:${node.port}`, fullBody))).status
            : 0;
        const acceptedAfter = node.acceptedConnectionsFrom(ports);
        const elapsed = performance.now() - openedAt;
        rounds.push(`held ${acceptedBefore} then ${acceptedAfter}, status ${status}, ${elapsed.toFixed(0)} ms`);
        if (acceptedBefore === 300 && acceptedAfter === 300 && elapsed <= ROUND_MS) servedWhileHeld = status;
      } finally {
        for (const s of idle) s.destroy();
      }
    }
    assert.equal(servedWhileHeld, 200, `a full body beside 300 held uploads: ${rounds.join("; ")}`);

    // 80 bodies of 1 MiB less one byte (80 MiB unfinished): some are refused with 503, none crashes the node
    const answers: string[] = [];
    const heavy = await slowUploads(node.port, 80, MiB, MiB - 1);
    heavy.forEach((s, i) => {
      answers[i] = "";
      s.on("data", (d: Buffer) => {
        answers[i] += d.toString("utf8");
      });
    });
    // (the JSON-RPC body of the 503 follows once the client ends its upload; the status comes at once)
    const refused = () => answers.filter((a) => a.startsWith("HTTP/1.1 503"));
    await waitUntil(
      "a 503",
      () => refused().length > 0,
      10_000,
      100,
      () =>
        answers
          .filter((a) => a !== "")
          .map((a) => a.slice(0, 200))
          .join(" | "),
    );
    for (const s of heavy) s.destroy();
    // the budget comes back as the node sees the closes: a full-size body is served again
    await waitFor(
      "a full-size body served once the unfinished ones are closed",
      async () =>
        (await rawExchange(node.port, post("/v2", `127.0.0.1:${node.port}`, fullBody))).status === 200
          ? true
          : undefined,
      30_000,
      100,
    );
    await node.stop();
  });
});

describe("the wallet file", () => {
  const WALLET = join(PROJECT_ROOT, "bin", "ledgerd-wallet");
  const run = (home: string, walletPath: string, args: string[], env: Record<string, string> = {}, input?: string) =>
    spawnSync(WALLET, args, {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "", HOME: home, LEDGERD_WALLET: walletPath, ...env },
      ...(input === undefined ? {} : { input }),
    });

  it("a symlinked wallet stays a link; a damaged file is reported without quoting it", (t) => {
    const dir = mkdtempSync(join(tmpdir(), "ledgerd-sec-wallet-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, "vault"), { mode: 0o700 });
    const real = join(dir, "vault", "wallet.json");
    const link = join(dir, "wallet.json");
    symlinkSync(real, link);
    const made = run(dir, link, ["new-fa"]);
    assert.equal(made.status, 0, made.stderr);
    assert.ok(lstatSync(link).isSymbolicLink(), "the wallet path is still a symbolic link");
    assert.match(readFileSync(real, "utf8"), /"keys"/);
    assert.equal(statSync(real).mode & 0o777, 0o600);
    const again = run(dir, link, ["new-ec"]);
    assert.equal(again.status, 0, again.stderr);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal((JSON.parse(readFileSync(real, "utf8")) as { keys: unknown[] }).keys.length, 2);

    // a torn file around a private key: the error names the file, never its contents
    const secret = LOCAL_GENESIS_KEY.privateAddress;
    writeFileSync(real, `{"version":1,"keys":[{"secret":"${secret}" oops`);
    const damaged = run(dir, link, ["list"]);
    assert.notEqual(damaged.status, 0);
    assert.match(damaged.stderr, /is not valid JSON; restore it from a backup/);
    assert.doesNotMatch(damaged.stderr + damaged.stdout, new RegExp(secret.slice(0, 12)));
  });

  it("encrypt migrates a plain wallet in place; the passphrase comes from a file or the environment (or a terminal prompt), never argv; a wrong one changes nothing", (t) => {
    const dir = mkdtempSync(join(tmpdir(), "ledgerd-sec-wallet-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const wallet = join(dir, "wallet.json");
    const passfile = join(dir, "pass");
    writeFileSync(passfile, "correct horse battery\n", { mode: 0o600 });
    const secret = LOCAL_GENESIS_KEY.privateAddress;
    // a plain wallet: one new key, one imported from stdin (a key on the command line shows in ps)
    const made = run(dir, wallet, ["new-fa"]);
    assert.equal(made.status, 0, made.stderr);
    const imported = run(dir, wallet, ["import", "-"], {}, `${secret}\n`);
    assert.equal(imported.status, 0, imported.stderr);
    assert.equal(imported.stdout.trim(), LOCAL_GENESIS_KEY.publicAddress);
    const addresses = run(dir, wallet, ["list"]).stdout;
    assert.equal(addresses.trim().split("\n").length, 2);

    const enc = run(dir, wallet, ["encrypt", `-passfile=${passfile}`]);
    assert.equal(enc.status, 0, enc.stderr);
    assert.match(enc.stdout, /encrypted .* \(2 keys\)/);
    const sealed = readFileSync(wallet, "utf8");
    const file = JSON.parse(sealed) as { version: number; cipher: string; kdf: { name: string; N: number } };
    assert.equal(file.version, 2);
    assert.equal(file.cipher, "aes-256-gcm");
    assert.equal(file.kdf.name, "scrypt");
    for (const clear of [secret, ...addresses.trim().split("\n")])
      assert.ok(!sealed.includes(clear), "no key or address in the clear");
    assert.equal(statSync(wallet).mode & 0o777, 0o600);

    // without the passphrase: a clear error (stdin is not a terminal, so nothing to ask on)
    const locked = run(dir, wallet, ["list"]);
    assert.equal(locked.status, 2);
    assert.match(locked.stderr, /is encrypted: its passphrase is needed/);
    assert.match(locked.stderr, /give the passphrase with -passfile=FILE or LEDGERD_WALLET_PASS/);
    // from the file, or the environment
    assert.equal(run(dir, wallet, ["list", `-passfile=${passfile}`]).stdout, addresses);
    assert.equal(run(dir, wallet, ["list"], { LEDGERD_WALLET_PASS: "correct horse battery" }).stdout, addresses);
    // a wrong one: refused, the file untouched, nothing quoted
    const wrong = run(dir, wallet, ["new-ec"], { LEDGERD_WALLET_PASS: "incorrect horse" });
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /wrong passphrase \(or the file was changed\)/);
    assert.doesNotMatch(wrong.stderr, /incorrect/);
    assert.equal(readFileSync(wallet, "utf8"), sealed);
    // there is no option that takes the passphrase itself
    const argv = run(dir, wallet, ["list", "-passphrase=correct horse battery"]);
    assert.equal(argv.status, 1);
    // a change keeps it encrypted, under a fresh nonce
    const added = run(dir, wallet, ["new-ec", `-passfile=${passfile}`]);
    assert.equal(added.status, 0, added.stderr);
    const after = JSON.parse(readFileSync(wallet, "utf8")) as { version: number; iv: string; kdf: unknown };
    assert.equal(after.version, 2);
    assert.notEqual(after.iv, (JSON.parse(sealed) as { iv: string }).iv);
    assert.deepEqual(after.kdf, file.kdf);
    assert.equal(
      run(dir, wallet, ["list", `-passfile=${passfile}`])
        .stdout.trim()
        .split("\n").length,
      3,
    );
    // the KDF parameters are authenticated too: a file asking for a cheaper KDF is refused
    writeFileSync(wallet, JSON.stringify({ ...after, kdf: { ...(after.kdf as object), N: 16384 } }));
    const tampered = run(dir, wallet, ["list", `-passfile=${passfile}`]);
    assert.equal(tampered.status, 2);
    assert.match(tampered.stderr, /wrong passphrase \(or the file was changed\)/);
    // encrypting twice is refused; a new wallet given a passphrase starts encrypted
    writeFileSync(wallet, JSON.stringify(after));
    assert.match(run(dir, wallet, ["encrypt", `-passfile=${passfile}`]).stderr, /already encrypted/);
    const fresh = join(dir, "fresh.json");
    assert.equal(run(dir, fresh, ["new-fa"], { LEDGERD_WALLET_PASS: "another one" }).status, 0);
    assert.equal((JSON.parse(readFileSync(fresh, "utf8")) as { version: number }).version, 2);
  });

  it("on a terminal the wallet asks for the passphrase without echoing it", async (t) => {
    const dir = mkdtempSync(join(tmpdir(), "ledgerd-sec-wallet-"));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const wallet = join(dir, "wallet.json");
    const made = run(dir, wallet, ["new-fa"], { LEDGERD_WALLET_PASS: "typed secret" });
    assert.equal(made.status, 0, made.stderr);
    /** `list` under a pseudo-terminal (util-linux script), typing `typed` once the prompt shows */
    const onTerminal = (typed: string) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn("script", ["-qc", `${WALLET} list`, "/dev/null"], {
          env: { PATH: process.env.PATH ?? "", HOME: dir, LEDGERD_WALLET: wallet },
        });
        let out = "";
        let sent = false;
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString("utf8");
          if (!sent && out.includes("wallet passphrase: ")) {
            sent = true;
            child.stdin.write(`${typed}\r`);
          }
        });
        child.on("error", reject);
        child.on("close", () => resolve(out));
        setTimeout(() => child.kill(), 20_000);
      });
    const right = await onTerminal("typed secret");
    assert.match(right, /wallet passphrase: [\s\S]*FA[1-9A-HJ-NP-Za-km-z]{50}/);
    assert.ok(!right.includes("typed secret"), "the passphrase was echoed");
    assert.match(await onTerminal("wrong"), /wrong passphrase \(or the file was changed\)/);
  });
});
