// A closed block a client has read never changes across kill -9 and a restart (docs/ledger.md §5).
//
// Each round: writers keep the journal's group commit busy (so the end of minute 10 waits behind a commit
// in flight before it is on disk), the test polls `dblock-by-height` for the block being closed and kills
// the node with SIGKILL the moment it answers, restarts it on the same data directory and reads the block
// again: it must be byte for byte the one read before. Before the fix a closed block was served from the
// moment of its close, one journal commit before its close marker was durable; a kill in between made the
// restart close that height again at a later time, with another keyMR (seen in 2 of 3 rounds here).
// ~25 s in CI (3 rounds), LEDGERD_LONG=1 runs 12.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { LedgerdProcess, RpcCallError } from "../support/nodeProcess.js";
import { Random } from "../support/random.js";
import { savedHeight, waitForHeight } from "./ledgerChecks.js";
import { fuzzSeed, LONG } from "./mode.js";
import { testWallet, Workload } from "./workload.js";

/** Kill rounds. */
const ROUNDS = LONG ? 12 : 3;
/** Writers in flight during each close (commit + reveal each, one at a time). */
const WRITERS = 24;
/** Content of each entry, bytes: big enough that a group commit of many takes a while to write. */
const ENTRY_BYTES = 6000;

describe("kill -9 just after a client read a closed block", { concurrency: false }, () => {
  let node: LedgerdProcess | undefined;
  after(async () => {
    await node?.kill9();
    node?.cleanup();
  });

  it(`the block reads the same after the restart (${ROUNDS} rounds)`, async () => {
    const seed = fuzzSeed();
    const rng = new Random(seed);
    const wallet = testWallet(1);
    node = await LedgerdProcess.start({ blockTimeSeconds: 2 });
    const rate = BigInt((await node.rpc<{ rate: number }>("entry-credit-rate")).rate);
    const w = new Workload(wallet, rate);
    assert.ok(await w.transfer(node, wallet.genesis, [], rate * 200_000n), "entry credits bought");
    assert.ok(await w.createChain(node, "close kill"));
    const chainId = w.chains[0]!.chainId;
    await waitForHeight(node, (await savedHeight(node)) + 2);

    for (let round = 0; round < ROUNDS; round++) {
      const n: LedgerdProcess = node;
      let stop = false;
      const writers = Array.from({ length: WRITERS }, async () => {
        while (!stop && (await w.addEntry(n, rng, chainId, false, ENTRY_BYTES))) {}
      });
      const height = (await savedHeight(n)) + 1;
      let read: unknown;
      while (read === undefined) {
        try {
          read = await n.rpc("dblock-by-height", { height });
        } catch (e) {
          if (!(e instanceof RpcCallError)) throw e;
        }
      }
      n.killNow();
      await n.kill9();
      stop = true;
      await Promise.allSettled(writers);
      await n.restart();
      await waitForHeight(n, height);
      assert.deepEqual(
        await n.rpc("dblock-by-height", { height }),
        read,
        `block ${height}, read just before the kill, changed after the restart (round ${round + 1}, seed ${seed})`,
      );
    }
  });
});
