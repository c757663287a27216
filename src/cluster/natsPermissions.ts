/**
 * What each role's NATS user may do (docs/cluster.md §2.3): the least each role needs, found by tracing a
 * node against nats-server 2.9.10 (`-DV`: every PUB/SUB a node sends while it creates the streams, appends,
 * follows with an ordered consumer, reads the newest end of minute and reads and writes block sets).
 *
 * * Every node reads: stream info of the log and of the archive, an ordered (ephemeral, pull) consumer on the
 *   log — create, next, and the info/delete the client sends when it resets one — direct gets on both
 *   streams, and the JetStream account info the client asks for once. Replies come to the role's own inbox
 *   prefix (`_INBOX_<role>.>`), so one role cannot read another's replies.
 * * Federated and audit servers append records to the log (`ledger.<net>.>`), write block sets to the archive
 *   (an audit server promoted on chain writes them from the next height, without a restart), and answer the
 *   followers' forwarded writes on the intake subject (queue group) and on its `.all` subject (every server:
 *   a follower's retries); a reply goes only to the requester (`allow_responses`).
 * * Federated servers alone may create the two streams (when the first one starts; create never changes an
 *   existing stream: a differing configuration is refused by the server).
 * * Followers do not append: they send their clients' writes on the intake subject (writeForwarding.ts).
 * * No node user may purge, delete or update a stream or delete a message: those subjects are in no node
 *   allow list (and in every node deny list, so a later widening of an allow list cannot let them in).
 *   The operator's admin user (`>`) does that, with the `nats` CLI.
 */
import type { ClusterRole } from "./federationTypes.js";

/** The subjects a NATS user may publish to and subscribe to; `allowResponses`: may answer requests it got. */
export interface NatsPermissions {
  publish: { allow: string[]; deny: string[] };
  subscribe: { allow: string[]; deny: string[] };
  allowResponses: boolean;
}

/** The names a network's cluster uses (clusterConfig.ts `clusterNames`). */
export interface ClusterSubjects {
  stream: string;
  subjectPrefix: string;
  setsStream: string;
  setsSubjectPrefix: string;
  intakeSubject: string;
  /** the certified-snapshot archive (snapshots.ts); absent: no permissions on it */
  snapsStream?: string;
  snapsSubjectPrefix?: string;
}

/** The snapshot archive's stream, when the names have one. */
function snaps(names: ClusterSubjects): { stream: string; prefix: string } | undefined {
  return names.snapsStream === undefined || names.snapsSubjectPrefix === undefined
    ? undefined
    : { stream: names.snapsStream, prefix: names.snapsSubjectPrefix };
}

/**
 * The subject every server answers (no queue group) — a follower's retry of a forward goes there, so that
 * one lost pick of the queue group is not lost again (writeForwarding.ts).
 */
export function broadcastIntakeSubject(intakeSubject: string): string {
  return `${intakeSubject}.all`;
}

/** The inbox prefix of a role's connections: replies to its requests come there and nowhere else. */
export function inboxPrefix(role: ClusterRole): string {
  return `_INBOX_${role}`;
}

/** Stream administration no node may do (the admin user's alone). */
function administration(names: ClusterSubjects): string[] {
  const s3 = snaps(names);
  return [names.stream, names.setsStream, ...(s3 === undefined ? [] : [s3.stream])].flatMap((s) => [
    `$JS.API.STREAM.PURGE.${s}`,
    `$JS.API.STREAM.DELETE.${s}`,
    `$JS.API.STREAM.UPDATE.${s}`,
    `$JS.API.STREAM.MSG.DELETE.${s}`,
  ]);
}

/** The permissions of a node of `role` on the network named by `names`. */
export function nodePermissions(role: ClusterRole, names: ClusterSubjects): NatsPermissions {
  const s3 = snaps(names);
  const read = [
    "$JS.API.INFO",
    `$JS.API.STREAM.INFO.${names.stream}`,
    `$JS.API.STREAM.INFO.${names.setsStream}`,
    `$JS.API.CONSUMER.CREATE.${names.stream}.>`,
    `$JS.API.CONSUMER.MSG.NEXT.${names.stream}.>`,
    `$JS.API.CONSUMER.INFO.${names.stream}.>`,
    `$JS.API.CONSUMER.DELETE.${names.stream}.>`,
    `$JS.API.DIRECT.GET.${names.stream}.>`,
    `$JS.API.DIRECT.GET.${names.setsStream}.>`,
    // certified snapshots: every node may read them (a node with an empty data directory starts from one)
    ...(s3 === undefined ? [] : [`$JS.API.STREAM.INFO.${s3.stream}`, `$JS.API.DIRECT.GET.${s3.stream}.>`]),
  ];
  const server = role !== "follower";
  const publish = [
    ...read,
    ...(server
      ? [`${names.subjectPrefix}.>`, `${names.setsSubjectPrefix}.>`]
      : [names.intakeSubject, broadcastIntakeSubject(names.intakeSubject)]),
    ...(role === "federated"
      ? [
          `$JS.API.STREAM.CREATE.${names.stream}`,
          `$JS.API.STREAM.CREATE.${names.setsStream}`,
          // federated servers make, sign and store the certified snapshots
          ...(s3 === undefined ? [] : [`$JS.API.STREAM.CREATE.${s3.stream}`, `${s3.prefix}.>`]),
        ]
      : []),
  ];
  const subscribe = [
    `${inboxPrefix(role)}.>`,
    ...(server ? [names.intakeSubject, broadcastIntakeSubject(names.intakeSubject)] : []),
  ];
  return {
    publish: { allow: publish, deny: administration(names) },
    subscribe: { allow: subscribe, deny: [] },
    allowResponses: server,
  };
}

/** The `permissions: {…}` value of a user in nats.conf (nats-server's configuration syntax). */
export function natsConfigPermissions(p: NatsPermissions): string {
  const list = (xs: readonly string[]): string => `[${xs.map((x) => JSON.stringify(x)).join(", ")}]`;
  const part = (x: { allow: string[]; deny: string[] }): string =>
    `{ allow: ${list(x.allow)}${x.deny.length === 0 ? "" : `, deny: ${list(x.deny)}`} }`;
  return `{ publish: ${part(p.publish)}, subscribe: ${part(p.subscribe)}${p.allowResponses ? ", allow_responses: true" : ""} }`;
}

/** The NATS users of a cluster: one per node role, and the operator's (every subject). */
export const NATS_USER_NAMES = ["federated", "audit", "follower", "admin"] as const;
export type NatsUserName = (typeof NATS_USER_NAMES)[number];

/**
 * The `authorization { users: [...] }` block of nats.conf for a network: the three role users with their
 * permissions and the admin user with every subject. `passwords` holds each user's password as nats.conf
 * should carry it: a bcrypt hash (or a placeholder for the operator to replace).
 */
export function natsAuthorizationBlock(names: ClusterSubjects, passwords: Record<NatsUserName, string>): string[] {
  const users = NATS_USER_NAMES.map((u) => {
    const permissions =
      u === "admin"
        ? '{ publish: { allow: [">"] }, subscribe: { allow: [">"] } }'
        : natsConfigPermissions(nodePermissions(u, names));
    return `    { user: ${JSON.stringify(u)}, password: ${JSON.stringify(passwords[u])}, permissions: ${permissions} }`;
  });
  return ["authorization {", "  users: [", ...users, "  ]", "}"];
}
