// Storage failures (issue "Reliability", DESIGN §5): a full disk, and data directories that are damaged or
// belong to something else.
//
// Disk full, two ways (each where this machine allows it):
//   * a real full file system: a small tmpfs holding the node's home (data and log), filled by a ballast
//     file; space returns when the ballast is deleted (needs root: mount);
//   * a file-size limit on the node process (prlimit RLIMIT_FSIZE): LMDB's file cannot grow; space returns
//     when the limit is raised on the running process (`prlimit --pid`).
// The store has no map-size option: lmdb-js grows the map as the file grows, so "map full" is reached only
// as "disk full" (docs/operations.md §Storage).
// Expected: writers get -32050 "Storage full" (a node condition, retryable), the node keeps running and
// serving reads, a rejected write is not visible as acknowledged, writes recover when space returns, and
// after a restart nothing acknowledged is lost.
//
// Start-up on a bad data directory — garbage, zeroed LMDB meta pages, a truncated file, a text file,
// damaged pages, an LMDB environment of another program, another network's or another format's data —
// must stop with a clear error and exit code 1, leaving the files untouched (never a new genesis).
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  closeSync,
  cpSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { open } from "lmdb";
import { DB_NAMES, META_KEYS } from "../../src/store/keys.js";
import { writeCustomConfig } from "../support/customNetwork.js";
import { killAllNodes, LedgerdProcess, RpcCallError, sleep } from "../support/nodeProcess.js";
import { Random } from "../support/random.js";
import {
  checkBalances,
  checkChains,
  checkStatuses,
  resolveStatuses,
  savedHeight,
  waitForHeight,
} from "./ledgerChecks.js";
import { fuzzSeed, LONG } from "./mode.js";

import { GENESIS_TOTAL, rcdHex, testWallet, Workload } from "./workload.js";

const execFileAsync = promisify(execFile);
/** The built `ledgerd-backup` (tools/backup/cli.ts). */
const BACKUP_CLI = fileURLToPath(new URL("../../tools/backup/cli.js", import.meta.url));

const MiB = 1024 * 1024;
/** Free space left for the node before it fills the disk, bytes: a few hundred 8 KiB entries. */
const HEADROOM_BYTES = 2 * MiB;
/** The node's free-space reserve in these tests (-minfreemb), MiB: below HEADROOM_BYTES. */
const RESERVE_MIB = 1;
/** Content of each filling entry, bytes (8 EC each). */
const FILL_ENTRY_BYTES = 8000;
/** Give up filling after this many writes (the disk should be full long before). */
const FILL_MAX_WRITES = 3000;
/** How long writes may take to come back once space returns, ms. */
const RECOVERY_MS = 10_000;

/** sha256 of a file, hex. */
function fileHash(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** The CLI's exit code for a node that cannot start (src/cli.ts EXIT_START_FAILED). */
const EXIT_START_FAILED = 1;

// ───────────────────────────── disk full ─────────────────────────────

/** One way to run out of space and get it back. */
interface DiskLimit {
  name: string;
  /** why it cannot run here, or undefined when it can */
  unavailable: string | undefined;
  /** home directory for the node */
  homeDir: string;
  commandPrefix: string[];
  /** leave only HEADROOM_BYTES for the node (after its setup writes) */
  fill(): void;
  /** give the space back (to the running node `pid`, when the limit is per process); idempotent */
  release(pid: number | undefined): void;
  cleanup(): void;
}

function tmpfsLimit(): DiskLimit {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-tmpfs-"));
  const ballast = join(dir, "ballast");
  let unavailable: string | undefined;
  if (process.getuid?.() !== 0) unavailable = "needs root to mount a tmpfs";
  else {
    const r = spawnSync("mount", ["-t", "tmpfs", "-o", "size=24m", "tmpfs", dir], { encoding: "utf8" });
    if (r.status !== 0) unavailable = `mount -t tmpfs failed: ${(r.stderr || r.error?.message || "").trim()}`;
  }
  return {
    name: "tmpfs of 24 MiB filled by a ballast file",
    unavailable,
    homeDir: dir,
    commandPrefix: [],
    fill() {
      const s = statfsSync(dir);
      const free = Number(s.bavail) * Number(s.bsize);
      const fd = openSync(ballast, "w");
      const chunk = Buffer.alloc(MiB);
      for (let left = free - HEADROOM_BYTES; left > 0; left -= chunk.length)
        writeSync(fd, chunk, 0, Math.min(chunk.length, left));
      closeSync(fd);
    },
    release() {
      rmSync(ballast, { force: true });
    },
    cleanup() {
      if (unavailable === undefined) spawnSync("umount", ["-l", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function fileSizeLimit(): DiskLimit {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-fsize-"));
  const r = spawnSync("prlimit", ["--version"], { encoding: "utf8" });
  // The limit is set when the node starts; the data file after the setup is well below 1 MiB.
  const limit = 1 * MiB + HEADROOM_BYTES;
  return {
    name: `file-size limit of ${limit} bytes (prlimit RLIMIT_FSIZE)`,
    unavailable: r.status === 0 ? undefined : "prlimit (util-linux) is not installed",
    homeDir: dir,
    commandPrefix: ["prlimit", `--fsize=${limit}:unlimited`, "--"],
    fill() {},
    release(pid) {
      if (pid === undefined) return; // a new process starts without the limit
      const x = spawnSync("prlimit", [`--pid=${pid}`, "--fsize=unlimited:unlimited"], { encoding: "utf8" });
      assert.equal(x.status, 0, `prlimit --pid: ${x.stderr}`);
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The ways this machine can run out of space: CI runs the first available one, long mode all of them. */
const DISK_LIMITS: DiskLimit[] = [tmpfsLimit(), fileSizeLimit()];
const FIRST_USABLE = DISK_LIMITS.findIndex((l) => l.unavailable === undefined);

for (const [index, limit] of DISK_LIMITS.entries()) {
  const skip =
    limit.unavailable ??
    (!LONG && index !== FIRST_USABLE ? "CI runs one disk-full variant (LEDGERD_LONG=1 runs all)" : undefined);
  if (skip !== undefined) limit.cleanup(); // nothing will use it: unmount now

  describe(`disk full: ${limit.name}`, { concurrency: false, skip }, () => {
    const wallet = testWallet(1);
    const initial = new Map<string, bigint>([[rcdHex(wallet.genesis), GENESIS_TOTAL]]);
    const rng = new Random(fuzzSeed());
    let node: LedgerdProcess;
    let w: Workload;
    let chainId = "";

    before(async () => {
      node = await LedgerdProcess.start({
        homeDir: limit.homeDir,
        blockTimeSeconds: 2,
        commandPrefix: limit.commandPrefix,
        // a reserve below the HEADROOM_BYTES the fill leaves, so the writes of the test reach it
        extraArgs: [`-minfreemb=${RESERVE_MIB}`],
      });
    });
    after(async () => {
      await killAllNodes();
      limit.cleanup();
    });

    it("setup: entry credits and a chain, confirmed", async () => {
      const rate = BigInt((await node.rpc<{ rate: number }>("entry-credit-rate")).rate);
      w = new Workload(wallet, rate);
      assert.ok(await w.transfer(node, wallet.genesis, [], rate * 100_000n));
      assert.ok(await w.createChain(node, "disk full"));
      chainId = w.chains[0]!.chainId;
      await waitForHeight(node, (await savedHeight(node)) + 2);
      await resolveStatuses(node, w.sent);
      checkStatuses(w.sent);
      limit.fill();
    });

    it("writers get -32050 Storage full and the node keeps running", async () => {
      let writes = 0;
      while (writes < FILL_MAX_WRITES && (await w.addEntry(node, rng, chainId, false, FILL_ENTRY_BYTES))) writes++;
      const last = w.sent[w.sent.length - 1]!;
      if (last.outcome === "unknown") await Promise.race([node.waitForExit(), sleep(1000)]);
      assert.notEqual(
        last.outcome,
        "unknown",
        `the node stopped answering after ${writes} writes (${node.exitDescription || "running"}):\n${node.tail()}`,
      );
      assert.ok(writes < FILL_MAX_WRITES, `${writes} writes and the disk is still not full`);
      const e = w.lastRejection;
      assert.ok(e instanceof RpcCallError);
      assert.equal(e.code, -32050, `a full disk must be -32050 Storage full, got ${e.message}`);
      assert.equal(e.rpcMessage, "Storage full");
      // a later write is refused the same way, and the node is still there a moment later
      const again = await w.addEntry(node, rng, chainId, false, 10);
      assert.equal(again, false);
      assert.equal(w.lastRejection?.code, -32050, w.lastRejection?.message);
      await sleep(1000);
      assert.ok(node.isRunning, `the node died on a full disk (${node.exitDescription}):\n${node.tail()}`);
    });

    it("reads keep being served, and a refused write is not visible as acknowledged", {}, async () => {
      assert.ok(node.isRunning, `the node is down (${node.exitDescription}):\n${node.tail()}`);
      await node.rpc("heights");
      await node.rpc("entry", { hash: w.chains[0]!.firstEntry });
      await node.rpc("dblock-by-height", { height: 1 });
      await node.rpc("multiple-ec-balances", { addresses: [wallet.ec.publicAddress] });
      const refused = w.sent.filter((s) => s.outcome === "rejected");
      const acked = w.sent.filter((s) => s.outcome === "acked");
      await resolveStatuses(node, w.sent, true);
      const visible = refused.filter((s) => s.final !== "Unknown");
      assert.deepEqual(
        visible.slice(0, 3).map((s) => `${s.kind} ${"txId" in s ? s.txId : s.entryHash}: ${s.final}`),
        [],
        `${visible.length} of ${refused.length} refused writes are visible to ack as if accepted`,
      );
      const lost = acked.filter((s) => s.final === "Unknown");
      assert.equal(lost.length, 0, `${lost.length} acknowledged writes unknown while the disk is full`);
    });

    it(`writes recover within ${RECOVERY_MS / 1000} s once space returns, without a restart`, {}, async () => {
      assert.ok(node.isRunning, `the node is down (${node.exitDescription}):\n${node.tail()}`);
      limit.release(node.pid);
      const deadline = Date.now() + RECOVERY_MS;
      let ok = false;
      while (!ok && Date.now() < deadline) {
        ok = await w.addEntry(node, rng, chainId, false, 100);
        if (!ok) await sleep(500);
      }
      assert.ok(ok, `writes still refused ${RECOVERY_MS} ms after space returned: ${w.lastRejection?.message}`);
      const h = await savedHeight(node);
      await waitForHeight(node, h + 2, 15_000);
    });

    it("after a restart nothing acknowledged is lost and the balances add up", async () => {
      limit.release(node.pid);
      await node.stop(10_000);
      // a fresh process on the same data, without the limit
      node = await LedgerdProcess.start({
        homeDir: limit.homeDir,
        blockTimeSeconds: 2,
        port: node.port,
        extraArgs: [`-minfreemb=${RESERVE_MIB}`],
      });
      await waitForHeight(node, (await savedHeight(node)) + 2);
      await resolveStatuses(node, w.sent, true);
      checkStatuses(w.sent);
      await checkBalances(node, w, initial, GENESIS_TOTAL);
      await checkChains(node, w);
      assert.ok(await w.addEntry(node, rng, chainId, false, 100), "writes work after the restart");
    });
  });
}

// ───────────────────────────── damaged and foreign data directories ─────────────────────────────

describe("start-up on a damaged or foreign data directory", { concurrency: false }, () => {
  let pristine: LedgerdProcess;
  const homes: string[] = [];

  before(async () => {
    pristine = await LedgerdProcess.start({ blockTimeSeconds: 1 });
    await waitForHeight(pristine, 2);
    assert.equal(await pristine.stop(), 0, pristine.tail());
  });
  after(async () => {
    await killAllNodes();
    pristine?.cleanup();
    for (const h of homes) rmSync(h, { recursive: true, force: true });
  });

  /** A copy of the pristine home; for another `network` its LOCAL data is copied to that network's path. */
  function copyHome(network = "local"): { home: string; dbDir: string; dataFile: string } {
    const home = mkdtempSync(join(tmpdir(), "ledgerd-damaged-"));
    homes.push(home);
    cpSync(pristine.homeDir, home, { recursive: true });
    if (network !== "local") cpSync(join(home, "local"), join(home, network), { recursive: true });
    const dbDir = join(home, network, "db");
    return { home, dbDir, dataFile: join(dbDir, "data.mdb") };
  }

  /**
   * Start on `home` with `extraArgs`; it must exit with code 1 (not by a signal) before it serves (the wait, 3 min,
   * is a net: it returns as soon as the node serves or exits), print a message naming the data directory, and
   * leave data.mdb byte for byte as it was.
   */
  async function expectRefusal(home: string, network: string, what: RegExp, extraArgs: string[] = []): Promise<string> {
    const dataFile = join(home, network.toLowerCase(), "db", "data.mdb");
    const before = existsSync(dataFile) ? fileHash(dataFile) : "";
    const r = await LedgerdProcess.startExpectingExit({ homeDir: home, network, extraArgs, waitMs: 180_000 });
    // a refusal must come before the node serves anything
    try {
      assert.notEqual(r.code, undefined, `the node started on it (a new genesis?):\n${r.output.slice(-1500)}`);
      const signal = "signal" in r ? r.signal : null;
      assert.equal(
        signal,
        null,
        `the node died by ${signal} instead of stopping with an error:\n${r.output.slice(-1500)}`,
      );
      assert.equal(r.code, EXIT_START_FAILED, `exit code ${r.code}:\n${r.output.slice(-1500)}`);
      assert.match(r.output, /cannot start/, r.output.slice(-1500));
      assert.ok(
        r.output.includes(join(home, network.toLowerCase(), "db")),
        `the message names the data directory:\n${r.output.slice(-1500)}`,
      );
      assert.match(r.output, what, r.output.slice(-1500));
      if (before !== "") assert.equal(fileHash(dataFile), before, "data.mdb was changed by the failed start");
      return r.output;
    } finally {
      await r.process.kill9();
    }
  }

  /** Fixed garbage: the same bytes on every run (what LMDB makes of damaged pages depends on the bytes). */
  const garbage = (n: number, label: string): Uint8Array =>
    new Random(label === "whole" ? 0x6a09e667 : 0xbb67ae85).bytes(n);
  const damages: [string, (file: string) => void, RegExp][] = [
    [
      "random bytes over the whole data file",
      (f) => writeFileSync(f, garbage(statSync(f).size, "whole")),
      /database|LMDB|corrupt|invalid/i,
    ],
    [
      "zeroed LMDB meta pages (the first two pages)",
      (f) => {
        const fd = openSync(f, "r+");
        writeSync(fd, Buffer.alloc(8192), 0, 8192, 0);
        closeSync(fd);
      },
      /database|LMDB|corrupt|invalid/i,
    ],
    [
      "a data file cut to half its size",
      (f) => truncateSync(f, Math.floor(statSync(f).size / 2)),
      /database|LMDB|corrupt|truncat|size/i,
    ],
    [
      "a text file instead of the data file",
      (f) => writeFileSync(f, "this is not a database\n"),
      /database|LMDB|corrupt|invalid/i,
    ],
    [
      "random bytes over the pages after the meta pages",
      (f) => {
        const size = statSync(f).size;
        const fd = openSync(f, "r+");
        writeSync(fd, garbage(size - 3 * 4096, "pages"), 0, size - 3 * 4096, 3 * 4096);
        closeSync(fd);
      },
      /database|LMDB|corrupt|invalid/i,
    ],
  ];
  for (const [name, damage, what] of damages) {
    it(`refuses ${name}: exit 1 with a message, files untouched`, async () => {
      const c = copyHome();
      damage(c.dataFile);
      await expectRefusal(c.home, "LOCAL", what);
    });
  }

  it("refuses another network's data directory (LOCAL data under TEST)", async () => {
    const c = copyHome("test");
    await expectRefusal(c.home, "TEST", /LOCAL.*not TEST|network/);
  });

  it("refuses another CUSTOM network's data directory (same path, other -customnet)", async () => {
    const confDir = mkdtempSync(join(tmpdir(), "ledgerd-custom-conf-"));
    homes.push(confDir);
    const config = `-config=${writeCustomConfig(confDir, "reliability")}`;
    const first = await LedgerdProcess.start({
      network: "CUSTOM",
      extraArgs: ["-customnet=reliability-a", config],
      blockTimeSeconds: 1,
    });
    homes.push(first.homeDir);
    await waitForHeight(first, 1);
    assert.equal(await first.stop(), 0);
    await expectRefusal(first.homeDir, "CUSTOM", /network/, ["-customnet=reliability-b", config]);
  });

  it("refuses a data directory of another store format version", async () => {
    const c = copyHome();
    const env = open({ path: c.dbDir, maxDbs: 20, keyEncoding: "binary", encoding: "binary" });
    const meta = env.openDB<Buffer, Buffer>(DB_NAMES.meta, { keyEncoding: "binary", encoding: "binary" });
    const v = Buffer.alloc(4);
    v.writeUInt32BE(99);
    await meta.put(Buffer.from(META_KEYS.format, "ascii"), v);
    await env.close();
    await expectRefusal(c.home, "LOCAL", /format/);
  });

  it("refuses a data directory whose saved height is missing", async () => {
    const c = copyHome();
    const env = open({ path: c.dbDir, maxDbs: 20, keyEncoding: "binary", encoding: "binary" });
    const meta = env.openDB<Buffer, Buffer>(DB_NAMES.meta, { keyEncoding: "binary", encoding: "binary" });
    await meta.remove(Buffer.from(META_KEYS.savedHeight, "ascii"));
    await env.close();
    await expectRefusal(c.home, "LOCAL", /height|inconsistent|corrupt/i);
  });

  it("refuses an LMDB environment of another program (data in its own databases), writing nothing into it", {}, async () => {
    const home = mkdtempSync(join(tmpdir(), "ledgerd-foreign-"));
    homes.push(home);
    const dbDir = join(home, "local", "db");
    const env = open({ path: dbDir, maxDbs: 4 });
    await env.put("users:1", { name: "somebody else's data" });
    const other = env.openDB({ name: "accounts" });
    await other.put("a", 1);
    await env.close();
    const out = await expectRefusal(home, "LOCAL", /not a ledger database|format|foreign/i);
    assert.ok(!/created the genesis block/.test(out));
  });
});

// ───────────────────────────── hot backup ─────────────────────────────

describe("hot backup: an LMDB copy taken while the node writes (docs/operations.md §Backup)", {
  concurrency: false,
}, () => {
  const wallet = testWallet(1);
  const initial = new Map<string, bigint>([[rcdHex(wallet.genesis), GENESIS_TOTAL]]);
  const backupHome = mkdtempSync(join(tmpdir(), "ledgerd-backup-"));
  let node: LedgerdProcess;

  after(async () => {
    await killAllNodes();
    node?.cleanup();
    rmSync(backupHome, { recursive: true, force: true });
  });

  it("restores into a node holding every message acknowledged before the copy began, consistent to the last unit", async () => {
    const rng = new Random(fuzzSeed());
    node = await LedgerdProcess.start({ blockTimeSeconds: 2 });
    const rate = BigInt((await node.rpc<{ rate: number }>("entry-credit-rate")).rate);
    const w = new Workload(wallet, rate);
    assert.ok(await w.transfer(node, wallet.genesis, [{ to: wallet.others[0]!, amount: 10n ** 10n }], rate * 10_000n));
    assert.ok(await w.createChain(node, "backup"));
    await waitForHeight(node, (await savedHeight(node)) + 2);
    const chainId = w.chains[0]!.chainId;

    // writers keep going while the copy is taken from another process' read transaction
    let stop = false;
    const writers = [0, 1].map(async () => {
      while (!stop) if (!(await w.addEntry(node, rng, chainId, rng.chance(0.1)))) return;
    });
    await sleep(800);
    const ackedBeforeCopy = new Set(w.sent.filter((s) => s.outcome === "acked"));
    // the documented tool, as an operator runs it: its own process, beside the running node
    const copy = await execFileAsync(process.execPath, [BACKUP_CLI, node.dataDir, join(backupHome, "local", "db")]);
    assert.match(copy.stdout, /^copied .* saved height \d+, \d+ journal records of the open block/);
    await sleep(500);
    stop = true;
    await Promise.all(writers);
    assert.deepEqual(w.unexpectedRejections, []);

    // the copy starts as a node of its own (another port), replays its journal, and closes blocks
    const restored = await LedgerdProcess.start({ homeDir: backupHome, blockTimeSeconds: 2 });
    await waitForHeight(restored, (await savedHeight(restored)) + 2);
    const view = new Workload(wallet, rate);
    view.sent.push(...structuredClone(w.sent));
    view.chains.push(...w.chains);
    await resolveStatuses(restored, view.sent, true);
    const originals = w.sent;
    const missing = view.sent.filter(
      (s, i) =>
        ackedBeforeCopy.has(originals[i]!) && s.final !== "DBlockConfirmed" && !(s.kind === "reveal" && s.heldFirst),
    );
    assert.deepEqual(missing.slice(0, 3), [], `${missing.length} messages acknowledged before the copy are not in it`);
    const halfDone = view.sent.filter((s) => s.final === "TransactionACK");
    assert.equal(halfDone.length, 0, "nothing stays pending in the restored node");
    await checkBalances(restored, view, initial, GENESIS_TOTAL);
    const walked = await checkChains(restored, view);
    assert.ok(walked.entries > 1, "the copy holds entries written before it");
    await restored.stop();

    // --compact (LMDB's compacting copy) of the stopped copy: smaller or equal, and the same ledger
    const compactHome = mkdtempSync(join(tmpdir(), "ledgerd-backup-compact-"));
    try {
      const compactDb = join(compactHome, "local", "db");
      const copied = await execFileAsync(process.execPath, [BACKUP_CLI, "--compact", restored.dataDir, compactDb]);
      assert.match(copied.stdout, /compacted, /);
      const before = statSync(join(restored.dataDir, "data.mdb")).blocks;
      assert.ok(
        statSync(join(compactDb, "data.mdb")).blocks <= before,
        "a compact copy allocates no more than its source",
      );
      const compacted = await LedgerdProcess.start({ homeDir: compactHome, blockTimeSeconds: 2 });
      try {
        await resolveStatuses(compacted, view.sent, true);
        await checkBalances(compacted, view, initial, GENESIS_TOTAL);
        assert.equal((await checkChains(compacted, view)).entries, walked.entries);
      } finally {
        await compacted.stop();
      }
    } finally {
      rmSync(compactHome, { recursive: true, force: true });
    }
  });
});
