/**
 * The production shape of docs/cluster.md §2.2 on loopback (`ledgerd-devnet up --custom NAME
 * --nats-auth`): a CUSTOM network with its own bootstrap identity, key and genesis allocation, and a NATS
 * whose client port requires TLS and a user, its routes mutually verified TLS. Checked: a client without
 * TLS or without the password is refused; the nodes — given the user, password and CA in [Cluster] —
 * form the federation under the network's own key and agree block for block; the genesis pays the
 * configured allocation on every node; the log is the CUSTOM network's own stream. Runtime: ~20 s.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { connect } from "@nats-io/transport-node";
import { clusterNames } from "../../src/cluster/clusterConfig.js";
import { natsRequest } from "../support/natsRequest.js";
import {
  assertIdenticalBlocks,
  assertSignatureMajority,
  federatedSetsFromChain,
  serverKeys,
  startTestDevnet,
  type TestDevnet,
  waitSavedHeight,
} from "../support/testDevnet.js";

/** Base units per unit of the asset. */
const BASE_UNITS = 100_000_000;

describe("devnet in the production shape: a CUSTOM network, NATS with TLS and a user", () => {
  let net: TestDevnet;
  before(async () => {
    net = await startTestDevnet({
      federated: 2,
      audit: 0,
      followers: 1,
      nats: 3,
      blockTimeSeconds: 2,
      natsAuth: true,
      customNet: "devnet-production-test",
    });
  });
  after(() => net?.cleanup());

  test("a client without TLS, or without the password, is refused; with both it connects", async () => {
    const port = net.devnet.nats.servers[0]!.layout.clientPort;
    // the server answers a plain CONNECT on a TLS port by closing the connection: seen as a close, an -ERR or a reset
    await assert.rejects(natsRequest(port, "ledger.x", "plain text", 3000), /closed|TLS|ERR|ECONNRESET|EPIPE/);
    const creds = net.devnet.natsClient!;
    await assert.rejects(
      connect({ servers: net.devnet.nats.urls, timeout: 3000, reconnect: false, tls: { caFile: creds.caFile } }),
      /Authorization Violation/,
    );
    const nc = await connect({
      servers: net.devnet.nats.urls,
      timeout: 3000,
      reconnect: false,
      user: creds.user,
      pass: creds.password,
      tls: { caFile: creds.caFile },
    });
    await nc.close();
  });

  test("the nodes agree block for block, signed under the network's own keys; the genesis pays the allocation", async () => {
    const custom = net.devnet.custom!;
    assert.equal(net.devnet.stream, clusterNames({ network: "CUSTOM", customNet: custom.name }).stream);
    assert.match(net.devnet.stream, /^LEDGER_CUSTOM_[0-9a-f]{8}$/);
    assert.notEqual(await net.devnet.nats.waitStreamLeader(net.devnet.stream), undefined);
    await waitSavedHeight(net.devnet.nodes, 4);
    await assertIdenticalBlocks(net.devnet.nodes, 1, 4);
    const fed0 = net.devnet.node("fed0");
    assert.equal(fed0.identity, custom.bootstrap.identity, "fed0 is the network's bootstrap server");
    const sets = await federatedSetsFromChain(fed0, 4, custom.bootstrap.identity);
    for (let h = 2; h <= 4; h++) await assertSignatureMajority(fed0, h, sets.get(h)!, serverKeys(net.devnet));
    for (const n of net.devnet.nodes) {
      const { balance } = await n.client.call<{ balance: number }>("asset-balance", {
        address: custom.allocationAddress,
      });
      assert.equal(balance, custom.allocationUnits * BASE_UNITS, `${n.name}: the genesis allocation`);
    }
  });
});
