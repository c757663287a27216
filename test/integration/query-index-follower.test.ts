// The query index on a devnet follower (one federated server, one follower, one nats-server): the follower
// saves the blocks it replays from the log with the same block-set writer, so it keeps the same index. Its
// answers must equal a brute-force walk of its own saved blocks, and the federated server's answers.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeAddress } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import type {
  AddressHistoryResult,
  ChainEntriesResult,
  SearchChainsResult,
  SearchEntriesResult,
} from "../../src/rpc/methods.js";
import type { LedgerdNode } from "../../tools/devnet/ledgerdNode.js";
import { composeChain, composeEntry } from "../../tools/wallet/compose.js";
import { buyCredits, ecKeyOf } from "../support/ledgerWrites.js";
import { allPages, type Call, entryView, extIdsMatch, walk } from "../support/queryWalk.js";
import { startTestDevnet, type TestDevnet } from "../support/testDevnet.js";
import { waitFor } from "../support/waitFor.js";

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const hexText = (s: string): string => toHex(text(s));

function callOf(node: LedgerdNode): Call {
  return <T>(method: string, params?: unknown) => node.client.call<T>(method, params);
}

describe("query index on a devnet follower", () => {
  let net: TestDevnet;
  before(async () => {
    net = await startTestDevnet({ federated: 1, audit: 0, followers: 1, nats: 1, blockTimeSeconds: 2 });
  });
  after(() => net?.cleanup());

  it("answers as a walk of its own blocks, and as the federated server", async () => {
    const fed = callOf(net.devnet.node("fed0"));
    const follower = callOf(net.devnet.node("follower0"));
    const ec = ecKeyOf("query-index-follower");
    await buyCredits(fed, ec, 500);
    const ecAddress = encodeAddress("EC", ec.publicKey);
    await waitFor(
      "entry credits bought",
      async () =>
        (await fed<{ balance: number }>("entry-credit-balance", { address: ecAddress })).balance >= 500
          ? true
          : undefined,
      60_000,
      100,
    );
    const c = composeChain({
      extIds: [text("follower-app"), text("v1")],
      content: text("first"),
      ecSeed: ec.seed,
      milliTime: Date.now(),
    });
    await fed("commit-chain", c.commit.params);
    await fed("reveal-chain", c.reveal.params);
    let last = c.entryHash;
    for (let i = 0; i < 20; i++) {
      const e = composeEntry({
        chainId: fromHex(c.chainId),
        extIds: [text("doc"), text(`d-${i}`)],
        content: text(`doc ${i}`),
        ecSeed: ec.seed,
        milliTime: Date.now(),
      });
      await fed("commit-entry", e.commit.params);
      await fed("reveal-entry", e.reveal.params);
      last = e.entryHash;
    }
    // the follower has indexed the last entry once its block is saved there
    const height = await waitFor(
      "the last entry indexed on the follower",
      async () => {
        const r = await follower<ChainEntriesResult>("chain-entries", {
          chainid: c.chainId,
          order: "desc",
          limit: 1,
        }).catch(() => undefined);
        return r?.entries[0]?.entryhash === last ? r.entries[0].dbheight : undefined;
      },
      120_000,
      200,
    );
    // and the federated server too (it may be a block ahead or behind: compare up to `height` on both)
    await waitFor(
      "the federated server at the same height",
      async () =>
        (await fed<{ directoryblockheight: number }>("heights")).directoryblockheight >= height + 2 ? true : undefined,
      120_000,
      200,
    );
    const { entries, addresses } = await walk(follower, height);
    const upTo = (items: unknown[]) => items.filter((x) => (x as { dbheight: number }).dbheight <= height);
    const expected = entries.filter((e) => e.chainid === c.chainId).map((e) => entryView(e, false));
    assert.equal(expected.length, 21);
    for (const [name, call] of [
      ["follower", follower],
      ["fed0", fed],
    ] as const) {
      const got = await allPages<ChainEntriesResult>(
        call,
        "chain-entries",
        { chainid: c.chainId, limit: 6 },
        (r) => r.entries,
      );
      assert.deepEqual(upTo(got), expected, `${name}: chain-entries`);
      const wanted = [hexText("doc"), hexText("d-1")];
      const search = await allPages<SearchEntriesResult>(
        call,
        "search-entries",
        { extids: wanted, match: "prefix", limit: 4 },
        (r) => r.entries,
      );
      const key = (x: unknown) => (x as { entryhash: string }).entryhash;
      assert.deepEqual(
        upTo(search).map(key).sort(),
        entries
          .filter((e) => extIdsMatch(e.extids, wanted, "prefix"))
          .map((e) => e.entryhash)
          .sort(),
        `${name}: search-entries`,
      );
      const chains = await allPages<SearchChainsResult>(
        call,
        "search-chains",
        { extids: [hexText("follower-app")] },
        (r) => r.chains,
      );
      assert.deepEqual(
        chains.map((x) => (x as { chainid: string }).chainid),
        [c.chainId],
        `${name}: search-chains`,
      );
      const history = await allPages<AddressHistoryResult>(
        call,
        "address-history",
        { address: ecAddress, limit: 7 },
        (r) => r.items,
      );
      assert.deepEqual(upTo(history), addresses.get(ecAddress), `${name}: address-history`);
    }
  });
});
