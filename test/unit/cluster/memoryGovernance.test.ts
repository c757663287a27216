/**
 * Governing a running federation over the in-memory log (test/support/memoryFederation.ts: real ledgers,
 * real drivers and proposers): an audit server promoted, a federated server demoted and another's key rotated,
 * all at one stated height, while blocks keep coming. Checked on every node: the change in force at its
 * height and not before, byte-identical blocks, the rotated server's signatures made with the old key before
 * the height and the new one from it, and the refused variants answered with their reason, changing nothing.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { type ClusterRecord, signRecord } from "../../../src/cluster/records.js";
import { LedgerError } from "../../../src/ledger/errors.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { BOOT, BOOT_SEED, MemoryFederation, NET, serverIdentity } from "../../support/memoryFederation.js";

const NO_SIG = new Uint8Array(64);

/** An assert.rejects check: a LedgerError INVALID whose info (what JSON-RPC puts in `data`) matches `re`. */
const refusedWith =
  (re: RegExp) =>
  (e: unknown): boolean => {
    assert.ok(e instanceof LedgerError, String(e));
    assert.equal(e.type.code, "INVALID");
    assert.match("info" in e.type ? String(e.type.info) : "", re);
    return true;
  };
type Gov = Extract<ClusterRecord, { kind: "authorityChange" | "rotateKey" }>;

describe("governance of a running federation (in-memory log)", () => {
  const running: MemoryFederation[] = [];
  after(async () => {
    for (const f of running) await f.stop();
  });

  it("promote, demote and a key rotation land at their height on every node; identical blocks; blocks keep coming", async () => {
    const f = new MemoryFederation({ blockTimeSeconds: 1 });
    running.push(f);
    const [x, y, z] = [serverIdentity(1), serverIdentity(2), serverIdentity(3)];
    const x2 = serverIdentity(4);
    const boot = await f.start({ name: "boot", role: "federated" });
    await f.append(f.addServer("federated", x));
    await f.append(f.addServer("federated", y));
    await f.append(f.addServer("audit", z));
    await f.start({ name: "x", role: "federated", server: { ...x, nextSeed: x2.seed } });
    await f.start({ name: "y", role: "federated", server: y });
    await f.start({ name: "z", role: "audit", server: z });
    const follower = await f.start({ name: "follower", role: "follower" });
    await f.savedHeight(3);

    const H = boot.ledger.openBlock().height + 4;
    const change = (c: "promote" | "demote" | "remove", s: { identity: Uint8Array }, h: number, seed = BOOT_SEED) =>
      signRecord(
        { kind: "authorityChange", change: c, identity: s.identity, activationHeight: h, signature: NO_SIG },
        NET,
        seed,
      ) as Gov;
    const rotate = (h: number, seed = x.seed) =>
      signRecord(
        { kind: "rotateKey", identity: x.identity, newKey: x2.publicKey, activationHeight: h, signature: NO_SIG },
        NET,
        seed,
      ) as Gov;

    // refused before the log: a forged change, a rotation not signed by the key in force
    await assert.rejects(
      follower.fed.submitOperatorRecord(change("promote", z, H, y.seed)),
      refusedWith(/promote: the signature is not the network's skeleton key's/),
    );
    await assert.rejects(
      boot.fed.submitOperatorRecord(rotate(H, x2.seed)),
      refusedWith(/rotate key: the signature is not the identity's key in force/),
    );
    // accepted: through the follower and a server
    await follower.fed.submitOperatorRecord(change("promote", z, H));
    await boot.fed.submitOperatorRecord(change("demote", y, H));
    await boot.fed.submitOperatorRecord(rotate(H));
    // refused by the rules once in the log (every node skips them alike): past height, replay, order
    await assert.rejects(
      boot.fed.submitOperatorRecord(change("demote", x, 1)),
      refusedWith(/demote: activation height 1 is not after/),
    );
    await assert.rejects(
      boot.fed.submitOperatorRecord(rotate(H)),
      refusedWith(/rotate key: the identity has a key recorded and not yet in force/),
    );
    await assert.rejects(
      boot.fed.submitOperatorRecord(change("demote", x, H - 1)),
      refusedWith(/demote: activation height \d+ is before a change already scheduled for \d+/),
    );
    const landed = boot.ledger.openBlock().height;
    assert.ok(landed < H, `the records landed at ${landed}, before H = ${H}`);

    await f.savedHeight(H + 3);
    const top = H + 3;
    const reference = MemoryFederation.keyMRs(boot, top);
    for (const n of f.nodes) assert.deepEqual(MemoryFederation.keyMRs(n, top), reference, `${n.name}'s blocks`);
    for (const n of f.nodes) {
      const s = n.fed.status();
      assert.deepEqual(
        [...s.federated].sort(),
        [BOOT, x.identity, z.identity].map((a) => toHex(a)).sort(),
        `${n.name}: federated`,
      );
      assert.deepEqual(s.audit, [toHex(y.identity)], `${n.name}: audit`);
    }
    // where the records landed: 05, 06 and 08 with DBHeight H
    const entries = (h: number) =>
      boot.ledger
        .adminBlockByHeight(h)!
        .block.entries.filter((e) => !("forwardCompatible" in e) && e.type >= 0x05 && e.type <= 0x08)
        .map((e) => {
          const g = e as { type: number; identityChainId: Uint8Array; dbHeight: number };
          return `${g.type}/${toHex(g.identityChainId).slice(0, 2)}/${g.dbHeight}`;
        });
    const scheduled: string[] = [];
    for (let h = 3; h <= landed; h++) scheduled.push(...entries(h));
    assert.deepEqual(scheduled.sort(), [`5/83/${H}`, `6/82/${H}`, `8/81/${H}`].sort());
    // X's signature entries: the old key before H, the new one from H; Y signs no block after H
    const sigOf = (h: number, who: Uint8Array) =>
      boot.ledger
        .adminBlockByHeight(h)!
        .block.entries.find(
          (e) => !("forwardCompatible" in e) && e.type === 0x01 && toHex(e.identityAdminChainId) === toHex(who),
        ) as { publicKey: Uint8Array } | undefined;
    const before = [H - 2, H - 1].map((h) => sigOf(h, x.identity)).filter((e) => e !== undefined);
    const from = [H + 1, H + 2, H + 3].map((h) => sigOf(h, x.identity)).filter((e) => e !== undefined);
    assert.ok(before.length > 0 && from.length > 0, "X signed before and after H");
    for (const e of before) assert.equal(toHex(e.publicKey), toHex(x.publicKey));
    for (const e of from) assert.equal(toHex(e.publicKey), toHex(x2.publicKey));
    for (const h of [H + 1, H + 2, H + 3]) assert.equal(sigOf(h, y.identity), undefined, `Y signs no block at ${h}`);
  });
});
