/**
 * The grace height of a server promoted by an authorityChange record (docs/cluster.md §1.7, issue 33): like a
 * server federated by an election or by addServer, it cannot be faulted at the first height it is federated,
 * even when the record that promoted it landed several blocks before that height (its 05 is in an older admin
 * block). Over the real HeightMachine and a real ledger; one federated server (BOOT) and one audit (Z).
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { AuthoritySet } from "../../../src/cluster/authorities.js";
import { signDirectoryBlock } from "../../../src/cluster/dbSig.js";
import { HeightMachine } from "../../../src/cluster/heightMachine.js";
import { signRecord } from "../../../src/cluster/records.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { BOOT, BOOT_KEY, BOOT_SEED, NET, serverIdentity } from "../../support/memoryFederation.js";
import { cleanup, closeNode, openNode, type TestNode, tempDir } from "../ledger/harness.js";

const NO_SIG = new Uint8Array(64);
const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
const Z = serverIdentity(3);

describe("a server promoted by record has its grace height", () => {
  const open: { node: TestNode; dir: string }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await closeNode(o.node);
      cleanup(o.dir);
    }
  });

  it("promoted at H by a record of an earlier block: graced at H, not at H + 1", () => {
    const dir = tempDir("ledgerd-grace-");
    const node = openNode(dir);
    open.push({ node, dir });
    const authorities = new AuthoritySet({ identity: BOOT, publicKey: BOOT_KEY });
    authorities.applyAdminBlock(0, [
      ...node.ledger.adminEntries(0),
      { type: 0x06, identityChainId: Z.identity, dbHeight: 1 },
      { type: 0x08, identityChainId: Z.identity, keyPriority: 0, publicKey: Z.publicKey, dbHeight: 1 },
    ]);
    const machine = new HeightMachine({ networkId: NET, skeletonKey: BOOT_KEY }, { ledger: node.ledger, authorities });
    let seq = 0;
    let t = T0;
    const servers = [
      { identity: BOOT, seed: BOOT_SEED, publicKey: BOOT_KEY },
      { identity: Z.identity, seed: Z.seed, publicKey: Z.publicKey },
    ];
    /** Every record that closes the open height, from each server federated at it. */
    const closeHeight = (): void => {
      const h = machine.height.height;
      const signers = servers.filter((s) =>
        machine.height.authorities.federated.some((a) => toHex(a.identity) === toHex(s.identity)),
      );
      for (const s of signers) {
        if (h === 1)
          machine.apply(
            signRecord(
              { kind: "blockStart", height: 1, timeMs: t, proposer: s.identity, signature: NO_SIG },
              NET,
              s.seed,
            ),
            ++seq,
          );
        machine.apply(
          {
            kind: "dbSig",
            height: h,
            identity: s.identity,
            publicKey: s.publicKey,
            signature: signDirectoryBlock(s.seed, node.ledger.lastDirectoryBlock()),
          },
          ++seq,
        );
      }
      for (let m = 0; m < 10; m++) {
        t += 600;
        for (const s of signers)
          machine.apply(
            signRecord(
              { kind: "endOfMinute", height: h, minute: m, timeMs: t, proposer: s.identity, signature: NO_SIG },
              NET,
              s.seed,
            ),
            ++seq,
          );
      }
      assert.equal(machine.height.height, h + 1, `height ${h} closed`);
    };
    const H = 4;
    const promote = signRecord(
      { kind: "authorityChange", change: "promote", identity: Z.identity, activationHeight: H, signature: NO_SIG },
      NET,
      BOOT_SEED,
    );
    assert.equal(machine.apply(promote, ++seq).refused, undefined);
    for (let h = 1; h < H - 1; h++) {
      closeHeight();
      assert.equal(machine.height.graced.size, 0, `nobody in grace at ${h + 1}, before H`);
    }
    closeHeight();
    assert.deepEqual(
      machine.height.authorities.federated.map((a) => toHex(a.identity)).sort(),
      [toHex(BOOT), toHex(Z.identity)].sort(),
    );
    assert.deepEqual([...machine.height.graced], [toHex(Z.identity)], "Z is federated from H: graced there");
    closeHeight();
    assert.equal(machine.height.graced.size, 0, "the grace is one height");
  });
});
