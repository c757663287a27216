/**
 * ledgerd's own groups of the configuration file, not part of the `configuration` result (spec §4.2.1):
 * [Cluster] (the federation, docs/cluster.md) and [Anchor] (anchoring, docs/anchoring.md). Part of the field
 * table of fields.ts.
 */
import type { GroupSpec } from "./fieldTypes.js";
import { SAFE } from "./limits.js";

/** The federation: NATS JetStream servers, this node's role, TLS to NATS, timeouts (docs/cluster.md). */
export const CLUSTER_GROUP: GroupSpec = {
  name: "Cluster",
  fields: [
    {
      name: "NatsURLs",
      type: "string",
      default: "",
      extension: true,
      doc: "NATS client URLs of the cluster's JetStream servers, comma-separated; empty = the single node (docs/cluster.md)",
    },
    {
      name: "Role",
      type: "string",
      default: "follower",
      choices: ["federated", "audit", "follower"],
      extension: true,
      doc: "federated | audit | follower (federated and audit need [App] IdentityChainID and LocalServerPrivKey)",
    },
    {
      name: "NatsUser",
      type: "string",
      default: "",
      extension: true,
      doc: "NATS user of this node: its role's user, federated, audit or follower (docs/cluster.md §2.3); empty = none",
    },
    {
      name: "NatsPassword",
      type: "string",
      default: "",
      secret: true,
      extension: true,
      doc: "NATS password of NatsUser; secret (keep this file 0600: a file others can read is warned about)",
    },
    {
      name: "NatsTlsCA",
      type: "string",
      default: "",
      extension: true,
      doc: "CA certificate (PEM) that signed the NATS servers' certificates; set = TLS to NATS (relative to the home directory)",
    },
    {
      name: "NatsTlsCert",
      type: "string",
      default: "",
      extension: true,
      doc: "this node's client certificate (PEM) for NATS servers that verify clients; with NatsTlsKey",
    },
    {
      name: "NatsTlsKey",
      type: "string",
      default: "",
      extension: true,
      doc: "the key (PEM) of NatsTlsCert",
    },
    {
      name: "Replicas",
      type: "int",
      default: "3",
      min: 1,
      max: 5,
      extension: true,
      doc: "replicas of the log stream when this node creates it (1 for one NATS server, 3 for three)",
    },
    {
      name: "FaultTimeout",
      type: "int",
      default: "120",
      min: 1,
      max: 86400,
      extension: true,
      doc: "seconds without a federated server's signature or end of minute before it is faulted",
    },
    {
      name: "RoundTimeout",
      type: "int",
      default: "30",
      min: 1,
      max: 86400,
      extension: true,
      doc: "seconds per election round",
    },
    {
      name: "SnapshotInterval",
      type: "int",
      default: "0",
      min: 0,
      max: 1000000,
      extension: true,
      doc: "blocks between certified snapshots (docs/cluster.md §1.13), e.g. 1000; the same on every node of a network; 0 = none made or used",
    },
  ],
};

/**
 * ledgerd's anchoring into an Ethereum-compatible chain (docs/anchoring.md). The reference node's
 * [anchor] group (its old in-node Bitcoin anchoring) used the same name: its four fields are accepted
 * and ignored, so that its files still load. Not part of the `configuration` result (spec §4.2.1).
 */
export const ANCHOR_GROUP: GroupSpec = {
  name: "Anchor",
  fields: [
    {
      name: "RpcUrl",
      type: "string",
      default: "",
      extension: true,
      doc: "JSON-RPC URL (http/https) of the Ethereum-compatible chain to anchor into; empty = this node does not anchor (also -anchorrpc)",
    },
    {
      name: "KeyFile",
      type: "string",
      default: "",
      extension: true,
      doc: "file holding the hex private key (64 characters, 0x optional) of the paying Ethereum account; relative to the home directory; never logged (also -anchorkey)",
    },
    {
      name: "ECKeyFile",
      type: "string",
      default: "",
      extension: true,
      doc: "file holding the entry credit private key (Es…) that pays for the anchor records and signs them; relative to the home directory",
    },
    {
      name: "ChainId",
      type: "int",
      default: "1",
      min: 1,
      max: SAFE,
      extension: true,
      doc: "chain ID the RPC must serve (1 = Ethereum mainnet, 11155111 = Sepolia, 1337 = ganache)",
    },
    {
      name: "Interval",
      type: "int",
      default: "1",
      min: 1,
      max: 1_000_000,
      extension: true,
      doc: "anchor every N saved directory blocks",
    },
    {
      name: "MaxWindow",
      type: "int",
      default: "1000",
      min: 1,
      max: 100_000,
      extension: true,
      doc: "most directory blocks in one anchor (the reference's WindowSize); a backlog goes in windows of this size",
    },
    {
      name: "Confirmations",
      type: "int",
      default: "12",
      min: 1,
      max: 100_000,
      extension: true,
      doc: "external blocks, the anchor's own included, before the anchor is recorded",
    },
    {
      name: "GasLimit",
      type: "int",
      default: "100000",
      min: 21_000,
      max: 30_000_000,
      extension: true,
      doc: "most gas one anchor transaction may use (a plain anchor uses about 22,000)",
    },
    {
      name: "MaxFeeGwei",
      type: "int",
      default: "0",
      min: 0,
      max: 1_000_000,
      extension: true,
      doc: "most gwei per gas an anchor may pay; 0 = what the chain suggests; above it anchoring waits",
    },
    {
      name: "To",
      type: "string",
      default: "",
      extension: true,
      doc: "0x address the anchor transactions go to (e.g. an anchor contract); empty = the paying account itself",
    },
    {
      name: "ServerECPrivKey",
      type: "string",
      default: "",
      secret: true,
      extension: true,
      doc: "reference field; ignored",
    },
    { name: "ServerPublicKey", type: "string", default: "", extension: true, doc: "reference field; ignored" },
    { name: "AnchorChainID", type: "string", default: "", extension: true, doc: "reference field; ignored" },
    {
      name: "ConfirmationsNeeded",
      type: "int",
      default: "0",
      min: 0,
      max: SAFE,
      extension: true,
      doc: "reference field; ignored",
    },
  ],
};
