/**
 * One node per data directory (src/store/directoryLock.ts), with real processes: a second `bin/ledgerd` on
 * the same -homedir (another port) exits at once naming the directory and the first node's PID, and the
 * first node's chain stays linked; after a SIGKILL of the holder the lock is gone with it (no stale lock);
 * a node whose port is taken exits before it opens its store.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { waitForHeight } from "../reliability/ledgerChecks.js";
import { freeLoopbackPort, killAllNodes, LedgerdProcess } from "../support/nodeProcess.js";

after(() => killAllNodes());

interface DBlock {
  header: { prevkeymr: string; dbheight: number };
  keymr: string;
}

describe("data directory lock", () => {
  test("a second node on the same data directory exits at once, naming the directory and the holder", async () => {
    const first = await LedgerdProcess.start({ blockTimeSeconds: 1 });
    try {
      await waitForHeight(first, 1);
      const second = await LedgerdProcess.startExpectingExit({
        homeDir: first.homeDir,
        port: await freeLoopbackPort(),
        blockTimeSeconds: 1,
        waitMs: 180_000,
      });
      assert.equal(second.code, 1, `the second node did not exit with 1:\n${second.output}`);
      assert.match(second.output, new RegExp(`data directory ${first.dataDir} is in use by another ledgerd`));
      assert.match(second.output, new RegExp(`\\(pid ${first.pid}\\)`));
      // It stopped before the store: no replay, no "rpc listening", no block of its own.
      assert.doesNotMatch(second.output, /rpc listening|replay/i);

      // The first node goes on, and its chain stays one chain: each block links to the one before.
      const top = (await first.rpc<{ directoryblockheight: number }>("heights")).directoryblockheight;
      await waitForHeight(first, top + 2);
      let prev = (await first.rpc<{ dblock: DBlock }>("dblock-by-height", { height: 0 })).dblock;
      for (let h = 1; h <= top + 2; h++) {
        const b = (await first.rpc<{ dblock: DBlock }>("dblock-by-height", { height: h })).dblock;
        assert.equal(b.header.prevkeymr, prev.keymr, `block ${h} does not link to block ${h - 1}`);
        prev = b;
      }
    } finally {
      await first.kill9();
      first.cleanup();
    }
  });

  test("a holder killed with SIGKILL leaves no lock behind: the next start takes the directory", async () => {
    const node = await LedgerdProcess.start({ blockTimeSeconds: 1 });
    try {
      await waitForHeight(node, 1);
      await node.kill9();
      await node.restart(); // the same directory and port; throws if a stale lock refused it
      const h = await node.rpc<{ directoryblockheight: number }>("heights");
      assert.equal(typeof h.directoryblockheight, "number");
      assert.equal(node.log.match(/^--- \S+ start: /gm)?.length, 2, "two starts in the node's output");
      assert.doesNotMatch(node.log, /in use by another ledgerd/);
    } finally {
      await node.kill9();
      node.cleanup();
    }
  });

  test("a node whose port is taken exits before it opens (or replays) its store", async () => {
    const first = await LedgerdProcess.start({ blockTimeSeconds: 2 });
    try {
      const second = await LedgerdProcess.startExpectingExit({ port: first.port, waitMs: 180_000 });
      try {
        assert.equal(second.code, 1, `the second node did not exit with 1:\n${second.output}`);
        assert.match(second.output, new RegExp(`port ${first.port} is already in use`));
        assert.equal(existsSync(join(second.process.dataDir, "data.mdb")), false, "the store was opened");
      } finally {
        second.process.cleanup();
      }
    } finally {
      await first.kill9();
      first.cleanup();
    }
  });
});
