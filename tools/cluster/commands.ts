/**
 * `ledgerd-cluster`: an operator's tool for a cluster (docs/cluster.md).
 *
 *   ledgerd-cluster new-identity
 *       a fresh server identity: {"identity","privkey","pubkey"} (64 hex each) for [App] IdentityChainID,
 *       LocalServerPrivKey, LocalServerPublicKey
 *   ledgerd-cluster add-server --url URL --role federated|audit --identity HEX --pubkey HEX [--skeleton-key HEX]
 *       make a server an authority: a skeleton-signed add-server message (send-raw-message 0x16) to any
 *       node of the cluster; answered once that node applied it (the server signs from the next block)
 *   ledgerd-cluster promote|demote|remove-server --url URL --identity HEX --height N|+N [--skeleton-key HEX] [--dry-run]
 *       change a server's role at a height: a skeleton-signed authority-change message (send-raw-message 0x17)
 *   ledgerd-cluster rotate-key --url URL --identity HEX --key HEX --new-pubkey HEX --height N|+N [--dry-run]
 *       a server's new signing key from a height, signed with its key in force (send-raw-message 0x18)
 *   ledgerd-cluster set-ec-rate --url URL --rate N --height N|+N [--rate-key HEX] [--dry-run]
 *       a new entry-credit rate from a height, signed by the rate authority (send-raw-message 0x19)
 *   ledgerd-cluster swap --from A.conf --to B.conf --height N|+N [--url URL] [--reload-from URL] [--reload-to URL] [--dry-run]
 *       brain swap: A stops signing for its identity at N, B (same identity and key) starts at N
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
import { encodeRecord, type OperatorRecord, signRecord } from "../../src/cluster/records.js";
import { didYouMean } from "../../src/config/suggest.js";
import { publicKeyFromSeed } from "../../src/crypto/ed25519.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { LOCAL_BOOTSTRAP_SEED_HEX } from "../../src/protocol/genesis.js";
import { networkId } from "../../src/protocol/network.js";
import { applySwapSide, LOCAL_RATE_AUTHORITY_SEED_HEX, parseRate, setEcRateMessage, swapPlan } from "./maintenance.js";

const USAGE = `usage:
  ledgerd-cluster new-identity
  ledgerd-cluster add-server --url URL --role federated|audit --identity HEX --pubkey HEX [--skeleton-key HEX]
  ledgerd-cluster promote|demote|remove-server --url URL --identity HEX --height N|+N [--skeleton-key HEX] [--dry-run]
  ledgerd-cluster rotate-key --url URL --identity HEX --key HEX --new-pubkey HEX --height N|+N [--dry-run]
  ledgerd-cluster set-ec-rate --url URL --rate N --height N|+N [--rate-key HEX] [--dry-run]
  ledgerd-cluster swap --from A.conf --to B.conf --height N|+N [--url URL] [--reload-from URL] [--reload-to URL] [--dry-run]
  ledgerd-cluster nats-users --network LOCAL|CUSTOM [--customnet NAME]
  ledgerd-cluster COMMAND -h     (a command's page)
`;

/** Each governance verb's page (`ledgerd-cluster VERB -h`; docs/cluster.md "Maintenance without downtime"). */
const HELP: Record<string, string> = {
  promote: `ledgerd-cluster promote --url URL --identity HEX --height N|+N [--skeleton-key HEX] [--dry-run]

Make an audit server federated from height N (admin entry 05 with DBHeight N, in the block the record lands
in). N must be after the open height and at most 10000 after it; +N means N blocks after the open height.
Signed with the network's skeleton key (default: LOCAL's well-known bootstrap seed; CUSTOM: its own).
Refused (JSON-RPC -32602, the reason in data): another signature, a past height, a server that is not audit
at N, a server with a change already scheduled, a height before a change already scheduled.
--dry-run prints the record and the send-raw-message hex without sending it.
`,
  demote: `ledgerd-cluster demote --url URL --identity HEX --height N|+N [--skeleton-key HEX] [--dry-run]

Make a federated server an audit server from height N (admin entry 06 with DBHeight N). Refused as promote
is, and when fewer federated servers would be left at N than a majority (⌊F/2⌋+1) of the F federated at the
open height: with 3 federated one may leave, with 2 none.
--dry-run prints the record and the send-raw-message hex without sending it.
`,
  "remove-server": `ledgerd-cluster remove-server --url URL --identity HEX --height N|+N [--skeleton-key HEX] [--dry-run]

Take a federated or audit server out of the authority set from height N (admin entry 07 with DBHeight N).
Refused as demote is (the majority rule applies to a federated server only).
--dry-run prints the record and the send-raw-message hex without sending it.
`,
  "rotate-key": `ledgerd-cluster rotate-key --url URL --identity HEX --key HEX --new-pubkey HEX --height N|+N [--dry-run]

Publish the server's new signing key, in force from height N (admin entry 08 with DBHeight N). --key is
the server's current private key (64 hex, LocalServerPrivKey): the record is signed with it. From N on,
only signatures with the new key count (dbSigs, boundaries, votes, heartbeats); give the server the new key
before N ([App] LocalServerPrivKey after a restart, or FederationOptions.nextSeed) — a server holding only
the old key stays silent from N. Refused: a signature not by the key in force, a height before the open
height + 2 (+2 is the nearest: the block after the record's is signed with the old key), a rotation
already scheduled for the identity, the key in force, another authority's key.
--dry-run prints the record and the send-raw-message hex without sending it.
`,
  "set-ec-rate": `ledgerd-cluster set-ec-rate --url URL --rate N --height N|+N [--rate-key HEX] [--dry-run]

Announce a new entry-credit rate: N base units of the asset per entry credit from height H on (a setEcRate
record, send-raw-message 0x19). From H, commits' credits bought and every transaction's fee use the new rate,
and the asset block of H carries it (ExchRate); entry-credit-rate answers it from H, predictive-fer answers
it from the record's block until H. --rate-key is the rate authority's private key (64 hex): LOCAL's is the
reference's ExchangeRateAuthorityPublicKeyLocalNet, private key all zeroes (the default); a CUSTOM network's
is the key of [App] ExchangeRateAuthorityPublicKey (or, when empty, its bootstrap key).
Refused (JSON-RPC -32602, the reason in data): another signature, a rate of 0, a past height, a height more
than 10000 blocks ahead, a height not after a change already announced, the same change twice (a replay).
--dry-run prints the record and the send-raw-message hex without sending it.
`,
  swap: `ledgerd-cluster swap --from A.conf --to B.conf --height N|+N [--url URL] [--reload-from URL] [--reload-to URL] [--dry-run]

Brain swap: move a server's identity from machine A to machine B at height N, with no fault vote, no gap and
no double signature. Writes [App] IdentityStopHeight = N into A's file and [App] IdentityActivationHeight = N
into B's (and B's IdentityStopHeight, from a swap the other way, back to 0); both files must name the same
[App] IdentityChainID and LocalServerPrivKey. A signs the heights before N, B the heights from N: start B
(it follows the log and is synced) before N; a running node applies the new heights on reload-configuration
(--reload-from A's URL, --reload-to B's, with [App] DebugApi = readwrite) or SIGHUP. +N needs a URL (any
node: the open height). After N, stop A at leisure. Swapping back is the same command the other way.
--dry-run prints both changes without writing.
`,
};

/** The options each verb takes (for "did you mean" on a misspelled one). */
const VERB_OPTIONS: Record<string, string[]> = {
  promote: ["url", "identity", "height", "skeleton-key"],
  demote: ["url", "identity", "height", "skeleton-key"],
  "remove-server": ["url", "identity", "height", "skeleton-key"],
  "rotate-key": ["url", "identity", "key", "new-pubkey", "height"],
  "set-ec-rate": ["url", "rate", "height", "rate-key"],
  swap: ["from", "to", "height", "url", "reload-from", "reload-to"],
};

/** Refuse an option the verb does not take, suggesting the nearest it does. */
function checkOptions(command: string, o: Map<string, string>): void {
  const known = VERB_OPTIONS[command];
  if (known === undefined) return;
  for (const k of o.keys())
    if (!known.includes(k))
      throw new Error(`${command}: unknown option --${k}${didYouMean(k, known, "--")} (ledgerd-cluster ${command} -h)`);
}

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

/** The send-raw-message type of each operator record (rpc/v2/submit.ts RawMessageType). */
const RAW_TYPE = { authorityChange: 0x17, rotateKey: 0x18 } as const;

/** A governance record as an operator reads it (`--dry-run`). */
export function describeRecord(rec: OperatorRecord): Record<string, string | number> {
  if (rec.kind === "authorityChange")
    return {
      kind: rec.kind,
      change: rec.change,
      identity: toHex(rec.identity),
      activationHeight: rec.activationHeight,
      signature: toHex(rec.signature),
    };
  if (rec.kind === "rotateKey")
    return {
      kind: rec.kind,
      identity: toHex(rec.identity),
      newKey: toHex(rec.newKey),
      activationHeight: rec.activationHeight,
      signature: toHex(rec.signature),
    };
  if (rec.kind === "setEcRate")
    return {
      kind: rec.kind,
      rate: rec.rate.toString(),
      activationHeight: rec.activationHeight,
      signature: toHex(rec.signature),
    };
  return { kind: rec.kind, role: rec.role, identity: toHex(rec.identity), publicKey: toHex(rec.publicKey) };
}

/** The hex of a send-raw-message message for an authority change (0x17) or a key rotation (0x18). */
export function governanceMessage(rec: Extract<OperatorRecord, { kind: "authorityChange" | "rotateKey" }>): string {
  const bytes = encodeRecord(rec);
  bytes[0] = RAW_TYPE[rec.kind];
  return toHex(bytes);
}

/** The activation height an operator gave: N, or +N blocks after the open height (asks the node). */
async function activationHeight(text: string, client: NodeClient | undefined): Promise<number> {
  const m = /^(\+?)(\d{1,9})$/.exec(text);
  if (m === null) throw new Error(`--height: expected a height N or +N, got ${JSON.stringify(text)}`);
  const n = Number(m[2]);
  if (m[1] === "") return n;
  if (client === undefined) throw new Error("--height +N needs --url (the open height is the node's)");
  const h = await client.call<{ directoryblockheight: number }>("heights", {});
  return h.directoryblockheight + 1 + n;
}

/** promote / demote / remove-server / rotate-key: build, sign, and send (or print, with --dry-run). */
async function governance(command: string, rest: string[]): Promise<number> {
  const dryRun = rest.includes("--dry-run");
  const o = options(rest.filter((a) => a !== "--dry-run"));
  checkOptions(command, o);
  if (command === "swap") return await swap(o, dryRun);
  const url = o.get("url");
  if (url === undefined && !dryRun) throw new Error("--url is required");
  const client = url === undefined ? undefined : new NodeClient({ url });
  const network =
    client === undefined
      ? networkId("LOCAL")
      : ((await client.call<{ NetworkID: number }>("network-info", {}, "debug")).NetworkID ?? networkId("LOCAL"));
  if (command === "set-ec-rate") {
    const rate = parseRate(need(o, "rate"));
    const height = await activationHeight(need(o, "height"), client);
    const { record, message } = setEcRateMessage({
      rate,
      activationHeight: height,
      seed: fromHex(o.get("rate-key") ?? LOCAL_RATE_AUTHORITY_SEED_HEX, "--rate-key", 32),
      network,
    });
    if (dryRun) {
      process.stdout.write(`${JSON.stringify({ record, message }, null, 2)}\n`);
      return 0;
    }
    await client!.call("send-raw-message", { message });
    process.stdout.write(`set-ec-rate: ${rate} base units per entry credit scheduled for height ${height}\n`);
    return 0;
  }
  const identity = fromHex(need(o, "identity"), "--identity", 32);
  const height = await activationHeight(need(o, "height"), client);
  const rec =
    command === "rotate-key"
      ? signRecord(
          {
            kind: "rotateKey" as const,
            identity,
            newKey: fromHex(need(o, "new-pubkey"), "--new-pubkey", 32),
            activationHeight: height,
            signature: new Uint8Array(64),
          },
          network,
          fromHex(need(o, "key"), "--key", 32),
        )
      : signRecord(
          {
            kind: "authorityChange" as const,
            change: command === "remove-server" ? "remove" : (command as "promote" | "demote"),
            identity,
            activationHeight: height,
            signature: new Uint8Array(64),
          },
          network,
          fromHex(o.get("skeleton-key") ?? LOCAL_BOOTSTRAP_SEED_HEX, "--skeleton-key", 32),
        );
  const message = governanceMessage(rec);
  if (dryRun) {
    process.stdout.write(`${JSON.stringify({ record: describeRecord(rec), message }, null, 2)}\n`);
    return 0;
  }
  await client!.call("send-raw-message", { message });
  process.stdout.write(`${command}: ${toHex(identity)} scheduled for height ${height}\n`);
  return 0;
}

/** `swap`: write both sides' heights (or print them, with --dry-run), then reload the running sides asked. */
async function swap(o: Map<string, string>, dryRun: boolean): Promise<number> {
  const url = o.get("url") ?? o.get("reload-from") ?? o.get("reload-to");
  const height = await activationHeight(need(o, "height"), url === undefined ? undefined : new NodeClient({ url }));
  const plan = swapPlan(need(o, "from"), need(o, "to"), height);
  const show = (s: typeof plan.a) => ({ file: s.file, set: s.set.map((x) => `[App] ${x.field} = ${x.value}`) });
  if (dryRun) {
    process.stdout.write(
      `${JSON.stringify({ identity: plan.identity, height, from: show(plan.a), to: show(plan.b) }, null, 2)}\n`,
    );
    return 0;
  }
  applySwapSide(plan.b);
  applySwapSide(plan.a);
  process.stdout.write(
    `swap: ${plan.identity.slice(0, 16)}… signs on ${plan.a.file} until height ${height - 1}, on ${plan.b.file} from ${height}\n`,
  );
  for (const [flag, side] of [
    ["reload-from", "stops signing"],
    ["reload-to", "starts signing"],
  ] as const) {
    const target = o.get(flag);
    if (target === undefined) continue;
    await new NodeClient({ url: target }).call("reload-configuration", {}, "debug");
    process.stdout.write(`swap: ${target} reloaded its configuration (${side} at ${height})\n`);
  }
  if (o.get("reload-from") === undefined)
    process.stdout.write("swap: reload A now (reload-configuration or kill -HUP), and start or reload B\n");
  return 0;
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
    if (command !== undefined && command in HELP) {
      if (rest.includes("-h") || rest.includes("--help")) {
        process.stdout.write(HELP[command]!);
        return 0;
      }
      return await governance(command, rest);
    }
    if (command === "nats-users") {
      const o = options(rest);
      process.stdout.write(`${natsUsersBlock(need(o, "network"), o.get("customnet") ?? "").join("\n")}\n`);
      return 0;
    }
    const known = ["new-identity", "add-server", "nats-users", ...Object.keys(HELP)];
    if (command !== undefined && command !== "-h" && command !== "--help")
      process.stderr.write(
        `ledgerd-cluster: unknown command ${JSON.stringify(command)}${didYouMean(command, known)}\n`,
      );
    process.stderr.write(USAGE);
    return command === "-h" || command === "--help" ? 0 : 2;
  } catch (e) {
    process.stderr.write(`ledgerd-cluster: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}
