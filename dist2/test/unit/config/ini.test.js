import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ConfigError } from "../../../src/config/errors.js";
import { fileValue, readIniFile } from "../../../src/config/ini.js";
const dir = mkdtempSync(join(tmpdir(), "ledgerd-ini-"));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
/** Writes `text` to a new file of the temp dir and returns its path. */
function file(text) {
    const path = join(dir, `f${n++}.conf`);
    writeFileSync(path, text);
    return path;
}
const GOOD = [
    "\uFEFF; a reference-style file, edited by hand",
    "# hash comments too",
    "[app]",
    "portnumber = 9001 ; trailing comment",
    "  DirectoryBlockInSeconds\t=   0x0a",
    "ExchangeRate = 00100000",
    'HomeDir = "  /srv/ledger home  "',
    "ExportData",
    "NodeTlsEnabled = YES",
    'FactomdRpcUser = "alice"', // reference (vendor) name of NodeRpcUser
    'NodeRpcPass = "p;a#s\\"s\\\\"',
    "Network = custom",
    "CorsDomains = http://a.example, \\",
    "    http://b.example",
    "ChangeAcksHeight = 4294967295",
    "",
    "[Peer]",
    "AddPeers = 10.0.0.1:8108",
    "AddPeers = 10.0.0.2:8108",
    "ConnectPeers = 1.1.1.1:1",
    "ConnectPeers",
    "BanDuration = 3600000000000",
    "",
    "[LOG]",
    "logLevel = notice",
    "",
    "[Walletd]",
    "FactomdLocation = 203.0.113.9:8088",
    "",
    "[LiveFeedAPI]",
    "EnableLiveFeedAPI = false",
    "AnythingAtAll = here is ignored",
].join("\r\n");
describe("ini: a good file", () => {
    const path = file(GOOD);
    const doc = readIniFile(path);
    it("keeps raw values under canonical group and field names", () => {
        assert.equal(doc.values.App.PortNumber, "9001");
        assert.equal(doc.values.App.DirectoryBlockInSeconds, "0x0a");
        assert.equal(doc.values.App.HomeDir, "  /srv/ledger home  ");
        assert.equal(doc.values.App.NodeRpcUser, "alice");
        assert.equal(doc.values.App.NodeRpcPass, 'p;a#s"s\\');
        assert.equal(doc.values.App.CorsDomains, "http://a.example,     http://b.example");
        assert.equal(doc.values.Walletd.NodeLocation, "203.0.113.9:8088");
        assert.deepEqual(Object.keys(doc.values).sort(), ["Anchor", "App", "Cluster", "Log", "Peer", "Wallet", "Walletd"]);
    });
    it("types values: decimal with leading zeros, hex, bools in any spelling, blank bool = true", () => {
        assert.equal(fileValue(doc.values, "App", "PortNumber"), 9001);
        assert.equal(fileValue(doc.values, "App", "DirectoryBlockInSeconds"), 10);
        assert.equal(fileValue(doc.values, "App", "ExchangeRate"), 100000);
        assert.equal(fileValue(doc.values, "App", "ExportData"), true);
        assert.equal(fileValue(doc.values, "App", "NodeTlsEnabled"), true);
        assert.equal(fileValue(doc.values, "App", "ChangeAcksHeight"), 4294967295);
        assert.equal(fileValue(doc.values, "Peer", "BanDuration"), 3600000000000);
        assert.equal(fileValue(doc.values, "Log", "LogLevel"), "notice");
    });
    it("appends list values and empties a list with a bare name", () => {
        assert.deepEqual(fileValue(doc.values, "Peer", "AddPeers"), ["10.0.0.1:8108", "10.0.0.2:8108"]);
        assert.deepEqual(fileValue(doc.values, "Peer", "ConnectPeers"), []);
        assert.equal(fileValue(doc.values, "Peer", "Listeners"), null, "unset list = null");
    });
    it("falls back to the reference defaults for fields the file does not set", () => {
        assert.equal(fileValue(doc.values, "App", "ControlPanelPort"), 8090);
        assert.equal(fileValue(doc.values, "App", "LocalServerPrivKey"), "4c38c72fc5cdad68f13b74674d3ffb1f3d63a112710868c9b08946553448d26d");
        assert.equal(fileValue(doc.values, "Log", "ConsoleLogLevel"), "standard");
        assert.equal(fileValue(doc.values, "Walletd", "WalletdLocation"), "localhost:8089");
    });
    it("records the line of each assignment", () => {
        assert.equal(doc.lines["App.PortNumber"], 4);
        assert.equal(doc.lines["Peer.AddPeers"], 19);
    });
    it("a missing file is null", () => {
        assert.equal(readIniFile(join(dir, "nope.conf")), null);
    });
});
describe("ini: every kind of bad file names the file, the line and the field", () => {
    const cases = [
        {
            name: "unknown group",
            text: "[App]\nPortNumber = 1\n[Bogus]\nX = 1\n",
            line: 3,
            field: "Bogus",
            message: /unknown group \[Bogus\]/,
        },
        {
            name: "unknown field",
            text: "[App]\n\nPortNumbr = 8088\n",
            line: 3,
            field: "App.PortNumbr",
            message: /unknown field PortNumbr in \[App\]/,
        },
        {
            name: "int field with text",
            text: "[app]\nPortNumber = 80a\n",
            line: 2,
            field: "App.PortNumber",
            message: /\[App\] PortNumber: expected an integer from 0 to 65535, got "80a"/,
        },
        {
            name: "int out of range",
            text: "[app]\nControlPanelPort = 65536\n",
            line: 2,
            field: "App.ControlPanelPort",
            message: /ControlPanelPort: expected an integer from 0 to 65535, got "65536"/,
        },
        {
            name: "negative int",
            text: "[peer]\nMaxPeers = -1\n",
            line: 2,
            field: "Peer.MaxPeers",
            message: /MaxPeers: expected an integer/,
        },
        {
            name: "bool field with text",
            text: "[app]\nExportData = maybe\n",
            line: 2,
            field: "App.ExportData",
            message: /\[App\] ExportData: expected true or false, got "maybe"/,
        },
        {
            name: "value outside the choices",
            text: "[App]\nNetwork = MOON\n",
            line: 2,
            field: "App.Network",
            message: /\[App\] Network: expected one of MAIN, TEST, LOCAL, CUSTOM, got "MOON"/,
        },
        {
            name: "bad log level",
            text: "[log]\nLogLevel = loud\n",
            line: 2,
            field: "Log.LogLevel",
            message: /\[Log\] LogLevel: expected one of debug/,
        },
        {
            name: "bare int field",
            text: "[app]\nPortNumber\n",
            line: 2,
            field: "App.PortNumber",
            message: /\[App\] PortNumber: a value is required/,
        },
        {
            name: "empty int value",
            text: "[app]\nPortNumber =\n",
            line: 2,
            field: "App.PortNumber",
            message: /expected an integer from 0 to 65535, got ""/,
        },
        {
            name: "missing =",
            text: "[app]\nPortNumber 8088\n",
            line: 2,
            field: "PortNumber",
            message: /syntax error: expected "=" after PortNumber/,
        },
        {
            name: "field before any group",
            text: "; c\nPortNumber = 1\n",
            line: 2,
            field: "PortNumber",
            message: /comes before any group header/,
        },
        { name: "unterminated header", text: "[app\n", line: 1, message: /syntax error: expected a group header/ },
        { name: "subsection", text: '[app "x"]\n', line: 1, message: /subsections .* are not supported/ },
        {
            name: "missing closing quote",
            text: '[app]\nHomeDir = "abc\n',
            line: 2,
            field: "HomeDir",
            message: /missing closing quote in the value of HomeDir/,
        },
        {
            name: "invalid escape",
            text: "[app]\nHomeDir = a\\qb\n",
            line: 2,
            field: "HomeDir",
            message: /invalid escape "\\q" in the value of HomeDir/,
        },
        { name: "garbage line", text: "[app]\n= 5\n", line: 2, message: /expected "Name = value"/ },
        {
            name: "continuation past the end",
            text: "[app]\nHomeDir = a \\",
            line: 2,
            field: "HomeDir",
            message: /continues past the end of the file/,
        },
    ];
    for (const c of cases) {
        it(c.name, () => {
            const path = file(c.text);
            let caught;
            try {
                readIniFile(path);
            }
            catch (err) {
                caught = err;
            }
            assert.ok(caught instanceof ConfigError, `expected ConfigError, got ${String(caught)}`);
            assert.ok(caught.message.startsWith(`${path}:${c.line}: `), `message lacks ${path}:${c.line}: — ${caught.message}`);
            assert.match(caught.message, c.message);
            assert.equal(caught.file, path);
            assert.equal(caught.line, c.line);
            if (c.field !== undefined)
                assert.equal(caught.field, c.field);
        });
    }
    it("an unreadable path (a directory) is a ConfigError naming it", () => {
        assert.throws(() => readIniFile(dir), (err) => err instanceof ConfigError && err.message.startsWith(`${dir}: cannot read`));
    });
});
//# sourceMappingURL=ini.test.js.map