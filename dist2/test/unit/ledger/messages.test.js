import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeMessage, describeMessage, encodeMessage } from "../../../src/ledger/messages.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { assetKey, chainCommit, entryCommit, firstEntry, payment, UNIT } from "./harness.js";
test("journal messages round-trip byte for byte, and unknown bytes are refused", () => {
    const t = Date.UTC(2024, 0, 1);
    const c = firstEntry(["m"], "x");
    const messages = [
        { kind: "commit", timeMs: t, commit: chainCommit(c.raw, t) },
        { kind: "commit", timeMs: t + 1, commit: entryCommit(c.raw, t) },
        { kind: "reveal", timeMs: t + 2, entryRaw: c.raw },
        { kind: "transaction", timeMs: t + 3, tx: payment({ milliTime: t, outputs: [{ to: assetKey(1), amount: UNIT }] }) },
        { kind: "endOfMinute", timeMs: t + 4, minute: 9 },
        { kind: "blockStart", timeMs: t + 5 },
    ];
    for (const m of messages) {
        const bytes = encodeMessage(m);
        const back = decodeMessage(bytes);
        assert.equal(back.kind, m.kind);
        assert.equal(back.timeMs, m.timeMs);
        assert.equal(toHex(encodeMessage(back)), toHex(bytes));
        assert.ok(describeMessage(back, 1, 2).includes(`"seq":2`));
    }
    assert.throws(() => decodeMessage(Uint8Array.of(9, 0, 0, 0, 0, 0, 0)), ProtocolError);
    assert.throws(() => decodeMessage(Uint8Array.of(1, 0, 0, 0, 0, 0, 0, 1, 2)), ProtocolError);
    assert.throws(() => decodeMessage(Uint8Array.of(4)), ProtocolError);
});
//# sourceMappingURL=messages.test.js.map