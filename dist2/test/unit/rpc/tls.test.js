import assert from "node:assert/strict";
import { createPrivateKey, X509Certificate } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:https";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ConfigError } from "../../../src/config/errors.js";
import { loadConfig } from "../../../src/config/index.js";
import { certificateHosts, ensureCertificate } from "../../../src/rpc/tls.js";
const root = mkdtempSync(join(tmpdir(), "ledgerd-tls-"));
after(() => rmSync(root, { recursive: true, force: true }));
/** A DNS name that only this test knows: reached through a lookup override, never real DNS. */
const SELF_NAME = "node.ledgerd-test.example";
const SELF_IP = "198.51.100.23";
/** Resolves every name to 127.0.0.1 (both callback shapes: Node ≥ 20 asks for `all` addresses). */
const toLoopback = ((_host, options, callback) => {
    if (options?.all)
        callback(null, [{ address: "127.0.0.1", family: 4 }]);
    else
        callback(null, "127.0.0.1", 4);
});
async function serve(keyFile, certFile) {
    const server = createServer({ key: readFileSync(keyFile), cert: readFileSync(certFile), minVersion: "TLSv1.2" }, (req, res) => {
        res.end(`hello ${req.url}`);
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    return server;
}
async function close(server) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(() => resolve()));
}
/** GET https://<host>:<port>/path trusting only `ca`; resolves to the body or rejects with the TLS error. */
function get(port, ca, host, viaName) {
    return new Promise((resolve, reject) => {
        const req = request(viaName
            ? { host, port, path: "/v2", ca, lookup: toLoopback, agent: false }
            : {
                host: "127.0.0.1",
                port,
                path: "/v2",
                ca,
                servername: host === "127.0.0.1" ? undefined : host,
                agent: false,
            }, (res) => {
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (c) => {
                body += c;
            });
            res.on("end", () => resolve(body));
        });
        req.on("error", reject);
        req.end();
    });
}
/** The SANs of a PEM certificate as a set of "DNS:x" / "IP Address:y" strings. */
function sans(certFile) {
    const text = new X509Certificate(readFileSync(certFile)).subjectAltName ?? "";
    return new Set(text.split(", ").filter((s) => s !== ""));
}
describe("TLS certificate", () => {
    const home = join(root, "home");
    const config = loadConfig([`-homedir=${home}`, `-selfaddr=${SELF_NAME},${SELF_IP}`, "-tls"], { HOME: root });
    it("certificateHosts covers interfaces, localhost, loopbacks, NodeLocation and -selfaddr", () => {
        const hosts = certificateHosts({ ...config, nodeLocation: "203.0.113.7" });
        for (const h of ["localhost", "127.0.0.1", "::1", "203.0.113.7", SELF_NAME, SELF_IP]) {
            assert.ok(hosts.includes(h), `missing ${h}`);
        }
        for (const addrs of Object.values(networkInterfaces())) {
            for (const a of addrs ?? [])
                assert.ok(hosts.includes(a.address), `missing interface address ${a.address}`);
        }
        assert.equal(new Set(hosts.map((h) => h.toLowerCase())).size, hosts.length, "no duplicates");
    });
    it("creates a self-signed pair, serves HTTPS with it, and a client trusting only it connects", async () => {
        const { keyFile, certFile } = config.tls;
        const made = await ensureCertificate({ keyFile, certFile, hosts: certificateHosts(config) });
        assert.deepEqual(made, { keyFile, certFile, created: true });
        assert.equal(statSync(keyFile).mode & 0o777, 0o600, "the key is readable by its owner only");
        const cert = new X509Certificate(readFileSync(certFile));
        const names = sans(certFile);
        for (const s of [
            "DNS:localhost",
            "IP Address:127.0.0.1",
            "IP Address:0:0:0:0:0:0:0:1",
            `DNS:${SELF_NAME}`,
            `IP Address:${SELF_IP}`,
        ]) {
            assert.ok(names.has(s), `SAN ${s} missing from ${cert.subjectAltName}`);
        }
        for (const addrs of Object.values(networkInterfaces())) {
            for (const a of addrs ?? []) {
                if (a.family === "IPv4")
                    assert.ok(names.has(`IP Address:${a.address}`), `interface ${a.address} missing`);
            }
        }
        const years = (Date.parse(cert.validTo) - Date.now()) / (365.25 * 24 * 3600 * 1000);
        assert.ok(years > 9.9 && years < 10.1, `valid for ~10 years, got ${years.toFixed(2)}`);
        assert.ok(cert.checkPrivateKey(createPrivateKey(readFileSync(keyFile))), "the certificate belongs to the key");
        const server = await serve(keyFile, certFile);
        try {
            const port = server.address().port;
            const ca = readFileSync(certFile);
            assert.equal(await get(port, ca, "127.0.0.1", false), "hello /v2");
            assert.equal(await get(port, ca, "localhost", true), "hello /v2");
            assert.equal(await get(port, ca, SELF_NAME, true), "hello /v2", "a -selfaddr DNS name verifies");
            assert.equal(await get(port, ca, SELF_NAME, false), "hello /v2", "same via servername");
            // The checks that make the above meaningful: a name not in the certificate, and a client that does
            // not trust it, both fail.
            await assert.rejects(get(port, ca, "other.ledgerd-test.example", true), /ERR_TLS_CERT_ALTNAME_INVALID|does not match/);
            const stranger = join(root, "stranger");
            mkdirSync(stranger);
            await ensureCertificate({ keyFile: join(stranger, "k"), certFile: join(stranger, "c"), hosts: ["127.0.0.1"] });
            await assert.rejects(get(port, readFileSync(join(stranger, "c")), "127.0.0.1", false), /self[- ]signed|unable to verify|SELF_SIGNED/i);
        }
        finally {
            await close(server);
        }
    });
    it("a restart reuses the files unchanged", async () => {
        const { keyFile, certFile } = config.tls;
        const key = readFileSync(keyFile);
        const crt = readFileSync(certFile);
        const mtime = statSync(certFile).mtimeMs;
        const again = await ensureCertificate({ keyFile, certFile, hosts: ["some.other.name"] });
        assert.equal(again.created, false);
        assert.deepEqual(readFileSync(keyFile), key);
        assert.deepEqual(readFileSync(certFile), crt);
        assert.equal(statSync(certFile).mtimeMs, mtime);
        const server = await serve(keyFile, certFile);
        try {
            assert.equal(await get(server.address().port, crt, SELF_NAME, true), "hello /v2");
        }
        finally {
            await close(server);
        }
    });
    it("a key without its certificate gets a certificate for that key", async () => {
        const dir = join(root, "keyonly");
        const keyFile = join(dir, "node.key");
        const certFile = join(dir, "node.crt");
        await ensureCertificate({ keyFile, certFile, hosts: ["localhost"] });
        const key = readFileSync(keyFile);
        unlinkSync(certFile);
        const made = await ensureCertificate({ keyFile, certFile, hosts: ["localhost", "10.9.8.7"] });
        assert.equal(made.created, true);
        assert.deepEqual(readFileSync(keyFile), key, "the key is kept");
        assert.ok(sans(certFile).has("IP Address:10.9.8.7"));
        const server = await serve(keyFile, certFile);
        try {
            assert.equal(await get(server.address().port, readFileSync(certFile), "localhost", true), "hello /v2");
        }
        finally {
            await close(server);
        }
    });
    it("a certificate that does not belong to the key, or a broken file, is a ConfigError naming the file", async () => {
        const a = join(root, "a");
        const b = join(root, "b");
        await ensureCertificate({ keyFile: join(a, "k"), certFile: join(a, "c"), hosts: ["localhost"] });
        await ensureCertificate({ keyFile: join(b, "k"), certFile: join(b, "c"), hosts: ["localhost"] });
        await assert.rejects(ensureCertificate({ keyFile: join(a, "k"), certFile: join(b, "c"), hosts: [] }), (err) => err instanceof ConfigError &&
            err.file === join(b, "c") &&
            /does not belong to the private key/.test(err.message));
        writeFileSync(join(b, "k"), "not a key");
        await assert.rejects(ensureCertificate({ keyFile: join(b, "k"), certFile: join(b, "c"), hosts: [] }), (err) => err instanceof ConfigError && err.message.startsWith(`${join(b, "k")}: cannot use the TLS private key`));
    });
});
//# sourceMappingURL=tls.test.js.map