/**
 * What the header chain from genesis costs a starting node per height (snapshotChain.ts; docs/cluster.md §1.13
 * "The chain's cost"): printed, never asserted against a bound (the machine is shared). Apart from the rule tests
 * (snapshotChain.test.ts) so that the mutation runs, which run those for every mutant, do not walk 300 heights each.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkBlockSignatures } from "../../../src/cluster/dbSig.js";
import { HeaderChain } from "../../../src/cluster/snapshotChain.js";
import { type AdminEntry, decodeAdminBlock } from "../../../src/protocol/ablock.js";
import { serverIdentity } from "../../support/memoryFederation.js";
import { BOOTSTRAP, boot, buildChain, INTERVAL, NET } from "./snapshotChainFixture.js";

function chainOf(genesisKeyMR: Uint8Array): HeaderChain {
  return new HeaderChain({ networkId: NET, genesisKeyMR, bootstrap: BOOTSTRAP, interval: INTERVAL });
}

describe("header chain from genesis: what it costs", () => {
  it("per height, with 3 and with 25 federated servers (printed, the second of two walks; no bound asserted: the machine is shared)", () => {
    for (const servers of [3, 25]) {
      const others = Array.from({ length: servers - 1 }, (_, i) => serverIdentity(20 + i));
      const heights = servers > 3 ? 100 : 200;
      const built = buildChain(heights, {
        changes: (h) =>
          h === 0
            ? [boot, ...others].flatMap((s): AdminEntry[] => [
                { type: 0x05, identityChainId: s.identity, dbHeight: 0 },
                { type: 0x08, identityChainId: s.identity, keyPriority: 0, publicKey: s.publicKey, dbHeight: 0 },
              ])
            : [],
        signers: () => [boot, ...others],
      });
      // (a first walk warms the keys' cache and the JIT; the second is timed)
      const warm = chainOf(built.genesisKeyMR);
      for (const l of built.links) warm.add(l);
      const chain = chainOf(built.genesisKeyMR);
      const t0 = performance.now();
      const cpu0 = process.cpuUsage();
      for (const l of built.links) chain.add(l);
      const cpu = process.cpuUsage(cpu0);
      const us = ((performance.now() - t0) * 1000) / heights;
      // (CPU time: what the walk costs this process, less sensitive than wall time to the other work on the machine)
      const cpuUs = (cpu.user + cpu.system) / heights;
      assert.equal(chain.next, heights);
      const bytes = built.links.reduce(
        (n, l) => n + l.header.length + 1 + 32 * l.branch.length + 4 + l.admin.length,
        0,
      );
      // the signatures alone: every one of them, and until a majority is in (what the chain verifies)
      const fed = [boot, ...others].map((s) => ({ identity: s.identity, publicKey: s.publicKey }));
      const admins = built.links.slice(1).map((l) => decodeAdminBlock(l.admin).entries);
      const sigUs = (untilMajority: boolean): number => {
        const t = performance.now();
        admins.forEach((e, i) => {
          assert.ok(checkBlockSignatures(e, built.links[i]!.header, fed, { untilMajority }).ok);
        });
        return ((performance.now() - t) * 1000) / admins.length;
      };
      const all = sigUs(false);
      const majority = sigUs(true);
      console.log(
        `# header chain: ${servers} federated servers: ${us.toFixed(0)} µs (CPU ${cpuUs.toFixed(0)} µs) and ${Math.round(bytes / heights)} bytes per height (${heights} heights); signatures until a majority ${majority.toFixed(0)} µs, all ${all.toFixed(0)} µs`,
      );
    }
  });
});
