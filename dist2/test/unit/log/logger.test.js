import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { createLogger } from "../../../src/log/logger.js";
const dir = mkdtempSync(join(tmpdir(), "ledgerd-log-"));
after(() => rmSync(dir, { recursive: true, force: true }));
/** Stands in for stderr (the logger's only dependency): collects what is written, parses the JSON lines. */
function console() {
    let text = "";
    return {
        stream: {
            write(chunk) {
                text += chunk;
                return true;
            },
        },
        entries: () => {
            assert.ok(text === "" || text.endsWith("\n"), "every entry ends with a newline");
            return text
                .split("\n")
                .filter((l) => l !== "")
                .map((l) => JSON.parse(l));
        },
    };
}
function fileEntries(path) {
    return readFileSync(path, "utf8")
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l));
}
describe("logger", () => {
    it("writes one JSON object per line: time (ISO), level, msg, fields", () => {
        const out = console();
        const log = createLogger({ level: "none", consoleLevel: "debug" }, { stderr: out.stream });
        const before = Date.now();
        log.info("started", { port: 8088, tls: false });
        log.warn("slow");
        const [a, b] = out.entries();
        assert.deepEqual(Object.keys(a), ["time", "level", "msg", "fields"]);
        assert.equal(a.level, "info");
        assert.equal(a.msg, "started");
        assert.deepEqual(a.fields, { port: 8088, tls: false });
        const t = Date.parse(a.time);
        assert.ok(t >= before - 1000 && t <= Date.now() + 1000);
        assert.match(a.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        assert.deepEqual(Object.keys(b), ["time", "level", "msg"], "no fields key when none given");
        assert.equal(b.level, "warning");
    });
    it("filters by level, and setLevel changes it while running", () => {
        const out = console();
        const log = createLogger({ level: "none", consoleLevel: "warning" }, { stderr: out.stream });
        log.debug("d1");
        log.info("i1");
        log.warn("w1");
        log.error("e1");
        log.setLevel("none", "debug");
        log.debug("d2");
        log.setLevel("none", "none");
        log.error("e2");
        log.setLevel("none", "error");
        log.warn("w3");
        log.error("e3");
        assert.deepEqual(out.entries().map((e) => e.msg), ["w1", "e1", "d2", "e3"]);
        assert.deepEqual(log.levels(), { level: "none", consoleLevel: "error" });
        // isEnabled says what a call would write
        assert.deepEqual(["debug", "info", "warning", "error"].map((l) => log.isEnabled(l)), [false, false, false, true]);
    });
    it("the file has its own level; setLevel without a console level leaves stderr alone", () => {
        const out = console();
        const path = join(dir, "sub", "dir", "ledgerd.log");
        const log = createLogger({ level: "error", consoleLevel: "info" }, { stderr: out.stream });
        log.close();
        const logF = createLogger({ level: "error", consoleLevel: "info", file: path }, { stderr: out.stream });
        logF.info("both? no: console only");
        logF.error("both");
        assert.equal(logF.isEnabled("debug"), false);
        logF.setLevel("debug");
        assert.equal(logF.isEnabled("debug"), true, "the file takes debug now");
        logF.debug("file only");
        logF.close();
        logF.error("after close: console only");
        assert.deepEqual(fileEntries(path).map((e) => e.msg), ["both", "file only"]);
        assert.deepEqual(out.entries().map((e) => e.msg), ["both? no: console only", "both", "after close: console only"]);
        assert.equal(statSync(path).mode & 0o777, 0o600, "log files may hold addresses: owner only");
    });
    it("appends to an existing file", () => {
        const path = join(dir, "append.log");
        for (const msg of ["one", "two"]) {
            const log = createLogger({ level: "info", consoleLevel: "none", file: path }, { stderr: console().stream });
            log.info(msg);
            log.close();
        }
        assert.deepEqual(fileEntries(path).map((e) => e.msg), ["one", "two"]);
    });
    it("serialises bigint, bytes and errors, redacts secret-named fields, survives cycles", () => {
        const out = console();
        const log = createLogger({ level: "none", consoleLevel: "debug" }, { stderr: out.stream });
        log.error("failed", {
            balance: 12345678901234567890n,
            hash: new Uint8Array([0xde, 0xad, 0xbe, 0xef]),
            error: new TypeError("boom"),
            rpcPass: "hunter2",
            nested: { LocalServerPrivKey: "abcd", authorization: "Basic eDp5", user: "alice" },
        });
        const cyclic = { a: 1 };
        cyclic.self = cyclic;
        log.info("cyclic", { cyclic });
        const [e, c] = out.entries();
        const f = e.fields;
        assert.equal(f.balance, "12345678901234567890");
        assert.equal(f.hash, "deadbeef");
        assert.equal(f.error.name, "TypeError");
        assert.equal(f.error.message, "boom");
        assert.equal(f.rpcPass, "<redacted>");
        assert.deepEqual(f.nested, { LocalServerPrivKey: "<redacted>", authorization: "<redacted>", user: "alice" });
        assert.equal(c.msg, "cyclic");
        assert.match(String(c.fields), /^<unserialisable: /);
    });
    it("two loggers do not share state", () => {
        const a = console();
        const b = console();
        const la = createLogger({ level: "none", consoleLevel: "info" }, { stderr: a.stream });
        const lb = createLogger({ level: "none", consoleLevel: "error" }, { stderr: b.stream });
        la.setLevel("none", "none");
        lb.info("b-info");
        lb.error("b-error");
        la.error("a-error");
        assert.deepEqual(a.entries(), []);
        assert.deepEqual(b.entries().map((e) => e.msg), ["b-error"]);
    });
});
//# sourceMappingURL=logger.test.js.map