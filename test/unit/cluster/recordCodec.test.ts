/**
 * The log records' bytes (src/cluster/records.ts), read as a stranger would write them: every record kind cut at
 * every length is refused with a ProtocolError naming the field it stopped in, trailing bytes are refused, a
 * decoded record owns its bytes (changing the input afterwards changes nothing), a writes record holds at most
 * MAX_WRITES_PER_RECORD messages, the encoder refuses fields of the wrong size, and a signature binds the
 * record's domain and network.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  type ClusterRecord,
  decodeRecord,
  encodeRecord,
  isOperatorRecord,
  MAX_WRITES_PER_RECORD,
  signedBytes,
  signRecord,
  verifyRecord,
} from "../../../src/cluster/records.js";
import { publicKeyFromSeed } from "../../../src/crypto/ed25519.js";
import { ByteWriter } from "../../../src/protocol/bytes.js";
import { ProtocolError } from "../../../src/protocol/errors.js";

const NET = 0x12345678;
const SEED = new Uint8Array(32).fill(9);
const id = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const NO_SIG = new Uint8Array(64);

/** One valid record of each kind, with the fields its decoder names, in order. */
const KINDS: { rec: ClusterRecord; fields: string[] }[] = [
  {
    rec: { kind: "writes", messages: [new Uint8Array([1, 2, 3]), new Uint8Array([4])] },
    fields: ["messages[0].length", "messages[0]", "messages[1].length", "messages[1]"],
  },
  {
    rec: signRecord(
      { kind: "endOfMinute", height: 7, minute: 3, timeMs: 1e12, proposer: id(1), signature: NO_SIG },
      NET,
      SEED,
    ),
    fields: ["height", "minute", "timeMs", "proposer", "signature"],
  },
  {
    rec: signRecord({ kind: "blockStart", height: 1, timeMs: 1e12, proposer: id(1), signature: NO_SIG }, NET, SEED),
    fields: ["height", "timeMs", "proposer", "signature"],
  },
  {
    rec: { kind: "dbSig", height: 5, identity: id(2), publicKey: id(3), signature: new Uint8Array(64).fill(4) },
    fields: ["height", "identity", "publicKey", "signature"],
  },
  {
    rec: signRecord(
      { kind: "addServer", role: "audit", identity: id(2), publicKey: id(3), timeMs: 1e12, signature: NO_SIG },
      NET,
      SEED,
    ),
    fields: ["role", "identity", "publicKey", "timeMs", "signature"],
  },
  {
    rec: signRecord({ kind: "heartbeat", height: 9, minute: 2, identity: id(2), signature: NO_SIG }, NET, SEED),
    fields: ["height", "minute", "identity", "signature"],
  },
  {
    rec: signRecord(
      { kind: "faultVote", height: 9, round: 1, faulted: id(2), candidate: id(3), voter: id(4), signature: NO_SIG },
      NET,
      SEED,
    ),
    fields: ["height", "round", "faulted", "candidate", "voter", "signature"],
  },
  {
    rec: signRecord(
      { kind: "authorityChange", change: "demote", identity: id(2), activationHeight: 12, signature: NO_SIG },
      NET,
      SEED,
    ),
    fields: ["change", "identity", "activationHeight", "signature"],
  },
  {
    rec: signRecord(
      { kind: "rotateKey", identity: id(2), newKey: id(5), activationHeight: 12, signature: NO_SIG },
      NET,
      SEED,
    ),
    fields: ["identity", "newKey", "activationHeight", "signature"],
  },
  {
    rec: signRecord(
      { kind: "snapshotSignature", height: 20, hash: id(6), keyMR: id(7), signer: id(2), signature: NO_SIG },
      NET,
      SEED,
    ),
    fields: ["height", "hash", "keyMR", "signer", "signature"],
  },
];

/** The code and message of the ProtocolError `f` throws (fails when it throws nothing else). */
function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ProtocolError, String(e));
    return `${e.code} ${e.message}`;
  }
  assert.fail("no ProtocolError");
}

describe("cluster record bytes", () => {
  it("every kind round-trips; cut at any length it is refused naming the field it stopped in; trailing bytes are refused", () => {
    for (const { rec, fields } of KINDS) {
      const bytes = encodeRecord(rec);
      assert.deepEqual(decodeRecord(bytes), rec, rec.kind);
      const seen = new Set<string>();
      for (let cut = 1; cut < bytes.length; cut++) {
        // a writes record cut right after a whole message is a shorter writes record
        if (rec.kind === "writes" && (cut === 1 || cut === 1 + 4 + 3)) {
          assert.equal(decodeRecord(bytes.slice(0, cut)).kind, "writes");
          continue;
        }
        const message = refusal(() => decodeRecord(bytes.slice(0, cut)));
        for (const f of fields) if (message.includes(`clusterRecord.${f}`)) seen.add(f);
      }
      assert.deepEqual([...seen].sort(), [...fields].sort(), `${rec.kind}: the fields named when cut`);
      if (rec.kind !== "writes") {
        const longer = new Uint8Array(bytes.length + 1);
        longer.set(bytes);
        refusal(() => decodeRecord(longer));
      }
    }
    assert.match(
      refusal(() => decodeRecord(new Uint8Array([]))),
      /clusterRecord\.kind/,
    );
    assert.match(
      refusal(() => decodeRecord(new Uint8Array([200]))),
      /^BAD_VALUE .*clusterRecord\.kind: unknown kind 200/,
    );
  });

  it("a decoded record owns its bytes", () => {
    for (const { rec } of KINDS) {
      const bytes = encodeRecord(rec);
      const decoded = decodeRecord(bytes);
      bytes.fill(0xee, 1);
      assert.deepEqual(decoded, rec, `${rec.kind}: changed with its input`);
    }
  });

  it("values out of range: a minute past 9, an unknown role or change, more messages than a record holds", () => {
    const eom = encodeRecord(KINDS[1]!.rec);
    eom[5] = 10; // kind (1) + height (4): the minute
    assert.match(
      refusal(() => decodeRecord(eom)),
      /^BAD_VALUE .*clusterRecord\.minute: expected 0\.\.9, got 10/,
    );
    const add = encodeRecord(KINDS[4]!.rec);
    add[1] = 3;
    assert.match(
      refusal(() => decodeRecord(add)),
      /^BAD_VALUE .*clusterRecord\.role: expected 1 \(federated\) or 2 \(audit\), got 3/,
    );
    add[1] = 1;
    assert.equal((decodeRecord(add) as { role: string }).role, "federated");
    const change = encodeRecord(KINDS[7]!.rec);
    change[1] = 9;
    assert.match(
      refusal(() => decodeRecord(change)),
      /^BAD_VALUE .*clusterRecord\.change: .*got 9/,
    );
    // MAX_WRITES_PER_RECORD empty messages decode; one more is refused
    const w = new ByteWriter(8 + 4 * (MAX_WRITES_PER_RECORD + 1)).u8(encodeRecord(KINDS[0]!.rec)[0]!);
    for (let i = 0; i < MAX_WRITES_PER_RECORD; i++) w.u32(0);
    const full = w.finish();
    assert.equal((decodeRecord(full) as { messages: Uint8Array[] }).messages.length, MAX_WRITES_PER_RECORD);
    const over = new Uint8Array(full.length + 4);
    over.set(full);
    assert.match(
      refusal(() => decodeRecord(over)),
      new RegExp(`^BAD_VALUE .*clusterRecord\\.messages: more than ${MAX_WRITES_PER_RECORD}`),
    );
  });

  it("the encoder refuses every hash, key and signature field of the wrong size, naming it", () => {
    for (const { rec } of KINDS)
      for (const [field, value] of Object.entries(rec))
        if (value instanceof Uint8Array) {
          const short = { ...rec, [field]: value.slice(1) } as ClusterRecord;
          assert.match(
            refusal(() => encodeRecord(short)),
            new RegExp(
              `^BAD_LENGTH .*clusterRecord\\.${field}: expected ${value.length} bytes, got ${value.length - 1}`,
            ),
            `${rec.kind}.${field}`,
          );
        }
    const unsigned = { ...KINDS[1]!.rec, signature: undefined } as unknown as ClusterRecord;
    assert.match(
      refusal(() => encodeRecord(unsigned)),
      /clusterRecord\.signature: expected 64 bytes, got undefined/,
    );
    assert.match(
      refusal(() =>
        encodeRecord({ ...(KINDS[3]!.rec as Extract<ClusterRecord, { kind: "dbSig" }>), identity: id(1).slice(1) }),
      ),
      /clusterRecord\.identity: expected 32 bytes, got 31/,
    );
    assert.match(
      refusal(() =>
        encodeRecord({
          ...(KINDS[2]!.rec as Extract<ClusterRecord, { kind: "blockStart" }>),
          signature: new Uint8Array(63),
        }),
      ),
      /clusterRecord\.signature: expected 64 bytes, got 63/,
    );
  });

  it("a signature binds the network and the record's domain", () => {
    const rec = KINDS[1]!.rec as Extract<ClusterRecord, { kind: "endOfMinute" }>;
    const key = publicKeyFromSeed(SEED);
    assert.equal(verifyRecord(rec, NET, key), true);
    assert.equal(verifyRecord(rec, NET + 1, key), false, "another network");
    assert.equal(verifyRecord({ ...rec, minute: 4 }, NET, key), false, "another record");
    // what is signed: the records' domain, then the network id, then the record
    const signed = signedBytes(rec, NET);
    assert.equal(new TextDecoder().decode(signed.subarray(0, 24)), "ledgerd-cluster-record/1");
    assert.deepEqual([...signed.subarray(24, 28)], [0x12, 0x34, 0x56, 0x78]);
    assert.deepEqual(signRecord(rec, NET, SEED).signature, rec.signature, "deterministic");
    // the kinds an operator signs (and a follower may forward)
    assert.deepEqual(
      KINDS.filter((k) => isOperatorRecord(k.rec)).map((k) => k.rec.kind),
      ["addServer", "authorityChange", "rotateKey"],
    );
  });
});
