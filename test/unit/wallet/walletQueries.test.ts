// The wallet's query commands run through `main(argv, io)` (tools/wallet/commands.ts) against a real node in
// this process (src/node.ts on loopback, LOCAL, 1-second blocks): `entries <chain>` (chain-entries), `entries
// --search …` (search-entries) and `history <address>` (address-history), paged by the node's cursors, each
// compared with a brute-force walk of the same saved blocks through the spec's methods (test/support/queryWalk.ts).
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, test } from "node:test";
import { type Io, main } from "../../../tools/wallet/commands.js";
import { type AddressItem, extIdsMatch, type Walked, walk } from "../../support/queryWalk.js";
import { startTestNode, type TestNode } from "../rpc/nodeHarness.js";

const SAND_SECRET = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";
const SAND = "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q";
const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");

const home = mkdtempSync(join(tmpdir(), "ledgerd-wallet-queries-"));
let node: TestNode;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

async function wallet(...args: string[]): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("LEDGERD_")));
  const out = collector();
  const err = collector();
  const io: Io = {
    stdout: out.stream,
    stderr: err.stream as unknown as NodeJS.WriteStream,
    env: { ...clean, HOME: home, LEDGERD_WALLET: join(home, "wallet.json"), LEDGERD_NODE: node.base },
    readStdin: () => Buffer.alloc(0),
  };
  const code = await main(args, io);
  return { code, stdout: out.text(), stderr: err.text() };
}

async function ok(...args: string[]): Promise<string> {
  const r = await wallet(...args);
  assert.equal(r.code, 0, `ledgerd-wallet ${args.join(" ")}: exit ${r.code}\n${r.stderr}`);
  return r.stdout;
}

let chain = "";
let ec = "";
let payee = "";
/** The brute-force reference, taken once every write is saved. */
let walked: { entries: Walked[]; addresses: Map<string, AddressItem[]> };
const ENTRY_TAGS: string[][] = [
  ["invoice", "2026-01"],
  ["invoice", "2026-02"],
  ["receipt", "2026-01"],
  ["invoice", "2025-12"],
  ["invoice"],
  ["note", "x", "y"],
  ["invoice", "2026-03"],
];

before(async () => {
  node = await startTestNode({ blockTimeSeconds: 1 });
  await ok("import", SAND_SECRET);
  ec = (await ok("new-ec")).trim().split(/\s+/).at(-1)!;
  payee = (await ok("new-fa")).trim().split(/\s+/).at(-1)!;
  await ok("buy-ec", SAND, ec, "200", "--wait-confirmed", "-q");
  await ok("send", SAND, payee, "2.5", "--wait-confirmed", "-q");
  chain = (await ok("add-chain", "--ext", "wallet-queries", "--ext", "chain", "--content", "first", ec, "-q")).trim();
  for (const [i, tags] of ENTRY_TAGS.entries())
    await ok("add-entry", "--chain", chain, ...tags.flatMap((t) => ["--ext", t]), "--content", `entry ${i}`, ec, "-q");
  const last = (
    await ok(
      "add-entry",
      "--chain",
      chain,
      "--ext",
      "invoice",
      "--ext",
      "2026-04",
      "--content",
      "last",
      ec,
      "--wait-confirmed",
      "-q",
    )
  ).trim();
  // the last entry's block is saved (--wait-confirmed): everything written before it is too
  assert.equal((await node.call("entry", { hash: last })).error, undefined);
  const heights = await node.call("heights");
  const call = async <T>(method: string, params?: unknown): Promise<T> => {
    const r = await node.call(method, params);
    if (r.error !== undefined) throw new Error(`${method}: ${JSON.stringify(r.error)}`);
    return r.result as T;
  };
  walked = await walk(call, heights.result.directoryblockheight);
});

after(async () => {
  await node?.stop();
  rmSync(home, { recursive: true, force: true });
});

/** The walk's entries of the test chain, oldest first. */
function chainWalked(): Walked[] {
  return walked.entries.filter((e) => e.chainid === chain);
}

describe("ledgerd-wallet entries (chain-entries)", () => {
  test("the whole chain, oldest first, equals the walk of its entry blocks", async () => {
    // the whole chain keeps the JSON array `entries --json` printed before the index
    const list = JSON.parse(await ok("entries", chain, "--json")) as { entryhash: string; chainid: string }[];
    assert.deepEqual(
      list.map((e) => e.entryhash),
      chainWalked().map((e) => e.entryhash),
    );
    assert.equal(list.length, ENTRY_TAGS.length + 2);
    for (const e of list) assert.equal(e.chainid, chain);
    const paged = JSON.parse(await ok("entries", chain, "--all", "-limit=4", "--json")) as {
      entries: { entryhash: string }[];
      nextcursor: string;
    };
    assert.deepEqual(
      paged.entries.map((e) => e.entryhash),
      list.map((e) => e.entryhash),
    );
    assert.equal(paged.nextcursor, "");
    const text = await ok("entries", chain);
    assert.match(text, new RegExp(`Entry \\[1/${ENTRY_TAGS.length + 2}\\]`));
    assert.match(text, /ExtID: wallet-queries/);
  });

  test("paged by -limit and -cursor: every entry once, in order, the cursor printed until the last page", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const text = await ok("entries", chain, "-limit=3", ...(cursor === undefined ? [] : [`-cursor=${cursor}`]));
      seen.push(...[...text.matchAll(/^EntryHash: ([0-9a-f]{64})$/gm)].map((m) => m[1]!));
      const next = /^next page: -cursor=(\S+)$/m.exec(text);
      if (next === null) break;
      cursor = next[1];
    }
    assert.deepEqual(
      seen,
      chainWalked().map((e) => e.entryhash),
    );
  });

  test("-order=desc lists newest first", async () => {
    const r = JSON.parse(await ok("entries", chain, "-order=desc", "--all", "-limit=2", "--json")) as {
      entries: { entryhash: string }[];
    };
    assert.deepEqual(
      r.entries.map((e) => e.entryhash),
      chainWalked()
        .map((e) => e.entryhash)
        .reverse(),
    );
  });
});

describe("ledgerd-wallet entries --search (search-entries)", () => {
  const search = async (args: string[], wanted: string[], match: "exact" | "prefix") => {
    const r = JSON.parse(await ok("entries", chain, ...args, "--all", "-limit=2", "--json")) as {
      entries: { entryhash: string; chainid: string }[];
    };
    const expected = chainWalked().filter((e) => extIdsMatch(e.extids, wanted, match));
    assert.ok(expected.length > 0, "the reference matches something");
    assert.deepEqual(
      r.entries.map((e) => e.entryhash),
      expected.map((e) => e.entryhash),
    );
    for (const e of r.entries) assert.equal(e.chainid, chain);
  };

  test("one ext ID, exact: every entry whose first ext ID is it", () =>
    search(["--search", "invoice"], [hex("invoice")], "exact"));

  test("two ext IDs, the last a prefix (text and hex interleaved)", () =>
    search(
      ["--search-hex", hex("invoice"), "--search", "2026-0", "--prefix"],
      [hex("invoice"), hex("2026-0")],
      "prefix",
    ));

  test("two exact ext IDs find the one entry", () =>
    search(["--search", "receipt", "--search", "2026-01"], [hex("receipt"), hex("2026-01")], "exact"));

  test("a search prints one page and the next cursor unless --all", async () => {
    const text = await ok("entries", chain, "--search", "invoice", "-limit=2");
    assert.equal([...text.matchAll(/^EntryHash: /gm)].length, 2);
    assert.match(text, /^next page: -cursor=\S+$/m);
    assert.match(text, /^ExtID: invoice$/m);
    assert.match(text, /^Block: \d+ \(entry block [0-9a-f]{64}, position \d+\)$/m);
  });

  test("nothing found is said on stderr, exit 0", async () => {
    const r = await wallet("entries", chain, "--search", "no-such-tag");
    assert.equal(r.code, 0);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /no saved entry of chain [0-9a-f]{64} has these ext IDs/);
  });
});

describe("ledgerd-wallet history (address-history)", () => {
  const history = async (address: string, order?: "desc") => {
    const r = JSON.parse(
      await ok("history", address, "--all", "-limit=2", "--json", ...(order ? [`-order=${order}`] : [])),
    ) as { items: AddressItem[]; nextcursor: string };
    return r;
  };

  test("an FA address: its payments equal the walk of the asset blocks", async () => {
    const r = await history(SAND);
    const expected = walked.addresses.get(SAND) ?? [];
    assert.ok(expected.length >= 2, "the genesis address paid twice");
    assert.deepEqual(r.items, expected);
    assert.equal(r.nextcursor, "");
    const desc = await history(SAND, "desc");
    assert.deepEqual(desc.items, [...expected].reverse());
  });

  test("an EC address: its purchase and every commit equal the walk of the EC blocks", async () => {
    const r = await history(ec);
    const expected = walked.addresses.get(ec) ?? [];
    assert.equal(expected.filter((i) => i.kind === "ecpurchase").length, 1);
    assert.equal(expected.filter((i) => i.kind === "commit").length, ENTRY_TAGS.length + 1);
    assert.equal(expected.filter((i) => i.kind === "chaincommit").length, 1);
    assert.deepEqual(r.items, expected);
  });

  test("the text listing: one line per item with height, time, kind, amount and txid", async () => {
    const text = await ok("history", ec, "-limit=2");
    const lines = text.trimEnd().split("\n");
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^\s+\d+ {2}\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}EC bought\s+200 EC {2}[0-9a-f]{64}$/);
    assert.match(lines[2]!, /^next page: -cursor=\S+$/);
    const fa = await ok("history", payee);
    assert.match(fa, /received\s+2\.5 units {2}[0-9a-f]{64}/);
  });
});

describe("ledgerd-wallet query commands: bad input", () => {
  test("usage errors exit 1 and name what was wrong", async () => {
    const cases: [string[], RegExp][] = [
      [["entries", chain, "-limit=0"], /-limit: expected a whole number from 1 to 1000, got "0"/],
      [["entries", chain, "-limit=1001"], /-limit: expected a whole number from 1 to 1000/],
      [["entries", chain, "--prefix"], /--prefix applies to --search/],
      [["entries", chain, "-order=up"], /-order: expected asc or desc, got "up"/],
      [["entries", chain, "--search", "x", "-order=desc"], /-order applies to a chain's listing/],
      [["history", "FA-not-an-address"], /address: expected a public FA… or EC… address/],
      [["history", SAND_SECRET], /address: expected a public FA… or EC… address/],
    ];
    for (const [args, message] of cases) {
      const r = await wallet(...args);
      assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }
  });

  test("hex that is not hex is refused as --ext-hex is (exit 2), naming the option", async () => {
    const r = await wallet("entries", chain, "--search", "a", "--search-hex", "zz");
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--search-hex \(ext ID 1\): contains a character that is not hex/);
  });

  test("a malformed cursor and a cursor of another method: the node's refusal, exit 2", async () => {
    const bad = await wallet("history", SAND, "-cursor=not-a-cursor");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /the node refused address-history: .*cursor/);
    const page = JSON.parse(await ok("entries", chain, "-limit=1", "--json")) as { nextcursor: string };
    const other = await wallet("history", SAND, `-cursor=${page.nextcursor}`);
    assert.equal(other.code, 2);
    assert.match(other.stderr, /cursor/);
  });

  test("an unknown chain is an error, exit 2", async () => {
    const r = await wallet("entries", "ab".repeat(32));
    assert.equal(r.code, 2);
    assert.match(r.stderr, /chain abab[0-9a-f]* not found on the node/);
  });

  test("help pages: the options and an example", async () => {
    const e = await ok("entries", "-h");
    for (const s of ["--search TEXT", "--prefix", "-limit=N", "-cursor=CURSOR", "--all", "example:"])
      assert.ok(e.includes(s), s);
    const h = await ok("help", "history");
    for (const s of ["address-history", "-order=asc|desc", "ledgerd-wallet history FA"]) assert.ok(h.includes(s), s);
  });
});
