/**
 * A devnet whose NATS requires TLS and a user (`ledgerd-devnet up --nats-auth`, docs/cluster.md §2.2):
 * the nats-servers route to each other over mutually verified TLS, a client without TLS or without the
 * password is refused, and the nodes — given the user, the password and the CA in [Cluster] — form the
 * federation and agree block for block. Runtime: ~20 s.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { connect } from "@nats-io/transport-node";
import { natsRequest } from "../support/natsRequest.js";
import { assertIdenticalBlocks, startTestDevnet, waitSavedHeight } from "../support/testDevnet.js";
describe("devnet with NATS TLS and a user", { timeout: 180_000 }, () => {
    let net;
    before(async () => {
        net = await startTestDevnet({
            federated: 2,
            audit: 0,
            followers: 1,
            nats: 3,
            blockTimeSeconds: 2,
            natsAuth: true,
        });
    });
    after(() => net?.cleanup());
    test("a client without TLS, or without the password, is refused; with both it connects", async () => {
        const port = net.devnet.nats.servers[0].layout.clientPort;
        await assert.rejects(natsRequest(port, "ledger.local.x", "plain text", 3000), /closed|TLS|ERR/);
        const state = net.devnet.natsClient;
        await assert.rejects(connect({ servers: net.devnet.nats.urls, timeout: 3000, reconnect: false, tls: { caFile: state.caFile } }), /Authorization Violation/);
        const nc = await connect({
            servers: net.devnet.nats.urls,
            timeout: 3000,
            reconnect: false,
            user: state.user,
            pass: state.password,
            tls: { caFile: state.caFile },
        });
        await nc.close();
    });
    test("the nodes, connected with the credentials, agree block for block", async () => {
        await waitSavedHeight(net.devnet.nodes, 3);
        await assertIdenticalBlocks(net.devnet.nodes, 1, 3);
    });
});
//# sourceMappingURL=devnet-nats-auth.test.js.map