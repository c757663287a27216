/**
 * The effective configuration: flags override the INI file, which overrides the defaults
 * (docs/configuration.md lists every flag and field).
 */
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { publicKeyFromSeed } from "../crypto/ed25519.js";
import { fromHex, toHex } from "../protocol/bytes.js";
import type { NetworkName } from "../protocol/network.js";
import { customNetworkSettings } from "./customNetwork.js";
import { ConfigError } from "./errors.js";
import { PLACEHOLDER_PATH_PREFIX } from "./fields.js";
import { defaultVerifyThreads, type FlagValues, parseFlags, parseLogLevel } from "./flags.js";
import { emptyRawFile, fileBool, fileInt, fileString, fileValue, type RawFile, readIniFile } from "./ini.js";
import { isLoopbackHost } from "./loopback.js";
import { rpcPassword } from "./secrets.js";
import type { ClusterConfig, ClusterRole, DebugApiMode, LogLevel, NodeConfig } from "./types.js";

export { ConfigError } from "./errors.js";
export { type FlagValues, parseFlags, usage } from "./flags.js";

/** Name of the configuration file inside the home directory (the reference: factomd.conf). */
export const CONFIG_FILE_NAME = "ledgerd.conf";
/** Default home directory below the user's home. */
export const HOME_DIR_NAME = ".ledgerd";
/** Generated TLS files, relative to the home directory. */
export const TLS_KEY_FILE = join("tls", "node.key");
export const TLS_CERT_FILE = join("tls", "node.crt");
/** Seconds per directory block on MAIN, whatever the file or flags say (the reference forces it too). */
export const MAIN_BLOCK_SECONDS = 600;

/** Settings `reload-configuration` applies to the running node; every other change waits for a restart. */
export const LIVE_KEYS: ReadonlySet<keyof NodeConfig> = new Set<keyof NodeConfig>([
  "logLevel",
  "consoleLogLevel",
  "rpcUser",
  "rpcPass",
  "rpcPassSource",
  "debugRpcUser",
  "debugRpcPass",
  "dropRatePerMille",
  "delayMs",
  "corsDomains",
  "allowedHosts",
  "minFreeDiskMB",
  "signingWindow",
]);

/** Which NodeConfig settings each file field feeds. Fields not listed are informational (only `configuration`). */
const FIELD_KEYS: Readonly<Record<string, readonly (keyof NodeConfig)[]>> = {
  "App.PortNumber": ["port"],
  "App.HomeDir": ["homeDir", "tls"],
  "App.DirectoryBlockInSeconds": ["blockTimeSeconds"],
  "App.Network": ["network", "blockTimeSeconds"],
  "App.NodeTlsEnabled": ["tls"],
  "App.NodeTlsPrivateKey": ["tls"],
  "App.NodeTlsPublicCert": ["tls"],
  "App.NodeRpcUser": ["rpcUser"],
  "App.NodeRpcPass": ["rpcPass", "rpcPassSource"],
  "App.NodeRpcPassFile": ["rpcPass", "rpcPassSource"],
  "App.CorsDomains": ["corsDomains"],
  "App.AllowedHosts": ["allowedHosts"],
  "App.ListenHost": ["listenHost"],
  "App.CustomBootstrapIdentity": ["custom"],
  "App.CustomBootstrapKey": ["custom"],
  "App.CustomGenesisAllocation": ["custom"],
  "App.DebugApi": ["debugApi"],
  "App.DebugRpcUser": ["debugRpcUser"],
  "App.DebugRpcPass": ["debugRpcPass"],
  "App.ControlPanelPort": ["controlPanel"],
  "App.ControlPanelSetting": ["controlPanel"],
  "App.ControlPanelListenHost": ["controlPanel"],
  "App.MaxBodyBytes": ["maxBodyBytes"],
  "App.MaxBatch": ["maxBatch"],
  "App.MinFreeDiskMB": ["minFreeDiskMB"],
  "App.IdentityActivationHeight": ["signingWindow"],
  "App.IdentityStopHeight": ["signingWindow"],
  "App.LocalServerNextPrivKey": ["cluster"],
  "App.MetricsPort": ["metricsPort"],
  "App.VerifyThreads": ["verifyThreads"],
  "App.QueryIndex": ["queryIndex"],
  "App.DropRate": ["dropRatePerMille"],
  "App.Delay": ["delayMs"],
  "Log.LogLevel": ["logLevel"],
  "Log.ConsoleLogLevel": ["consoleLogLevel"],
  "Walletd.NodeLocation": ["nodeLocation"],
  "App.IdentityChainID": ["cluster"],
  "App.LocalServerPrivKey": ["cluster", "custom"],
  "App.LocalServerPublicKey": ["cluster"],
  "Cluster.NatsURLs": ["cluster"],
  "Cluster.Role": ["cluster"],
  "Cluster.Replicas": ["cluster"],
  "Cluster.FaultTimeout": ["cluster"],
  "Cluster.RoundTimeout": ["cluster"],
  "Cluster.SnapshotInterval": ["cluster"],
  "Cluster.NatsUser": ["cluster"],
  "Cluster.NatsPassword": ["cluster"],
  "Cluster.NatsTlsCA": ["cluster"],
  "Cluster.NatsTlsCert": ["cluster"],
  "Cluster.NatsTlsKey": ["cluster"],
};

/** Where the configuration comes from: resolved once per load from the flags and the environment. */
interface Origin {
  flags: FlagValues;
  /** the user's home, for `~` */
  userHome: string;
  /** -homedir, resolved; undefined when not given */
  flagHome: string | undefined;
  /** home directory used to find the default configuration file */
  bootHome: string;
  /** path of the configuration file (read or not) */
  path: string;
  /** -config was given */
  explicit: boolean;
  /** the environment (LEDGERD_RPC_PASS) */
  env: NodeJS.ProcessEnv;
}

/** `~` and `~/x` → the user's home. Other paths are returned unchanged. */
export function expandHome(p: string, userHome: string): string {
  if (p === "~") return userHome;
  if (p.startsWith("~/")) return join(userHome, p.slice(2));
  return p;
}

function origin(argv: readonly string[], env: NodeJS.ProcessEnv): Origin {
  const flags = parseFlags(argv);
  const userHome = env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir();
  const flagHome = flags.homeDir !== undefined ? resolve(expandHome(flags.homeDir, userHome)) : undefined;
  const bootHome = flagHome ?? join(userHome, HOME_DIR_NAME);
  const explicit = flags.configFile !== undefined;
  const path = explicit ? resolve(expandHome(flags.configFile!, userHome)) : join(bootHome, CONFIG_FILE_NAME);
  return { flags, userHome, flagHome, bootHome, path, explicit, env };
}

/** Reads the file of `o`: missing default file = empty (defaults); missing -config file = error. */
function readFile(o: Origin): { raw: RawFile; lines: Record<string, number>; configFile: string } {
  const doc = readIniFile(o.path);
  if (doc === null) {
    if (o.explicit) {
      throw new ConfigError(`${o.path}: configuration file not found (given by -config)`, {
        file: o.path,
        field: "-config",
      });
    }
    return { raw: emptyRawFile(), lines: {}, configFile: "" };
  }
  return { raw: doc.values, lines: doc.lines, configFile: o.path };
}

/**
 * Builds the effective configuration from the command line (argv without the node and script paths), the
 * configuration file and the defaults. Throws ConfigError for any bad flag, file or combination.
 */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): NodeConfig {
  const o = origin(argv, env);
  const { raw, lines, configFile } = readFile(o);
  return derive(o, raw, lines, configFile);
}

export interface ReloadResult {
  config: NodeConfig;
  /** "Group.Field" of every changed file field that takes effect only after a restart (not applied) */
  restartNeeded: string[];
  /** "Group.Field" of every changed file field that was applied */
  applied: string[];
}

/**
 * Re-reads the configuration file (the same path as at start: argv must be the start's) and applies what
 * can change while running (LIVE_KEYS: log levels, RPC credentials, drop rate, delay, CORS, the free-space
 * reserve). Every other
 * changed field is listed in `restartNeeded` and left as it was, in the settings and in `config.file`, so
 * that `configuration` keeps showing what runs. Values changed at run time (set-drop-rate) are kept unless
 * the file changes them. A bad file throws ConfigError and changes nothing.
 */
export function reloadConfig(current: NodeConfig, argv: string[], env: NodeJS.ProcessEnv = process.env): ReloadResult {
  const o = origin(argv, env);
  const { raw, lines, configFile } = readFile(o);
  const next = derive(o, raw, lines, configFile);
  let prev: NodeConfig;
  try {
    prev = derive(o, current.file, {}, current.configFile);
  } catch {
    prev = current; // `current` was not built by loadConfig; compare with what runs
  }

  const changedKeys = new Set<keyof NodeConfig>();
  for (const k of Object.keys(next) as (keyof NodeConfig)[]) {
    if (k === "file" || k === "configFile") continue;
    if (JSON.stringify(prev[k]) !== JSON.stringify(next[k])) changedKeys.add(k);
  }

  const result: NodeConfig = { ...current, configFile: next.configFile, file: cloneRaw(current.file) };
  const writable = result as unknown as Record<string, unknown>;
  for (const k of changedKeys) {
    if (LIVE_KEYS.has(k)) writable[k] = clone(next[k]);
  }

  const restartNeeded: string[] = [];
  const applied: string[] = [];
  for (const group of new Set([...Object.keys(current.file), ...Object.keys(raw)])) {
    const before = current.file[group] ?? {};
    const after = raw[group] ?? {};
    for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (before[field] === after[field]) continue;
      const name = `${group}.${field}`;
      const keys = FIELD_KEYS[name] ?? [];
      const takesEffect = keys.length > 0 && keys.every((k) => LIVE_KEYS.has(k) || !changedKeys.has(k));
      if (!takesEffect) {
        restartNeeded.push(name);
        continue;
      }
      applied.push(name);
      result.file[group] ??= {};
      const bucket = result.file[group]!;
      if (after[field] === undefined) delete bucket[field];
      else bucket[field] = after[field]!;
    }
  }
  return { config: result, restartNeeded, applied };
}

/** The log file: `<LogPath>/ledgerd.log`, LogPath relative to the home directory; "" when LogPath is empty. */
export function logFilePath(config: NodeConfig): string {
  const dir = fileString(config.file, "Log", "LogPath").trim();
  if (dir === "") return "";
  return join(resolve(config.homeDir, dir), "ledgerd.log");
}

function clone<T>(v: T): T {
  return v === null || typeof v !== "object" ? v : (JSON.parse(JSON.stringify(v)) as T);
}

function cloneRaw(file: RawFile): RawFile {
  const out: RawFile = {};
  for (const [g, fields] of Object.entries(file)) out[g] = { ...fields };
  return out;
}

/** The host of a "host:port" location ("[::1]:8088" → "::1"; a scheme such as https:// is dropped). */
export function locationHost(location: string): string {
  let s = location.trim().replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//, "");
  s = s.replace(/\/.*$/, "");
  if (s.startsWith("[")) {
    const end = s.indexOf("]");
    return end < 0 ? s.slice(1) : s.slice(1, end);
  }
  const colons = s.split(":").length - 1;
  if (colons === 1) return s.slice(0, s.indexOf(":"));
  return s; // no port, or a bare IPv6 address
}

function derive(o: Origin, raw: RawFile, lines: Record<string, number>, configFile: string): NodeConfig {
  const { flags } = o;
  /** Error about a file field: with its file and line when the file set it. */
  const fieldError = (key: string, message: string): ConfigError => {
    const line = lines[key];
    if (line === undefined) return new ConfigError(`${message}`, { field: key });
    return new ConfigError(`${configFile}:${line}: ${message}`, { file: configFile, line, field: key });
  };

  const network = (flags.network ?? fileString(raw, "App", "Network").trim().toUpperCase()) as NetworkName;
  const customNet = flags.customNet ?? "";
  if (network === "CUSTOM" && customNet.trim() === "") {
    throw new ConfigError("network CUSTOM needs a name: start with -customnet=NAME (its id is sha256(NAME)[0:4])", {
      field: "-customnet",
    });
  }

  const fileHome = fileString(raw, "App", "HomeDir").trim();
  const homeDir =
    o.flagHome ?? (fileHome !== "" ? resolve(dirname(o.path), expandHome(fileHome, o.userHome)) : o.bootHome);

  const inHome = (value: string, fallback: string): string => {
    const v = value.trim();
    if (v === "" || v.startsWith(PLACEHOLDER_PATH_PREFIX)) return join(homeDir, fallback);
    const expanded = expandHome(v, o.userHome);
    return isAbsolute(expanded) ? expanded : resolve(homeDir, expanded);
  };

  const rpcUser = flags.rpcUser ?? fileString(raw, "App", "NodeRpcUser");
  const {
    pass: rpcPass,
    source: rpcPassSource,
    file: rpcPassFile,
  } = rpcPassword(flags.rpcPass, flags.rpcPassFile, o.env, raw);
  if (rpcUser !== "" && rpcPass === "") {
    const message =
      "NodeRpcUser (or -rpcuser) is set but NodeRpcPass (or -rpcpass) is empty: an empty password is refused " +
      "(anyone who knows the user name would get in)";
    throw flags.rpcUser !== undefined
      ? new ConfigError(message, { field: "-rpcuser" })
      : fieldError("App.NodeRpcUser", message);
  }
  if (rpcUser === "" && rpcPass !== "") {
    const message =
      "NodeRpcPass (or -rpcpass) is set but NodeRpcUser (or -rpcuser) is empty: authentication needs both; " +
      "the API would be left open";
    throw flags.rpcPass !== undefined
      ? new ConfigError(message, { field: "-rpcpass" })
      : fieldError("App.NodeRpcPass", message);
  }

  const listenHost = flags.listenHost ?? fileString(raw, "App", "ListenHost").trim();
  if (listenHost === "")
    throw fieldError("App.ListenHost", "[App] ListenHost: expected an interface address, got an empty value");
  const insecureNoAuth = flags.insecureNoAuth ?? false;
  if (flags.httpFront === true && (flags.tls ?? fileBool(raw, "App", "NodeTlsEnabled")))
    throw new ConfigError(
      "-httpfront serves plain HTTP only (it reads requests before uWebSockets.js does); with TLS, put a " +
        "reverse proxy in front instead (docs/operations.md §5)",
      { field: "-httpfront" },
    );
  // Checked here, so that a reload which drops the credentials of an exposed node is refused too.
  if (!isLoopbackHost(listenHost) && rpcUser === "" && rpcPass === "" && !insecureNoAuth) {
    const message =
      `refusing to serve ${listenHost} without authentication: anyone who reaches the port could drive the node. ` +
      "Set NodeRpcUser and NodeRpcPass (or -rpcuser/-rpcpass), listen on 127.0.0.1, " +
      "or accept the risk with -insecure-noauth";
    throw flags.listenHost !== undefined
      ? new ConfigError(message, { field: "-listenhost" })
      : fieldError("App.ListenHost", message);
  }
  const debugRpcUser = fileString(raw, "App", "DebugRpcUser");
  const debugRpcPass = fileString(raw, "App", "DebugRpcPass");
  if (debugRpcUser !== "" && debugRpcPass === "")
    throw fieldError("App.DebugRpcUser", "DebugRpcUser is set but DebugRpcPass is empty: an empty password is refused");
  if (debugRpcUser === "" && debugRpcPass !== "")
    throw fieldError(
      "App.DebugRpcPass",
      "DebugRpcPass is set but DebugRpcUser is empty: the debug credential needs both",
    );
  const fileDebugApi = ((fileValue(raw, "App", "DebugApi") as string | null) ?? "").trim().toLowerCase();
  const debugApi: DebugApiMode =
    flags.debugApi ?? (fileDebugApi !== "" ? (fileDebugApi as DebugApiMode) : network === "MAIN" ? "off" : "readonly");

  const panelHost = fileString(raw, "App", "ControlPanelListenHost").trim();
  if (panelHost === "")
    throw fieldError(
      "App.ControlPanelListenHost",
      "[App] ControlPanelListenHost: expected an interface address, got an empty value",
    );
  const settingWord = fileString(raw, "App", "ControlPanelSetting").trim().toLowerCase().replace("-", "");
  if (settingWord !== "disabled" && settingWord !== "readonly" && settingWord !== "readwrite")
    throw fieldError(
      "App.ControlPanelSetting",
      `[App] ControlPanelSetting: expected disabled, readonly or readwrite, got ${JSON.stringify(fileString(raw, "App", "ControlPanelSetting"))}`,
    );
  // The API's rule for the panel too (security review 3, M2): the panel reads everything the API reads and
  // serves /live, so an open panel off loopback bypassed the rule above.
  if (settingWord !== "disabled" && !isLoopbackHost(panelHost) && rpcUser === "" && rpcPass === "" && !insecureNoAuth)
    throw fieldError(
      "App.ControlPanelListenHost",
      `refusing to serve the control panel on ${panelHost} without authentication: anyone who reaches its port ` +
        "could read the node and follow its live feed. Set NodeRpcUser and NodeRpcPass (the panel asks for them), " +
        "keep ControlPanelListenHost on 127.0.0.1, set ControlPanelSetting = disabled, or accept the risk with -insecure-noauth",
    );

  const level = (group: "Log", field: string): LogLevel => parseLogLevel(fileString(raw, group, field))!;
  const cluster = clusterConfig(flags, raw, fieldError, (v) => (v.trim() === "" ? undefined : inHome(v, v)), network);

  const anchorRpc = (flags.anchorRpc ?? fileString(raw, "Anchor", "RpcUrl")).trim();
  if (anchorRpc !== "" && !/^https?:\/\/\S+$/i.test(anchorRpc))
    throw fieldError("Anchor.RpcUrl", "[Anchor] RpcUrl: expected an http:// or https:// URL");
  const anchorPath = (value: string): string => {
    const v = value.trim();
    if (v === "") return "";
    const expanded = expandHome(v, o.userHome);
    return isAbsolute(expanded) ? expanded : resolve(homeDir, expanded);
  };
  const anchorKey = anchorPath(flags.anchorKey ?? fileString(raw, "Anchor", "KeyFile"));
  const ecKeyFile = anchorPath(fileString(raw, "Anchor", "ECKeyFile"));
  if (anchorRpc !== "" && anchorKey === "")
    throw new ConfigError(
      "anchoring (-anchorrpc or [Anchor] RpcUrl) needs the paying account's key: -anchorkey=FILE or [Anchor] KeyFile",
      { field: "-anchorkey" },
    );
  if (anchorRpc !== "" && ecKeyFile === "")
    throw fieldError(
      "Anchor.ECKeyFile",
      "anchoring needs [Anchor] ECKeyFile: the entry credit key that pays for the anchor records",
    );
  const anchorTo = fileString(raw, "Anchor", "To").trim().toLowerCase();
  if (anchorTo !== "" && !/^0x[0-9a-f]{40}$/.test(anchorTo))
    throw fieldError("Anchor.To", "[Anchor] To: expected a 0x-prefixed 40-hex-character address");
  const recordKeys = fileValue(raw, "App", "EthereumAnchorRecordPublicKeys");
  const recordPublicKeys = (Array.isArray(recordKeys) ? recordKeys : []).map((k) => k.trim().toLowerCase());
  for (const k of recordPublicKeys)
    if (!/^[0-9a-f]{64}$/.test(k))
      throw fieldError(
        "App.EthereumAnchorRecordPublicKeys",
        `[App] EthereumAnchorRecordPublicKeys: expected 64 hex characters, got ${JSON.stringify(k)}`,
      );

  return {
    network,
    customNet,
    ...(network === "CUSTOM"
      ? {
          custom: customNetworkSettings(raw, fieldError, {
            standalone: cluster.natsUrls.length === 0,
            signs: cluster.natsUrls.length === 0 || cluster.role !== "follower",
          }),
        }
      : {}),
    port: flags.port ?? fileInt(raw, "App", "PortNumber")!,
    listenHost,
    insecureNoAuth,
    httpFront: flags.httpFront ?? false,
    debugApi,
    debugRpcUser,
    debugRpcPass,
    controlPanel: {
      port: flags.controlPanelPort ?? fileInt(raw, "App", "ControlPanelPort")!,
      host: panelHost,
      setting: settingWord,
    },
    homeDir,
    configFile,
    blockTimeSeconds:
      network === "MAIN"
        ? MAIN_BLOCK_SECONDS
        : (flags.blockTimeSeconds ?? fileInt(raw, "App", "DirectoryBlockInSeconds")!),
    journaling: flags.journaling ?? false,
    rpcUser,
    rpcPass,
    rpcPassSource,
    ...(rpcPassFile === undefined ? {} : { rpcPassFile }),
    tls: {
      enabled: flags.tls ?? fileBool(raw, "App", "NodeTlsEnabled"),
      keyFile: inHome(fileString(raw, "App", "NodeTlsPrivateKey"), TLS_KEY_FILE),
      certFile: inHome(fileString(raw, "App", "NodeTlsPublicCert"), TLS_CERT_FILE),
    },
    selfAddrs: flags.selfAddrs ?? [],
    nodeLocation: locationHost(fileString(raw, "Walletd", "NodeLocation")),
    maxBodyBytes: flags.maxBodyBytes ?? fileInt(raw, "App", "MaxBodyBytes")!,
    maxBatch: fileInt(raw, "App", "MaxBatch")!,
    minFreeDiskMB: flags.minFreeDiskMB ?? fileInt(raw, "App", "MinFreeDiskMB")!,
    signingWindow: {
      fromHeight: flags.identityActivationHeight ?? fileInt(raw, "App", "IdentityActivationHeight")!,
      untilHeight: flags.identityStopHeight ?? fileInt(raw, "App", "IdentityStopHeight")!,
    },
    metricsPort: flags.metricsPort ?? fileInt(raw, "App", "MetricsPort")!,
    allowedHosts: fileString(raw, "App", "AllowedHosts")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
    corsDomains: fileString(raw, "App", "CorsDomains")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
    logLevel: flags.logLevel ?? level("Log", "LogLevel"),
    consoleLogLevel: flags.logLevel ?? level("Log", "ConsoleLogLevel"),
    dropRatePerMille: flags.dropRatePerMille ?? fileInt(raw, "App", "DropRate")!,
    delayMs: fileInt(raw, "App", "Delay")!,
    verifyThreads: flags.verifyThreads ?? fileInt(raw, "App", "VerifyThreads") ?? defaultVerifyThreads(),
    queryIndex: flags.queryIndex ?? fileBool(raw, "App", "QueryIndex"),
    anchor: {
      rpcUrl: anchorRpc,
      keyFile: anchorKey,
      ecKeyFile,
      chainId: fileInt(raw, "Anchor", "ChainId")!,
      intervalBlocks: fileInt(raw, "Anchor", "Interval")!,
      maxWindow: fileInt(raw, "Anchor", "MaxWindow")!,
      confirmations: fileInt(raw, "Anchor", "Confirmations")!,
      gasLimit: fileInt(raw, "Anchor", "GasLimit")!,
      maxFeeGwei: fileInt(raw, "Anchor", "MaxFeeGwei")!,
      to: anchorTo,
      recordPublicKeys,
    },
    cluster,
    file: cloneRaw(raw),
  };
}

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** [Cluster] and the identity fields of [App], flags first; a federated or audit server must have a valid identity. */
function clusterConfig(
  flags: FlagValues,
  raw: RawFile,
  fieldError: (key: string, message: string) => ConfigError,
  path: (value: string) => string | undefined,
  network: NetworkName,
): ClusterConfig {
  const natsUrls =
    flags.natsUrls ??
    fileString(raw, "Cluster", "NatsURLs")
      .split(",")
      .map((u) => u.trim())
      .filter((u) => u !== "");
  const role = (flags.role ?? fileString(raw, "Cluster", "Role").trim().toLowerCase()) as ClusterRole;
  const out: ClusterConfig = {
    natsUrls,
    role,
    replicas: flags.clusterReplicas ?? fileInt(raw, "Cluster", "Replicas")!,
    faultTimeoutSeconds: flags.faultTimeoutSeconds ?? fileInt(raw, "Cluster", "FaultTimeout")!,
    roundTimeoutSeconds: flags.roundTimeoutSeconds ?? fileInt(raw, "Cluster", "RoundTimeout")!,
    snapshotInterval: fileInt(raw, "Cluster", "SnapshotInterval")!,
    identityChainId: fileString(raw, "App", "IdentityChainID").trim().toLowerCase(),
    serverPrivKey: fileString(raw, "App", "LocalServerPrivKey").trim().toLowerCase(),
    serverPublicKey: fileString(raw, "App", "LocalServerPublicKey").trim().toLowerCase(),
    serverNextPrivKey: fileString(raw, "App", "LocalServerNextPrivKey").trim().toLowerCase(),
    natsUser: fileString(raw, "Cluster", "NatsUser").trim(),
    natsPassword: fileString(raw, "Cluster", "NatsPassword"),
    natsTls: undefined,
  };
  const ca = path(fileString(raw, "Cluster", "NatsTlsCA"));
  const cert = path(fileString(raw, "Cluster", "NatsTlsCert"));
  const key = path(fileString(raw, "Cluster", "NatsTlsKey"));
  if ((cert === undefined) !== (key === undefined))
    throw fieldError("Cluster.NatsTlsCert", "[Cluster] NatsTlsCert and NatsTlsKey go together: set both or neither");
  if (ca !== undefined || cert !== undefined)
    out.natsTls = {
      ...(ca === undefined ? {} : { caFile: ca }),
      ...(cert === undefined ? {} : { certFile: cert, keyFile: key! }),
    };
  if (natsUrls.length > 0 && network !== "LOCAL" && network !== "CUSTOM")
    throw new ConfigError(
      `-nats: a cluster runs a LOCAL or CUSTOM network; ${network} is run by its own federated servers`,
      { field: "-nats" },
    );
  if (natsUrls.length > 0 && role !== "follower") {
    if (!HEX64.test(out.identityChainId))
      throw fieldError(
        "App.IdentityChainID",
        `[App] IdentityChainID: a ${role} server needs its identity chain ID (64 hex characters), got ${JSON.stringify(out.identityChainId)}`,
      );
    if (!HEX64.test(out.serverPrivKey))
      throw fieldError(
        "App.LocalServerPrivKey",
        "[App] LocalServerPrivKey: expected 64 hex characters (an ed25519 seed)",
      );
    if (!HEX64.test(out.serverPublicKey))
      throw fieldError("App.LocalServerPublicKey", "[App] LocalServerPublicKey: expected 64 hex characters");
    if (out.serverNextPrivKey !== "" && !HEX64.test(out.serverNextPrivKey))
      throw fieldError(
        "App.LocalServerNextPrivKey",
        "[App] LocalServerNextPrivKey: expected 64 hex characters (an ed25519 seed) or nothing",
      );
    if (toHex(publicKeyFromSeed(fromHex(out.serverPrivKey))) !== out.serverPublicKey)
      throw fieldError(
        "App.LocalServerPublicKey",
        "[App] LocalServerPublicKey is not the public key of LocalServerPrivKey: fix one of them",
      );
  }
  return out;
}
