/**
 * The federation under faults of its network (test/support/clusterFaults.ts): the stream-leader nats-server
 * stopped (SIGSTOP), a federated server cut from NATS with nftables, and a rolling restart of every node.
 */
import { describeFaults } from "../support/clusterFaults.js";

describeFaults("network", ["natsLeader", "partition", "rollingRestart"]);
