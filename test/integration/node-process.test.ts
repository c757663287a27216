/**
 * The real `bin/ledgerd` process on loopback with a temp data directory: start-up line, JSON-RPC
 * submissions, SIGKILL right after the acknowledgements, restart, and nothing acknowledged is lost.
 * Also: -h, -v, a bad flag (exit 2), a data directory of another network (exit 1), SIGTERM (exit 0).
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { toHex } from "../../src/protocol/bytes.js";
import { entryHash } from "../../src/protocol/entry.js";
import { transactionId } from "../../src/protocol/transaction.js";
import { NODE_VERSION } from "../../src/version.js";
import { freeLoopbackPort } from "../../tools/net/freePorts.js";
import { writeCustomConfig } from "../support/customNetwork.js";
import { waitUntil } from "../support/waitFor.js";
import {
  assetKey,
  chainCommit,
  cleanup,
  ecKey,
  entryCommit,
  entryRaw,
  firstEntry,
  LOCAL_RATE,
  payment,
  tempDir,
  UNIT,
} from "../unit/ledger/harness.js";

const here = dirname(fileURLToPath(import.meta.url));
/** bin/ledgerd, resolved from dist/test/integration. */
const LEDGERD = join(here, "..", "..", "..", "bin", "ledgerd");

/** How long a start may take before the test gives up, ms. */
const START_LINE_TIMEOUT_MS = 180_000;

interface Proc {
  child: ChildProcess;
  line: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();
after(() => {
  for (const c of running) c.kill("SIGKILL");
});

/** Start ledgerd and wait for its one start-up line. */
async function startLedgerd(args: string[]): Promise<Proc> {
  const child = spawn(LEDGERD, args, { stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let out = "";
  let err = "";
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const line = await new Promise<string>((resolve, reject) => {
    // a net for a node that never starts, not a speed bound: beside two CPU hogs a start took over 15 s
    const timer = setTimeout(
      () => reject(new Error(`no start-up line within ${START_LINE_TIMEOUT_MS} ms; stderr: ${err}`)),
      START_LINE_TIMEOUT_MS,
    );
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl));
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`ledgerd exited with ${code} before starting; stderr: ${err}`));
    });
  });
  return { child, line, stderr: () => err, exited };
}

/** A JSON-RPC result as parsed JSON; the tests check it field by field. */
// biome-ignore lint/suspicious/noExplicitAny: boundary: parsed JSON from the node under test
type Json = any;

let rpcId = 0;
async function rpc(port: number, method: string, params?: unknown): Promise<{ result?: Json; error?: Json }> {
  const res = await fetch(`http://127.0.0.1:${port}/v2`, {
    method: "POST",
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, ...(params === undefined ? {} : { params }) }),
  });
  return (await res.json()) as { result?: Json; error?: Json };
}
async function ok(port: number, method: string, params?: unknown): Promise<Json> {
  const r = await rpc(port, method, params);
  assert.equal(r.error, undefined, `${method}: ${JSON.stringify(r.error)}`);
  return r.result;
}

describe("ledgerd process", () => {
  test("-h, -v and a bad flag", () => {
    const help = spawnSync(LEDGERD, ["-h"], { encoding: "utf8" });
    assert.equal(help.status, 0);
    assert.match(help.stdout, /-network/);
    const version = spawnSync(LEDGERD, ["-v"], { encoding: "utf8" });
    assert.equal(version.status, 0);
    assert.equal(version.stdout.trim(), `ledgerd ${NODE_VERSION}`);
    const bad = spawnSync(LEDGERD, ["-nosuchflag=1"], { encoding: "utf8" });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /nosuchflag/);
  });

  test("SIGKILL right after acknowledgements loses nothing; SIGTERM stops cleanly", async () => {
    const home = tempDir("ledgerd-proc-");
    const port = await freeLoopbackPort();
    const args = ["-network=LOCAL", `-homedir=${home}`, "-blktime=2", `-port=${port}`, "-loglevel=warning"];
    try {
      let p = await startLedgerd(args);
      assert.match(
        p.line,
        new RegExp(`network LOCAL, height 0, port ${port}, (panel|no panel) .*, data .*${home.split("/").pop()}`),
      );
      assert.equal((await ok(port, "heights")).directoryblockheight, 0);

      // Fund EC, create a chain, then fire a burst and kill the process the moment the burst is acknowledged.
      const now = Date.now();
      const buy = payment({ milliTime: now, ec: [{ to: ecKey, amount: 200n * LOCAL_RATE }] });
      await ok(port, "asset-submit", { transaction: toHex(buy.raw) });
      const chain = firstEntry(["process", String(now)], "first");
      await ok(port, "commit-chain", { message: toHex(chainCommit(chain.raw, now).raw) });
      await ok(port, "reveal-chain", { entry: toHex(chain.raw) });

      const entries = Array.from({ length: 20 }, (_, i) => entryRaw(chain.chainId, [`e${i}`], `entry ${i}`));
      const payees = Array.from({ length: 20 }, (_, i) => assetKey(0x40 + i));
      const txs = payees.map((to, i) =>
        payment({ milliTime: now + 1 + i, outputs: [{ to, amount: BigInt(i + 1) * UNIT }] }),
      );
      const burst = [
        ...entries.map((e) => ok(port, "commit-entry", { message: toHex(entryCommit(e, now).raw) })),
        ...entries.map((e) => ok(port, "reveal-entry", { entry: toHex(e) })),
        ...txs.map((tx) => ok(port, "asset-submit", { transaction: toHex(tx.raw) })),
      ];
      await Promise.all(burst);
      p.child.kill("SIGKILL");
      assert.equal((await p.exited).signal, "SIGKILL");

      p = await startLedgerd(args);
      // Every acknowledged message is in a saved block or back in the process list.
      const known = (s: string) => s === "TransactionACK" || s === "DBlockConfirmed";
      for (const tx of [buy, ...txs]) {
        const a = await ok(port, "ack", { hash: toHex(transactionId(tx)), chainid: "f" });
        assert.ok(known(a.status), `tx ${a.txid}: ${a.status}`);
      }
      for (const e of [chain.raw, ...entries]) {
        const a = await ok(port, "ack", { hash: toHex(entryHash(e)), chainid: toHex(chain.chainId) });
        assert.ok(known(a.entrydata.status), `entry: ${JSON.stringify(a)}`);
        assert.ok(known(a.commitdata.status), `commit: ${JSON.stringify(a)}`);
      }
      for (let i = 0; i < payees.length; i++) {
        const b = await ok(port, "asset-balance", { address: payees[i]!.publicAddress });
        assert.equal(BigInt(b.balance), BigInt(i + 1) * UNIT);
      }
      const ec = await ok(port, "entry-credit-balance", { address: ecKey.publicAddress });
      assert.equal(ec.balance, 200 - 11 - entries.length);

      // …and they reach a block.
      await waitUntil(
        "the entries confirmed",
        async () =>
          (
            await ok(port, "ack", {
              hash: toHex(entryHash(entries[entries.length - 1]!)),
              chainid: toHex(chain.chainId),
            })
          ).entrydata.status === "DBlockConfirmed",
        30_000,
        200,
      );
      const heightBefore = (await ok(port, "heights")).directoryblockheight;
      assert.ok(heightBefore >= 1);

      p.child.kill("SIGTERM");
      assert.equal((await p.exited).code, 0, p.stderr());

      // Restart after a clean stop: the same chain, heights continue.
      p = await startLedgerd(args);
      assert.match(p.line, /height \d+/);
      assert.ok((await ok(port, "heights")).directoryblockheight >= heightBefore);
      const head = await ok(port, "chain-head", { chainid: toHex(chain.chainId) });
      assert.match(head.chainhead, /^[0-9a-f]{64}$/);
      p.child.kill("SIGTERM");
      assert.equal((await p.exited).code, 0);
    } finally {
      cleanup(home);
    }
  });

  test("a data directory of another network stops the start with exit code 1", async () => {
    const home = tempDir("ledgerd-proc-");
    try {
      const port = await freeLoopbackPort();
      const config = `-config=${writeCustomConfig(home, "process-test")}`;
      const p = await startLedgerd([
        "-network=CUSTOM",
        "-customnet=one",
        config,
        `-homedir=${home}`,
        `-port=${port}`,
        "-blktime=2",
        "-loglevel=warning",
      ]);
      p.child.kill("SIGTERM");
      const stopped = await p.exited;
      assert.deepEqual(stopped, { code: 0, signal: null });
      const other = spawnSync(
        LEDGERD,
        ["-network=CUSTOM", "-customnet=two", config, `-homedir=${home}`, `-port=${port}`],
        {
          encoding: "utf8",
        },
      );
      assert.equal(other.status, 1);
      assert.match(other.stderr, /holds the CUSTOM .* network, not CUSTOM/);
    } finally {
      cleanup(home);
    }
  });
  test("a second node on a busy port refuses to start and the first keeps serving", async () => {
    const homeA = tempDir("ledgerd-proc-");
    const homeB = tempDir("ledgerd-proc-");
    try {
      const port = await freeLoopbackPort();
      const first = await startLedgerd([`-homedir=${homeA}`, `-port=${port}`, "-blktime=2", "-loglevel=warning"]);
      const second = spawnSync(LEDGERD, [`-homedir=${homeB}`, `-port=${port}`, "-loglevel=warning"], {
        encoding: "utf8",
        timeout: 120_000,
      });
      assert.notEqual(second.status, 0);
      assert.match(second.stderr, new RegExp(`port ${port} is already in use`));
      assert.match(second.stderr, /give this node another port with -port=PORT/);
      // the failed first start left nothing in its home directory (no empty store, lock file or log)
      assert.deepEqual(readdirSync(homeB), []);
      const heights = await ok(port, "heights");
      assert.equal(typeof heights.directoryblockheight, "number");
      first.child.kill("SIGTERM");
      await first.exited;
    } finally {
      cleanup(homeA);
      cleanup(homeB);
    }
  });

  test("the start line names the control panel's URL, or why a node has none", async () => {
    const homeA = tempDir("ledgerd-proc-");
    const homeB = tempDir("ledgerd-proc-");
    try {
      const panelPort = await freeLoopbackPort();
      const common = ["-network=LOCAL", "-blktime=2", "-loglevel=warning", `-controlpanelport=${panelPort}`];
      const a = await startLedgerd([...common, `-homedir=${homeA}`, `-port=${await freeLoopbackPort()}`]);
      assert.match(a.line, new RegExp(`, panel http://127\\.0\\.0\\.1:${panelPort}/, data `));
      assert.equal((await fetch(`http://127.0.0.1:${panelPort}/`)).status, 200);
      // a second node wanting the same panel port starts without one, and its start line says so and what to do
      const b = await startLedgerd([...common, `-homedir=${homeB}`, `-port=${await freeLoopbackPort()}`]);
      assert.match(
        b.line,
        new RegExp(`, no panel \\(port ${panelPort} is in use; give it another with -controlpanelport=PORT\\), data `),
      );
      for (const p of [a, b]) {
        p.child.kill("SIGTERM");
        await p.exited;
      }
    } finally {
      cleanup(homeA);
      cleanup(homeB);
    }
  });

  test("on a terminal the console shows short human lines; -logjson and a pipe keep JSON", async () => {
    // script(1) gives the node a pseudo-terminal as stdin, stdout and stderr, as a shell would
    const runOnTerminal = async (extra: string[]): Promise<string> => {
      const home = tempDir("ledgerd-proc-");
      try {
        const port = await freeLoopbackPort();
        const args = [
          "-network=LOCAL",
          `-homedir=${home}`,
          `-port=${port}`,
          "-blktime=1",
          "-controlpanelport=0",
          ...extra,
        ];
        const child = spawn("script", ["-qfec", [LEDGERD, ...args].join(" "), "/dev/null"], {
          stdio: ["pipe", "pipe", "pipe"],
        });
        running.add(child);
        let out = "";
        child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
        // script(1) writes its own complaints here; kept in the text the assertions print
        child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
        // a whole line: the pty may hand over a line in two reads, and the check below reads to its end
        const deadline = Date.now() + START_LINE_TIMEOUT_MS;
        while (!/block saved[^\n]*\n/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        child.kill("SIGTERM");
        await new Promise((r) => child.once("exit", r));
        running.delete(child);
        return out;
      } finally {
        cleanup(home);
      }
    };
    const human = await runOnTerminal([]);
    assert.match(human, /^\d\d:\d\d:\d\d INFO {2}block saved {2}height=\d+ /m, human);
    assert.doesNotMatch(human, /\{"time":/);
    const json = await runOnTerminal(["-logjson"]);
    assert.match(json, /^\{"time":"[^"]+","level":"info","msg":"block saved"/m, json);
  });
});
