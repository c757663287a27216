/**
 * The devnet's pure parts: what it writes into each node's and each nats-server's configuration, the
 * option checks, the least NATS permissions, and the harness's minute-0 VM order (cross-checked against
 * the node's own implementation and against factomd's MakeMap formula by hand).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { clusterNames } from "../../../src/cluster/clusterConfig.js";
import { minuteZeroVmIndex } from "../../../src/cluster/dbSig.js";
import { natsConfigPermissions, nodePermissions } from "../../../src/cluster/natsPermissions.js";
import { type DevnetOptions, validateDevnetOptions } from "../../../tools/devnet/devnet.js";
import { nodeConfigText } from "../../../tools/devnet/ledgerdNode.js";
import { natsServerConfig } from "../../../tools/devnet/natsCluster.js";
import { minuteZeroVm } from "../../support/testDevnet.js";

/** NATS subject matching: `*` one token, `>` the rest (one token at least). */
function natsMatches(pattern: string, subject: string): boolean {
  const p = pattern.split(".");
  const t = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === ">") return t.length > i;
    if (i >= t.length || (p[i] !== "*" && p[i] !== t[i])) return false;
  }
  return p.length === t.length;
}

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

  test("each role's NATS user: its network's subjects and the JetStream reads it needs; no stream administration", () => {
    const names = clusterNames({ network: "CUSTOM", customNet: "acme" });
    const fed = nodePermissions("federated", names);
    const audit = nodePermissions("audit", names);
    const follower = nodePermissions("follower", names);
    const admin = [names.stream, names.setsStream, names.snapsStream].flatMap((s) =>
      ["PURGE", "DELETE", "UPDATE", "MSG.DELETE"].map((op) => `$JS.API.STREAM.${op}.${s}`),
    );
    for (const p of [fed, audit, follower]) {
      // denied outright, and in no allow list (not even through a wildcard)
      assert.deepEqual(p.publish.deny, admin);
      for (const subject of admin)
        for (const a of p.publish.allow) assert.ok(!natsMatches(a, subject), `${a} lets ${subject} through`);
      assert.ok(!p.publish.allow.some((a) => a.startsWith("_INBOX")), "replies need no publish right");
    }
    // servers append to the log and the archive and answer forwarded writes; only federated servers create
    assert.ok(
      fed.publish.allow.includes(`${names.subjectPrefix}.>`) &&
        audit.publish.allow.includes(`${names.subjectPrefix}.>`),
    );
    assert.ok(
      audit.publish.allow.includes(`${names.setsSubjectPrefix}.>`),
      "a promoted audit server writes block sets",
    );
    assert.ok(fed.publish.allow.includes(`$JS.API.STREAM.CREATE.${names.stream}`));
    // certified snapshots (docs/cluster.md §1.13): federated servers store them, every role reads them
    assert.ok(fed.publish.allow.includes(`${names.snapsSubjectPrefix}.>`));
    assert.ok(
      ![audit, follower].some((p) => p.publish.allow.some((a) => natsMatches(a, `${names.snapsSubjectPrefix}.9.0`))),
    );
    for (const p of [fed, audit, follower])
      assert.ok(p.publish.allow.includes(`$JS.API.DIRECT.GET.${names.snapsStream}.>`), "every role reads snapshots");
    assert.ok(!audit.publish.allow.some((a) => a.includes("STREAM.CREATE")));
    assert.deepEqual(fed.subscribe.allow, ["_INBOX_federated.>", names.intakeSubject, `${names.intakeSubject}.all`]);
    assert.ok(fed.allowResponses && audit.allowResponses);
    // a follower: no log subject, no archive subject, no create; its writes go on the intake subject
    assert.deepEqual(
      follower.publish.allow.filter((a) => !a.startsWith("$JS.API.")),
      [names.intakeSubject, `${names.intakeSubject}.all`],
    );
    assert.ok(!follower.publish.allow.some((a) => a.includes("STREAM.CREATE")));
    assert.deepEqual(follower.subscribe.allow, ["_INBOX_follower.>"]);
    assert.equal(follower.allowResponses, false);
    assert.match(
      natsConfigPermissions(follower),
      /^\{ publish: \{ allow: \[.*\], deny: \[.*\] \}, subscribe: \{ allow: \["_INBOX_follower\.>"\] \} \}$/,
    );
    assert.match(natsConfigPermissions(fed), /allow_responses: true \}$/);
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
