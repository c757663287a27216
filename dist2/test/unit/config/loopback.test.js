// Which addresses count as loopback (the default listen address; callers that may change the node's state
// through /debug without the debug credential).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isLoopbackAddress, isLoopbackHost } from "../../../src/config/loopback.js";
describe("loopback addresses", () => {
    it("127.0.0.0/8, ::1 and their mapped and long forms are loopback", () => {
        for (const a of [
            "127.0.0.1",
            "127.255.0.9",
            "::1",
            "[::1]",
            "0:0:0:0:0:0:0:1",
            "::ffff:127.0.0.1",
            "::FFFF:7f00:1",
        ])
            assert.equal(isLoopbackAddress(a), true, a);
    });
    it("everything else is not: any-address, private, public, mapped non-loopback, names, garbage", () => {
        for (const a of [
            "0.0.0.0",
            "::",
            "10.0.0.1",
            "192.168.1.1",
            "128.0.0.1",
            "::2",
            "::ffff:10.0.0.1",
            "::ffff:a00:1",
            "fe80::1",
            "localhost",
            "",
            "127.0.0.1.example.com",
        ])
            assert.equal(isLoopbackAddress(a), false, a);
    });
    it("a listen host may also be the name localhost", () => {
        assert.equal(isLoopbackHost("localhost"), true);
        assert.equal(isLoopbackHost("LOCALHOST."), true);
        assert.equal(isLoopbackHost("0.0.0.0"), false);
        assert.equal(isLoopbackHost("example.com"), false);
    });
});
//# sourceMappingURL=loopback.test.js.map