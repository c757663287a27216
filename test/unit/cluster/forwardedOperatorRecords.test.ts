/**
 * A server's checks of an operator's record a follower forwards (writeForwarding.ts, issue 33): a rotateKey
 * signed by another key than the identity's key in force at the server's open height, and a setEcRate not
 * signed by the rate authority, are refused before anything is appended; the right ones are appended to the
 * (real, in-memory) log. The server's intake answers through its `answer` method, as the NATS transport calls it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MemoryOrderedLog } from "../../../src/cluster/memoryLog.js";
import { encodeRecord, signRecord } from "../../../src/cluster/records.js";
import { ForwardedWriteServer } from "../../../src/cluster/writeForwarding.js";
import { bytesEqual } from "../../../src/protocol/bytes.js";
import { InlineVerifier } from "../../../src/workers/verifier.js";
import { BOOT_KEY, NET, RATE_KEY, RATE_SEED, serverIdentity } from "../../support/memoryFederation.js";

const NO_SIG = new Uint8Array(64);
const X = serverIdentity(1);
const X2 = serverIdentity(2);

function server(log: MemoryOrderedLog, keyInForce?: (id: Uint8Array) => Uint8Array | undefined) {
  const warnings: string[] = [];
  const s = new ForwardedWriteServer(
    { intakeSubject: "ledgerintake.test", networkId: NET, skeletonKey: BOOT_KEY, rateAuthority: RATE_KEY },
    {
      transport: { serve: () => ({ stop() {} }), append: (kind, data, msgId) => log.append(kind, data, msgId) },
      verifier: new InlineVerifier(),
      logger: { info() {}, warn: (m, f) => warnings.push(`${m} ${JSON.stringify(f)}`) },
      ...(keyInForce === undefined ? {} : { keyInForce }),
    },
  );
  let n = 0;
  const send = async (data: Uint8Array) =>
    JSON.parse(new TextDecoder().decode(await s.answer({ data, header: () => `op-${++n}` }))) as Record<
      string,
      unknown
    >;
  return { send, warnings };
}

const rotate = (seed: Uint8Array) =>
  encodeRecord(
    signRecord(
      { kind: "rotateKey", identity: X.identity, newKey: X2.publicKey, activationHeight: 9, signature: NO_SIG },
      NET,
      seed,
    ),
  );
const setRate = (seed: Uint8Array) =>
  encodeRecord(signRecord({ kind: "setEcRate", rate: 2000n, activationHeight: 9, signature: NO_SIG }, NET, seed));

describe("operator records forwarded by a follower: checked by the server before append", () => {
  it("rotateKey against the key in force, setEcRate against the rate authority", async () => {
    const log = new MemoryOrderedLog();
    const { send } = server(log, (id) => (bytesEqual(id, X.identity) ? X.publicKey : undefined));
    assert.deepEqual(await send(rotate(X2.seed)), {
      refused: "rotate key: the signature is not the identity's key in force",
    });
    assert.deepEqual(await send(setRate(X.seed)), {
      refused: "set entry-credit rate: the signature is not the rate authority's",
    });
    assert.equal(await log.lastSequence(), 0, "nothing appended");
    assert.deepEqual(await send(rotate(X.seed)), { seq: 1, duplicate: false });
    assert.deepEqual(await send(setRate(RATE_SEED)), { seq: 2, duplicate: false });
    // an identity the server does not know as an authority
    const { send: send2 } = server(log, () => undefined);
    assert.deepEqual(await send2(rotate(X.seed)), {
      refused: "rotate key: the identity is not an authority with a key",
    });
    log.close();
  });

  it("without the authority view (keyInForce absent) a rotation is left to the rules at apply", async () => {
    const log = new MemoryOrderedLog();
    const { send } = server(log);
    assert.deepEqual(await send(rotate(X2.seed)), { seq: 1, duplicate: false });
    log.close();
  });
});
