/**
 * Users and TLS for a devnet's NATS: the production shape of docs/cluster.md §2.2–2.3 on loopback. Every
 * devnet has one NATS user per role — federated, audit, follower — with the permissions of
 * src/cluster/natsPermissions.ts, and an admin user for the operator's `nats stream …` (and the tests'
 * purges). `--nats-auth` adds TLS: one self-signed certificate for 127.0.0.1 serves the nats-servers' client
 * port, their routes (mutually verified) and, as the CA file, the nodes. nats.conf holds only bcrypt hashes of the
 * random passwords and is written 0600; the passwords themselves are in the nodes' ledgerd.conf (0600) and
 * devnet-state.json (0600). No `accounts` block sits next to the `authorization` block (on 2.9.10 that
 * pairing with a system account is CVE-2023-47090).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import bcrypt from "bcryptjs";
import { generate } from "selfsigned";
import {
  type ClusterSubjects,
  NATS_USER_NAMES,
  type NatsUserName,
  natsAuthorizationBlock,
} from "../../src/cluster/natsPermissions.js";

/** The NATS users of a devnet: one per node role, and the operator's (natsPermissions.ts). */
export const NATS_USERS = NATS_USER_NAMES;
export type { NatsUserName };

/** User name and clear password of each user (the name is the role's). */
export type NatsUsers = Record<NatsUserName, { user: string; password: string }>;

/** The nats-servers' TLS files (`--nats-auth`). */
export interface NatsTls {
  /** PEM certificate of the nats-servers; also the CA file the nodes trust */
  certFile: string;
  keyFile: string;
}

export interface NatsSecurity extends NatsTls {
  users: NatsUsers;
}

/** Fresh random passwords for the devnet's users. */
export function createNatsUsers(): NatsUsers {
  return Object.fromEntries(
    NATS_USERS.map((u) => [u, { user: u, password: randomBytes(18).toString("base64url") }]),
  ) as NatsUsers;
}

/** Days a devnet certificate is valid: a devnet lives for hours; a year spares a restart surprise. */
const CERT_DAYS = 365;
/**
 * bcrypt cost of the passwords in nats.conf. nats-server checks the hash at every connect: 10 (~50 ms in Go
 * here) keeps a devnet's reconnects quick; `nats server passwd` uses 11, which production may keep.
 */
const BCRYPT_COST = 10;

/** Write `<dir>/tls/nats-cert.pem` and `nats-key.pem` (self-signed, SAN 127.0.0.1 and localhost) and pick passwords. */
export async function createNatsSecurity(dir: string): Promise<NatsSecurity> {
  return { ...(await createNatsTls(dir)), users: createNatsUsers() };
}

/** Write `<dir>/tls/nats-cert.pem` and `nats-key.pem` (self-signed, SAN 127.0.0.1 and localhost). */
export async function createNatsTls(dir: string): Promise<NatsTls> {
  const tlsDir = join(dir, "tls");
  mkdirSync(tlsDir, { recursive: true });
  const now = new Date();
  const pems = await generate([{ name: "commonName", value: "ledgerd devnet nats" }], {
    keyType: "ec",
    curve: "P-256",
    algorithm: "sha256",
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + CERT_DAYS * 86_400_000),
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", digitalSignature: true, keyCertSign: true, critical: true },
      // routes present it as a client certificate to each other (`verify: true`)
      { name: "extKeyUsage", serverAuth: true, clientAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 7, ip: "127.0.0.1" },
          { type: 2, value: "localhost" },
        ],
      },
    ],
  });
  const certFile = join(tlsDir, "nats-cert.pem");
  const keyFile = join(tlsDir, "nats-key.pem");
  writeFileSync(certFile, pems.cert, { mode: 0o644 });
  writeFileSync(keyFile, pems.private, { mode: 0o600 });
  return { certFile, keyFile };
}

/**
 * The lines of nats.conf for the client port: the three role users limited to their permissions
 * (natsPermissions.ts) and the admin user with every subject, passwords as bcrypt hashes; TLS required when
 * `s` has its files (NatsSecurity), not when it is the users alone.
 */
export function natsClientSecurityConfig(s: NatsSecurity | { users: NatsUsers }, names: ClusterSubjects): string[] {
  const hashes = Object.fromEntries(
    NATS_USERS.map((u) => [u, bcrypt.hashSync(s.users[u].password, BCRYPT_COST)]),
  ) as Record<NatsUserName, string>;
  return [
    ...("certFile" in s
      ? [`tls { cert_file: ${JSON.stringify(s.certFile)}, key_file: ${JSON.stringify(s.keyFile)} }`]
      : []),
    ...natsAuthorizationBlock(names, hashes),
  ];
}

/** The `tls` block inside `cluster {}`: routes encrypted and each side's certificate verified. */
export function natsRouteTlsConfig(s: NatsTls): string {
  return `tls { cert_file: ${JSON.stringify(s.certFile)}, key_file: ${JSON.stringify(s.keyFile)}, ca_file: ${JSON.stringify(s.certFile)}, verify: true }`;
}
