/**
 * Command-line flags, parsed the way Go's `flag` package parses the reference node's flags:
 * `-name=value`, `--name=value`, `-name value`, `--name value`, and for booleans a bare `-name`
 * (true) or `-name=false`. Parsing stops at `--`. Unknown flags, bad values and stray arguments are
 * ConfigErrors that name the flag.
 */
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { NETWORK_NAMES, type NetworkName } from "../protocol/network.js";
import { ConfigError } from "./errors.js";
import {
  DEBUG_API_MODES,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MIN_FREE_DISK_MB,
  LOG_LEVEL_WORDS,
  MAX_BODY_BYTES_LIMIT,
  MAX_MIN_FREE_DISK_MB,
  MAX_VERIFY_THREADS,
  MIN_BODY_BYTES,
} from "./limits.js";
import { didYouMean } from "./suggest.js";
import type { DebugApiMode, LogLevel } from "./types.js";

/** What the command line asked for; absent = not given (the file or the default decides). */
export interface FlagValues {
  network?: NetworkName;
  customNet?: string;
  port?: number;
  controlPanelPort?: number;
  homeDir?: string;
  /** seconds per directory block */
  blockTimeSeconds?: number;
  configFile?: string;
  journaling?: boolean;
  rpcUser?: string;
  rpcPass?: string;
  /** file holding the RPC password (first line) */
  rpcPassFile?: string;
  /** interface of the JSON-RPC server */
  listenHost?: string;
  /** serve a non-loopback address without credentials (-insecure-noauth) */
  insecureNoAuth?: boolean;
  /** console log lines as JSON even on a terminal (-logjson; read by cli.ts, not part of the configuration) */
  logJson?: boolean;
  /** -waithealthy=SECONDS: do not start a node; wait until the configured node's /health answers 200 (cli.ts) */
  waitHealthySeconds?: number;
  /** -httpfront: answer malformed HTTP through a node:net front (rpc/httpFront.ts) */
  httpFront?: boolean;
  debugApi?: DebugApiMode;
  tls?: boolean;
  selfAddrs?: string[];
  /** bytes */
  maxBodyBytes?: number;
  /** MiB */
  minFreeDiskMB?: number;
  /** port of the separate metrics listener (0 = /metrics on the API port only) */
  metricsPort?: number;
  verifyThreads?: number;
  /** keep the query index (store/queryIndex.ts) */
  queryIndex?: boolean;
  logLevel?: LogLevel;
  /** messages dropped per 1000 */
  dropRatePerMille?: number;
  /** -anchorrpc: JSON-RPC URL of the chain to anchor into */
  anchorRpc?: string;
  /** -anchorkey: file of the paying Ethereum account's private key */
  anchorKey?: string;
  /** NATS URLs (cluster mode) */
  natsUrls?: string[];
  role?: "federated" | "audit" | "follower";
  clusterReplicas?: number;
  /** seconds */
  faultTimeoutSeconds?: number;
  /** seconds */
  roundTimeoutSeconds?: number;
  /** brain swap: first height this server signs for its identity */
  identityActivationHeight?: number;
  /** brain swap: first height this server no longer signs for its identity */
  identityStopHeight?: number;
  help?: boolean;
  version?: boolean;
}

type FlagKind = "string" | "int" | "bool";

interface FlagSpec {
  names: readonly string[];
  kind: FlagKind;
  /** value placeholder in usage() */
  arg?: string;
  /** default as shown by usage() */
  shown: string;
  help: string;
  apply(into: FlagValues, value: string, flag: string): void;
}

/** The fields of FlagValues whose values are of type T. */
type FlagKeys<T> = { [K in keyof FlagValues]-?: NonNullable<FlagValues[K]> extends T ? K : never }[keyof FlagValues];

/** An integer flag from `min` to `max`, into `key`. */
function intFlag(key: FlagKeys<number>, min: number, max: number, spec: Omit<FlagSpec, "kind" | "apply">): FlagSpec {
  return {
    ...spec,
    kind: "int",
    apply(into, v, flag) {
      into[key] = int(flag, v, min, max);
    },
  };
}

/** A boolean flag (Go's ParseBool words), into `key`. */
function boolFlag(key: FlagKeys<boolean>, spec: Omit<FlagSpec, "kind" | "apply" | "arg">): FlagSpec {
  return {
    ...spec,
    kind: "bool",
    apply(into, v, flag) {
      into[key] = bool(flag, v);
    },
  };
}

/** Default signature-verification threads: one worker when there is a core to spare, else verify inline. */
export function defaultVerifyThreads(): number {
  return availableParallelism() >= 2 ? 1 : 0;
}

function bad(flag: string, message: string): never {
  throw new ConfigError(`invalid value for flag ${flag}: ${message}`, { field: flag });
}

function int(flag: string, value: string, min: number, max: number): number {
  if (!/^[+-]?[0-9]+$/.test(value.trim()))
    bad(flag, `expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  const n = Number.parseInt(value, 10);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    bad(flag, `expected an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return n;
}

/** Go's strconv.ParseBool set. */
function bool(flag: string, value: string): boolean {
  if (["1", "t", "T", "true", "TRUE", "True"].includes(value)) return true;
  if (["0", "f", "F", "false", "FALSE", "False"].includes(value)) return false;
  return bad(flag, `expected true or false, got ${JSON.stringify(value)}`);
}

/** A level word of the flag or the file (ours, or the reference's syslog/logrus names) → LogLevel. */
export function parseLogLevel(word: string): LogLevel | undefined {
  return LOG_LEVEL_WORDS[word.trim().toLowerCase()];
}

/** -selfaddr entries: IP addresses and DNS names (a leading "*." wildcard allowed). */
const DNS_NAME =
  /^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

export function isDnsName(name: string): boolean {
  return name.length <= 253 && DNS_NAME.test(name);
}

const SPECS: readonly FlagSpec[] = [
  {
    names: ["network"],
    kind: "string",
    arg: "NAME",
    shown: "LOCAL, or [App] Network of the file",
    help: "network to serve: MAIN, TEST, LOCAL or CUSTOM",
    apply(into, v, flag) {
      const name = v.trim().toUpperCase();
      if (!(NETWORK_NAMES as readonly string[]).includes(name)) {
        bad(flag, `expected one of ${NETWORK_NAMES.join(", ")}, got ${JSON.stringify(v)}`);
      }
      into.network = name as NetworkName;
    },
  },
  {
    names: ["customnet"],
    kind: "string",
    arg: "NAME",
    shown: '""',
    help: "name of a CUSTOM network (its id is the first 4 bytes of sha256(NAME)); required with -network=CUSTOM",
    apply(into, v) {
      into.customNet = v;
    },
  },
  intFlag("port", 0, 65535, {
    names: ["port"],
    arg: "PORT",
    shown: "8088, or [App] PortNumber",
    help: "JSON-RPC port (/v2 and /debug); 0 = any free port",
  }),
  intFlag("controlPanelPort", 0, 65535, {
    names: ["controlpanelport"],
    arg: "PORT",
    shown: "8090, or [App] ControlPanelPort",
    help: "control panel port (the panel is on unless [App] ControlPanelSetting = disabled); 0 = any free port",
  }),
  {
    names: ["homedir"],
    kind: "string",
    arg: "DIR",
    shown: "~/.ledgerd",
    help: "home directory: database, TLS files, default configuration file",
    apply(into, v, flag) {
      if (v.trim() === "") bad(flag, "expected a directory, got an empty value");
      into.homeDir = v;
    },
  },
  intFlag("blockTimeSeconds", 1, 86400, {
    names: ["blktime"],
    arg: "SECONDS",
    shown: "6, or [App] DirectoryBlockInSeconds; MAIN always 600",
    help: "seconds per directory block (a minute is a tenth of it)",
  }),
  {
    names: ["config"],
    kind: "string",
    arg: "FILE",
    shown: "<homedir>/ledgerd.conf",
    help: "INI configuration file; a missing default file means the defaults, a missing -config file is an error",
    apply(into, v, flag) {
      if (v.trim() === "") bad(flag, "expected a file name, got an empty value");
      into.configFile = v;
    },
  },
  boolFlag("journaling", {
    names: ["journaling"],
    shown: "false",
    help: "keep a human-readable journal of messages for the debug method `messages`",
  }),
  {
    names: ["rpcuser"],
    kind: "string",
    arg: "USER",
    shown: '"", or [App] NodeRpcUser',
    help: "HTTP Basic user of the API; an empty value keeps the file's",
    apply(into, v) {
      if (v !== "") into.rpcUser = v;
    },
  },
  {
    names: ["rpcpass"],
    kind: "string",
    arg: "PASS",
    shown: '"", or [App] NodeRpcPass',
    help: "HTTP Basic password of the API; an empty value keeps the file's",
    apply(into, v) {
      if (v !== "") into.rpcPass = v;
    },
  },
  {
    names: ["rpcpassfile"],
    kind: "string",
    arg: "FILE",
    shown: '""',
    help: "read the HTTP Basic password from the first line of FILE (instead of -rpcpass, which ps shows to everyone)",
    apply(into, v, flag) {
      if (v.trim() === "") bad(flag, "expected a file name, got an empty value");
      into.rpcPassFile = v;
    },
  },
  {
    names: ["listenhost"],
    kind: "string",
    arg: "ADDRESS",
    shown: "127.0.0.1, or [App] ListenHost",
    help:
      "interface of the JSON-RPC server; an address other than loopback needs -rpcuser/-rpcpass " +
      "(or [App] NodeRpcUser/NodeRpcPass), or -insecure-noauth",
    apply(into, v, flag) {
      const host = v.trim();
      const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
      if (isIP(bare) === 0 && !isDnsName(bare)) bad(flag, `expected an interface address, got ${JSON.stringify(v)}`);
      into.listenHost = bare;
    },
  },
  intFlag("waitHealthySeconds", 1, 3600, {
    names: ["waithealthy"],
    arg: "SECONDS",
    shown: "off (run the node)",
    help:
      "start no node: wait up to SECONDS until the node this configuration describes answers GET /health with " +
      "200 (its scheme, port and certificate from the same flags and file), exit 0, else 1 (systemd ExecStartPost)",
  }),
  boolFlag("logJson", {
    names: ["logjson"],
    shown: "false",
    help: "console log lines as JSON even on a terminal (they are JSON whenever stderr is not a terminal)",
  }),
  boolFlag("insecureNoAuth", {
    names: ["insecure-noauth"],
    shown: "false",
    help:
      "INSECURE: serve a non-loopback -listenhost without credentials; anyone who reaches the port drives " +
      "the node (logged at warning level at every start)",
  }),
  {
    names: ["debugapi"],
    kind: "string",
    arg: "MODE",
    shown: "off on MAIN, readonly elsewhere; or [App] DebugApi",
    help: "the /debug endpoint: off, readonly, or readwrite (allows set-drop-rate, set-delay, reload-configuration)",
    apply(into, v, flag) {
      const mode = v.trim().toLowerCase();
      if (!(DEBUG_API_MODES as readonly string[]).includes(mode))
        bad(flag, `expected one of ${DEBUG_API_MODES.join(", ")}, got ${JSON.stringify(v)}`);
      into.debugApi = mode as DebugApiMode;
    },
  },
  boolFlag("httpFront", {
    names: ["httpfront"],
    shown: "false",
    help:
      "answer malformed HTTP (HTTP/1.0, no Host, unknown methods, the target *, control characters) with " +
      "400/405/505 through a front that copies every request; costs read throughput, plain HTTP only " +
      "(docs/operations.md §5)",
  }),
  boolFlag("tls", {
    names: ["tls"],
    shown: "false, or [App] NodeTlsEnabled",
    help: "serve HTTPS only; a self-signed certificate is created when the files are missing",
  }),
  {
    names: ["selfaddr"],
    kind: "string",
    arg: "A,B,...",
    shown: '""',
    help: "comma-separated IP addresses and DNS names of this node to put in a generated TLS certificate",
    apply(into, v, flag) {
      const entries = v
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "");
      for (const e of entries) {
        const bare = e.startsWith("[") && e.endsWith("]") ? e.slice(1, -1) : e;
        if (isIP(bare) === 0 && !isDnsName(bare)) {
          bad(flag, `${JSON.stringify(e)} is neither an IP address nor a DNS name`);
        }
      }
      into.selfAddrs = entries.map((e) => (e.startsWith("[") && e.endsWith("]") ? e.slice(1, -1) : e));
    },
  },
  intFlag("maxBodyBytes", MIN_BODY_BYTES, MAX_BODY_BYTES_LIMIT, {
    names: ["maxbody"],
    arg: "BYTES",
    shown: `${DEFAULT_MAX_BODY_BYTES} (1 MiB), or [App] MaxBodyBytes`,
    help: "largest accepted HTTP request body, bytes",
  }),
  intFlag("minFreeDiskMB", 1, MAX_MIN_FREE_DISK_MB, {
    names: ["minfreemb"],
    arg: "MB",
    shown: `${DEFAULT_MIN_FREE_DISK_MB}, or [App] MinFreeDiskMB`,
    help: "MiB kept free on the data directory's disk; writes are refused (Storage full) below it",
  }),
  intFlag("metricsPort", 0, 65535, {
    names: ["metricsport"],
    arg: "PORT",
    shown: "0, or [App] MetricsPort",
    help: "also serve /metrics and /health on this port (the reference uses 9876); 0 = only on the API port",
  }),
  intFlag("verifyThreads", 0, MAX_VERIFY_THREADS, {
    names: ["verifythreads"],
    arg: "N",
    shown: "1 with 2 or more CPUs, else 0; or [App] VerifyThreads",
    help: "signature-verification worker threads; 0 = verify in the main thread",
  }),
  boolFlag("queryIndex", {
    names: ["queryindex"],
    shown: "true, or [App] QueryIndex",
    help:
      "keep the query index (chain-entries, search-entries, search-chains, address-history, the live feed's " +
      "filters); false: those answer -32000 and block saves skip it; on again, it is rebuilt in the background",
  }),
  {
    names: ["loglevel"],
    kind: "string",
    arg: "LEVEL",
    shown: "[Log] LogLevel (error) for the file, [Log] ConsoleLogLevel (standard = info) for stderr",
    help: "level of both the log file and stderr: debug, info, warning, error or none",
    apply(into, v, flag) {
      const level = parseLogLevel(v);
      if (!level) bad(flag, `expected one of debug, info, warning, error, none, got ${JSON.stringify(v)}`);
      into.logLevel = level;
    },
  },
  intFlag("dropRatePerMille", 0, 1000, {
    names: ["drop"],
    arg: "N",
    shown: "0, or [App] DropRate",
    help: "network testing: refuse (with an error) N of every 1000 submitted messages (the reference's -drop)",
  }),
  {
    names: ["nats"],
    kind: "string",
    arg: "URL[,URL…]",
    shown: '"", or [Cluster] NatsURLs (empty: the single node, no NATS)',
    help: "run as a cluster node on these NATS JetStream servers (docs/cluster.md)",
    apply(into, v, flag) {
      const urls = v
        .split(",")
        .map((u) => u.trim())
        .filter((u) => u !== "");
      for (const u of urls)
        if (!/^(nats|tls):\/\/[^\s/]+$/.test(u)) bad(flag, `expected nats://host:port URLs, got ${JSON.stringify(u)}`);
      into.natsUrls = urls;
    },
  },
  {
    names: ["role"],
    kind: "string",
    arg: "ROLE",
    shown: "follower, or [Cluster] Role",
    help: "cluster role: federated, audit or follower",
    apply(into, v, flag) {
      const r = v.trim().toLowerCase();
      if (r !== "federated" && r !== "audit" && r !== "follower")
        bad(flag, `expected federated, audit or follower, got ${JSON.stringify(v)}`);
      into.role = r;
    },
  },
  intFlag("clusterReplicas", 1, 5, {
    names: ["clusterreplicas"],
    arg: "N",
    shown: "3, or [Cluster] Replicas",
    help: "replicas of the log stream when this node creates it (1..5)",
  }),
  intFlag("faultTimeoutSeconds", 1, 86400, {
    names: ["faulttimeout"],
    arg: "SECONDS",
    shown: "120, or [Cluster] FaultTimeout",
    help: "seconds without a federated server's signature or end of minute before it is faulted",
  }),
  intFlag("identityActivationHeight", 0, 0xffffffff, {
    names: ["identityactivationheight"],
    arg: "HEIGHT",
    shown: "0, or [App] IdentityActivationHeight",
    help: "brain swap: sign for this server's identity from this height on (0 = always)",
  }),
  intFlag("identityStopHeight", 0, 0xffffffff, {
    names: ["identitystopheight"],
    arg: "HEIGHT",
    shown: "0, or [App] IdentityStopHeight",
    help: "brain swap: sign nothing for this server's identity from this height on (0 = never)",
  }),
  intFlag("roundTimeoutSeconds", 1, 86400, {
    names: ["roundtimeout"],
    arg: "SECONDS",
    shown: "30, or [Cluster] RoundTimeout",
    help: "seconds per election round",
  }),
  {
    names: ["anchorrpc"],
    kind: "string",
    arg: "URL",
    shown: '"", or [Anchor] RpcUrl',
    help: "anchor directory blocks into the Ethereum-compatible chain at this JSON-RPC URL (docs/anchoring.md)",
    apply(into, v, flag) {
      const t = v.trim();
      if (t !== "" && !/^https?:\/\/[^\s]+$/i.test(t)) bad(flag, "expected an http:// or https:// URL");
      into.anchorRpc = t;
    },
  },
  {
    names: ["anchorkey"],
    kind: "string",
    arg: "FILE",
    shown: '"", or [Anchor] KeyFile',
    help: "file holding the hex private key of the Ethereum account that pays for anchors (never logged)",
    apply(into, v, flag) {
      if (v.trim() === "") bad(flag, "expected a file name, got an empty value");
      into.anchorKey = v;
    },
  },
  boolFlag("help", {
    names: ["h", "help"],
    shown: "",
    help: "print this help and exit",
  }),
  boolFlag("version", {
    names: ["v", "version"],
    shown: "",
    help: "print the version and exit",
  }),
];

function findSpec(name: string): FlagSpec | undefined {
  return SPECS.find((s) => s.names.includes(name));
}

/** Parses argv (without the node and script paths). Later occurrences of a flag win, as in Go. */
export function parseFlags(argv: readonly string[]): FlagValues {
  const out: FlagValues = {};
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i++]!;
    if (arg === "--") {
      if (i < argv.length)
        throw new ConfigError(`unexpected argument ${JSON.stringify(argv[i])}: ledgerd takes only flags`);
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      throw new ConfigError(`unexpected argument ${JSON.stringify(arg)}: ledgerd takes only flags (see -h)`);
    }
    const body = arg.startsWith("--") ? arg.slice(2) : arg.slice(1);
    if (body === "" || body.startsWith("-") || body.startsWith("=")) {
      throw new ConfigError(`bad flag syntax: ${arg}`, { field: arg });
    }
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(0, eq);
    const spec = findSpec(name);
    const flag = `-${name}`;
    if (!spec)
      throw new ConfigError(
        `flag provided but not defined: ${flag}${didYouMean(
          name,
          SPECS.flatMap((s) => s.names),
          "-",
        )} (see -h for the list of flags)`,
        { field: flag },
      );
    let value: string;
    if (eq >= 0) {
      value = body.slice(eq + 1);
    } else if (spec.kind === "bool") {
      value = "true";
    } else {
      if (i >= argv.length) throw new ConfigError(`flag needs an argument: ${flag}`, { field: flag });
      value = argv[i++]!;
    }
    spec.apply(out, value, flag);
  }
  return out;
}

/** The help text: every flag with its argument, meaning and default. */
export function usage(): string {
  const lines = [
    "Usage: ledgerd [flags]",
    "       ledgerd verify -homedir=DIR -network=NET [-q]   check a stopped node's data directory end to end",
    "                                                      (ledgerd verify -h; docs/export.md)",
    "",
    "Flags (one or two dashes; -flag=value or -flag value; booleans: -flag or -flag=false):",
  ];
  for (const s of SPECS) {
    const names = s.names.map((n) => `-${n}`).join(", ");
    const head = s.kind === "bool" ? names : `${names}=${s.arg}`;
    lines.push(`  ${head}`);
    lines.push(`        ${s.help}`);
    if (s.shown) lines.push(`        default: ${s.shown}`);
  }
  lines.push("", "Flags override the configuration file, which overrides the defaults (docs/configuration.md).");
  return lines.join("\n") + "\n";
}
