/**
 * The records of the cluster's replicated log (docs/cluster.md §1.2). Each JetStream message holds exactly
 * one record: a kind byte, then the kind's fields (big-endian, fixed sizes except the write batch).
 *
 * | kind | record | who appends it | signed by |
 * |---|---|---|---|
 * | 1 writes | client messages (journal encoding, ledger/messages.ts), each u32-length-prefixed | any node | the messages' own signatures |
 * | 2 endOfMinute | height u32 ‖ minute u8 ‖ timeMs u48 ‖ proposer 32 | federated servers | proposer |
 * | 3 blockStart | height u32 ‖ timeMs u48 ‖ proposer 32 | federated servers (first block only) | proposer |
 * | 4 dbSig | height u32 ‖ identity 32 ‖ publicKey 32 ‖ signature 64 over dblock h−1's 113-byte header | federated servers | (the dbSig itself) |
 * | 5 addServer | role u8 ‖ identity 32 ‖ publicKey 32 ‖ timeMs u48 | an operator's tool | the network's skeleton key |
 * | 6 heartbeat | height u32 ‖ minute u8 ‖ identity 32 | audit servers | identity |
 * | 7 faultVote | height u32 ‖ round u16 ‖ faulted 32 ‖ candidate 32 ‖ voter 32 | federated servers | voter |
 * | 8 authorityChange | change u8 (1 promote, 2 demote, 3 remove) ‖ identity 32 ‖ activation height u32 | an operator's tool | the network's skeleton key |
 * | 9 rotateKey | identity 32 ‖ newKey 32 ‖ activation height u32 | the server's operator | the identity's key in force |
 * | 10 snapshotSignature | height u32 ‖ snapshot sha256 32 ‖ directory block keyMR 32 ‖ signer 32 | federated servers | signer |
 * | 11 setEcRate | rate u64 (base units per entry credit) ‖ activation height u32 | the rate authority's tool | the network's rate authority key |
 *
 * A signed record ends with a 64-byte ed25519 signature over DOMAIN ‖ networkId u32 ‖ the record's bytes
 * before the signature, so a record of one network or kind can never pass as another's.
 */
import { signEd25519, verifyEd25519 } from "../crypto/ed25519.js";
import { ByteReader, ByteWriter, concat } from "../protocol/bytes.js";
import { ProtocolError } from "../protocol/errors.js";

export const RecordKind = {
  writes: 1,
  endOfMinute: 2,
  blockStart: 3,
  dbSig: 4,
  addServer: 5,
  heartbeat: 6,
  faultVote: 7,
  authorityChange: 8,
  rotateKey: 9,
  snapshotSignature: 10,
  setEcRate: 11,
} as const;

/** Change byte of an authorityChange record (admin entry 05 = promote, 06 = demote, 07 = remove). */
export const AuthorityChangeCode = { promote: 1, demote: 2, remove: 3 } as const;
export type AuthorityChangeName = keyof typeof AuthorityChangeCode;

/** Role byte of an addServer record (admin entry 05 = federated, 06 = audit). */
export const ServerRole = { federated: 1, audit: 2 } as const;
export type ServerRoleName = keyof typeof ServerRole;

/** Signed-bytes prefix of every server-signed record. */
const DOMAIN = new TextEncoder().encode("ledgerd-cluster-record/1");
const SIGNATURE_SIZE = 64;
/** Most messages in one writes record (the 512 KiB record cap binds first for big reveals). */
export const MAX_WRITES_PER_RECORD = 4096;

export type ClusterRecord =
  | { kind: "writes"; messages: Uint8Array[] }
  | { kind: "endOfMinute"; height: number; minute: number; timeMs: number; proposer: Uint8Array; signature: Uint8Array }
  | { kind: "blockStart"; height: number; timeMs: number; proposer: Uint8Array; signature: Uint8Array }
  | { kind: "dbSig"; height: number; identity: Uint8Array; publicKey: Uint8Array; signature: Uint8Array }
  | {
      kind: "addServer";
      role: ServerRoleName;
      identity: Uint8Array;
      publicKey: Uint8Array;
      timeMs: number;
      signature: Uint8Array;
    }
  | { kind: "heartbeat"; height: number; minute: number; identity: Uint8Array; signature: Uint8Array }
  | {
      kind: "faultVote";
      height: number;
      round: number;
      faulted: Uint8Array;
      candidate: Uint8Array;
      voter: Uint8Array;
      signature: Uint8Array;
    }
  | {
      kind: "authorityChange";
      change: AuthorityChangeName;
      identity: Uint8Array;
      /** the first height the change is in force (≥ the open height + 1 where it is applied) */
      activationHeight: number;
      signature: Uint8Array;
    }
  | {
      kind: "rotateKey";
      identity: Uint8Array;
      newKey: Uint8Array;
      /** the first height whose signatures must be made with `newKey` */
      activationHeight: number;
      signature: Uint8Array;
    }
  | {
      /** a federated server's signature over the certified snapshot of `height` (snapshotCertification.ts) */
      kind: "snapshotSignature";
      height: number;
      /** sha256 of the snapshot's bytes (ledger/snapshotState.ts) */
      hash: Uint8Array;
      /** keyMR of directory block `height`, the block the snapshot goes on from */
      keyMR: Uint8Array;
      signer: Uint8Array;
      signature: Uint8Array;
    }
  | {
      kind: "setEcRate";
      /** base units of the asset per entry credit, from `activationHeight` on (> 0) */
      rate: bigint;
      /** the first block whose asset block carries, and whose writes pay, `rate` */
      activationHeight: number;
      signature: Uint8Array;
    };

/** The subject suffix of a record kind (`ledger.<net>.<suffix>`). */
export function recordSubject(kind: ClusterRecord["kind"]): string {
  return kind === "writes" ? "tx" : kind === "endOfMinute" ? "eom" : kind.toLowerCase();
}

/** The record kinds an operator's tool signs and any node (or a follower, forwarding) may append. */
export type OperatorRecord = Extract<
  ClusterRecord,
  { kind: "addServer" | "authorityChange" | "rotateKey" | "setEcRate" }
>;

/** True for the kinds of OperatorRecord. */
export function isOperatorRecord(r: ClusterRecord): r is OperatorRecord {
  return r.kind === "addServer" || r.kind === "authorityChange" || r.kind === "rotateKey" || r.kind === "setEcRate";
}

function check(b: Uint8Array, n: number, field: string): Uint8Array {
  if (!(b instanceof Uint8Array) || b.length !== n)
    throw new ProtocolError("BAD_LENGTH", `clusterRecord.${field}`, `expected ${n} bytes, got ${b?.length}`);
  return b;
}

/** The bytes of a record without its signature (what a signer signs, after DOMAIN and the network id). */
function unsignedBytes(r: ClusterRecord): Uint8Array {
  const w = new ByteWriter(160);
  switch (r.kind) {
    case "writes": {
      w.u8(RecordKind.writes);
      for (const m of r.messages) w.u32(m.length).bytes(m);
      return w.finish();
    }
    case "endOfMinute":
      return w
        .u8(RecordKind.endOfMinute)
        .u32(r.height)
        .u8(r.minute)
        .u48(r.timeMs)
        .bytes(check(r.proposer, 32, "proposer"))
        .finish();
    case "blockStart":
      return w
        .u8(RecordKind.blockStart)
        .u32(r.height)
        .u48(r.timeMs)
        .bytes(check(r.proposer, 32, "proposer"))
        .finish();
    case "dbSig":
      return w
        .u8(RecordKind.dbSig)
        .u32(r.height)
        .bytes(check(r.identity, 32, "identity"))
        .bytes(check(r.publicKey, 32, "publicKey"))
        .finish();
    case "addServer":
      return w
        .u8(RecordKind.addServer)
        .u8(ServerRole[r.role])
        .bytes(check(r.identity, 32, "identity"))
        .bytes(check(r.publicKey, 32, "publicKey"))
        .u48(r.timeMs)
        .finish();
    case "heartbeat":
      return w
        .u8(RecordKind.heartbeat)
        .u32(r.height)
        .u8(r.minute)
        .bytes(check(r.identity, 32, "identity"))
        .finish();
    case "faultVote":
      return w
        .u8(RecordKind.faultVote)
        .u32(r.height)
        .u16(r.round)
        .bytes(check(r.faulted, 32, "faulted"))
        .bytes(check(r.candidate, 32, "candidate"))
        .bytes(check(r.voter, 32, "voter"))
        .finish();
    case "authorityChange":
      return w
        .u8(RecordKind.authorityChange)
        .u8(AuthorityChangeCode[r.change])
        .bytes(check(r.identity, 32, "identity"))
        .u32(r.activationHeight)
        .finish();
    case "rotateKey":
      return w
        .u8(RecordKind.rotateKey)
        .bytes(check(r.identity, 32, "identity"))
        .bytes(check(r.newKey, 32, "newKey"))
        .u32(r.activationHeight)
        .finish();
    case "snapshotSignature":
      return w
        .u8(RecordKind.snapshotSignature)
        .u32(r.height)
        .bytes(check(r.hash, 32, "hash"))
        .bytes(check(r.keyMR, 32, "keyMR"))
        .bytes(check(r.signer, 32, "signer"))
        .finish();
    case "setEcRate":
      return w.u8(RecordKind.setEcRate).u64(r.rate).u32(r.activationHeight).finish();
  }
}

/** Encode a record (with its signature, for the signed kinds). */
export function encodeRecord(r: ClusterRecord): Uint8Array {
  const body = unsignedBytes(r);
  return r.kind === "writes" ? body : concat(body, check(r.signature, SIGNATURE_SIZE, "signature"));
}

/** Decode a record; throws ProtocolError naming the field on bytes no version of this file wrote. */
export function decodeRecord(bytes: Uint8Array): ClusterRecord {
  const r = new ByteReader(bytes, "clusterRecord");
  const kind = r.u8("kind");
  const hash = (f: string): Uint8Array => r.bytesN(32, f).slice();
  const sig = (): Uint8Array => {
    const s = r.bytesN(SIGNATURE_SIZE, "signature").slice();
    r.end();
    return s;
  };
  switch (kind) {
    case RecordKind.writes: {
      const messages: Uint8Array[] = [];
      while (r.remaining > 0) {
        if (messages.length >= MAX_WRITES_PER_RECORD)
          throw new ProtocolError("BAD_VALUE", "clusterRecord.messages", `more than ${MAX_WRITES_PER_RECORD}`);
        const n = r.u32(`messages[${messages.length}].length`);
        messages.push(r.bytesN(n, `messages[${messages.length}]`).slice());
      }
      return { kind: "writes", messages };
    }
    case RecordKind.endOfMinute: {
      const height = r.u32("height");
      const minute = r.u8("minute");
      if (minute > 9) throw new ProtocolError("BAD_VALUE", "clusterRecord.minute", `expected 0..9, got ${minute}`);
      const timeMs = r.u48("timeMs");
      return { kind: "endOfMinute", height, minute, timeMs, proposer: hash("proposer"), signature: sig() };
    }
    case RecordKind.blockStart: {
      const height = r.u32("height");
      const timeMs = r.u48("timeMs");
      return { kind: "blockStart", height, timeMs, proposer: hash("proposer"), signature: sig() };
    }
    case RecordKind.dbSig: {
      const height = r.u32("height");
      const identity = hash("identity");
      const publicKey = hash("publicKey");
      return { kind: "dbSig", height, identity, publicKey, signature: sig() };
    }
    case RecordKind.addServer: {
      const roleByte = r.u8("role");
      const role =
        roleByte === ServerRole.federated ? "federated" : roleByte === ServerRole.audit ? "audit" : undefined;
      if (role === undefined)
        throw new ProtocolError(
          "BAD_VALUE",
          "clusterRecord.role",
          `expected 1 (federated) or 2 (audit), got ${roleByte}`,
        );
      const identity = hash("identity");
      const publicKey = hash("publicKey");
      const timeMs = r.u48("timeMs");
      return { kind: "addServer", role, identity, publicKey, timeMs, signature: sig() };
    }
    case RecordKind.heartbeat: {
      const height = r.u32("height");
      const minute = r.u8("minute");
      return { kind: "heartbeat", height, minute, identity: hash("identity"), signature: sig() };
    }
    case RecordKind.faultVote: {
      const height = r.u32("height");
      const round = r.u16("round");
      const faulted = hash("faulted");
      const candidate = hash("candidate");
      const voter = hash("voter");
      return { kind: "faultVote", height, round, faulted, candidate, voter, signature: sig() };
    }
    case RecordKind.authorityChange: {
      const code = r.u8("change");
      const change = (Object.keys(AuthorityChangeCode) as AuthorityChangeName[]).find(
        (k) => AuthorityChangeCode[k] === code,
      );
      if (change === undefined)
        throw new ProtocolError(
          "BAD_VALUE",
          "clusterRecord.change",
          `expected 1 (promote), 2 (demote) or 3 (remove), got ${code}`,
        );
      const identity = hash("identity");
      const activationHeight = r.u32("activationHeight");
      return { kind: "authorityChange", change, identity, activationHeight, signature: sig() };
    }
    case RecordKind.rotateKey: {
      const identity = hash("identity");
      const newKey = hash("newKey");
      const activationHeight = r.u32("activationHeight");
      return { kind: "rotateKey", identity, newKey, activationHeight, signature: sig() };
    }
    case RecordKind.snapshotSignature: {
      const height = r.u32("height");
      const snapshotHash = hash("hash");
      const keyMR = hash("keyMR");
      return { kind: "snapshotSignature", height, hash: snapshotHash, keyMR, signer: hash("signer"), signature: sig() };
    }
    case RecordKind.setEcRate: {
      const rate = r.u64("rate");
      const activationHeight = r.u32("activationHeight");
      return { kind: "setEcRate", rate, activationHeight, signature: sig() };
    }
    default:
      throw new ProtocolError("BAD_VALUE", "clusterRecord.kind", `unknown kind ${kind}`);
  }
}

/** What the record's signer signs. */
export function signedBytes(r: ClusterRecord, networkId: number): Uint8Array {
  return concat(DOMAIN, new ByteWriter(4).u32(networkId).finish(), unsignedBytes(r));
}

/** Signed kinds other than dbSig (whose signature is over a directory block header, see dbSig.ts). */
type SelfSigned = Exclude<ClusterRecord, { kind: "writes" } | { kind: "dbSig" }>;

/** Sign a record with `seed` (32 bytes): returns the record with its signature set. */
export function signRecord<R extends SelfSigned>(r: R, networkId: number, seed: Uint8Array): R {
  return { ...r, signature: signEd25519(seed, signedBytes(r, networkId)) };
}

/** True when the record's signature verifies with `publicKey`. */
export function verifyRecord(r: SelfSigned, networkId: number, publicKey: Uint8Array): boolean {
  return verifyEd25519(publicKey, signedBytes(r, networkId), r.signature);
}
