/**
 * `ledgerd-cluster`: an operator's tool for a cluster (docs/cluster.md).
 *
 *   ledgerd-cluster new-identity
 *       a fresh server identity: {"identity","privkey","pubkey"} (64 hex each) for [App] IdentityChainID,
 *       LocalServerPrivKey, LocalServerPublicKey
 *   ledgerd-cluster add-server --url URL --role federated|audit --identity HEX --pubkey HEX [--skeleton-key HEX]
 *       make a server an authority: a skeleton-signed add-server message (send-raw-message 0x16) to any
 *       node of the cluster; answered once that node applied it (the server signs from the next block)
 *   ledgerd-cluster nats-users --network LOCAL|CUSTOM [--customnet NAME]
 *       the `authorization` block of nats.conf for the network: one user per role with the permissions of
 *       docs/cluster.md §2.3, and an admin user; each password a placeholder for its bcrypt hash
 *
 * The skeleton key defaults to LOCAL's (the well-known bootstrap seed); CUSTOM networks pass their own.
 */
import { randomBytes } from "node:crypto";
import { NodeClient } from "../../src/client/index.js";
import { clusterNames } from "../../src/cluster/clusterConfig.js";
import { NATS_USER_NAMES, type NatsUserName, natsAuthorizationBlock } from "../../src/cluster/natsPermissions.js";
import { encodeRecord, signRecord } from "../../src/cluster/records.js";
import { publicKeyFromSeed } from "../../src/crypto/ed25519.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { LOCAL_BOOTSTRAP_SEED_HEX } from "../../src/protocol/genesis.js";
import { networkId } from "../../src/protocol/network.js";

const USAGE = `usage:
  ledgerd-cluster new-identity
  ledgerd-cluster add-server --url URL --role federated|audit --identity HEX --pubkey HEX [--skeleton-key HEX]
  ledgerd-cluster nats-users --network LOCAL|CUSTOM [--customnet NAME]
`;

function options(args: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("--")) throw new Error(`unexpected argument ${JSON.stringify(a)}`);
    const eq = a.indexOf("=");
    if (eq > 0) out.set(a.slice(2, eq), a.slice(eq + 1));
    else {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      out.set(a.slice(2), v);
    }
  }
  return out;
}

function need(o: Map<string, string>, name: string): string {
  const v = o.get(name);
  if (v === undefined || v === "") throw new Error(`--${name} is required`);
  return v;
}

/** A fresh identity: random 32-byte identity chain ID and ed25519 seed. */
export function newIdentity(): { identity: string; privkey: string; pubkey: string } {
  const seed = randomBytes(32);
  return { identity: toHex(randomBytes(32)), privkey: toHex(seed), pubkey: toHex(publicKeyFromSeed(seed)) };
}

/** The hex of a send-raw-message add-server message (type 0x16 ‖ the record's fields ‖ skeleton signature). */
export function addServerMessage(p: {
  role: "federated" | "audit";
  identity: Uint8Array;
  publicKey: Uint8Array;
  skeletonSeed: Uint8Array;
  network: number;
  timeMs: number;
}): string {
  const rec = signRecord(
    {
      kind: "addServer",
      role: p.role,
      identity: p.identity,
      publicKey: p.publicKey,
      timeMs: p.timeMs,
      signature: new Uint8Array(64),
    },
    p.network,
    p.skeletonSeed,
  );
  const bytes = encodeRecord(rec);
  bytes[0] = 0x16;
  return toHex(bytes);
}

/**
 * The `authorization` block of nats.conf for a LOCAL or CUSTOM network (docs/cluster.md §2.3), each password
 * a placeholder naming the user: replace it with the bcrypt hash of that user's password (`nats server
 * passwd`).
 */
export function natsUsersBlock(network: string, customNet: string): string[] {
  const net = network.toUpperCase();
  if (net !== "LOCAL" && net !== "CUSTOM") throw new Error(`--network: a cluster runs LOCAL or CUSTOM, got ${network}`);
  if (net === "CUSTOM" && customNet === "") throw new Error("--customnet is required with --network CUSTOM");
  const names = clusterNames({ network: net, customNet });
  const placeholders = Object.fromEntries(
    NATS_USER_NAMES.map((u) => [u, `<bcrypt hash of the ${u} password>`]),
  ) as Record<NatsUserName, string>;
  return [
    `# NATS users of ${names.stream} (ledgerd-cluster nats-users; docs/cluster.md §2.3)`,
    ...natsAuthorizationBlock(names, placeholders),
  ];
}

/** Run one command; returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === "new-identity") {
      process.stdout.write(`${JSON.stringify(newIdentity())}\n`);
      return 0;
    }
    if (command === "add-server") {
      const o = options(rest);
      const role = need(o, "role");
      if (role !== "federated" && role !== "audit") throw new Error(`--role: expected federated or audit, got ${role}`);
      const client = new NodeClient({ url: need(o, "url") });
      const info = await client.call<{ NetworkID: number }>("network-info", {}, "debug");
      const message = addServerMessage({
        role,
        identity: fromHex(need(o, "identity"), "--identity", 32),
        publicKey: fromHex(need(o, "pubkey"), "--pubkey", 32),
        skeletonSeed: fromHex(o.get("skeleton-key") ?? LOCAL_BOOTSTRAP_SEED_HEX, "--skeleton-key", 32),
        network: info.NetworkID ?? networkId("LOCAL"),
        timeMs: Date.now(),
      });
      await client.call("send-raw-message", { message });
      process.stdout.write(`added ${role} server ${need(o, "identity")}\n`);
      return 0;
    }
    if (command === "nats-users") {
      const o = options(rest);
      process.stdout.write(`${natsUsersBlock(need(o, "network"), o.get("customnet") ?? "").join("\n")}\n`);
      return 0;
    }
    process.stderr.write(USAGE);
    return 2;
  } catch (e) {
    process.stderr.write(`ledgerd-cluster: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}
