/**
 * The query index (store/queryIndex.ts, queryIndexKeys.ts, queryIndexReader.ts): key encodings and their
 * order; then, over a real ledger and LMDB store, the index the block saves wrote against what the reader
 * answers, a height indexed once however often it is saved, and a rebuild from the saved blocks (index
 * dropped, or of another layout version) equal byte for byte to the index the saves wrote.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { open } from "lmdb";
import { compareBytes, toHex } from "../../../src/protocol/bytes.js";
import { commitTxId } from "../../../src/protocol/commit.js";
import { entryHash, unmarshalEntry } from "../../../src/protocol/entry.js";
import { transactionId } from "../../../src/protocol/transaction.js";
import { openDatabases, openEnvironment } from "../../../src/store/environment.js";
import {
  indexSavedHeight,
  QUERY_INDEX_MARKER,
  QUERY_INDEX_VERSION,
  readMarker,
} from "../../../src/store/queryIndex.js";
import {
  ADDRESS_ITEM_BYTES,
  AddressKind,
  addressKey,
  chainHeightKey,
  EXTID_KEY_BYTES,
  entryExtIds,
  extIdKey,
  extIdRange,
  extIdScope,
  itemPosition,
  prefixEnd,
  putAddressItem,
  QUERY_DB_NAMES,
} from "../../../src/store/queryIndexKeys.js";
import { QueryIndexReader } from "../../../src/store/queryIndexReader.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  endMinutes,
  entryCommit,
  entryRaw,
  finishBlock,
  firstEntry,
  openNode,
  rcdHashOf,
  sand,
  type TestNode,
  tempDir,
} from "../ledger/harness.js";

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

function within(key: Uint8Array, prefix: Uint8Array): boolean {
  const end = prefixEnd(prefix);
  return compareBytes(key, prefix) >= 0 && (end === undefined || compareBytes(key, end) < 0);
}

describe("query index keys", () => {
  test("chain entry positions sort by chain, then height, then place, numerically", () => {
    const c = new Uint8Array(32).fill(7);
    const keys = [
      itemPosition(chainHeightKey(c, 256), 0),
      itemPosition(chainHeightKey(c, 1), 300),
      itemPosition(chainHeightKey(c, 1), 2),
      itemPosition(chainHeightKey(new Uint8Array(32).fill(6), 9999), 9),
      itemPosition(chainHeightKey(c, 0xffffffff), 0),
    ];
    const sorted = [...keys].sort(compareBytes).map(toHex);
    assert.deepEqual(
      sorted,
      [keys[3], keys[2], keys[1], keys[0], keys[4]].map((k) => toHex(k!)),
    );
  });

  test("a scope depends on the level and on each ext ID's bounds", () => {
    const ab_c = extIdScope([text("ab"), text("c")], 2);
    const a_bc = extIdScope([text("a"), text("bc")], 2);
    assert.notEqual(toHex(ab_c), toHex(a_bc));
    assert.notEqual(toHex(extIdScope([text("x")], 0)), toHex(extIdScope([text("x")], 1)));
    // only the ext IDs before the level count
    assert.equal(toHex(extIdScope([text("a"), text("b")], 1)), toHex(extIdScope([text("a"), text("zzz")], 1)));
  });

  test("exact and prefix ranges hold exactly the keys they should (short ext IDs: no check needed)", () => {
    const scope = extIdScope([], 0);
    const ids = ["", "a", "ab", "ab\0", "abc", "b", "a".repeat(EXTID_KEY_BYTES), "a".repeat(EXTID_KEY_BYTES + 5)];
    const keys = ids.map((id) => ({ id, key: extIdKey(scope, text(id), 5, 3) }));
    const exactAb = extIdRange(scope, text("ab"), "exact");
    assert.equal(exactAb.needsCheck, false);
    assert.deepEqual(
      keys.filter((k) => within(k.key, exactAb.prefix)).map((k) => k.id),
      ["ab"],
    );
    const prefixA = extIdRange(scope, text("a"), "prefix");
    assert.deepEqual(
      keys
        .filter((k) => within(k.key, prefixA.prefix))
        .map((k) => k.id)
        .sort(),
      ["a", "ab", "ab\0", "abc", "a".repeat(EXTID_KEY_BYTES), "a".repeat(EXTID_KEY_BYTES + 5)].sort(),
    );
    // an ext ID longer than a key holds: exact needs the entry checked (the key holds its first 32 bytes and length)
    const long = extIdRange(scope, text("a".repeat(EXTID_KEY_BYTES + 5)), "exact");
    assert.equal(long.needsCheck, true);
    assert.deepEqual(
      keys.filter((k) => within(k.key, long.prefix)).map((k) => k.id),
      ["a".repeat(EXTID_KEY_BYTES + 5)],
    );
  });

  test("prefixEnd is the first key past every key with the prefix", () => {
    assert.equal(toHex(prefixEnd(Uint8Array.of(1, 2, 3))!), "010204");
    assert.equal(toHex(prefixEnd(Uint8Array.of(1, 0xff, 0xff))!), "02");
    assert.equal(prefixEnd(Uint8Array.of(0xff, 0xff)), undefined);
  });

  test("entryExtIds reads what unmarshalEntry reads, and refuses truncated bytes", () => {
    const raw = entryRaw(new Uint8Array(32).fill(1), ["one", "", "three".repeat(100)], "content");
    assert.deepEqual(entryExtIds(raw)?.map(toHex), unmarshalEntry(raw).extIds.map(toHex));
    assert.deepEqual(entryExtIds(entryRaw(new Uint8Array(32), [], "")), []);
    const cut = raw.slice(0, 40);
    assert.equal(entryExtIds(cut), undefined);
  });
});

describe("address records cut into chunks", () => {
  test("pages across the chunks of a height and across heights, either order, from any position", async () => {
    const dir = tempDir("ledgerd-qchunks-");
    const env = openEnvironment(dir);
    try {
      const dbs = openDatabases(env);
      const address = new Uint8Array(32).fill(0x42);
      const other = new Uint8Array(32).fill(0x43);
      // item numbers per (address, height), in chunks as the writer cuts them (here of at most 3: the reader
      // takes any size); the other address's items sit between, numbered in the same heights
      const chunks: [Uint8Array, number, number[]][] = [
        [address, 7, [1, 4, 6]],
        [address, 7, [7, 9, 12]],
        [address, 7, [13]],
        [other, 7, [2, 3, 5]],
        [address, 8, [0, 2]],
        [address, 9, [5, 6, 8]],
        [other, 9, [7]],
      ];
      env.transactionSync(() => {
        for (const [who, height, numbers] of chunks) {
          const v = Buffer.alloc(ADDRESS_ITEM_BYTES * numbers.length);
          numbers.forEach((number, k) => {
            const txId = new Uint8Array(32).fill(number);
            putAddressItem(v, k * ADDRESS_ITEM_BYTES, { number, item: 4, txId, amount: BigInt(height), timestamp: 0 });
          });
          dbs.qAddresses.putSync(addressKey(AddressKind.ec, who, height, numbers[numbers.length - 1]!), v);
        }
      });
      const reader = new QueryIndexReader(dbs);
      const all = chunks
        .filter(([who]) => who === address)
        .flatMap(([, height, numbers]) => numbers.map((n) => `${height}:${n}`));
      const read = (desc: boolean, limit: number, after?: Uint8Array) => {
        const p = reader.addressHistory({ kind: "EC", address, desc, limit, ...(after ? { after } : {}) });
        assert.ok(!("refused" in p));
        return p;
      };
      for (const desc of [false, true]) {
        const want = desc ? [...all].reverse() : all;
        for (const limit of [1, 2, 3, 4, 5, 20]) {
          const seen: string[] = [];
          let after: Uint8Array | undefined;
          for (let i = 0; i < 100; i++) {
            const p = read(desc, limit, after);
            seen.push(...p.items.map((it) => `${it.directoryBlockHeight}:${it.txId[0]}`));
            if (p.next === undefined) break;
            after = p.next;
          }
          assert.deepEqual(seen, want, `desc ${desc}, limit ${limit}`);
        }
        // a position that is no item of the address (another address's item number, as a cursor of layout 1
        // may hold): the page goes on from the next item past it
        const position = itemPosition(addressKey(AddressKind.ec, address, 7, 0).subarray(0, 37), 5);
        const from = read(desc, 2, position).items.map((it) => `${it.directoryBlockHeight}:${it.txId[0]}`);
        assert.deepEqual(from, desc ? ["7:4", "7:1"] : ["7:6", "7:7"]);
      }
    } finally {
      await env.close();
      cleanup(dir);
    }
  });
});

/** Every record of every index database and the marker, as hex lines. */
async function dumpIndex(dbDir: string): Promise<Record<string, string[]>> {
  const env = open({ path: dbDir, maxDbs: 30, keyEncoding: "binary", encoding: "binary" });
  const out: Record<string, string[]> = {};
  for (const name of Object.values(QUERY_DB_NAMES)) {
    const db = env.openDB<Uint8Array, Uint8Array>({ name, keyEncoding: "binary", encoding: "binary" });
    out[name] = [...db.getRange()].map(({ key, value }) => `${toHex(key)}=${toHex(value)}`);
  }
  const meta = env.openDB<Uint8Array, Uint8Array>({ name: "meta", keyEncoding: "binary", encoding: "binary" });
  out.marker = [toHex(meta.getBinary(Buffer.from(QUERY_INDEX_MARKER)) ?? new Uint8Array())];
  await env.close();
  return out;
}

/** Wait (generously: the machine is loaded) until the store's background rebuild of the index is done. */
async function untilIndexCurrent(n: TestNode, lines: string[]): Promise<void> {
  const deadline = Date.now() + 120_000;
  // the marker can be seen current a turn before the writer thread's last progress message (and its line) arrives
  while (n.store.queryIndexStatus().rebuilding || !/query index rebuilt/.test(lines.at(-1) ?? "")) {
    if (Date.now() > deadline) throw new Error(`rebuild not done: ${JSON.stringify(n.store.queryIndexStatus())}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("query index over a real ledger and store", () => {
  const dir = tempDir("ledgerd-qindex-");
  const dbDir = join(dir, "local", "db");
  let n: TestNode;
  const app = firstEntry(["app", "docs"], "first");
  const other = firstEntry(["other"], "second chain");
  const entries: Uint8Array[] = [];
  /** the other chain's entries, tagged "doc" as the app chain's are, in the same blocks */
  const otherEntries: Uint8Array[] = [];
  let purchase: Uint8Array = new Uint8Array();
  let appCommit: ReturnType<typeof chainCommit>;

  before(async () => {
    n = openNode(dir);
    purchase = transactionId(await buyEC(n, ecKey, 1000n));
    await finishBlock(n);
    appCommit = chainCommit(app.raw, n.clock.ms);
    await n.ledger.submitCommit(appCommit);
    await n.ledger.submitReveal(app.raw);
    entries.push(app.raw);
    await n.ledger.submitCommit(chainCommit(other.raw, n.clock.ms));
    await n.ledger.submitReveal(other.raw);
    for (let block = 0; block < 3; block++) {
      for (let i = 0; i < 5; i++) {
        const raw = entryRaw(app.chainId, ["doc", `${block}-${i}`], `content ${block} ${i}`);
        await n.ledger.submitCommit(entryCommit(raw, n.clock.ms));
        await n.ledger.submitReveal(raw);
        entries.push(raw);
        if (i % 2 === 0) {
          const o = entryRaw(other.chainId, ["doc", `o${block}-${i}`], `other ${block} ${i}`);
          await n.ledger.submitCommit(entryCommit(o, n.clock.ms));
          await n.ledger.submitReveal(o);
          otherEntries.push(o);
        }
        // a minute ends inside the block now and then: markers among the entries
        if (i === 2) await endMinutes(n, 1);
      }
      await finishBlock(n);
    }
    await n.store.flushed();
  });

  after(async () => {
    await closeNode(n, true).catch(() => {});
    cleanup(dir);
  });

  test("the saves wrote what the reader pages through", () => {
    const q = n.store.queries;
    const all = q.chainEntries({ chainId: app.chainId, desc: false, limit: 1000 });
    assert.ok(!("refused" in all));
    assert.equal(all.items.length, 16);
    assert.equal(all.next, undefined);
    assert.deepEqual(
      all.items.map((e) => toHex(e.entryHash)),
      entries.map((raw) => toHex(entryHash(raw))),
    );
    assert.deepEqual(
      all.items.map((e) => [e.directoryBlockHeight, e.position]),
      [
        [2, 0],
        [2, 1],
        [2, 2],
        [2, 3],
        [2, 4],
        [2, 5],
        [3, 0],
        [3, 1],
        [3, 2],
        [3, 3],
        [3, 4],
        [4, 0],
        [4, 1],
        [4, 2],
        [4, 3],
        [4, 4],
      ],
    );
    // page by 3, ascending and descending, from the positions answered
    for (const desc of [false, true]) {
      const seen: string[] = [];
      let from: Uint8Array | undefined;
      for (;;) {
        const p = q.chainEntries({ chainId: app.chainId, desc, limit: 3, ...(from ? { after: from } : {}) });
        assert.ok(!("refused" in p));
        seen.push(...p.items.map((e) => toHex(e.entryHash)));
        if (p.next === undefined) break;
        from = p.next;
      }
      const expected: string[] = all.items.map((e) => toHex(e.entryHash));
      assert.deepEqual(seen, desc ? [...expected].reverse() : expected);
    }
    const docs = q.searchEntries({ extIds: [text("doc"), text("1-")], match: "prefix", limit: 100 });
    assert.ok(!("refused" in docs));
    assert.equal(docs.items.length, 5);
    const chains = q.searchChains({ extIds: [text("app")], match: "exact", limit: 10 });
    assert.ok(!("refused" in chains));
    assert.deepEqual(
      chains.items.map((c) => [toHex(c.chainId), c.entryCount]),
      [[toHex(app.chainId), 16n]],
    );
    const ec = q.addressHistory({ kind: "EC", address: ecKey.publicKey, desc: false, limit: 100 });
    assert.ok(!("refused" in ec));
    assert.equal(
      ec.items[0]!.kind,
      "ecpurchase",
      JSON.stringify(ec.items.map((i) => [i.kind, i.directoryBlockHeight])),
    );
    assert.equal(toHex(ec.items[0]!.txId), toHex(purchase));
    assert.deepEqual(
      ec.items.slice(1).map((i) => i.kind),
      ["chaincommit", "chaincommit", ...Array(15 + 9).fill("commit")],
    );
    assert.equal(toHex(ec.items[1]!.txId), toHex(commitTxId(appCommit)));
    const fa = q.addressHistory({ kind: "FA", address: rcdHashOf(sand), desc: false, limit: 100 });
    assert.ok(!("refused" in fa));
    // the genesis block's coinbase funded the sand address; then it paid for the credits
    assert.deepEqual(
      fa.items.map((i) => [i.kind, i.directoryBlockHeight]),
      [
        ["output", 0],
        ["input", 1],
      ],
    );
    assert.equal(toHex(fa.items[1]!.txId), toHex(purchase));
    assert.equal(ec.items[0]!.amount, 1000n, "credits bought, not base units");
    // a position of another chain's range is refused
    const other = q.chainEntries({
      chainId: new Uint8Array(32).fill(9),
      desc: false,
      limit: 3,
      after: itemPosition(chainHeightKey(app.chainId, 2), 0),
    });
    assert.ok("refused" in other);
    assert.ok("refused" in q.chainEntries({ chainId: app.chainId, desc: false, limit: 3, after: Uint8Array.of(1, 2) }));
  });

  test("every page size pages each query with no gap and no duplicate, across entry blocks and heights", () => {
    const q = n.store.queries;
    type Answer = { items: unknown[]; next: Uint8Array | undefined } | { refused: string };
    /** Every page of a query at `limit`, following `next`. */
    const pages = (read: (after: Uint8Array | undefined) => Answer): unknown[] => {
      const seen: unknown[] = [];
      let from: Uint8Array | undefined;
      for (let i = 0; i < 1000; i++) {
        const p = read(from);
        assert.ok(!("refused" in p));
        seen.push(...p.items);
        if (p.next === undefined) return seen;
        from = p.next;
      }
      throw new Error("paging did not end");
    };
    const hashes = (items: unknown[]): string[] => items.map((e) => toHex((e as { entryHash: Uint8Array }).entryHash));
    const docs = [...entries.slice(1), ...otherEntries];
    const allDocs = q.searchEntries({ extIds: [text("doc")], match: "exact", limit: 1000 });
    assert.ok(!("refused" in allDocs));
    // ledger order: height, then the entry block's place in the directory block, then the entry's place
    assert.deepEqual([...hashes(allDocs.items)].sort(), docs.map((raw) => toHex(entryHash(raw))).sort());
    const ordered = allDocs.items.map((e) => [e.directoryBlockHeight, e.position, toHex(e.chainId)]);
    for (let i = 1; i < ordered.length; i++) {
      const [h0, , c0] = ordered[i - 1]!;
      const [h1, , c1] = ordered[i]!;
      assert.ok((h0 as number) <= (h1 as number), "heights ascend");
      if (h0 === h1 && c0 === c1) assert.ok((ordered[i - 1]![1] as number) < (ordered[i]![1] as number));
    }
    const fullChain = q.chainEntries({ chainId: app.chainId, desc: false, limit: 1000 });
    const fullEc = q.addressHistory({ kind: "EC", address: ecKey.publicKey, desc: false, limit: 1000 });
    const fullOther = q.searchEntries({ extIds: [text("doc")], match: "exact", chainId: other.chainId, limit: 1000 });
    const fullPrefix = q.searchEntries({ extIds: [text("doc"), text("o")], match: "prefix", limit: 1000 });
    assert.ok(!("refused" in fullChain) && !("refused" in fullEc) && !("refused" in fullOther));
    assert.ok(!("refused" in fullPrefix));
    assert.equal(fullOther.items.length, otherEntries.length);
    assert.equal(fullPrefix.items.length, otherEntries.length);
    const ecWant: string[] = fullEc.items.map((i) => toHex(i.txId));
    for (const limit of [1, 2, 3, 4, 7]) {
      assert.deepEqual(
        hashes(
          pages((after) =>
            q.searchEntries({ extIds: [text("doc")], match: "exact", limit, ...(after ? { after } : {}) }),
          ),
        ),
        hashes(allDocs.items),
        `search-entries, limit ${limit}`,
      );
      assert.deepEqual(
        hashes(
          pages((after) =>
            q.searchEntries({
              extIds: [text("doc")],
              match: "exact",
              chainId: other.chainId,
              limit,
              ...(after ? { after } : {}),
            }),
          ),
        ),
        hashes(fullOther.items),
        `search-entries by chain, limit ${limit}`,
      );
      assert.deepEqual(
        hashes(
          pages((after) =>
            q.searchEntries({ extIds: [text("doc"), text("o")], match: "prefix", limit, ...(after ? { after } : {}) }),
          ),
        ),
        hashes(fullPrefix.items),
        `search-entries prefix, limit ${limit}`,
      );
      for (const desc of [false, true]) {
        const chain = pages((after) =>
          q.chainEntries({ chainId: app.chainId, desc, limit, ...(after ? { after } : {}) }),
        );
        const want = hashes(fullChain.items);
        assert.deepEqual(
          hashes(chain),
          desc ? [...want].reverse() : want,
          `chain-entries, limit ${limit}, desc ${desc}`,
        );
        const ec = pages((after) =>
          q.addressHistory({ kind: "EC", address: ecKey.publicKey, desc, limit, ...(after ? { after } : {}) }),
        );
        assert.deepEqual(
          ec.map((i) => toHex((i as { txId: Uint8Array }).txId)),
          desc ? [...ecWant].reverse() : ecWant,
          `address-history, limit ${limit}, desc ${desc}`,
        );
      }
    }
  });

  test("a height already indexed is not indexed again (a block set saved twice counts once)", async () => {
    const before = await dumpIndex(dbDir);
    const env = openEnvironment(dbDir);
    const dbs = openDatabases(env);
    const marker = readMarker(dbs)!;
    assert.equal(marker.version, QUERY_INDEX_VERSION);
    let again = true;
    env.transactionSync(() => {
      again = indexSavedHeight(dbs, marker.next - 1);
    });
    assert.equal(again, false);
    await env.close();
    assert.deepEqual(await dumpIndex(dbDir), before);
  });

  test("dropped, or of another version, the index is rebuilt at open equal to the one the saves wrote", async () => {
    const written = await dumpIndex(dbDir);
    // one record per (chain, height): the app chain's 16 entries in 3 entry blocks
    assert.ok(written.qChainEntries!.length >= 3);
    await closeNode(n);
    for (const damage of ["drop", "version", "layout1"] as const) {
      const env = open({ path: dbDir, maxDbs: 30, keyEncoding: "binary", encoding: "binary" });
      const meta = env.openDB<Uint8Array, Uint8Array>({ name: "meta", keyEncoding: "binary", encoding: "binary" });
      if (damage === "drop") {
        for (const name of Object.values(QUERY_DB_NAMES))
          await env.openDB({ name, keyEncoding: "binary", encoding: "binary" }).drop();
        await meta.remove(Buffer.from(QUERY_INDEX_MARKER));
      } else if (damage === "layout1") {
        // an index of layout 1 (QUERY_INDEX_VERSION 1, a store saved by an older build): one record per entry in
        // qChainEntries (chain ID ‖ height ‖ item → 72 bytes) and per entry per ext ID in qEntryExtIds (62-byte key
        // → chain ID), the marker at the next height; the open drops them all and rebuilds layout 2
        const b = Buffer.alloc(8);
        b.writeUInt32BE(1, 0);
        b.writeUInt32BE(5, 4);
        await meta.put(Buffer.from(QUERY_INDEX_MARKER), b);
        const chainEntries = env.openDB({ name: "qChainEntries", keyEncoding: "binary", encoding: "binary" });
        const layout1Key = Buffer.concat([app.chainId, Buffer.from([0, 0, 0, 2, 0, 0, 0, 1])]);
        await chainEntries.put(layout1Key, Buffer.alloc(72, 0x11));
        const extIds = env.openDB({ name: "qEntryExtIds", keyEncoding: "binary", encoding: "binary" });
        await extIds.put(Buffer.alloc(62, 0x22), app.chainId);
      } else {
        // another layout version, and a stray record it would have left: both must go
        const b = Buffer.alloc(8);
        b.writeUInt32BE(QUERY_INDEX_VERSION + 1, 0);
        b.writeUInt32BE(2, 4);
        await meta.put(Buffer.from(QUERY_INDEX_MARKER), b);
        await env
          .openDB({ name: "qAddresses", keyEncoding: "binary", encoding: "binary" })
          .put(Buffer.alloc(37, 0xee), Buffer.alloc(49));
      }
      await env.close();
      const lines: string[] = [];
      n = openNode(dir, { storeLog: (line) => lines.push(line) });
      // the open returns at once; the rebuild runs on the writer thread and says so
      assert.match(lines[0] ?? "", /query index rebuilding in the background from height 0 to \d+/, damage);
      await untilIndexCurrent(n, lines);
      assert.match(lines.at(-1) ?? "", /query index rebuilt: \d+ heights, \d+ entries/, damage);
      assert.equal(n.store.queryIndexStatus().heightsBehind, 0);
      await closeNode(n);
      assert.deepEqual(await dumpIndex(dbDir), written, damage);
    }
    const lines: string[] = [];
    n = openNode(dir, { storeLog: (line) => lines.push(line) });
    assert.deepEqual(lines, [], "a current index is left as it is");
    assert.equal(n.store.queryIndexStatus().rebuilding, false);
  });

  test("blocks saved during a throttled rebuild: each height indexed once, the index equals one rebuilt from scratch", async () => {
    await closeNode(n);
    // what an upgrade finds: a marker of layout 1 (its records are dropped by the rebuild's first step)
    const env = openEnvironment(dbDir);
    const dbs = openDatabases(env);
    const b = Buffer.alloc(8);
    b.writeUInt32BE(1, 0);
    b.writeUInt32BE(3, 4);
    await dbs.meta.put(Buffer.from(QUERY_INDEX_MARKER), b);
    await env.close();
    const lines: string[] = [];
    // 30 ms between steps of one height: the blocks below are saved while the rebuild is under way
    n = openNode(dir, { storeLog: (line) => lines.push(line), rebuildPauseMs: 30 });
    assert.equal(n.store.queryIndexStatus().rebuilding, true);
    const rebuilding = n.store.queries.rebuilding();
    assert.ok(rebuilding !== undefined && rebuilding.nextHeight <= rebuilding.savedHeight);
    const early = n.store.queryIndexStatus();
    assert.equal(early.savedHeight, n.store.savedHeight());
    assert.equal(early.heightsBehind, early.savedHeight + 1 - early.nextHeight);
    assert.ok(early.heightsBehind > 0 && early.etaSeconds >= 0 && early.failed === undefined, JSON.stringify(early));
    for (let block = 0; block < 4; block++) {
      for (let i = 0; i < 3; i++) {
        const raw = entryRaw(app.chainId, ["doc", `during-${block}-${i}`], `during ${block} ${i}`);
        await n.ledger.submitCommit(entryCommit(raw, n.clock.ms));
        await n.ledger.submitReveal(raw);
      }
      await finishBlock(n);
    }
    await n.store.flushed();
    await untilIndexCurrent(n, lines);
    const status = n.store.queryIndexStatus();
    assert.equal(status.heightsBehind, 0);
    assert.equal(status.etaSeconds, 0);
    assert.ok(status.entriesIndexed > 0 && status.longestStepMs >= 0, JSON.stringify(status));
    assert.equal(status.nextHeight, n.store.savedHeight() + 1);
    // the saved blocks' entries of the app chain, each once, in order, the ones written during the rebuild included
    const page = n.store.queries.chainEntries({ chainId: app.chainId, desc: false, limit: 1000 });
    assert.ok("items" in page);
    const hashes = page.items.map((e) => toHex(e.entryHash));
    assert.equal(new Set(hashes).size, hashes.length);
    assert.equal(hashes.length, entries.length + 12);
    await closeNode(n);
    const interleaved = await dumpIndex(dbDir);
    // the same store's index dropped and rebuilt with nothing else going on
    const env2 = openEnvironment(dbDir);
    const dbs2 = openDatabases(env2);
    await dbs2.meta.remove(Buffer.from(QUERY_INDEX_MARKER));
    await env2.close();
    const again: string[] = [];
    n = openNode(dir, { storeLog: (line) => again.push(line) });
    await untilIndexCurrent(n, again);
    await closeNode(n);
    assert.deepEqual(await dumpIndex(dbDir), interleaved);
    n = openNode(dir);
  });
});
