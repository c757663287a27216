// History written by a federation (docs/export.md §4): the bootstrap server plus federated X and Y and audit Z
// over an in-memory log (real ledgers, real drivers), so admin blocks carry several directory-block signatures
// and the authority set changes along the chain. The checker follows it from the admin blocks alone: every
// saved height verifies, each with a majority of the servers federated at it; with another bootstrap key the
// first signed height is refused, naming the count of valid signatures and the majority needed.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { HistoryChecker } from "../../../src/history/checker.js";
import { HistoryError } from "../../../src/history/errors.js";
import { readHeightSet } from "../../../src/history/storedHeights.js";
import { verifyDirectory } from "../../../src/history/verify.js";
import { decodeAdminBlock, isDirectoryBlockSignature } from "../../../src/protocol/ablock.js";
import { DirectoryReader } from "../../../src/store/directoryReader.js";
import { BOOT, BOOT_KEY, MemoryFederation, NET, serverIdentity } from "../../support/memoryFederation.js";
import { cleanup } from "../ledger/harness.js";

describe("a federation's history", () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) cleanup(d);
  });

  it("verifies height by height against the servers federated at each, and not against another bootstrap key", async () => {
    const f = new MemoryFederation({ blockTimeSeconds: 1 });
    const x = serverIdentity(1);
    const y = serverIdentity(2);
    const z = serverIdentity(3);
    let dir: string;
    try {
      const boot = await f.start({ name: "boot", role: "federated" });
      await f.append(f.addServer("federated", x));
      await f.append(f.addServer("federated", y));
      await f.append(f.addServer("audit", z));
      await f.start({ name: "x", role: "federated", server: x });
      await f.start({ name: "y", role: "federated", server: y });
      await f.start({ name: "z", role: "audit", server: z });
      await f.savedHeight(6, 120_000);
      dir = boot.dir;
      dirs.push(dir);
      await f.stopNode(boot);
    } finally {
      await f.stop();
    }

    const reader = DirectoryReader.open(`${dir}/local/db`, { scan: false });
    try {
      const saved = reader.identity().savedHeight;
      const r = verifyDirectory(reader, {
        network: "LOCAL",
        networkId: NET,
        bootstrap: { identity: BOOT, publicKey: BOOT_KEY },
      });
      assert.equal(r.heights, saved + 1);
      // several servers signed the later blocks: the majority rule was exercised with more than one
      const signatures = decodeAdminBlock(readHeightSet(reader, saved).admin).entries.filter(isDirectoryBlockSignature);
      assert.ok(signatures.length >= 2, `admin block ${saved} carries ${signatures.length} signatures`);

      const stranger = serverIdentity(9);
      const checker = new HistoryChecker({
        networkId: NET,
        bootstrap: { identity: BOOT, publicKey: stranger.publicKey },
      });
      checker.check(readHeightSet(reader, 0));
      assert.throws(
        () => checker.check(readHeightSet(reader, 1)),
        (e: unknown) =>
          e instanceof HistoryError &&
          /^height 1: the admin block carries 0 valid signatures of directory block 0 by the 1 federated servers, 1 needed$/.test(
            e.message,
          ),
      );
    } finally {
      await reader.close();
    }
  });
});
