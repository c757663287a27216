// History export, import and verify on real processes (docs/export.md): a LOCAL node filled with real signed
// writes (credits bought, chains, entries, transfers) is stopped, exported with bin/ledgerd-export, imported into
// another home with bin/ledgerd-import, and a node started there serves byte-identical blocks and the same
// balances, and goes on making blocks on top of them. A file with one flipped byte, and one whose entry was
// changed under valid checksums, are refused at the damaged height with nothing left behind; a data directory
// with a balance or a block record altered through LMDB is reported by `ledgerd verify` with its height.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import {
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { HistoryWriter, readHistory } from "../../src/history/format.js";
import { type KeyPair, keyPairFromSeed, rcd1Hash } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { sha256 } from "../../src/protocol/hash.js";
import { DirectoryReader } from "../../src/store/directoryReader.js";
import { openDatabases, openEnvironment } from "../../src/store/environment.js";
import { BlockKind, heightKey } from "../../src/store/keys.js";
import { composeTransaction } from "../../tools/wallet/compose.js";
import { addEntry, buyCredits, createChain, ecKeyOf, GENESIS_KEY, type RpcCall } from "../support/ledgerWrites.js";
import { killAllNodes, LedgerdProcess, PROJECT_ROOT } from "../support/nodeProcess.js";

const BIN = join(PROJECT_ROOT, "bin");
/** Entries written: enough for several heights with entry blocks of two chains. */
const ENTRIES = 40;
/** Generous: the machine is shared; each command reads a few hundred kB. */
const COMMAND_TIMEOUT_MS = 120_000;

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: COMMAND_TIMEOUT_MS, maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

function dataDir(home: string): string {
  return join(home, "local", "db");
}

/** Every saved height's blocks of both kinds of index, as hex, read straight from a data directory. */
async function savedBlocks(home: string): Promise<{ height: number; blocks: string[]; balances: string[] }> {
  const r = DirectoryReader.open(dataDir(home), { scan: false });
  try {
    const id = r.identity();
    const blocks: string[] = [];
    for (let h = 0; h <= id.savedHeight; h++)
      for (const kind of [BlockKind.directory, BlockKind.admin, BlockKind.ec, BlockKind.asset]) {
        const hash = r.blockHashAt(kind, h)!;
        blocks.push(`${h}/${kind} ${toHex(hash)} ${toHex(r.block(hash)!.raw)}`);
      }
    const balances: string[] = [];
    for (const k of r.keys("assetBalances")) balances.push(`FA ${toHex(k)} ${r.assetBalance(k)}`);
    for (const k of r.keys("ecBalances")) balances.push(`EC ${toHex(k)} ${r.ecBalance(k)}`);
    for (const k of r.keys("chainHeads")) balances.push(`head ${toHex(k)} ${toHex(r.chainHead(k)!.keyMR)}`);
    return { height: id.savedHeight, blocks, balances };
  } finally {
    await r.close();
  }
}

describe("ledgerd-export, ledgerd-import, ledgerd verify", () => {
  const work = mkdtempSync(join(tmpdir(), "ledgerd-history-"));
  const homeA = join(work, "a");
  const homeB = join(work, "b");
  const file = join(work, "a.hist");
  let node: LedgerdProcess;
  let exportedHeight = 0;
  const receiver: KeyPair = keyPairFromSeed("FA", sha256(new TextEncoder().encode("history receiver")));
  const ec = ecKeyOf("history test");
  /** dblock-by-height answers of node A, by height */
  const answers = new Map<number, unknown>();

  before(async () => {
    mkdirSync(homeA);
    node = await LedgerdProcess.start({ homeDir: homeA, blockTimeSeconds: 1 });
    const call: RpcCall = (method, params) => node.rpc(method, params);
    await buyCredits(call, ec, 2000);
    await waitForHeight(node, (await heightOf(node)) + 2);
    const chains = [await createChain(call, ec, "history one"), await createChain(call, ec, "history two")];
    await waitForHeight(node, (await heightOf(node)) + 2);
    const rate = BigInt(((await call("entry-credit-rate")) as { rate: number }).rate);
    for (let i = 0; i < ENTRIES; i++) {
      await addEntry(call, ec, chains[i % 2]!.chainId, `entry ${i}`, { extIds: [`tag ${i % 5}`] });
      if (i % 10 === 9) {
        const tx = composeTransaction({
          inputSeed: GENESIS_KEY.seed,
          outputs: [{ address: rcd1Hash(receiver.publicKey), amount: 1000n + BigInt(i) }],
          ecOutputs: [],
          rate,
          milliTimestamp: Date.now(),
        });
        await call("asset-submit", { transaction: toHex(tx.tx.raw) });
      }
    }
    await waitForHeight(node, (await heightOf(node)) + 3);
    exportedHeight = await heightOf(node);
    for (let h = 0; h <= exportedHeight; h++) answers.set(h, await call("dblock-by-height", { height: h }));
    await node.stop();
  });

  after(async () => {
    await killAllNodes();
    rmSync(work, { recursive: true, force: true });
  });

  it("round trip: export, import into another home, a node there serves the same blocks and balances", async () => {
    const ex = await run(join(BIN, "ledgerd-export"), [`-homedir=${homeA}`, "-network=LOCAL", "-o", file]);
    assert.equal(ex.code, 0, ex.stderr);
    assert.match(ex.stderr, new RegExp(`${ENTRIES + 2} entries`));
    assert.ok(!existsSync(`${file}.partial`));
    const im = await run(join(BIN, "ledgerd-import"), [`-homedir=${homeB}`, "-network=LOCAL", file]);
    assert.equal(im.code, 0, im.stderr);
    // the imported directory exports to the very same bytes
    const again = join(work, "b.hist");
    const ex2 = await run(join(BIN, "ledgerd-export"), [`-homedir=${homeB}`, "-network=LOCAL", "-q", "-o", again]);
    assert.equal(ex2.code, 0, ex2.stderr);
    assert.ok(readFileSync(again).equals(readFileSync(file)), "the imported directory's export differs");
    for (const home of [homeA, homeB]) {
      const v = await run(join(BIN, "ledgerd"), ["verify", `-homedir=${home}`, "-network=LOCAL", "-q"]);
      assert.equal(v.code, 0, v.stderr);
      assert.match(v.stdout, /is clean/);
    }
    const a = await savedBlocks(homeA);
    const b = await savedBlocks(homeB);
    assert.ok(a.height >= exportedHeight);
    assert.deepEqual(b.blocks, a.blocks);
    assert.deepEqual(b.balances, a.balances);

    const nodeB = await LedgerdProcess.start({ homeDir: homeB, blockTimeSeconds: 1 });
    try {
      // a running node's directory is refused, not read under it
      for (const args of [["verify"], []]) {
        const bin = args.length === 0 ? "ledgerd-export" : "ledgerd";
        const r = await run(join(BIN, bin), [
          ...args,
          `-homedir=${homeB}`,
          "-network=LOCAL",
          "-q",
          ...(args.length === 0 ? ["-o", join(work, "running.hist")] : []),
        ]);
        assert.equal(r.code, 1, r.stderr);
        assert.match(r.stderr, /is in use by another ledgerd \(pid \d+\); stop that node first/);
      }
      for (const [h, answer] of answers)
        assert.deepEqual(await nodeB.rpc("dblock-by-height", { height: h }), answer, `height ${h}`);
      const bal = (await nodeB.rpc("asset-balance", { address: receiver.publicAddress })) as { balance: number };
      assert.equal(
        bal.balance,
        [9, 19, 29, 39].reduce((s, i) => s + 1000 + i, 0),
      );
      const credits = (await nodeB.rpc("entry-credit-balance", { address: ec.publicAddress })) as { balance: number };
      assert.ok(credits.balance > 0 && credits.balance < 2000);
      // the imported chain goes on: the next blocks link to the imported tip
      await waitForHeight(nodeB, a.height + 2);
    } finally {
      await nodeB.stop();
    }
    // the blocks node B made on top of the imported ones check too
    const verifiedB = await run(join(BIN, "ledgerd"), ["verify", `-homedir=${homeB}`, "-network=LOCAL", "-q"]);
    assert.equal(verifiedB.code, 0, verifiedB.stderr);
    const heights = /heights 0\.\.(\d+)/.exec(verifiedB.stdout);
    assert.ok(heights !== null && Number(heights[1]) >= a.height + 2, verifiedB.stdout);
  });

  it("a file with one flipped byte in a middle block set is refused at that height, leaving nothing", async () => {
    const bytes = readFileSync(file);
    // the directory block record of a middle height: find its height record by scanning the file's records
    const middle = Math.floor(exportedHeight / 2);
    const at = heightRecordOffset(bytes, middle);
    const damaged = Buffer.from(bytes);
    damaged[at + 5 + 12 + 4 + 5 + 40]! ^= 0x01; // a byte inside the directory block that follows it
    const bad = join(work, "flipped.hist");
    writeFileSync(bad, damaged);
    const home = join(work, "flipped");
    const im = await run(join(BIN, "ledgerd-import"), [`-homedir=${home}`, "-network=LOCAL", "-q", bad]);
    assert.equal(im.code, 1, im.stderr);
    assert.match(
      im.stderr,
      new RegExp(`height ${middle}: damaged export file at byte \\d+: the directory block .* fails its checksum`),
    );
    assert.ok(!existsSync(home), "nothing is left: not even the home it created");
  });

  it("an entry changed under valid checksums is refused at its height by the block checks", async () => {
    const out: Buffer[] = [];
    let changedAt = -1;
    const items = readHistory(createReadStream(file));
    let writer: HistoryWriter | undefined;
    for (;;) {
      const r = await items.next();
      if (r.done === true) {
        await writer!.finish(r.value.openBlockStartMs);
        break;
      }
      if (r.value.kind === "header") {
        writer = new HistoryWriter(async (c) => {
          out.push(Buffer.from(c));
        }, r.value.header);
        continue;
      }
      const set = r.value.set;
      const eb = set.entryBlocks[0];
      if (changedAt < 0 && eb !== undefined && set.height > 1) {
        const entry = Buffer.from(eb.entries[0]!);
        entry[entry.length - 1]! ^= 0x01;
        eb.entries[0] = entry;
        changedAt = set.height;
      }
      await writer!.heightSet(set);
    }
    assert.ok(changedAt > 0);
    const forged = join(work, "forged.hist");
    writeFileSync(forged, Buffer.concat(out));
    const home = join(work, "forged");
    const im = await run(join(BIN, "ledgerd-import"), [`-homedir=${home}`, "-network=LOCAL", "-q", forged]);
    assert.equal(im.code, 1, im.stderr);
    assert.match(
      im.stderr,
      new RegExp(`height ${changedAt}: entry 0 of entry block 3 .* hashes to [0-9a-f]{64}, the block lists`),
    );
    assert.ok(!existsSync(dataDir(home)));
  });

  it("a non-empty home is refused", async () => {
    const im = await run(join(BIN, "ledgerd-import"), [`-homedir=${homeA}`, "-network=LOCAL", "-q", file]);
    assert.equal(im.code, 1);
    assert.match(im.stderr, /is not empty: ledgerd-import builds a new data directory/);
  });

  it("ledgerd verify reports an altered balance, a missing query-index record and an altered block with the height", async () => {
    const a = await savedBlocks(homeA);
    // a balance: the receiver's, last changed at the height of the last transfer
    const balanceHome = join(work, "balance");
    cpSync(homeA, balanceHome, { recursive: true });
    await alter(balanceHome, (dbs) => {
      const b = Buffer.alloc(8);
      b.writeBigUInt64BE(1n, 0);
      dbs.assetBalances.putSync(rcd1Hash(receiver.publicKey), b);
    });
    const v1 = await run(join(BIN, "ledgerd"), ["verify", `-homedir=${balanceHome}`, "-network=LOCAL", "-q"]);
    assert.equal(v1.code, 1, v1.stdout);
    assert.match(
      v1.stderr,
      new RegExp(
        `height \\d+: .* the saved balance of address ${toHex(rcd1Hash(receiver.publicKey))} is 1, the blocks .* make it 4096`,
      ),
    );

    // the query index: one entry's record of a chain's entries gone
    const indexHome = join(work, "index");
    cpSync(homeA, indexHome, { recursive: true });
    let indexHeight = -1;
    await alter(indexHome, (dbs) => {
      const keys = [...dbs.qChainEntries.getKeys()].map((k) => Buffer.from(k as Uint8Array));
      const key = keys[Math.floor(keys.length / 2)]!;
      indexHeight = key.readUInt32BE(32);
      dbs.qChainEntries.removeSync(key);
    });
    const v3 = await run(join(BIN, "ledgerd"), ["verify", `-homedir=${indexHome}`, "-network=LOCAL", "-q"]);
    assert.equal(v3.code, 1, v3.stdout);
    assert.match(v3.stderr, new RegExp(`height ${indexHeight}: .*the query index lacks its qChainEntries record`));

    // a block record: one byte of a middle height's EC block
    const middle = Math.floor(a.height / 2);
    const blockHome = join(work, "block");
    cpSync(homeA, blockHome, { recursive: true });
    await alter(blockHome, (dbs) => {
      const hash = dbs.heights.getBinary(heightKey(BlockKind.ec, middle))!;
      const value = Buffer.from(dbs.blocks.getBinary(hash)!);
      value[value.length - 1]! ^= 0x01;
      dbs.blocks.putSync(hash, value);
    });
    const v2 = await run(join(BIN, "ledgerd"), ["verify", `-homedir=${blockHome}`, "-network=LOCAL", "-q"]);
    assert.equal(v2.code, 1, v2.stdout);
    assert.match(v2.stderr, new RegExp(`height ${middle}: .*the saved blocks: the EC block`));
  });
});

async function heightOf(node: LedgerdProcess): Promise<number> {
  return ((await node.rpc("heights")) as { directoryblockheight: number }).directoryblockheight;
}

/** Poll until the node's saved height reaches `height` (generous: the machine is shared). */
async function waitForHeight(node: LedgerdProcess, height: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await heightOf(node)) < height) {
    if (Date.now() > deadline) throw new Error(`height ${height} not reached`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The byte offset of height `height`'s height record in an export file (walking the frames). */
function heightRecordOffset(bytes: Buffer, height: number): number {
  let at = 10; // magic and version
  while (at < bytes.length) {
    const type = bytes[at]!;
    const length = bytes.readUInt32BE(at + 1);
    if (type === 0x02 && bytes.readUInt32BE(at + 5) === height) return at;
    at += 5 + length + 4;
  }
  throw new Error(`no height ${height} in the file`);
}

/** Change a stopped node's data directory through LMDB, as an operator's mistake or a bad disk would. */
async function alter(home: string, change: (dbs: ReturnType<typeof openDatabases>) => void): Promise<void> {
  const env = openEnvironment(dataDir(home));
  try {
    const dbs = openDatabases(env);
    env.transactionSync(() => change(dbs));
  } finally {
    await env.close();
  }
}
