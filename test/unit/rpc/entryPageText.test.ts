// The `chain-entries` and `search-entries` answers written as bytes (rpc/v2/entryPageText.ts) are exactly the JSON
// of the result objects (rpc/v2/queries.ts chainEntries / searchEntries, which the live feed reads), over a real
// ledger and LMDB store: entries with no ext ID, an empty one, many, binary bytes, content empty and long; both
// orders, every page size tried, with and without content, a search across chains and filtered by one; the
// whole answer's bytes as the server sends them; and the objects' path when the index gives no in-place read or an
// entry's bytes do not lay out as an entry.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { IndexedEntry } from "../../../src/ledger/api.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { encodeJson } from "../../../src/rpc/jsonrpc.js";
import { entryPageText } from "../../../src/rpc/v2/entryPageText.js";
import {
  chainEntries,
  chainEntriesAnswer,
  type QueryContext,
  searchEntries,
  searchEntriesAnswer,
} from "../../../src/rpc/v2/queries.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  endMinutes,
  entryCommit,
  finishBlock,
  firstEntry,
  openNode,
  type TestNode,
  tempDir,
} from "../ledger/harness.js";

const hex = (s: string) => Buffer.from(s, "utf8").toString("hex");

/** A marshalled entry with raw ext IDs and content (entryRaw of the harness takes text only). */
function rawEntry(chainId: Uint8Array, extIds: Uint8Array[], content: Uint8Array): Uint8Array {
  const section = Buffer.concat(
    extIds.map((id) => Buffer.concat([Buffer.from([id.length >> 8, id.length & 0xff]), id])),
  );
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0]),
      chainId,
      Buffer.from([section.length >> 8, section.length & 0xff]),
      section,
      content,
    ]),
  );
}

describe("entry page answers written as bytes", () => {
  const dir = tempDir("ledgerd-pagetext-");
  let n: TestNode;
  let ctx: QueryContext;
  const app = firstEntry(["app", "pages"], "first");
  const other = firstEntry(["other"], "");

  before(async () => {
    n = openNode(dir);
    await buyEC(n, ecKey, 3000n);
    await finishBlock(n);
    for (const c of [app, other]) {
      await n.ledger.submitCommit(chainCommit(c.raw, n.clock.ms));
      await n.ledger.submitReveal(c.raw);
    }
    const shapes: [Uint8Array[], Uint8Array][] = [
      [[], new Uint8Array()],
      [[new Uint8Array()], Buffer.from("empty ext ID")],
      [[Buffer.from("doc"), Buffer.from([0, 0xff, 0x22, 0x5c, 0x0a])], Buffer.from([0, 1, 2, 0x22, 0x5c, 0xff])],
      [Array.from({ length: 12 }, (_, i) => Buffer.from(`tag-${i}`)), Buffer.alloc(9000, 0xab)],
    ];
    for (let block = 0; block < 3; block++) {
      for (let i = 0; i < 8; i++) {
        const [extIds, content] = shapes[i % shapes.length]!;
        const chain = i % 3 === 2 ? other : app;
        const raw = rawEntry(
          chain.chainId,
          [Buffer.from("doc"), ...extIds],
          Buffer.concat([content, Buffer.from(`${block}-${i}`)]),
        );
        await n.ledger.submitCommit(entryCommit(raw, n.clock.ms));
        await n.ledger.submitReveal(raw);
        if (i === 4) await endMinutes(n, 2);
      }
      await finishBlock(n);
    }
    await n.store.flushed();
    ctx = { queries: n.store.queries, ledger: n.ledger };
  });

  after(async () => {
    await closeNode(n, true).catch(() => {});
    cleanup(dir);
  });

  /** Page through `params` with both paths at once: every page's text equal; returns the entries seen. */
  function pageBoth(
    objects: typeof chainEntries,
    answer: typeof chainEntriesAnswer,
    params: Record<string, unknown>,
    context: QueryContext = ctx,
  ): number {
    let cursor = "";
    let seen = 0;
    for (let pages = 0; pages < 1000; pages++) {
      const p = { ...params, ...(cursor === "" ? {} : { cursor }) };
      const expected = encodeJson(objects(p, context));
      const text = answer(p, context);
      assert.equal(text.text, expected, JSON.stringify(p));
      const page = JSON.parse(expected) as { entries: unknown[]; nextcursor: string };
      seen += page.entries.length;
      cursor = page.nextcursor;
      if (cursor === "") return seen;
    }
    assert.fail("no end of the pages");
  }

  test("chain-entries: each page's bytes are the objects' JSON, both orders, every page size, with and without content", () => {
    for (const chainid of [toHex(app.chainId), toHex(other.chainId)])
      for (const order of ["asc", "desc"])
        for (const limit of [1, 3, 7, 100])
          for (const content of [true, false]) {
            const seen = pageBoth(chainEntries, chainEntriesAnswer, { chainid, order, limit, content });
            assert.ok(seen > 1);
          }
  });

  test("search-entries: each page's bytes are the objects' JSON, across chains, filtered by one, prefix and exact", () => {
    const searches: Record<string, unknown>[] = [
      { extids: [hex("doc")] },
      { extids: [hex("doc")], chainid: toHex(other.chainId) },
      { extids: [hex("doc"), hex("tag-")], match: "prefix" },
      { extids: [hex("doc"), ""] },
      { extids: [hex("doc"), hex("doc"), "00ff225c0a"], content: false },
    ];
    for (const s of searches)
      for (const limit of [1, 4, 100]) {
        const seen = pageBoth(searchEntries, searchEntriesAnswer, { ...s, limit });
        assert.ok(seen > 0, JSON.stringify(s));
      }
  });

  test("the answer's bytes, as the server sends them, are the JSON-RPC answer around the result", () => {
    const p = { chainid: toHex(app.chainId), limit: 5 };
    const answer = chainEntriesAnswer(p, ctx);
    const bytes = answer.answerBytes("42");
    assert.ok(bytes !== undefined);
    assert.equal(
      Buffer.from(bytes).toString("utf8"),
      `{"jsonrpc":"2.0","id":42,"result":${encodeJson(chainEntries(p, ctx))}}`,
    );
  });

  test("an index without an in-place read answers through the ledger: the same bytes", () => {
    const q = n.store.queries;
    // the QueryIndexApi contract alone, as another implementation of it would give
    const plain: QueryContext = {
      ledger: n.ledger,
      queries: {
        chainEntries: (x) => q.chainEntries(x),
        searchEntries: (x) => q.searchEntries(x),
        searchChains: (x) => q.searchChains(x),
        addressHistory: (x) => q.addressHistory(x),
      },
    };
    pageBoth(chainEntries, chainEntriesAnswer, { chainid: toHex(app.chainId), limit: 4 }, plain);
    pageBoth(searchEntries, searchEntriesAnswer, { extids: [hex("doc")], limit: 4 }, plain);
  });

  test("numbers are written as JSON.stringify writes them, whatever their size or kind", () => {
    const raw = rawEntry(app.chainId, [Buffer.from([0x00, 0x7f, 0x80, 0xff]), new Uint8Array()], Buffer.from('é"\\'));
    const numbers = [0, 9, 10, 99, 100, 4_294_967_295, 4_294_967_296, 2 ** 53 - 1, -1, 1.5, Number.NaN];
    const items: IndexedEntry[] = numbers.map((x, i) => ({
      chainId: app.chainId,
      entryHash: new Uint8Array(32).fill(i),
      entryBlockKeyMR: new Uint8Array(32).fill(255 - i),
      directoryBlockHeight: x,
      timestamp: numbers[(i + 3) % numbers.length]!,
      position: numbers[(i + 7) % numbers.length]!,
    }));
    for (const content of [true, false])
      for (const withChain of [true, false]) {
        const text = entryPageText(
          items,
          { content, withChain },
          { nextcursor: "AQID", resumecursor: "" },
          () => raw,
          () => "",
        );
        const expected = JSON.stringify({
          entries: items.map((e) => ({
            entryhash: toHex(e.entryHash),
            ...(withChain ? { chainid: toHex(e.chainId) } : {}),
            extids: ["007f80ff", ""],
            ...(content ? { content: Buffer.from('é"\\').toString("hex") } : {}),
            dbheight: e.directoryBlockHeight,
            entryblockkeymr: toHex(e.entryBlockKeyMR),
            timestamp: e.timestamp,
            position: e.position,
          })),
          nextcursor: "AQID",
          resumecursor: "",
        });
        assert.equal(text.text, expected);
      }
  });

  test("an entry whose bytes do not lay out as an entry is written by the objects' path", () => {
    const item: IndexedEntry = {
      chainId: app.chainId,
      entryHash: new Uint8Array(32).fill(1),
      entryBlockKeyMR: new Uint8Array(32).fill(2),
      directoryBlockHeight: 9,
      timestamp: 1_700_000_000,
      position: 3,
    };
    const bad: Uint8Array[] = [
      new Uint8Array(10), // shorter than a header
      Uint8Array.from([1, ...new Uint8Array(34)]), // version 1
      Uint8Array.from([0, ...new Uint8Array(32), 0, 9, 0, 20]), // ext IDs section past the end
      Uint8Array.from([0, ...new Uint8Array(32), 0, 3, 0, 2, 7]), // an ext ID past its section
    ];
    for (const raw of bad) {
      const text = entryPageText(
        [item, item],
        { content: true, withChain: true },
        { nextcursor: "", resumecursor: "AQ" },
        () => raw,
        () => '{"slow":true}',
      );
      assert.equal(text.text, '{"entries":[{"slow":true},{"slow":true}],"nextcursor":"","resumecursor":"AQ"}');
    }
  });
});
