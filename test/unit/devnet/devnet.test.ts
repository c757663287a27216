/**
 * The devnet's pure parts: what it writes into each node's and each nats-server's configuration, the
 * option checks, the least NATS permissions, and the harness's minute-0 VM order (cross-checked against
 * the node's own implementation and against factomd's MakeMap formula by hand).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { minuteZeroVmIndex } from "../../../src/cluster/dbSig.js";
import { type DevnetOptions, validateDevnetOptions } from "../../../tools/devnet/devnet.js";
import { nodeConfigText } from "../../../tools/devnet/ledgerdNode.js";
import { natsServerConfig } from "../../../tools/devnet/natsCluster.js";
import { nodePermissions } from "../../../tools/devnet/natsSecurity.js";
import { minuteZeroVm } from "../../support/testDevnet.js";

const key = { identity: "aa".repeat(32), privkey: "bb".repeat(32), pubkey: "cc".repeat(32) };

describe("devnet configuration", () => {
  test("a node's file: loopback, read-write debug API, its key; NATS credentials and CUSTOM lines when given", () => {
    const follower = nodeConfigText({ role: "follower", key: undefined });
    assert.match(follower, /^ListenHost = 127\.0\.0\.1$/m);
    assert.match(follower, /^DebugApi = readwrite$/m);
    assert.doesNotMatch(follower, /LocalServerPrivKey|\[Cluster\]/);
    const server = nodeConfigText(
      { role: "audit", key },
      { nats: { user: "u", password: "p w", caFile: "/d/tls/ca.pem" }, app: ["CustomGenesisAllocation = FA1:5"] },
    );
    assert.match(server, new RegExp(`^IdentityChainID = ${key.identity}$`, "m"));
    assert.match(server, new RegExp(`^LocalServerPrivKey = ${key.privkey}$`, "m"));
    assert.match(server, new RegExp(`^LocalServerPublicKey = ${key.pubkey}$`, "m"));
    assert.match(server, /^CustomGenesisAllocation = FA1:5$/m);
    // [Cluster] comes after every [App] line
    assert.match(
      server,
      /\[App\][^[]*CustomGenesisAllocation[^[]*\[Cluster\]\nNatsUser = u\nNatsPassword = p w\nNatsTlsCA = \/d\/tls\/ca\.pem\n$/,
    );
  });

  test("route TLS goes inside the cluster block", () => {
    const servers = [0, 1, 2].map((i) => ({
      name: `n${i}`,
      clientPort: 10 + i,
      clusterPort: 20 + i,
      httpPort: 30 + i,
      dir: `/d/n${i}`,
    }));
    const conf = natsServerConfig({ clusterName: "c", servers }, servers[2]!, [], "tls { verify: true }");
    assert.match(conf, /^cluster \{ name: c, listen: 127\.0\.0\.1:22, tls \{ verify: true \}, routes: \[/m);
  });

  test("option checks name the flag", () => {
    const ok: DevnetOptions = { dir: "/d", federated: 3, audit: 1, followers: 1, nats: 3, blockTimeSeconds: 2 };
    validateDevnetOptions(ok);
    validateDevnetOptions({ ...ok, customNet: "acme-1_x" });
    assert.throws(() => validateDevnetOptions({ ...ok, federated: 0 }), /--federated/);
    assert.throws(() => validateDevnetOptions({ ...ok, nats: 17 }), /--nats/);
    assert.throws(() => validateDevnetOptions({ ...ok, audit: 1.5 }), /--audit/);
    assert.throws(() => validateDevnetOptions({ ...ok, blockTimeSeconds: 0 }), /--blktime/);
    assert.throws(() => validateDevnetOptions({ ...ok, faultTimeoutSeconds: 0 }), /--faulttimeout/);
    assert.throws(() => validateDevnetOptions({ ...ok, customNet: "a b" }), /--custom/);
  });

  test("a node may use its network's subjects, the JetStream API and inboxes, nothing else", () => {
    assert.deepEqual(nodePermissions("ledger.custom_0a0b0c0d", "ledgersets.custom_0a0b0c0d"), {
      publish: ["ledger.custom_0a0b0c0d.>", "ledgersets.custom_0a0b0c0d.>", "$JS.API.>", "_INBOX.>"],
      subscribe: ["ledger.custom_0a0b0c0d.>", "ledgersets.custom_0a0b0c0d.>", "_INBOX.>"],
    });
  });

  test("minute-0 VM order: the harness agrees with the node and with factomd's MakeMap by hand", () => {
    const ids = ["03", "01", "02"].map((x) => x.repeat(32));
    const sorted = [...ids].sort();
    for (let h = 0; h < 400; h++)
      for (const id of ids)
        assert.equal(minuteZeroVm(new Set(ids), h, id), minuteZeroVmIndex(sorted.indexOf(id), 3, h), `h ${h}`);
    // height 1, 3 feds: leader of VM j in minute 0 is (131 + 1 + j) mod 3 = (j + 0) mod 3 → fed f leads VM f
    assert.deepEqual(
      sorted.map((id) => minuteZeroVm(new Set(ids), 1, id)),
      [0, 1, 2],
    );
    // height 2: (262 + 1 + j) mod 3 = (j + 2) mod 3 → fed 0 leads VM 1, fed 1 VM 2, fed 2 VM 0
    assert.deepEqual(
      sorted.map((id) => minuteZeroVm(new Set(ids), 2, id)),
      [1, 2, 0],
    );
  });
});
