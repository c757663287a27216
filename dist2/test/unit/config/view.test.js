import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadConfig } from "../../../src/config/index.js";
import { configurationView, REDACTED } from "../../../src/config/view.js";
const dir = mkdtempSync(join(tmpdir(), "ledgerd-view-"));
after(() => rmSync(dir, { recursive: true, force: true }));
const env = { HOME: dir };
/** Spec §4.2.1, transcribed: group → [field, type]. "list" = null or array of strings. */
const SPEC = {
    App: [
        ["PortNumber", "int"],
        ["HomeDir", "string"],
        ["ControlPanelPort", "int"],
        ["ControlPanelFilesPath", "string"],
        ["ControlPanelSetting", "string"],
        ["DBType", "string"],
        ["LdbPath", "string"],
        ["BoltDBPath", "string"],
        ["DataStorePath", "string"],
        ["DirectoryBlockInSeconds", "int"],
        ["ExportData", "bool"],
        ["ExportDataSubpath", "string"],
        ["NodeMode", "string"],
        ["IdentityChainID", "string"],
        ["LocalServerPrivKey", "string"],
        ["LocalServerPublicKey", "string"],
        ["ExchangeRate", "int"],
        ["ExchangeRateChainId", "string"],
        ["ExchangeRateAuthorityPublicKey", "string"],
        ["ExchangeRateAuthorityPublicKeyMainNet", "string"],
        ["ExchangeRateAuthorityPublicKeyTestNet", "string"],
        ["ExchangeRateAuthorityPublicKeyLocalNet", "string"],
        ["Network", "string"],
        ["MainNetworkPort", "string"],
        ["PeersFile", "string"],
        ["MainSeedURL", "string"],
        ["MainSpecialPeers", "string"],
        ["TestNetworkPort", "string"],
        ["TestSeedURL", "string"],
        ["TestSpecialPeers", "string"],
        ["LocalNetworkPort", "string"],
        ["LocalSeedURL", "string"],
        ["LocalSpecialPeers", "string"],
        ["CustomBootstrapIdentity", "string"],
        ["CustomBootstrapKey", "string"],
        ["NodeTlsEnabled", "bool"],
        ["NodeTlsPrivateKey", "string"],
        ["NodeTlsPublicCert", "string"],
        ["NodeRpcUser", "string"],
        ["NodeRpcPass", "string"],
        ["ChangeAcksHeight", "int"],
    ],
    Peer: [
        ["AddPeers", "list"],
        ["ConnectPeers", "list"],
        ["Listeners", "list"],
        ["MaxPeers", "int"],
        ["BanDuration", "int"],
        ["TestNet", "bool"],
        ["SimNet", "bool"],
    ],
    Log: [
        ["LogPath", "string"],
        ["LogLevel", "string"],
        ["ConsoleLogLevel", "string"],
    ],
    Wallet: [
        ["Address", "string"],
        ["Port", "int"],
        ["DataFile", "string"],
        ["RefreshInSeconds", "string"],
        ["BoltDBPath", "string"],
        ["NodeAddress", "string"],
        ["NodePort", "int"],
    ],
    Walletd: [
        ["WalletRpcUser", "string"],
        ["WalletRpcPass", "string"],
        ["WalletTlsEnabled", "bool"],
        ["WalletTlsPrivateKey", "string"],
        ["WalletTlsPublicCert", "string"],
        ["NodeLocation", "string"],
        ["WalletdLocation", "string"],
    ],
};
function checkShape(view) {
    assert.deepEqual(Object.keys(view), Object.keys(SPEC));
    for (const [group, fields] of Object.entries(SPEC)) {
        assert.deepEqual(Object.keys(view[group]), fields.map(([f]) => f), `fields of ${group}`);
        for (const [field, type] of fields) {
            const v = view[group][field];
            const where = `${group}.${field} = ${JSON.stringify(v)}`;
            if (type === "int")
                assert.ok(Number.isSafeInteger(v), where);
            else if (type === "bool")
                assert.equal(typeof v, "boolean", where);
            else if (type === "string")
                assert.equal(typeof v, "string", where);
            else
                assert.ok(v === null || (Array.isArray(v) && v.every((x) => typeof x === "string")), where);
        }
    }
}
describe("configurationView", () => {
    it("defaults: exactly the spec's groups, fields and types", () => {
        const view = configurationView(loadConfig([`-homedir=${dir}`], env));
        checkShape(view);
        assert.equal(view.App.PortNumber, 8088);
        assert.equal(view.App.ControlPanelPort, 8090);
        assert.equal(view.App.DirectoryBlockInSeconds, 6);
        assert.equal(view.App.ExchangeRate, 100000);
        assert.equal(view.App.Network, "LOCAL");
        assert.equal(view.App.MainNetworkPort, "8108", "peer ports are strings");
        assert.equal(view.App.HomeDir, dir);
        assert.equal(view.App.NodeTlsPrivateKey, join(dir, "tls", "node.key"));
        assert.equal(view.App.ExchangeRateAuthorityPublicKey, view.App.ExchangeRateAuthorityPublicKeyLocalNet);
        assert.equal(view.App.LocalServerPrivKey, REDACTED, "the default key is a secret too");
        assert.equal(view.App.NodeRpcPass, "", "an empty secret stays empty");
        assert.equal(view.Log.LogLevel, "error");
        assert.equal(view.Log.ConsoleLogLevel, "standard");
        assert.equal(view.Peer.AddPeers, null);
        assert.equal(view.Walletd.NodeLocation, "localhost:8088");
    });
    it("secrets are never in clear; other values are the file's and the flags'", () => {
        const conf = join(dir, "secret.conf");
        const secrets = [
            "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90",
            "node-pass-Zq9",
            "wallet-pass-Xy7",
        ];
        writeFileSync(conf, [
            "[App]",
            `LocalServerPrivKey = ${secrets[0]}`,
            "NodeRpcUser = alice",
            `NodeRpcPass = ${secrets[1]}`,
            "ControlPanelPort = 0x1f9a",
            "ExportData = on",
            "[Peer]",
            "AddPeers = 10.0.0.1:8108",
            "AddPeers = 10.0.0.2:8108",
            "BanDuration = 60000000000",
            "[Log]",
            "ConsoleLogLevel = notice",
            "[Walletd]",
            "WalletRpcUser = w",
            `WalletRpcPass = ${secrets[2]}`,
            "NodeLocation = 203.0.113.9:8088",
        ].join("\n"));
        const view = configurationView(loadConfig([`-config=${conf}`, "-port=9999", "-network=MAIN", "-tls"], env));
        checkShape(view);
        const text = JSON.stringify(view);
        for (const s of secrets)
            assert.ok(!text.includes(s), `secret ${s} leaked`);
        assert.equal(view.App.LocalServerPrivKey, REDACTED);
        assert.equal(view.App.NodeRpcPass, REDACTED);
        assert.equal(view.Walletd.WalletRpcPass, REDACTED);
        assert.equal(view.App.NodeRpcUser, "alice");
        assert.equal(view.App.PortNumber, 9999, "the flag, not the default");
        assert.equal(view.App.Network, "MAIN");
        assert.equal(view.App.DirectoryBlockInSeconds, 600);
        assert.equal(view.App.ExchangeRateAuthorityPublicKey, view.App.ExchangeRateAuthorityPublicKeyMainNet);
        assert.equal(view.App.NodeTlsEnabled, true);
        assert.equal(view.App.ControlPanelPort, 0x1f9a);
        assert.equal(view.App.ExportData, true);
        assert.deepEqual(view.Peer.AddPeers, ["10.0.0.1:8108", "10.0.0.2:8108"]);
        assert.equal(view.Peer.BanDuration, 60000000000);
        assert.equal(view.Log.ConsoleLogLevel, "notice", "the file's word when it is the effective level");
        assert.equal(view.Walletd.NodeLocation, "203.0.113.9:8088");
    });
    it("a -loglevel flag shows as the effective level", () => {
        const view = configurationView(loadConfig([`-homedir=${dir}`, "-loglevel=debug"], env));
        assert.equal(view.Log.LogLevel, "debug");
        assert.equal(view.Log.ConsoleLogLevel, "debug");
    });
    it("an empty LocalServerPrivKey in the file stays empty", () => {
        const conf = join(dir, "empty.conf");
        writeFileSync(conf, '[App]\nLocalServerPrivKey = ""\n');
        assert.equal(configurationView(loadConfig([`-config=${conf}`], env)).App.LocalServerPrivKey, "");
    });
});
//# sourceMappingURL=view.test.js.map