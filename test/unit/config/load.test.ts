import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { ConfigError, loadConfig, locationHost, logFilePath, reloadConfig } from "../../../src/config/index.js";
import { configurationView } from "../../../src/config/view.js";
import { decodeAddress } from "../../../src/protocol/address.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { customNetworkFixture, writeCustomConfig } from "../../support/customNetwork.js";

const root = mkdtempSync(join(tmpdir(), "ledgerd-cfgload-"));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

/** A fresh fake user home (HOME) for one test. */
function home(): { env: NodeJS.ProcessEnv; dir: string } {
  const dir = join(root, `home${n++}`);
  mkdirSync(dir, { recursive: true });
  return { env: { HOME: dir }, dir };
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected ConfigError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected a ConfigError");
}

describe("loadConfig: defaults", () => {
  it("without a file: reference defaults, LOCAL, home ~/.ledgerd", () => {
    const { env, dir } = home();
    const c = loadConfig([], env);
    assert.equal(c.network, "LOCAL");
    assert.equal(c.customNet, "");
    assert.equal(c.port, 8088);
    assert.equal(c.listenHost, "127.0.0.1");
    assert.equal(c.insecureNoAuth, false);
    assert.equal(c.debugApi, "readonly");
    assert.equal(c.homeDir, join(dir, ".ledgerd"));
    assert.equal(c.configFile, "");
    assert.equal(c.blockTimeSeconds, 6);
    assert.equal(c.journaling, false);
    assert.equal(c.rpcUser, "");
    assert.equal(c.rpcPass, "");
    assert.deepEqual(c.tls, {
      enabled: false,
      keyFile: join(dir, ".ledgerd", "tls", "node.key"),
      certFile: join(dir, ".ledgerd", "tls", "node.crt"),
    });
    assert.deepEqual(c.selfAddrs, []);
    assert.equal(c.nodeLocation, "localhost");
    assert.equal(c.maxBodyBytes, 1048576);
    assert.equal(c.maxBatch, 100);
    assert.deepEqual(c.corsDomains, []);
    assert.equal(c.logLevel, "error");
    assert.equal(c.consoleLogLevel, "info");
    assert.equal(c.dropRatePerMille, 0);
    assert.equal(c.delayMs, 0);
    assert.equal(c.verifyThreads, availableParallelism() >= 2 ? 1 : 0);
    assert.deepEqual(c.file, { App: {}, Peer: {}, Log: {}, Wallet: {}, Walletd: {}, Cluster: {}, Anchor: {} });
    assert.equal(c.anchor.rpcUrl, "", "no anchoring unless configured");
    assert.equal(c.anchor.chainId, 1);
    assert.equal(c.anchor.intervalBlocks, 1);
    assert.equal(c.anchor.maxWindow, 1000);
    assert.equal(c.anchor.confirmations, 12);
    assert.deepEqual(c.anchor.recordPublicKeys, []);
    assert.deepEqual(c.cluster.natsUrls, [], "the single node by default");
    assert.equal(c.cluster.role, "follower");
    assert.equal(logFilePath(c), join(dir, ".ledgerd", "database", "Log", "ledgerd.log"));
  });
});

describe("loadConfig: precedence flags > file > defaults", () => {
  it("reads <homedir>/ledgerd.conf and lets flags override it", () => {
    const { env, dir } = home();
    const hd = join(dir, ".ledgerd");
    mkdirSync(hd);
    writeFileSync(
      join(hd, "ledgerd.conf"),
      [
        "[App]",
        "PortNumber = 9001",
        "DirectoryBlockInSeconds = 20",
        "NodeRpcUser = fileuser",
        "NodeRpcPass = filepass",
        "CorsDomains = http://a.example, *",
        "MaxBodyBytes = 2048",
        "VerifyThreads = 4",
        "DropRate = 7",
        "Delay = 30",
        "[Log]",
        "LogLevel = warning",
        "ConsoleLogLevel = debug",
        "[Walletd]",
        "NodeLocation = 203.0.113.9:8088",
      ].join("\n"),
    );
    const fromFile = loadConfig([], env);
    assert.equal(fromFile.configFile, join(hd, "ledgerd.conf"));
    assert.equal(fromFile.port, 9001);
    assert.equal(fromFile.blockTimeSeconds, 20);
    assert.equal(fromFile.rpcUser, "fileuser");
    assert.equal(fromFile.rpcPass, "filepass");
    assert.deepEqual(fromFile.corsDomains, ["http://a.example", "*"]);
    assert.equal(fromFile.maxBodyBytes, 2048);
    assert.equal(fromFile.verifyThreads, 4);
    assert.equal(fromFile.dropRatePerMille, 7);
    assert.equal(fromFile.delayMs, 30);
    assert.equal(fromFile.logLevel, "warning");
    assert.equal(fromFile.consoleLogLevel, "debug");
    assert.equal(fromFile.nodeLocation, "203.0.113.9");
    assert.equal(fromFile.file.App!.PortNumber, "9001");
    assert.equal(fromFile.file.App!.NodeRpcPass, "filepass", "raw values keep secrets (the view redacts)");

    const flagged = loadConfig(
      [
        "-port=9002",
        "-blktime=3",
        "-rpcuser=u",
        "-rpcpass=p",
        "-maxbody=4096",
        "-verifythreads=0",
        "-drop=9",
        "-loglevel=debug",
        "-journaling",
      ],
      env,
    );
    assert.equal(flagged.port, 9002);
    assert.equal(flagged.blockTimeSeconds, 3);
    assert.equal(flagged.rpcUser, "u");
    assert.equal(flagged.rpcPass, "p");
    assert.equal(flagged.maxBodyBytes, 4096);
    assert.equal(flagged.verifyThreads, 0);
    assert.equal(flagged.dropRatePerMille, 9);
    assert.equal(flagged.logLevel, "debug");
    assert.equal(flagged.consoleLogLevel, "debug");
    assert.equal(flagged.journaling, true);
    assert.equal(flagged.delayMs, 30, "no flag: the file decides");
  });

  it("-homedir and -config expand ~ with HOME; an explicit -config that is missing is an error", () => {
    const { env, dir } = home();
    mkdirSync(join(dir, "etc"));
    writeFileSync(join(dir, "etc", "node.conf"), "[app]\nPortNumber = 7000\n");
    const c = loadConfig(["-homedir=~/data", "-config=~/etc/node.conf"], env);
    assert.equal(c.homeDir, join(dir, "data"));
    assert.equal(c.configFile, join(dir, "etc", "node.conf"));
    assert.equal(c.port, 7000);
    assert.equal(c.tls.keyFile, join(dir, "data", "tls", "node.key"));

    const err = configError(() => loadConfig(["-config=~/etc/missing.conf"], env));
    assert.match(err.message, /missing\.conf: configuration file not found \(given by -config\)/);
    assert.equal(err.field, "-config");
  });

  it("HomeDir of the file sets the data directory (relative to the file); -homedir wins over it", () => {
    const { env, dir } = home();
    const conf = join(dir, "n.conf");
    writeFileSync(conf, "[App]\nHomeDir = data\nNodeTlsPrivateKey = keys/k.pem\nNodeTlsPublicCert = /abs/c.pem\n");
    const c = loadConfig([`-config=${conf}`], env);
    assert.equal(c.homeDir, join(dir, "data"));
    assert.equal(c.tls.keyFile, join(dir, "data", "keys", "k.pem"), "relative TLS paths are below the home directory");
    assert.equal(c.tls.certFile, "/abs/c.pem");
    assert.equal(loadConfig([`-config=${conf}`, "-homedir=/elsewhere"], env).homeDir, "/elsewhere");
  });

  it("the reference's /full/path/to/ placeholders mean the default TLS files", () => {
    const { env, dir } = home();
    const conf = join(dir, "n.conf");
    writeFileSync(
      conf,
      '[App]\nFactomdTlsPrivateKey = "/full/path/to/factomdAPIpriv.key"\nNodeTlsPublicCert = ""\nFactomdTlsEnabled = true\n',
    );
    const c = loadConfig([`-config=${conf}`, `-homedir=${dir}`], env);
    assert.deepEqual(c.tls, {
      enabled: true,
      keyFile: join(dir, "tls", "node.key"),
      certFile: join(dir, "tls", "node.crt"),
    });
    assert.equal(
      loadConfig([`-config=${conf}`, "-tls=false"], env).tls.enabled,
      false,
      "-tls=false overrides the file",
    );
  });

  it("MAIN always runs 600-second blocks", () => {
    const { env } = home();
    assert.equal(loadConfig(["-network=MAIN", "-blktime=5"], env).blockTimeSeconds, 600);
    assert.equal(loadConfig(["-network=TEST", "-blktime=5"], env).blockTimeSeconds, 5);
    assert.equal(loadConfig(["-network=TEST"], env).blockTimeSeconds, 6);
  });

  it("CUSTOM needs -customnet", () => {
    const { env, dir } = home();
    const err = configError(() => loadConfig(["-network=CUSTOM"], env));
    assert.match(err.message, /network CUSTOM needs a name: start with -customnet=NAME/);
    assert.equal(err.field, "-customnet");
    const conf = writeCustomConfig(dir, "acme");
    const c = loadConfig(["-network=CUSTOM", "-customnet=acme", `-config=${conf}`], env);
    assert.equal(c.network, "CUSTOM");
    assert.equal(c.customNet, "acme");
  });

  it("CUSTOM takes its genesis and key from the file and refuses LOCAL's", () => {
    const { env, dir } = home();
    const own = customNetworkFixture("acme", 12);
    const conf = writeCustomConfig(dir, "acme", own);
    const c = loadConfig(["-network=CUSTOM", "-customnet=acme", `-config=${conf}`], env);
    assert.deepEqual(c.custom, {
      identityChainIdHex: own.identityHex,
      signingSeedHex: own.seedHex,
      publicKeyHex: own.publicKeyHex,
      allocations: [{ addressHex: toHex(decodeAddress(own.genesisKey.publicAddress).key), amount: "1200000000" }],
    });
    // LOCAL ignores these fields
    assert.equal(loadConfig([`-config=${conf}`], env).custom, undefined);
    const bad = (lines: string[]) => {
      writeFileSync(conf, ["[App]", ...lines, ""].join("\n"));
      return configError(() => loadConfig(["-network=CUSTOM", "-customnet=acme", `-config=${conf}`], env));
    };
    assert.match(bad(own.appLines.slice(1)).message, /acme\.conf.*CustomBootstrapIdentity|CustomBootstrapIdentity/);
    const [identity, seed, key] = own.appLines;
    assert.match(bad([identity!, seed!, key!, "CustomGenesisAllocation = FA2jK:1"]).message, /#1: .*address/);
    assert.match(
      bad([identity!, seed!, key!, `CustomGenesisAllocation = ${own.genesisKey.publicAddress}:1.123456789`]).message,
      /#1: expected ADDRESS:AMOUNT/,
    );
    assert.match(
      bad([
        identity!,
        seed!,
        key!,
        `CustomGenesisAllocation = ${own.genesisKey.publicAddress}:1`,
        `CustomGenesisAllocation = ${own.genesisKey.publicAddress}:2`,
      ]).message,
      /#2: .* is listed twice/,
    );
    assert.match(
      bad([identity!, seed!, key!, `CustomGenesisAllocation = ${own.genesisKey.publicAddress}:0`]).message,
      /#1: the amount is zero/,
    );
    assert.match(
      bad([identity!, seed!, key!, `CustomGenesisAllocation = ${own.genesisKey.publicAddress}:92233720368.54775808`])
        .message,
      /passes 2\^63/,
    );
  });

  it("a password without a user is refused, naming the file line (the API would be open)", () => {
    const { env, dir } = home();
    const conf = join(dir, "n.conf");
    writeFileSync(conf, "[App]\nPortNumber = 1\nNodeRpcPass = hunter2\n");
    const err = configError(() => loadConfig([`-config=${conf}`], env));
    assert.ok(err.message.startsWith(`${conf}:3: NodeRpcPass`), err.message);
    assert.equal(err.field, "App.NodeRpcPass");
    const flagErr = configError(() => loadConfig(["-rpcpass=x"], env));
    assert.equal(flagErr.field, "-rpcpass");
    assert.equal(loadConfig([`-config=${conf}`, "-rpcuser=bob"], env).rpcUser, "bob", "a user makes it valid");
  });

  it("[Anchor]: flags win over the file, key files resolve in the home directory, anchoring needs both keys", () => {
    const { env, dir } = home();
    const conf = join(dir, "a.conf");
    writeFileSync(
      conf,
      [
        "[App]",
        `HomeDir = ${dir}`,
        `EthereumAnchorRecordPublicKeys = ${"AB".repeat(32)}`,
        "[Anchor]",
        "RpcUrl = http://127.0.0.1:8545",
        "KeyFile = eth.key",
        "ECKeyFile = /keys/ec.key",
        "ChainId = 11155111",
        "Interval = 3",
        "Confirmations = 2",
        "To = 0x8A8FBABBEC1E99148083E9314DFFD82395DD8F18",
        "ConfirmationsNeeded = 20", // the reference's [anchor] field: accepted, ignored
        "",
      ].join("\n"),
    );
    const c = loadConfig([`-config=${conf}`], env);
    assert.equal(c.anchor.rpcUrl, "http://127.0.0.1:8545");
    assert.equal(c.anchor.keyFile, join(dir, "eth.key"));
    assert.equal(c.anchor.ecKeyFile, "/keys/ec.key");
    assert.equal(c.anchor.chainId, 11155111);
    assert.equal(c.anchor.intervalBlocks, 3);
    assert.equal(c.anchor.confirmations, 2);
    assert.equal(c.anchor.to, "0x8a8fbabbec1e99148083e9314dffd82395dd8f18");
    assert.deepEqual(c.anchor.recordPublicKeys, ["ab".repeat(32)]);
    const flagged = loadConfig([`-config=${conf}`, "-anchorrpc=https://rpc.example/k", "-anchorkey=/other.key"], env);
    assert.equal(flagged.anchor.rpcUrl, "https://rpc.example/k");
    assert.equal(flagged.anchor.keyFile, "/other.key");
    assert.ok(!("Anchor" in configurationView(c)), "[Anchor] is not part of the configuration result");
    assert.match(configError(() => loadConfig(["-anchorrpc=ftp://x"], env)).message, /-anchorrpc.*http/);
    assert.equal(configError(() => loadConfig(["-anchorrpc=http://127.0.0.1:1"], env)).field, "-anchorkey");
    const noEc = join(dir, "b.conf");
    writeFileSync(noEc, "[Anchor]\nRpcUrl = http://127.0.0.1:1\nKeyFile = k\n");
    assert.equal(configError(() => loadConfig([`-config=${noEc}`], env)).field, "Anchor.ECKeyFile");
    const badTo = join(dir, "c.conf");
    writeFileSync(badTo, "[Anchor]\nTo = 0x12\n");
    assert.match(configError(() => loadConfig([`-config=${badTo}`], env)).message, /c.conf:2: \[Anchor\] To/);
  });

  it("flag errors surface from loadConfig", () => {
    const { env } = home();
    assert.match(configError(() => loadConfig(["-port=x"], env)).message, /-port/);
  });

  it("NodeLocation host: host:port, [v6]:port, bare host, with scheme", () => {
    assert.equal(locationHost("localhost:8088"), "localhost");
    assert.equal(locationHost("10.0.0.5:8088"), "10.0.0.5");
    assert.equal(locationHost("[2001:db8::1]:8088"), "2001:db8::1");
    assert.equal(locationHost("2001:db8::1"), "2001:db8::1");
    assert.equal(locationHost("node.example.com"), "node.example.com");
    assert.equal(locationHost("https://node.example.com:8088/v2"), "node.example.com");
  });
});

describe("exposure: listen address, credentials, debug API", () => {
  it("a non-loopback ListenHost without credentials is refused, by flag and by file line", () => {
    const { env, dir } = home();
    for (const host of ["0.0.0.0", "::", "192.0.2.7", "node.example.com"]) {
      const e = configError(() => loadConfig([`-listenhost=${host}`], env));
      assert.equal(e.field, "-listenhost");
      assert.match(e.message, /without authentication.*-insecure-noauth/);
    }
    const conf = join(dir, "open.conf");
    writeFileSync(conf, "[App]\nListenHost = 0.0.0.0\n");
    const e = configError(() => loadConfig([`-config=${conf}`], env));
    assert.match(e.message, /open\.conf:2: refusing to serve 0\.0\.0\.0 without authentication/);
  });

  it("loopback needs nothing; credentials or -insecure-noauth allow any address", () => {
    const { env } = home();
    for (const host of ["127.0.0.1", "127.8.9.10", "::1", "[::1]", "localhost"])
      assert.equal(loadConfig([`-listenhost=${host}`], env).listenHost, host.replace(/[[\]]/g, ""));
    const withAuth = loadConfig(["-listenhost=0.0.0.0", "-rpcuser=a", "-rpcpass=b"], env);
    assert.equal(withAuth.listenHost, "0.0.0.0");
    const open = loadConfig(["-listenhost=0.0.0.0", "-insecure-noauth"], env);
    assert.equal(open.insecureNoAuth, true);
    configError(() => loadConfig(["-listenhost=not an address"], env));
  });

  it("-httpfront is off by default, on with the flag, and refused with TLS", () => {
    const { env } = home();
    assert.equal(loadConfig([], env).httpFront, false);
    assert.equal(loadConfig(["-httpfront"], env).httpFront, true);
    const e = configError(() => loadConfig(["-httpfront", "-tls"], env));
    assert.equal(e.field, "-httpfront");
    assert.match(e.message, /plain HTTP only/);
  });

  it("a reload that removes the credentials of an exposed node is refused", () => {
    const { env, dir } = home();
    const conf = join(dir, "r.conf");
    writeFileSync(conf, "[App]\nListenHost = 0.0.0.0\nNodeRpcUser = a\nNodeRpcPass = b\n");
    const argv = [`-config=${conf}`, `-homedir=${dir}`];
    const boot = loadConfig(argv, env);
    writeFileSync(conf, "[App]\nListenHost = 0.0.0.0\n");
    configError(() => reloadConfig(boot, argv, env));
  });

  it("DebugApi: off on MAIN, readonly elsewhere, the flag or the file otherwise", () => {
    const { env, dir } = home();
    assert.equal(loadConfig(["-network=MAIN"], env).debugApi, "off");
    assert.equal(loadConfig(["-network=TEST"], env).debugApi, "readonly");
    assert.equal(loadConfig(["-debugapi=READWRITE"], env).debugApi, "readwrite");
    const conf = join(dir, "d.conf");
    writeFileSync(conf, "[App]\nDebugApi = off\nDebugRpcUser = dbg\nDebugRpcPass = x\n");
    const c = loadConfig([`-config=${conf}`], env);
    assert.equal(c.debugApi, "off");
    assert.equal(c.debugRpcUser, "dbg");
    assert.equal(c.debugRpcPass, "x");
    assert.equal(loadConfig([`-config=${conf}`, "-debugapi=readonly"], env).debugApi, "readonly");
    configError(() => loadConfig(["-debugapi=yes"], env));
    writeFileSync(conf, "[App]\nDebugRpcPass = x\n");
    assert.match(configError(() => loadConfig([`-config=${conf}`], env)).message, /DebugRpcUser is empty/);
  });
});

describe("reloadConfig", () => {
  const BOOT = [
    "[App]",
    "PortNumber = 9100",
    "Network = LOCAL",
    "NodeRpcUser = alice",
    "NodeRpcPass = one",
    "ControlPanelPort = 8090",
    "[Log]",
    "LogLevel = error",
  ].join("\n");

  function setup(): { env: NodeJS.ProcessEnv; conf: string; argv: string[] } {
    const { env, dir } = home();
    const conf = join(dir, "n.conf");
    writeFileSync(conf, BOOT);
    return { env, conf, argv: [`-config=${conf}`, `-homedir=${dir}`] };
  }

  it("applies live settings, lists the others as restart-needed and leaves them as they run", () => {
    const { env, conf, argv } = setup();
    const boot = loadConfig(argv, env);
    const bootCopy = structuredClone(boot);
    writeFileSync(
      conf,
      [
        "[App]",
        "PortNumber = 9200", // restart
        "Network = TEST", // restart
        "NodeRpcUser = bob", // live
        "NodeRpcPass = two", // live
        "ControlPanelPort = 9999", // informational: restart
        "CorsDomains = http://x.example", // live
        "DropRate = 5", // live
        "Delay = 40", // live
        "MinFreeDiskMB = 256", // live
        "[Log]",
        "LogLevel = debug", // live
        "ConsoleLogLevel = warning", // live
      ].join("\n"),
    );
    const { config, restartNeeded, applied } = reloadConfig(boot, argv, env);
    assert.deepEqual(boot, bootCopy, "the current configuration object is not mutated");

    assert.equal(config.rpcUser, "bob");
    assert.equal(config.rpcPass, "two");
    assert.deepEqual(config.corsDomains, ["http://x.example"]);
    assert.equal(config.dropRatePerMille, 5);
    assert.equal(config.delayMs, 40);
    assert.equal(config.minFreeDiskMB, 256);
    assert.equal(boot.minFreeDiskMB, 64, "the default reserve");
    assert.equal(config.logLevel, "debug");
    assert.equal(config.consoleLogLevel, "warning");

    assert.equal(config.port, 9100, "port waits for a restart");
    assert.equal(config.network, "LOCAL", "network waits for a restart");
    assert.deepEqual(restartNeeded.sort(), ["App.ControlPanelPort", "App.Network", "App.PortNumber"]);
    assert.deepEqual(applied.sort(), [
      "App.CorsDomains",
      "App.Delay",
      "App.DropRate",
      "App.MinFreeDiskMB",
      "App.NodeRpcPass",
      "App.NodeRpcUser",
      "Log.ConsoleLogLevel",
      "Log.LogLevel",
    ]);

    // `configuration` keeps showing what runs
    const view = configurationView(config);
    assert.equal(view.App!.PortNumber, 9100);
    assert.equal(view.App!.ControlPanelPort, 8090);
    assert.equal(view.App!.Network, "LOCAL");
    assert.equal(view.App!.NodeRpcUser, "bob");
    assert.equal(view.Log!.LogLevel, "debug");

    // reloading again still reports the pending restart and applies nothing new
    const again = reloadConfig(config, argv, env);
    assert.deepEqual(again.restartNeeded.sort(), ["App.ControlPanelPort", "App.Network", "App.PortNumber"]);
    assert.deepEqual(again.applied, []);
    assert.equal(again.config.port, 9100);
  });

  it("keeps values changed at run time (set-drop-rate) when the file does not change them", () => {
    const { env, argv } = setup();
    const boot = loadConfig(argv, env);
    const running = { ...boot, dropRatePerMille: 50, delayMs: 7 };
    const { config, restartNeeded, applied } = reloadConfig(running, argv, env);
    assert.equal(config.dropRatePerMille, 50);
    assert.equal(config.delayMs, 7);
    assert.deepEqual(restartNeeded, []);
    assert.deepEqual(applied, []);
  });

  it("a file change hidden by a flag needs no restart and changes nothing", () => {
    const { env, conf, argv } = setup();
    const withFlag = [...argv, "-port=9300"];
    const boot = loadConfig(withFlag, env);
    writeFileSync(conf, BOOT.replace("PortNumber = 9100", "PortNumber = 9400"));
    const { config, restartNeeded } = reloadConfig(boot, withFlag, env);
    assert.equal(config.port, 9300);
    assert.deepEqual(restartNeeded, []);
  });

  it("removing live fields from the file returns them to their defaults", () => {
    const { env, conf, argv } = setup();
    const boot = loadConfig(argv, env);
    writeFileSync(conf, "[App]\nPortNumber = 9100\nNetwork = LOCAL\nControlPanelPort = 8090\n");
    const { config, restartNeeded } = reloadConfig(boot, argv, env);
    assert.equal(config.rpcUser, "");
    assert.equal(config.rpcPass, "");
    assert.deepEqual(restartNeeded, []);
    assert.equal(config.file.App!.NodeRpcUser, undefined);
  });

  it("a bad file on reload throws a ConfigError with file:line and changes nothing", () => {
    const { env, conf, argv } = setup();
    const boot = loadConfig(argv, env);
    const copy = structuredClone(boot);
    writeFileSync(conf, "[App]\nPortNumber = 9100\nNodeRpcUser = alice\nNodeRpcPass = one\nDropRate = many\n");
    const err = configError(() => reloadConfig(boot, argv, env));
    assert.ok(err.message.startsWith(`${conf}:5: [App] DropRate: expected an integer from 0 to 1000`), err.message);
    assert.deepEqual(boot, copy);
  });
});

describe("docs/configuration.md", () => {
  it("its example file loads and means what it says", () => {
    // dist/test/unit/config → repository root
    const docs = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..", "..", "docs", "configuration.md");
    const example = /```ini\n([\s\S]*?)```/.exec(readFileSync(docs, "utf8"));
    assert.ok(example, "docs/configuration.md has an ```ini example");
    const { env, dir } = home();
    const conf = join(dir, "example.conf");
    writeFileSync(conf, example[1]!);
    const c = loadConfig([`-config=${conf}`, `-homedir=${dir}`], env);
    assert.equal(c.tls.enabled, true);
    assert.equal(c.tls.keyFile, join(dir, "tls", "node.key"));
    assert.equal(c.rpcUser, "operator");
    assert.equal(c.rpcPass, "change me");
    assert.deepEqual(c.corsDomains, ["https://explorer.example.com", "http://localhost:3000"]);
    assert.equal(c.logLevel, "warning");
    assert.equal(c.consoleLogLevel, "info");
    assert.equal(c.nodeLocation, "node.example.com");
  });
});

describe("loadConfig: [Cluster] and the server identity", () => {
  const ID = "ab".repeat(32);
  const SEED = "4c38c72fc5cdad68f13b74674d3ffb1f3d63a112710868c9b08946553448d26d";
  const PUB = "cc1985cdfae4e32b5a454dfda8ce5e1361558482684f3367649c3ad852c8e31a";

  it("reads the file, flags override it; a federated server's identity and keys are checked", () => {
    const { env, dir } = home();
    const conf = join(dir, "c.conf");
    writeFileSync(
      conf,
      `[App]\nIdentityChainID = ${ID}\n[Cluster]\nNatsURLs = nats://127.0.0.1:1, nats://127.0.0.1:2\nRole = Federated\nReplicas = 1\n`,
    );
    const c = loadConfig([`-config=${conf}`], env);
    assert.deepEqual(c.cluster, {
      natsUrls: ["nats://127.0.0.1:1", "nats://127.0.0.1:2"],
      role: "federated",
      replicas: 1,
      faultTimeoutSeconds: 120,
      roundTimeoutSeconds: 30,
      snapshotInterval: 0,
      identityChainId: ID,
      serverPrivKey: SEED,
      serverPublicKey: PUB,
      serverNextPrivKey: "",
      natsUser: "",
      natsPassword: "",
      natsTls: undefined,
    });
    const f = loadConfig(
      [`-config=${conf}`, "-nats=nats://127.0.0.1:9", "-role=follower", "-faulttimeout=5", "-roundtimeout=3"],
      env,
    );
    assert.deepEqual(f.cluster.natsUrls, ["nats://127.0.0.1:9"]);
    assert.equal(f.cluster.role, "follower");
    assert.equal(f.cluster.faultTimeoutSeconds, 5);
    assert.equal(f.cluster.roundTimeoutSeconds, 3);
    assert.equal("Cluster" in configurationView(c), false, "ledgerd's own group stays out of `configuration`");
    // brain swap and a prepared rotation (issue 33): the signing window from the file, flags first; the next key
    assert.deepEqual(c.signingWindow, { fromHeight: 0, untilHeight: 0 });
    writeFileSync(
      conf,
      `[App]\nIdentityChainID = ${ID}\nIdentityActivationHeight = 40\nIdentityStopHeight = 90\nLocalServerNextPrivKey = ${"11".repeat(32)}\n`,
    );
    const w = loadConfig([`-config=${conf}`, "-nats=nats://127.0.0.1:1", "-identitystopheight=80"], env);
    assert.deepEqual(w.signingWindow, { fromHeight: 40, untilHeight: 80 });
    assert.equal(w.cluster.serverNextPrivKey, "11".repeat(32));
    writeFileSync(conf, `[App]\nIdentityChainID = ${ID}\nLocalServerNextPrivKey = abc\n`);
    assert.match(
      configError(() => loadConfig([`-config=${conf}`, "-nats=nats://127.0.0.1:1", "-role=federated"], env)).message,
      /LocalServerNextPrivKey: expected 64 hex characters/,
    );

    writeFileSync(
      conf,
      "[Cluster]\nNatsUser = node1\nNatsPassword = pw\nNatsTlsCA = tls/ca.pem\nNatsTlsCert = /etc/c.pem\nNatsTlsKey = k.pem\n",
    );
    const t = loadConfig([`-config=${conf}`, `-homedir=${dir}`], env);
    assert.equal(t.cluster.natsUser, "node1");
    assert.equal(t.cluster.natsPassword, "pw");
    assert.deepEqual(t.cluster.natsTls, {
      caFile: join(dir, "tls", "ca.pem"),
      certFile: "/etc/c.pem",
      keyFile: join(dir, "k.pem"),
    });
    writeFileSync(conf, "[Cluster]\nNatsTlsCert = c.pem\n");
    assert.match(
      configError(() => loadConfig([`-config=${conf}`], env)).message,
      /NatsTlsCert and NatsTlsKey go together/,
    );

    writeFileSync(conf, `[App]\nLocalServerPublicKey = ${"00".repeat(32)}\nIdentityChainID = ${ID}\n`);
    const e = configError(() => loadConfig([`-config=${conf}`, "-nats=nats://127.0.0.1:1", "-role=audit"], env));
    assert.match(e.message, /LocalServerPublicKey is not the public key of LocalServerPrivKey/);
    writeFileSync(conf, "[App]\n");
    const noId = configError(() => loadConfig([`-config=${conf}`, "-nats=nats://127.0.0.1:1", "-role=federated"], env));
    assert.match(noId.message, /a federated server needs its identity chain ID/);
    assert.match(
      configError(() => loadConfig(["-role=leader"], env)).message,
      /-role: expected federated, audit or follower/,
    );
    assert.match(configError(() => loadConfig(["-nats=http://x"], env)).message, /-nats: expected nats:\/\/host:port/);
  });
});
