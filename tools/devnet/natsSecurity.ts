/**
 * TLS and a user for a devnet's NATS (`ledgerd-devnet up --nats-auth`): the production shape of
 * docs/cluster.md §2.2 on loopback. One self-signed certificate for 127.0.0.1 serves the nats-servers'
 * client port, their routes (mutually verified) and, as the CA file, the nodes; one NATS user with a
 * random password is the only way in. No `accounts` block sits next to the `authorization` block (on
 * 2.9.10 that pairing with a system account is CVE-2023-47090).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generate } from "selfsigned";

export interface NatsSecurity {
  user: string;
  password: string;
  /** PEM certificate of the nats-servers; also the CA file the nodes trust */
  certFile: string;
  keyFile: string;
}

/** The NATS user every devnet node connects as. */
const DEVNET_NATS_USER = "ledgerd";
/** Days a devnet certificate is valid: a devnet lives for hours; a year spares a restart surprise. */
const CERT_DAYS = 365;

/** Write `<dir>/tls/nats-cert.pem` and `nats-key.pem` (self-signed, SAN 127.0.0.1 and localhost) and pick a password. */
export async function createNatsSecurity(dir: string): Promise<NatsSecurity> {
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
  return { user: DEVNET_NATS_USER, password: randomBytes(18).toString("base64url"), certFile, keyFile };
}

/**
 * What a node may do (docs/cluster.md §2.2): append to and read its network's log subjects and its
 * block-set archive's, call the JetStream API (stream info, ordered pull consumers, direct gets), and take
 * replies on its inbox. Nothing else — no other subject.
 */
export function nodePermissions(
  subjectPrefix: string,
  setsSubjectPrefix: string,
): { publish: string[]; subscribe: string[] } {
  return {
    publish: [`${subjectPrefix}.>`, `${setsSubjectPrefix}.>`, "$JS.API.>", "_INBOX.>"],
    subscribe: [`${subjectPrefix}.>`, `${setsSubjectPrefix}.>`, "_INBOX.>"],
  };
}

/** The lines of nats.conf for the client port: TLS required, one user limited to `nodePermissions`. */
export function natsClientSecurityConfig(s: NatsSecurity, subjectPrefix: string, setsSubjectPrefix: string): string[] {
  const p = nodePermissions(subjectPrefix, setsSubjectPrefix);
  const list = (xs: string[]) => `[${xs.map((x) => JSON.stringify(x)).join(", ")}]`;
  return [
    `tls { cert_file: ${JSON.stringify(s.certFile)}, key_file: ${JSON.stringify(s.keyFile)} }`,
    `authorization { users: [ { user: ${JSON.stringify(s.user)}, password: ${JSON.stringify(s.password)}, ` +
      `permissions: { publish: ${list(p.publish)}, subscribe: ${list(p.subscribe)} } } ] }`,
  ];
}

/** The `tls` block inside `cluster {}`: routes encrypted and each side's certificate verified. */
export function natsRouteTlsConfig(s: NatsSecurity): string {
  return `tls { cert_file: ${JSON.stringify(s.certFile)}, key_file: ${JSON.stringify(s.keyFile)}, ca_file: ${JSON.stringify(s.certFile)}, verify: true }`;
}
