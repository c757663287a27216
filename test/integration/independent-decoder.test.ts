/**
 * An independent implementation as a check (docs/testing.md §An independent decoder): the PyPI package
 * factom-core, which shares no code with the node, decodes every block the node produces — directory, admin,
 * EC, asset and entry blocks and entries, fetched raw over /v2 from a real node after real writes (an EC
 * purchase, a transfer, a chain creation, entries) — to the same fields and the same keyMRs and hashes as the
 * node's own decoders. So do the genesis blocks of MAIN, TEST and LOCAL, every block of a federation (the
 * real driver and ledgers over an in-memory log) whose admin blocks hold every admin entry type the node
 * writes, and the real main-network fixtures of test/fixtures/history/.
 *
 * factom-core runs in the virtual environment `make python-venv` makes (.venv-test/, from
 * tools/python/requirements.txt); `make test` makes it first. Without it this file fails, naming the command.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { signRecord } from "../../src/cluster/records.js";
import { type AdminEntry, adminBlockHashes, decodeAdminBlock, encodeAdminBlock } from "../../src/protocol/ablock.js";
import { type KeyPair, keyPairFromSeed, rcd1Hash } from "../../src/protocol/address.js";
import { fromHex, toHex, varintSize } from "../../src/protocol/bytes.js";
import {
  decodeDirectoryBlock,
  directoryBlockBodyMR,
  directoryBlockHashes,
  encodeDirectoryBlock,
} from "../../src/protocol/dblock.js";
import {
  decodeEntryBlock,
  encodeEntryBlock,
  entriesWithMinutes,
  entryBlockHashes,
  markerMinute,
} from "../../src/protocol/eblock.js";
import {
  decodeECBlock,
  type ECBlockItem,
  ecBlockHashes,
  encodeECBlock,
  encodeECBlockBody,
} from "../../src/protocol/ecblock.js";
import { chainIdFromExtIds, entryHash, marshalEntry, unmarshalEntry } from "../../src/protocol/entry.js";
import { assetBlockBodyMR, assetBlockHashes, decodeAssetBlock, encodeAssetBlock } from "../../src/protocol/fblock.js";
import { genesisBlocks } from "../../src/protocol/genesis.js";
import { sha256 } from "../../src/protocol/hash.js";
import { merkleRoot } from "../../src/protocol/merkle.js";
import { type Transaction, transactionFullHash, transactionId } from "../../src/protocol/transaction.js";
import { composeTransaction } from "../../tools/wallet/compose.js";
import { addEntry, buyCredits, createChain, ecKeyOf, GENESIS_KEY, type RpcCall } from "../support/ledgerWrites.js";
import { BOOT_SEED, MemoryFederation, NET, serverIdentity } from "../support/memoryFederation.js";
import { killAllNodes, LedgerdProcess, PROJECT_ROOT } from "../support/nodeProcess.js";
import { waitUntil } from "../support/waitFor.js";
import { factomCoreData, factomGoData, fatdChains, pegnetEntries } from "../unit/protocol/realHistoryFixtures.js";

/** The virtual environment's interpreter and our script (tools/python/decode_blocks.py). */
const PYTHON = join(PROJECT_ROOT, ".venv-test", "bin", "python");
const SCRIPT = join(PROJECT_ROOT, "tools", "python", "decode_blocks.py");
/** A bound for a hang, not a measurement: a few 2-s blocks on a loaded machine. */
const WRITE_WAIT_MS = 120_000;
/** The signature field of a record before signRecord fills it. */
const NO_SIG = new Uint8Array(64);
/** Room for factom-core's answer: the fixtures' 1,405 pegnet entries and the blocks come to a few MB of JSON. */
const PYTHON_OUTPUT_BYTES = 256 * 1024 * 1024;

type Kind = "directory" | "admin" | "ec" | "asset" | "entryBlock" | "entry";
interface Item {
  kind: Kind;
  raw: string;
  /** where the block came from, for the failure message */
  what: string;
}

/** Run factom-core over the items; one answer per item, in order. */
function factomCore(items: readonly Item[]): Record<string, unknown>[] {
  if (!existsSync(PYTHON))
    throw new Error(
      `${PYTHON} is missing: run \`make python-venv\` (make test runs it first) to install factom-core from tools/python/requirements.txt`,
    );
  const out = execFileSync(PYTHON, [SCRIPT], {
    input: JSON.stringify(items.map(({ kind, raw }) => ({ kind, raw }))),
    encoding: "utf8",
    maxBuffer: PYTHON_OUTPUT_BYTES,
  });
  const answers = JSON.parse(out) as Record<string, unknown>[];
  assert.equal(answers.length, items.length);
  return answers;
}

// ── the node's own decoders, in the shape decode_blocks.py prints ──

const hex = toHex;

function directoryView(raw: Uint8Array) {
  const d = decodeDirectoryBlock(raw);
  const hashes = directoryBlockHashes(d);
  return {
    keyMR: hex(hashes.keyMR),
    fullHash: hex(hashes.fullHash),
    networkId: d.networkId.toString(16).padStart(8, "0"),
    bodyMR: hex(d.bodyMR),
    computedBodyMR: hex(directoryBlockBodyMR(d.entries)),
    prevKeyMR: hex(d.prevKeyMR),
    prevFullHash: hex(d.prevFullHash),
    timestampSeconds: d.timestamp * 60,
    height: d.dbHeight,
    blockCount: d.entries.length,
    entries: d.entries.map((e) => ({ chainId: hex(e.chainId), keyMR: hex(e.keyMR) })),
    reencodes: hex(encodeDirectoryBlock(d)) === hex(raw),
  };
}

function adminEntryView(e: AdminEntry): Record<string, unknown> {
  if ("forwardCompatible" in e) return { type: e.type, forwardCompatible: true };
  switch (e.type) {
    case 0x01:
      return {
        type: e.type,
        identityChainId: hex(e.identityAdminChainId),
        publicKey: hex(e.publicKey),
        signature: hex(e.signature),
      };
    case 0x05:
    case 0x06:
    case 0x07:
      return { type: e.type, identityChainId: hex(e.identityChainId), dbHeight: e.dbHeight };
    case 0x08:
      return {
        type: e.type,
        identityChainId: hex(e.identityChainId),
        keyPriority: e.keyPriority,
        publicKey: hex(e.publicKey),
        dbHeight: e.dbHeight,
      };
    // the types of the reference's real admin blocks (test/fixtures/history/), which the node does not write
    case 0x00:
      return { type: e.type, minute: e.minute };
    case 0x03:
      return { type: e.type, identityChainId: hex(e.identityChainId), hash: hex(e.hash) };
    case 0x09:
      return {
        type: e.type,
        identityChainId: hex(e.identityChainId),
        keyPriority: e.keyPriority,
        keyType: e.keyType,
        ecdsaPublicKey: hex(e.ecdsaPublicKey),
      };
    default:
      // a type neither the node nor the fixtures hold: decode_blocks.py has no view for it either, so the comparison fails
      return { type: e.type, notWrittenByTheNode: true };
  }
}

/** Bytes of an admin block header: chain ID, previous back-reference hash, height, expansion, count, size. */
function adminHeaderSize(expansion: number): number {
  return 32 + 32 + 4 + varintSize(expansion) + expansion + 4 + 4;
}

function adminView(raw: Uint8Array) {
  const a = decodeAdminBlock(raw);
  const hashes = adminBlockHashes(a);
  return {
    lookupHash: hex(hashes.lookupHash),
    backReferenceHash: hex(hashes.backReferenceHash),
    prevBackRefHash: hex(a.prevBackRefHash),
    height: a.dbHeight,
    headerExpansion: hex(a.headerExpansion),
    messageCount: a.entries.length,
    bodySize: raw.length - adminHeaderSize(a.headerExpansion.length),
    entries: a.entries.map(adminEntryView),
    reencodes: hex(encodeAdminBlock(a)) === hex(raw),
  };
}

function ecItemView(item: ECBlockItem): Record<string, unknown> {
  switch (item.type) {
    case "serverIndex":
    case "minute":
      return { type: item.type, number: item.number };
    case "chainCommit": {
      const c = item.commit;
      return {
        type: item.type,
        milliTimestamp: c.milliTime,
        chainIdHash: hex(c.chainIdHash),
        weld: hex(c.weld),
        entryHash: hex(c.entryHash),
        credits: c.credits,
        ecPublicKey: hex(c.ecPublicKey),
        signature: hex(c.signature),
      };
    }
    case "entryCommit": {
      const c = item.commit;
      return {
        type: item.type,
        milliTimestamp: c.milliTime,
        entryHash: hex(c.entryHash),
        credits: c.credits,
        ecPublicKey: hex(c.ecPublicKey),
        signature: hex(c.signature),
      };
    }
    case "balanceIncrease":
      return {
        type: item.type,
        ecPublicKey: hex(item.ecPublicKey),
        txId: hex(item.txId),
        index: Number(item.index),
        numEC: Number(item.numEC),
      };
  }
}

function ecView(raw: Uint8Array) {
  const b = decodeECBlock(raw);
  const hashes = ecBlockHashes(b);
  const body = encodeECBlockBody(b.items);
  return {
    headerHash: hex(hashes.headerHash),
    fullHash: hex(hashes.fullHash),
    bodyHash: hex(b.bodyHash),
    computedBodyHash: hex(sha256(body)),
    prevHeaderHash: hex(b.prevHeaderHash),
    prevFullHash: hex(b.prevFullHash),
    height: b.dbHeight,
    headerExpansion: hex(b.headerExpansion),
    objectCount: b.items.length,
    bodySize: body.length,
    items: b.items.map(ecItemView),
    reencodes: hex(encodeECBlock(b)) === hex(raw),
  };
}

function txView(tx: Transaction) {
  const io = (list: Transaction["inputs"]) =>
    list.map((x) => ({ amount: x.amount.toString(), address: hex(x.address) }));
  return {
    txId: hex(transactionId(tx)),
    fullHash: hex(transactionFullHash(tx)),
    milliTimestamp: tx.milliTimestamp,
    inputs: io(tx.inputs),
    outputs: io(tx.outputs),
    ecOutputs: io(tx.ecOutputs),
    // an RCD of type 1 is 01 ‖ public key; its signature block is one signature
    signatures: tx.rcds.map((rcd, i) => ({ publicKey: hex(rcd.subarray(1)), signature: hex(tx.signatures[i]![0]!) })),
  };
}

function assetView(raw: Uint8Array) {
  const f = decodeAssetBlock(raw);
  const txCount = f.periods.reduce((n, p) => n + p.length, 0);
  const headerSize = 32 * 4 + 8 + 4 + varintSize(f.headerExpansion.length) + f.headerExpansion.length + 4 + 4;
  return {
    keyMR: hex(assetBlockHashes(f).keyMR),
    bodyMR: hex(f.bodyMR),
    computedBodyMR: hex(assetBlockBodyMR(f.periods)),
    prevKeyMR: hex(f.prevKeyMR),
    prevLedgerKeyMR: hex(f.prevLedgerKeyMR),
    exchangeRate: f.exchangeRate.toString(),
    height: f.dbHeight,
    headerExpansion: hex(f.headerExpansion),
    transactionCount: txCount,
    bodySize: raw.length - headerSize,
    periods: f.periods.map((p) => p.map(txView)),
    reencodes: hex(encodeAssetBlock(f)) === hex(raw),
  };
}

function entryBlockView(raw: Uint8Array) {
  const b = decodeEntryBlock(raw);
  const hashes = entryBlockHashes(b);
  const minutes: { minute: number; entryHashes: string[] }[] = [];
  let pending: string[] = [];
  for (const item of b.items) {
    const minute = markerMinute(item);
    if (minute === 0) pending.push(hex(item));
    else {
      minutes.push({ minute, entryHashes: pending });
      pending = [];
    }
  }
  return {
    keyMR: hex(hashes.keyMR),
    fullHash: hex(hashes.fullHash),
    chainId: hex(b.chainId),
    bodyMR: hex(b.bodyMR),
    computedBodyMR: hex(merkleRoot(b.items)),
    prevKeyMR: hex(b.prevKeyMR),
    prevFullHash: hex(b.prevFullHash),
    sequence: b.sequence,
    height: b.dbHeight,
    entryCount: b.items.length,
    minutes,
    reencodes: hex(encodeEntryBlock(b)) === hex(raw),
  };
}

function entryView(raw: Uint8Array) {
  const e = unmarshalEntry(raw);
  return {
    entryHash: hex(entryHash(raw)),
    chainId: hex(e.chainId),
    extIds: e.extIds.map(hex),
    content: hex(e.content),
    reencodes: hex(marshalEntry(e)) === hex(raw),
  };
}

const VIEWS: Record<Kind, (raw: Uint8Array) => Record<string, unknown>> = {
  directory: directoryView,
  admin: adminView,
  ec: ecView,
  asset: assetView,
  entryBlock: entryBlockView,
  entry: entryView,
};

/** Compare factom-core's answer for every item with the node's decoders, field by field. */
function assertSameDecoding(items: readonly Item[]): void {
  const answers = factomCore(items);
  items.forEach((item, i) => {
    const theirs = answers[i]!;
    assert.equal(theirs.error, undefined, `factom-core refused ${item.what}: ${String(theirs.error)}\n${theirs.trace}`);
    assert.deepEqual(theirs, VIEWS[item.kind](fromHex(item.raw)), `${item.what}: factom-core and the node differ`);
    assert.equal(theirs.reencodes, true, `${item.what}: factom-core re-encodes other bytes`);
  });
}

describe("factom-core decodes the blocks of a real node as the node does", () => {
  let node: LedgerdProcess;
  const items: Item[] = [];
  const seen = { ecKinds: new Set<string>(), adminTypes: new Set<number>(), transfers: 0, purchases: 0, entries: 0 };

  before(async () => {
    node = await LedgerdProcess.start();
    const call: RpcCall = (method, params) => node.rpc(method, params);
    const ec: KeyPair = ecKeyOf("independent decoder");
    await buyCredits(call, ec, 100);
    const rate = BigInt(((await call("entry-credit-rate")) as { rate: number }).rate);
    const receiver = keyPairFromSeed("FA", sha256(new TextEncoder().encode("independent decoder receiver")));
    const transfer = composeTransaction({
      inputSeed: GENESIS_KEY.seed,
      outputs: [{ address: rcd1Hash(receiver.publicKey), amount: 12_345_678n }],
      ecOutputs: [],
      rate,
      milliTimestamp: Date.now(),
    });
    await call("asset-submit", { transaction: hex(transfer.tx.raw) });
    // the credits must be in a block before the commits that spend them are accepted
    await waitUntil(
      "the EC purchase",
      async () => {
        const r = (await call("entry-credit-balance", { address: hex(ec.publicKey) })) as { balance: number };
        return r.balance > 0;
      },
      WRITE_WAIT_MS,
    );
    const chain = await createChain(call, ec, "independent decoder", "the chain's first entry");
    await addEntry(call, ec, chain.chainId, "a second entry", { extIds: ["ext one", "ext two"] });
    await addEntry(call, ec, chain.chainId, new Uint8Array(0));
    // every write was accepted into the open block or an earlier one: wait until that block is saved
    const open = ((await call("heights")) as { leaderheight: number }).leaderheight;
    await waitUntil(
      "the writes' block saved",
      async () => {
        const h = (await call("heights")) as { directoryblockheight: number; entryheight: number };
        return h.directoryblockheight >= open && h.entryheight >= open;
      },
      WRITE_WAIT_MS,
    );
    const top = ((await call("heights")) as { directoryblockheight: number }).directoryblockheight;
    const raw = async (hash: string): Promise<string> => ((await call("raw-data", { hash })) as { data: string }).data;
    for (let height = 0; height <= top; height++) {
      const byHeight = async (method: string): Promise<string> =>
        ((await call(method, { height })) as { rawdata: string }).rawdata;
      const d = await byHeight("dblock-by-height");
      items.push({ kind: "directory", raw: d, what: `directory block ${height}` });
      items.push({ kind: "admin", raw: await byHeight("ablock-by-height"), what: `admin block ${height}` });
      items.push({ kind: "ec", raw: await byHeight("ecblock-by-height"), what: `EC block ${height}` });
      items.push({ kind: "asset", raw: await byHeight("fblock-by-height"), what: `asset block ${height}` });
      for (const e of decodeDirectoryBlock(fromHex(d)).entries.slice(3)) {
        const eb = await raw(hex(e.keyMR));
        items.push({ kind: "entryBlock", raw: eb, what: `entry block ${hex(e.chainId)} at ${height}` });
        for (const entry of entriesWithMinutes(decodeEntryBlock(fromHex(eb))))
          items.push({ kind: "entry", raw: await raw(hex(entry.entryHash)), what: `entry ${hex(entry.entryHash)}` });
      }
    }
    for (const item of items) {
      const bytes = fromHex(item.raw);
      if (item.kind === "ec") for (const i of decodeECBlock(bytes).items) seen.ecKinds.add(i.type);
      if (item.kind === "admin") for (const e of decodeAdminBlock(bytes).entries) seen.adminTypes.add(e.type);
      if (item.kind === "entry") seen.entries++;
      if (item.kind === "asset")
        for (const tx of decodeAssetBlock(bytes).periods.flat()) {
          if (tx.outputs.length > 0 && tx.inputs.length > 0) seen.transfers++;
          if (tx.ecOutputs.length > 0) seen.purchases++;
        }
    }
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
    await killAllNodes();
  });

  test("the node's blocks hold every kind of write this test made", () => {
    // Not here: serverIndex (only MAIN's genesis EC block has one, checked below) and balanceIncrease (an EC
    // purchase credits the EC key from the asset block, with no EC block item, as the reference since M2:
    // wire-format §5.4).
    for (const kind of ["minute", "chainCommit", "entryCommit"])
      assert.ok(seen.ecKinds.has(kind), `an EC block item of type ${kind}`);
    assert.ok(seen.transfers >= 1, "a transfer in an asset block");
    assert.ok(seen.purchases >= 1, "an EC purchase in an asset block");
    assert.ok(seen.entries >= 3, "the chain's three entries");
    // a single node writes its directory block signatures (01); LOCAL's genesis adds its bootstrap server (05)
    assert.deepEqual([...seen.adminTypes].sort(), [0x01, 0x05]);
  });

  test("every block and entry decodes with factom-core to the same fields, keyMRs and hashes", () => {
    assertSameDecoding(items);
  });
});

describe("factom-core decodes the node's genesis blocks of MAIN, TEST and LOCAL as the node does", () => {
  test("the twelve blocks of height 0 (MAIN's EC block holds the one server index item the node writes)", () => {
    const items: Item[] = [];
    for (const network of ["MAIN", "TEST", "LOCAL"] as const) {
      const g = genesisBlocks(network);
      items.push(
        { kind: "directory", raw: hex(encodeDirectoryBlock(g.directory)), what: `${network} genesis directory block` },
        { kind: "admin", raw: hex(encodeAdminBlock(g.admin)), what: `${network} genesis admin block` },
        { kind: "ec", raw: hex(encodeECBlock(g.ec)), what: `${network} genesis EC block` },
        { kind: "asset", raw: hex(encodeAssetBlock(g.asset)), what: `${network} genesis asset block` },
      );
    }
    assert.ok(decodeECBlock(fromHex(items[2]!.raw)).items.some((i) => i.type === "serverIndex"));
    assertSameDecoding(items);
  });
});

describe("factom-core decodes the blocks of a federation, with every admin entry type it writes", () => {
  // A single node writes only 01 (and LOCAL's genesis 05); the federation writes 05/06/07 (authority changes)
  // and 08 (signing keys) too (src/cluster/heightMachine.ts). Here: the real federation driver and ledgers
  // over an in-memory log (test/support/memoryFederation.ts), 1-s blocks, the bootstrap server and a second
  // federated server, an audit server added then removed, and a key rotation.
  let f: MemoryFederation | undefined;
  after(async () => {
    await f?.stop();
  });

  test("every admin, directory, EC and asset block of the federation, with entries 01, 05, 06, 07 and 08", async () => {
    f = new MemoryFederation({ blockTimeSeconds: 1 });
    const x = serverIdentity(1);
    const xNext = serverIdentity(4);
    const z = serverIdentity(3);
    const boot = await f.start({ name: "boot", role: "federated" });
    await f.append(f.addServer("federated", x));
    await f.start({
      name: "x",
      role: "federated",
      server: { identity: x.identity, seed: x.seed, nextSeed: xNext.seed },
    });
    await f.append(f.addServer("audit", z));
    await f.savedHeight(boot.ledger.openBlock().height + 1);
    const activation = boot.ledger.openBlock().height + 3;
    await f.append(
      signRecord(
        {
          kind: "authorityChange",
          change: "remove",
          identity: z.identity,
          activationHeight: activation,
          signature: NO_SIG,
        },
        NET,
        BOOT_SEED,
      ),
    );
    await f.append(
      signRecord(
        {
          kind: "rotateKey",
          identity: x.identity,
          newKey: xNext.publicKey,
          activationHeight: activation,
          signature: NO_SIG,
        },
        NET,
        x.seed,
      ),
    );
    // two heights past the activation: the rotated key has signed a block
    await f.savedHeight(activation + 2, 120_000);
    const top = boot.ledger.heights().directoryBlockHeight;
    const items: Item[] = [];
    const types = new Set<number>();
    for (let height = 0; height <= top; height++) {
      const admin = boot.ledger.adminBlockByHeight(height)!;
      for (const e of admin.block.entries) types.add(e.type);
      items.push(
        {
          kind: "directory",
          raw: hex(boot.ledger.directoryBlockByHeight(height)!.raw),
          what: `directory block ${height}`,
        },
        { kind: "admin", raw: hex(admin.raw), what: `admin block ${height}` },
        { kind: "ec", raw: hex(boot.ledger.ecBlockByHeight(height)!.raw), what: `EC block ${height}` },
        { kind: "asset", raw: hex(boot.ledger.assetBlockByHeight(height)!.raw), what: `asset block ${height}` },
      );
    }
    assert.deepEqual([...types].sort(), [0x01, 0x05, 0x06, 0x07, 0x08]);
    assertSameDecoding(items);
  });
});

describe("factom-core decodes the real main-network fixtures as the node does", () => {
  test("the block set of height 10, the single blocks and entries, 85 entry blocks, 108 + 1,405 entries", () => {
    const items: Item[] = [];
    const core = factomCoreData();
    const set = core.height10;
    items.push({ kind: "directory", raw: set.directoryBlock, what: "directory block 10" });
    items.push({ kind: "admin", raw: set.adminBlock, what: "admin block 10" });
    items.push({ kind: "ec", raw: set.ecBlock, what: "EC block 10" });
    items.push({ kind: "asset", raw: set.assetBlock, what: "asset block 10" });
    for (const raw of set.entryBlocks) items.push({ kind: "entryBlock", raw, what: "entry block of height 10" });
    const kindOf = (name: string): Kind | undefined =>
      name.startsWith("directory")
        ? "directory"
        : name.startsWith("admin")
          ? "admin"
          : name.startsWith("ecBlock")
            ? "ec"
            : name.startsWith("asset")
              ? "asset"
              : name.startsWith("entryBlock")
                ? "entryBlock"
                : name.startsWith("entry")
                  ? "entry"
                  : undefined;
    for (const data of [core.blocks, factomGoData().blocks])
      for (const [name, item] of Object.entries(data)) {
        const kind = kindOf(name);
        if (kind !== undefined) items.push({ kind, raw: item.raw, what: name });
      }
    for (const chain of fatdChains()) {
      for (const eb of chain.entryBlocks)
        items.push({ kind: "entryBlock", raw: eb.raw, what: `entry block ${eb.seq} of ${chain.chainId}` });
      for (const e of chain.entries) items.push({ kind: "entry", raw: e.raw, what: `entry ${e.hash}` });
    }
    const pegnet = pegnetEntries();
    const chainId = chainIdFromExtIds(pegnet.chainNameExtIds.map((s) => new TextEncoder().encode(s)));
    for (const b of pegnet.blocks)
      for (const e of b.entries) {
        const raw = marshalEntry({
          version: 0,
          chainId,
          extIds: e.extIds.map((x) => new Uint8Array(Buffer.from(x, "base64"))),
          content: new Uint8Array(Buffer.from(e.content, "base64")),
        });
        items.push({ kind: "entry", raw: hex(raw), what: `pegnet entry ${e.hash}` });
      }
    assert.equal(items.filter((i) => i.kind === "entry").length, 2 + 108 + 1405);
    assertSameDecoding(items);
  });
});
