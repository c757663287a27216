// Crash safety (issue "Reliability", DESIGN §5): a real node under a write load — chains and entries
// (commit + reveal, some reveals before their commit), asset transactions between test addresses, entry
// credit purchases, all signed with real keys — is killed with SIGKILL at chosen moments: in the middle of
// the load, right at the end of minute 10 (the block close), at a minute boundary, and at a block close of
// an idle node. After each restart:
//   * heights never go back, and the genesis block is the same one (no silent new genesis);
//   * every acknowledged message is confirmed in a block two blocks later; a message whose request was cut
//     by the crash is either confirmed or unknown, never half-applied;
//   * every asset balance equals the model (genesis funds ± confirmed transactions), and balances plus
//     fees and EC purchases add up to the genesis total; the EC balance is purchased − spent;
//   * every chain walks from its head down to its first entry block with exactly the confirmed entries,
//     each block listed in its directory block; directory blocks link up.
//
// Rounds: 3 in CI, 20 with LEDGERD_LONG=1 (make test-long). LEDGERD_FUZZ_SEED replays a run.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { killAllNodes, LedgerdProcess as Ledgerd, sleep } from "../support/nodeProcess.js";
import { Random } from "../support/random.js";
import { checkBalances, checkChains, checkDirectoryChain, checkNothingPending, checkStatuses, resolveStatuses, savedHeight, waitForHeight, } from "./ledgerChecks.js";
import { fuzzSeed, LONG } from "./mode.js";
import { GENESIS_TOTAL, rcdHex, testWallet, Workload } from "./workload.js";
const ROUNDS = LONG ? 20 : 3;
/** Seconds per block: a minute is 200 ms, so block closes come often enough to aim kills at them. */
const BLOCK_SECONDS = 2;
const MINUTE_MS = (BLOCK_SECONDS * 1000) / 10;
/** Writers sending commit + reveal pairs concurrently. */
const ENTRY_WORKERS = 3;
/** Kill within ± this many ms of the aimed boundary. */
const AIM_JITTER_MS = 25;
/** Where a round's SIGKILL lands. */
const KILL_MODES = ["at-block-close", "during-writes", "idle-at-block-close", "at-minute-end"];
/** ms from now until the end of the open block (minute 10), aimed with jitter; at least 5 ms. */
async function msUntilBlockClose(node, rng, blockEnd) {
    const m = await node.rpc("current-minute");
    // ns since epoch; well within double precision for differences of a few seconds
    const minuteStart = m.currentminutestarttime / 1e6;
    const now = m.currenttime / 1e6;
    const minutesLeft = blockEnd ? 10 - m.minute : 1;
    let delay = minuteStart + minutesLeft * MINUTE_MS - now + rng.int(-AIM_JITTER_MS, AIM_JITTER_MS);
    if (delay < 5)
        delay += blockEnd ? BLOCK_SECONDS * 1000 : MINUTE_MS;
    return delay;
}
describe(`crash safety: ${ROUNDS} rounds of kill -9 under load`, { concurrency: false }, () => {
    const seed = fuzzSeed();
    const rng = new Random(seed);
    const wallet = testWallet(4);
    const initial = new Map([[rcdHex(wallet.genesis), GENESIS_TOTAL]]);
    let node;
    let w;
    let genesisKeyMR = "";
    let maxSeenHeight = 0;
    let checkedDirectoryTo = 0;
    const stats = { rounds: 0, messages: 0, unknownOutcomes: 0, closeInterrupted: 0, restartMs: [] };
    before(async () => {
        node = await Ledgerd.start({ blockTimeSeconds: BLOCK_SECONDS });
    });
    after(async () => {
        await killAllNodes();
        node?.cleanup();
        process.stdout.write(`# crash: seed ${seed}, ${stats.rounds} rounds, ${stats.messages} messages, ${stats.unknownOutcomes} cut by a kill, ` +
            `${stats.closeInterrupted} restarts found the aimed block unsaved, restart to serving ${stats.restartMs.join("/")} ms\n`);
    });
    /** Everything the issue asks after a restart, once two more blocks are saved. */
    async function verifySettled(label) {
        const h = await savedHeight(node);
        await waitForHeight(node, h + 2);
        await resolveStatuses(node, w.sent);
        assert.deepEqual(w.unexpectedRejections.slice(0, 5), [], `${label}: the node rejected valid messages`);
        checkStatuses(w.sent);
        await checkBalances(node, w, initial, GENESIS_TOTAL);
        await checkChains(node, w);
        await checkNothingPending(node, w);
        const top = await savedHeight(node);
        await checkDirectoryChain(node, checkedDirectoryTo, top);
        checkedDirectoryTo = top;
        const g = await node.rpc("dblock-by-height", { height: 0, noraw: true });
        assert.equal(g.dblock.keymr, genesisKeyMR, `${label}: the genesis block changed`);
    }
    it("setup: genesis funds, entry credits, three chains, all confirmed", async () => {
        const rate = BigInt((await node.rpc("entry-credit-rate")).rate);
        assert.ok(rate > 0n);
        w = new Workload(wallet, rate);
        const g = await node.rpc("asset-balance", { address: wallet.genesis.publicAddress });
        assert.equal(BigInt(g.balance), GENESIS_TOTAL, "the LOCAL genesis key holds 20,000 units");
        genesisKeyMR = (await node.rpc("dblock-by-height", { height: 0, noraw: true }))
            .dblock.keymr;
        // 100,000 entry credits, and 1,000 units to each other address
        assert.ok(await w.transfer(node, wallet.genesis, [], rate * 100000n));
        assert.ok(await w.transfer(node, wallet.genesis, wallet.others.map((to) => ({ to, amount: 1000n * 100000000n })), 0n));
        // acknowledged purchases count at once (ack balance), so the chains can be paid in the same block
        for (const label of ["alpha", "beta", "gamma"])
            assert.ok(await w.createChain(node, label));
        await verifySettled("setup");
        maxSeenHeight = await savedHeight(node);
    });
    for (let round = 1; round <= ROUNDS; round++) {
        const mode = KILL_MODES[(round - 1) % KILL_MODES.length];
        it(`round ${round}: kill -9 ${mode}, restart, every invariant holds`, async () => {
            assert.ok(w !== undefined, "setup ran");
            // a failed earlier round may have left the node down: bring it back so this round tests on its own
            if (!node.isRunning)
                await node.restart();
            const roundRng = new Random(rng.u32());
            let stopping = false;
            const heightsBefore = maxSeenHeight;
            // heights seen while running: they must never be above what the restarted node reports
            const poller = (async () => {
                while (!stopping) {
                    try {
                        maxSeenHeight = Math.max(maxSeenHeight, await savedHeight(node));
                    }
                    catch {
                        return;
                    }
                    await sleep(50);
                }
            })();
            // chains usable this round: created and confirmed in earlier rounds
            const chains = w.chains.filter((c) => w.expectedChainEntries(c.chainId).has(c.firstEntry)).map((c) => c.chainId);
            assert.ok(chains.length >= 3);
            const sentBefore = w.sent.length;
            const workers = [];
            workers.push((async () => {
                if (!(await w.createChain(node, `round ${round} seed ${seed}`)))
                    return;
            })());
            for (let i = 0; i < ENTRY_WORKERS; i++) {
                const wr = new Random(roundRng.u32());
                workers.push((async () => {
                    while (!stopping)
                        if (!(await w.addEntry(node, wr, wr.pick(chains), wr.chance(0.1))))
                            return;
                })());
            }
            const ar = new Random(roundRng.u32());
            const start = await node.rpc("multiple-asset-balances", {
                addresses: wallet.all.map((k) => k.publicAddress),
            });
            const available = wallet.all.map((_, i) => BigInt(start.balances[i].ack));
            const margin = w.rate * 100n; // far above any fee here (≤ 30 EC)
            workers.push((async () => {
                while (!stopping) {
                    const choice = ar.float();
                    let ok;
                    if (choice < 0.4) {
                        const amount = BigInt(ar.int(1_000_000, 100_000_000));
                        ok = await w.transfer(node, wallet.genesis, [{ to: ar.pick(wallet.others), amount }], 0n);
                        available[0] -= amount + margin;
                    }
                    else if (choice < 0.7) {
                        const from = ar.int(1, wallet.others.length);
                        const amount = available[from] / 20n;
                        if (amount <= margin)
                            continue;
                        const to = wallet.all[(from + ar.int(1, wallet.all.length - 1)) % wallet.all.length];
                        ok = await w.transfer(node, wallet.all[from], [{ to, amount }], 0n);
                        available[from] -= amount + margin;
                    }
                    else {
                        ok = await w.transfer(node, wallet.genesis, [], w.rate * BigInt(ar.int(50, 500)));
                        available[0] -= w.rate * 500n + margin;
                    }
                    if (!ok)
                        return;
                }
            })());
            // aim the kill
            let heightAtKill = -1;
            if (mode === "during-writes") {
                await sleep(roundRng.int(100, 2500));
            }
            else if (mode === "idle-at-block-close") {
                await sleep(roundRng.int(300, 1200));
                stopping = true;
                await Promise.all(workers);
                await sleep(await msUntilBlockClose(node, roundRng, true));
            }
            else {
                await sleep(roundRng.int(300, 1500));
                const delay = await msUntilBlockClose(node, roundRng, mode === "at-block-close");
                heightAtKill = maxSeenHeight;
                await sleep(delay);
            }
            stopping = true;
            await node.kill9();
            await Promise.all(workers);
            await poller;
            assert.ok(!node.isRunning);
            const roundSent = w.sent.slice(sentBefore);
            stats.messages += roundSent.length;
            stats.unknownOutcomes += roundSent.filter((s) => s.outcome === "unknown").length;
            // restart on the same directory and port
            const t0 = performance.now();
            await node.restart();
            stats.restartMs.push(Math.round(performance.now() - t0));
            const h = await savedHeight(node);
            assert.ok(h >= maxSeenHeight, `height went back from ${maxSeenHeight} to ${h} after the crash\n${node.tail()}`);
            assert.ok(h >= heightsBefore);
            if (heightAtKill >= 0 && h === heightAtKill)
                stats.closeInterrupted++;
            await verifySettled(`round ${round}`);
            maxSeenHeight = Math.max(maxSeenHeight, await savedHeight(node));
            stats.rounds++;
        });
    }
    it("stops cleanly (SIGTERM, exit code 0) after the crash rounds", async () => {
        assert.equal(await node.stop(), 0, node.tail());
    });
});
//# sourceMappingURL=crash.test.js.map