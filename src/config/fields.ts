/**
 * The fields of the INI configuration file: group, name, type, default and meaning.
 *
 * The groups and fields of spec §4.2.1 come first in each group, in the spec's order (that order is the
 * order of the `configuration` debug result). Defaults are those of the reference node's built-in
 * configuration (factomd util/config.go `defaultConfig`) with the neutral names of docs/reference/README.md,
 * except where `deviation` says otherwise. Fields marked `extension` are ledgerd's own and are not part of
 * the `configuration` result.
 */
import { InvariantError } from "../errors.js";
import type { LogLevel } from "./types.js";

/** "list" is a multi-valued field: each `Name = value` line appends, a bare `Name` line empties the list. */
export type FieldType = "string" | "int" | "bool" | "list";

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** default as it would be written in the file; null = none (lists: the result shows null; VerifyThreads:
   *  computed from the CPU count) */
  default: string | null;
  /** inclusive bounds of "int" fields */
  min?: number;
  max?: number;
  /** allowed values of a "string" field, compared case-insensitively */
  choices?: readonly string[];
  /** value must never leave the process in clear (the `configuration` result redacts it) */
  secret?: boolean;
  /** ledgerd's own field: accepted in the file, not part of the `configuration` result */
  extension?: boolean;
  /** other names accepted in the file for this field (the reference node's vendor-named fields) */
  aliases?: readonly string[];
  /** one line for docs/configuration.md and error messages */
  doc: string;
}

export interface GroupSpec {
  name: GroupName;
  fields: readonly FieldSpec[];
}

export const GROUP_NAMES = ["App", "Peer", "Log", "Wallet", "Walletd", "Cluster", "Anchor"] as const;
export type GroupName = (typeof GROUP_NAMES)[number];

/**
 * Groups the reference node's files may contain and ledgerd has no use for: accepted, contents ignored,
 * so that an existing reference configuration file loads unchanged.
 */
export const IGNORED_GROUPS = ["LiveFeedAPI", "rpc", "wsapi"] as const;

/** The placeholder path of the reference file template: "leave /full/path/to/... in place to use the defaults". */
export const PLACEHOLDER_PATH_PREFIX = "/full/path/to/";

/** uint32 upper bound (ChangeAcksHeight is a uint32 in the reference). */
const U32 = 4294967295;
/** Largest integer a JS number holds exactly; the reference's uint64/int64 fields are capped here. */
const SAFE = Number.MAX_SAFE_INTEGER;
/** Largest accepted HTTP body: 1 GiB. A reveal carries at most 10 KiB of entry (20 KiB of hex), so anything
 *  near this bound is a mistake or an attack; the bound only keeps a typo from asking for terabytes. */
export const MAX_BODY_BYTES_LIMIT = 1024 * 1024 * 1024;
/** Smallest accepted HTTP body: 1 KiB. A commit-chain request is ~450 bytes; below 1 KiB nothing works. */
export const MIN_BODY_BYTES = 1024;
/**
 * Default free-space reserve of the data directory, MiB (store/diskSpace.ts): room for a few big block saves
 * (a 20,000-entry block packs to ~10 MB; LMDB may rewrite twice that) and the journal meanwhile.
 */
export const DEFAULT_MIN_FREE_DISK_MB = 64;
/**
 * Largest accepted reserve, MiB (1 TiB). The least is 1: without a reserve LMDB itself meets the full disk,
 * which the lmdb-js build in use does not survive (store/diskSpace.ts).
 */
export const MAX_MIN_FREE_DISK_MB = 1024 * 1024;

/** Default largest HTTP body: 1 MiB (NodeConfig.maxBodyBytes). Fits a 100-request batch of 10 KiB reveals. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/**
 * Largest message delay, ms, configured (`-delay`, [App] Delay) or set (`set-delay`, rpc/intake.ts). A delayed
 * call holds its HTTP request open for the whole delay; one minute is far beyond any useful network
 * simulation and still below common client timeouts.
 */
export const MAX_DELAY_MS = 60_000;
/** Modes of the /debug endpoint (NodeConfig.debugApi). */
export const DEBUG_API_MODES = ["off", "readonly", "readwrite"] as const;
/** Signature-verification worker threads beyond this are a typo: the pool cannot use more than the cores. */
export const MAX_VERIFY_THREADS = 256;

export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warning", "error", "none"];
/** Accepted level words: ours plus the reference's (logrus/syslog names and the console's "standard"). */
export const LOG_LEVEL_WORDS: Readonly<Record<string, LogLevel>> = {
  debug: "debug",
  info: "info",
  notice: "info",
  standard: "info",
  warning: "warning",
  warn: "warning",
  error: "error",
  critical: "error",
  alert: "error",
  emergency: "error",
  fatal: "error",
  panic: "error",
  none: "none",
};

const NETWORK_CHOICES = ["MAIN", "TEST", "LOCAL", "CUSTOM"] as const;
const LEVEL_CHOICES = Object.keys(LOG_LEVEL_WORDS);

export const GROUPS: readonly GroupSpec[] = [
  {
    name: "App",
    fields: [
      {
        name: "PortNumber",
        type: "int",
        default: "8088",
        min: 0,
        max: 65535,
        doc: "JSON-RPC port (0 = any free port)",
      },
      {
        name: "HomeDir",
        type: "string",
        default: "",
        doc: "data directory; empty = ~/.ledgerd; a relative path is relative to the configuration file; -homedir wins",
      },
      {
        name: "ControlPanelPort",
        type: "int",
        default: "8090",
        min: 0,
        max: 65535,
        doc: "control panel port (also -controlpanelport); 0 = any free port",
      },
      {
        name: "ControlPanelFilesPath",
        type: "string",
        default: "",
        doc: "informational: the control panel's files are built into ledgerd",
      },
      {
        name: "ControlPanelSetting",
        type: "string",
        default: "readonly",
        doc: "disabled | readonly | readwrite (readwrite adds the drop-rate, delay and reload knobs)",
      },
      { name: "DBType", type: "string", default: "LDB", doc: "informational: ledgerd always stores in LMDB" },
      { name: "LdbPath", type: "string", default: "database/ldb", doc: "informational" },
      { name: "BoltDBPath", type: "string", default: "database/bolt", doc: "informational" },
      { name: "DataStorePath", type: "string", default: "data/export", doc: "informational" },
      {
        name: "DirectoryBlockInSeconds",
        type: "int",
        default: "6",
        min: 1,
        max: 86400,
        doc: "seconds per directory block (a minute is a tenth of it); MAIN always uses 600",
      },
      { name: "ExportData", type: "bool", default: "false", doc: "informational" },
      { name: "ExportDataSubpath", type: "string", default: "database/export/", doc: "informational" },
      { name: "NodeMode", type: "string", default: "FULL", doc: "FULL | SERVER; informational" },
      {
        name: "IdentityChainID",
        type: "string",
        default: "",
        doc: "identity chain of this server; a cluster's federated and audit servers need it (64 hex)",
      },
      {
        name: "LocalServerPrivKey",
        type: "string",
        default: "4c38c72fc5cdad68f13b74674d3ffb1f3d63a112710868c9b08946553448d26d",
        secret: true,
        doc: "server signing key (hex ed25519 seed); signs a CUSTOM network's blocks (LOCAL's default refused there); secret, redacted in `configuration`",
      },
      {
        name: "LocalServerPublicKey",
        type: "string",
        default: "cc1985cdfae4e32b5a454dfda8ce5e1361558482684f3367649c3ad852c8e31a",
        doc: "server public key (hex)",
      },
      {
        name: "ExchangeRate",
        type: "int",
        default: "00100000",
        min: 0,
        max: SAFE,
        doc: "informational: the entry-credit rate comes from the network's genesis block (LOCAL, CUSTOM: 1000 base units per entry credit) and rate changes; a start warns when set otherwise",
      },
      {
        name: "ExchangeRateChainId",
        type: "string",
        default: "111111118d918a8be684e0dac725493a75862ef96d2d3f43f84b26969329bf03",
        doc: "chain of exchange-rate changes",
      },
      {
        name: "ExchangeRateAuthorityPublicKey",
        type: "string",
        default: "",
        doc: "effective authority key: the MainNet/TestNet/LocalNet key of the current network (CUSTOM: this value)",
      },
      {
        name: "ExchangeRateAuthorityPublicKeyMainNet",
        type: "string",
        default: "daf5815c2de603dbfa3e1e64f88a5cf06083307cf40da4a9b539c41832135b4a",
        doc: "exchange-rate authority on MAIN",
      },
      {
        name: "ExchangeRateAuthorityPublicKeyTestNet",
        type: "string",
        default: "1d75de249c2fc0384fb6701b30dc86b39dc72e5a47ba4f79ef250d39e21e7a4f",
        doc: "exchange-rate authority on TEST",
      },
      {
        name: "ExchangeRateAuthorityPublicKeyLocalNet",
        type: "string",
        default: "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29",
        doc: "exchange-rate authority on LOCAL (private key all zeroes)",
      },
      {
        name: "Network",
        type: "string",
        default: "LOCAL",
        choices: NETWORK_CHOICES,
        doc: "MAIN | TEST | LOCAL | CUSTOM (deviation: the reference defaults to MAIN)",
      },
      { name: "MainNetworkPort", type: "string", default: "8108", doc: "peer-to-peer port on MAIN; informational" },
      { name: "PeersFile", type: "string", default: "peers.json", doc: "informational" },
      {
        name: "MainSeedURL",
        type: "string",
        default: "https://raw.githubusercontent.com/FactomProject/factomproject.github.io/master/seed/mainseed.txt",
        doc: "informational",
      },
      { name: "MainSpecialPeers", type: "string", default: "", doc: "informational" },
      { name: "TestNetworkPort", type: "string", default: "8109", doc: "peer-to-peer port on TEST; informational" },
      {
        name: "TestSeedURL",
        type: "string",
        default: "https://raw.githubusercontent.com/FactomProject/factomproject.github.io/master/seed/testseed.txt",
        doc: "informational",
      },
      { name: "TestSpecialPeers", type: "string", default: "", doc: "informational" },
      { name: "LocalNetworkPort", type: "string", default: "8110", doc: "peer-to-peer port on LOCAL; informational" },
      {
        name: "LocalSeedURL",
        type: "string",
        default: "https://raw.githubusercontent.com/FactomProject/factomproject.github.io/master/seed/localseed.txt",
        doc: "informational",
      },
      { name: "LocalSpecialPeers", type: "string", default: "", doc: "informational" },
      {
        name: "CustomBootstrapIdentity",
        type: "string",
        default: "38bab1455b7bd7e5efd15c53c777c79d0c988e9210f1da49a99d95b3a6417be9",
        doc: "bootstrap identity of a CUSTOM network; required there (LOCAL's default is refused)",
      },
      {
        name: "CustomBootstrapKey",
        type: "string",
        default: "cc1985cdfae4e32b5a454dfda8ce5e1361558482684f3367649c3ad852c8e31a",
        doc: "bootstrap signing key of a CUSTOM network: the public key of LocalServerPrivKey (LOCAL's default is refused)",
      },
      {
        name: "CustomGenesisAllocation",
        type: "list",
        default: null,
        extension: true,
        doc:
          "CUSTOM: one ADDRESS:AMOUNT line per address the genesis pays (FA address; AMOUNT in units, up to 8 " +
          "decimals); required on CUSTOM, LOCAL's genesis addresses refused",
      },
      {
        name: "NodeTlsEnabled",
        type: "bool",
        default: "false",
        aliases: ["FactomdTlsEnabled"],
        doc: "serve HTTPS only (also -tls)",
      },
      {
        name: "NodeTlsPrivateKey",
        type: "string",
        default: "/full/path/to/nodeAPIpriv.key",
        aliases: ["FactomdTlsPrivateKey"],
        doc: "TLS private key file; the /full/path/to/ placeholder or empty = <homedir>/tls/node.key",
      },
      {
        name: "NodeTlsPublicCert",
        type: "string",
        default: "/full/path/to/nodeAPIpub.cert",
        aliases: ["FactomdTlsPublicCert"],
        doc: "TLS certificate file; the /full/path/to/ placeholder or empty = <homedir>/tls/node.crt",
      },
      {
        name: "NodeRpcUser",
        type: "string",
        default: "",
        aliases: ["FactomdRpcUser"],
        doc: "HTTP Basic user; empty = no authentication",
      },
      {
        name: "NodeRpcPass",
        type: "string",
        default: "",
        secret: true,
        aliases: ["FactomdRpcPass"],
        doc: "HTTP Basic password; secret, redacted in `configuration`",
      },
      { name: "ChangeAcksHeight", type: "int", default: "0", min: 0, max: U32, doc: "informational" },
      // Reference fields outside spec §4.2.1 that ledgerd uses.
      {
        name: "CorsDomains",
        type: "string",
        default: "",
        extension: true,
        doc: "comma-separated CORS origins (`*` = any); empty = no CORS headers",
      },
      // Reference fields outside spec §4.2.1 that ledgerd accepts and ignores (so that reference files load).
      { name: "FastBoot", type: "bool", default: "true", extension: true, doc: "reference field; ignored" },
      { name: "FastBootLocation", type: "string", default: "", extension: true, doc: "reference field; ignored" },
      { name: "CustomNetworkPort", type: "string", default: "8110", extension: true, doc: "reference field; ignored" },
      { name: "CustomSeedURL", type: "string", default: "", extension: true, doc: "reference field; ignored" },
      { name: "CustomSpecialPeers", type: "string", default: "", extension: true, doc: "reference field; ignored" },
      {
        name: "P2PIncoming",
        type: "int",
        default: "200",
        min: 0,
        max: SAFE,
        extension: true,
        doc: "reference field; ignored",
      },
      {
        name: "P2POutgoing",
        type: "int",
        default: "32",
        min: 0,
        max: SAFE,
        extension: true,
        doc: "reference field; ignored",
      },
      {
        name: "RequestTimeout",
        type: "int",
        default: "0",
        min: 0,
        max: SAFE,
        extension: true,
        doc: "reference field; ignored",
      },
      {
        name: "RequestLimit",
        type: "int",
        default: "200",
        min: 0,
        max: SAFE,
        extension: true,
        doc: "reference field; ignored",
      },
      {
        name: "BitcoinAnchorRecordPublicKeys",
        type: "list",
        default: null,
        extension: true,
        doc: "reference field; ignored",
      },
      {
        name: "EthereumAnchorRecordPublicKeys",
        type: "list",
        default: null,
        extension: true,
        doc: "ed25519 public keys (hex) whose signed records in the Ethereum anchor chain this node reports; unset = the reference's key and this node's own anchoring key (docs/anchoring.md)",
      },
      // ledgerd's own fields.
      {
        name: "ListenHost",
        type: "string",
        default: "127.0.0.1",
        extension: true,
        doc:
          "interface the JSON-RPC server listens on (also -listenhost); an address other than loopback needs " +
          "NodeRpcUser/NodeRpcPass, or the flag -insecure-noauth",
      },
      {
        name: "NodeRpcPassFile",
        type: "string",
        default: "",
        extension: true,
        doc: "file whose first line is the HTTP Basic password (instead of NodeRpcPass; also -rpcpassfile, LEDGERD_RPC_PASS)",
      },
      {
        name: "AllowedHosts",
        type: "string",
        default: "",
        extension: true,
        doc:
          "comma-separated host names requests may carry in Host besides localhost, IP addresses, -selfaddr " +
          "names and NodeLocation (`*` = any, `*.example.com` = its subdomains); against DNS rebinding",
      },
      {
        name: "DebugApi",
        type: "string",
        default: null,
        choices: DEBUG_API_MODES,
        extension: true,
        doc:
          "the /debug endpoint: off | readonly | readwrite (set-drop-rate, set-delay, reload-configuration); " +
          "empty = off on MAIN, readonly elsewhere (also -debugapi)",
      },
      {
        name: "DebugRpcUser",
        type: "string",
        default: "",
        extension: true,
        doc: "HTTP Basic user that callers off loopback need for the state-changing /debug methods",
      },
      {
        name: "DebugRpcPass",
        type: "string",
        default: "",
        secret: true,
        extension: true,
        doc: "HTTP Basic password that goes with DebugRpcUser",
      },
      {
        name: "ControlPanelListenHost",
        type: "string",
        default: "127.0.0.1",
        extension: true,
        doc: "interface the control panel listens on (loopback unless set)",
      },
      {
        name: "MaxBodyBytes",
        type: "int",
        default: String(DEFAULT_MAX_BODY_BYTES),
        min: MIN_BODY_BYTES,
        max: MAX_BODY_BYTES_LIMIT,
        extension: true,
        doc: "largest accepted HTTP body, bytes (also -maxbody)",
      },
      {
        name: "MinFreeDiskMB",
        type: "int",
        default: String(DEFAULT_MIN_FREE_DISK_MB),
        min: 1,
        max: MAX_MIN_FREE_DISK_MB,
        extension: true,
        doc: "MiB kept free on the data directory's disk; writes are refused (Storage full) below it (also -minfreemb)",
      },
      {
        name: "MetricsPort",
        type: "int",
        default: "0",
        min: 0,
        max: 65535,
        extension: true,
        doc: "also serve /metrics and /health on this port (the reference uses 9876); 0 = only on the API port (also -metricsport)",
      },
      {
        name: "MaxBatch",
        type: "int",
        default: "100",
        min: 1,
        max: 100000,
        extension: true,
        doc: "largest JSON-RPC batch, requests",
      },
      {
        name: "VerifyThreads",
        type: "int",
        default: null,
        min: 0,
        max: MAX_VERIFY_THREADS,
        extension: true,
        doc: "signature-verification worker threads; empty = 1 with 2 or more CPUs, else 0 (also -verifythreads)",
      },
      {
        name: "DropRate",
        type: "int",
        default: "0",
        min: 0,
        max: 1000,
        extension: true,
        doc: "network testing: refuse (with an error) this many of every 1000 submitted messages (also -drop, debug set-drop-rate)",
      },
      {
        name: "Delay",
        type: "int",
        default: "0",
        min: 0,
        max: MAX_DELAY_MS,
        extension: true,
        doc: "network testing: delay each submitted message from its request's arrival, milliseconds (debug set-delay)",
      },
    ],
  },
  {
    name: "Peer",
    fields: [
      { name: "AddPeers", type: "list", default: null, doc: "informational (ledgerd has no peer network yet)" },
      { name: "ConnectPeers", type: "list", default: null, doc: "informational" },
      { name: "Listeners", type: "list", default: null, doc: "informational" },
      { name: "MaxPeers", type: "int", default: "0", min: 0, max: SAFE, doc: "informational" },
      {
        name: "BanDuration",
        type: "int",
        default: "0",
        min: 0,
        max: SAFE,
        doc: "nanoseconds, as the reference reports it; informational",
      },
      { name: "TestNet", type: "bool", default: "false", doc: "informational" },
      { name: "SimNet", type: "bool", default: "false", doc: "informational" },
    ],
  },
  {
    name: "Log",
    fields: [
      {
        name: "LogPath",
        type: "string",
        default: "database/Log",
        doc: "log directory, relative to the home directory; the log file is <LogPath>/ledgerd.log",
      },
      {
        name: "LogLevel",
        type: "string",
        default: "error",
        choices: LEVEL_CHOICES,
        doc: "level of the log file: debug | info | warning | error | none (also notice, critical, alert, emergency)",
      },
      {
        name: "ConsoleLogLevel",
        type: "string",
        default: "standard",
        choices: LEVEL_CHOICES,
        doc: "level of stderr: standard (= info) | debug | info | warning | error | none",
      },
    ],
  },
  {
    name: "Wallet",
    fields: [
      { name: "Address", type: "string", default: "", doc: "wallet tools; informational for the node" },
      { name: "Port", type: "int", default: "0", min: 0, max: 65535, doc: "informational" },
      { name: "DataFile", type: "string", default: "", doc: "informational" },
      { name: "RefreshInSeconds", type: "string", default: "", doc: "informational" },
      { name: "BoltDBPath", type: "string", default: "", doc: "informational" },
      { name: "NodeAddress", type: "string", default: "", aliases: ["FactomdAddress"], doc: "informational" },
      {
        name: "NodePort",
        type: "int",
        default: "0",
        min: 0,
        max: 65535,
        aliases: ["FactomdPort"],
        doc: "informational",
      },
    ],
  },
  {
    name: "Walletd",
    fields: [
      { name: "WalletRpcUser", type: "string", default: "", doc: "wallet service user (wallet tools)" },
      {
        name: "WalletRpcPass",
        type: "string",
        default: "",
        secret: true,
        doc: "wallet service password; secret, redacted in `configuration`",
      },
      { name: "WalletTlsEnabled", type: "bool", default: "false", doc: "wallet service TLS (wallet tools)" },
      {
        name: "WalletTlsPrivateKey",
        type: "string",
        default: "/full/path/to/walletAPIpriv.key",
        doc: "wallet service TLS key (wallet tools)",
      },
      {
        name: "WalletTlsPublicCert",
        type: "string",
        default: "/full/path/to/walletAPIpub.cert",
        doc: "wallet service TLS certificate (wallet tools)",
      },
      {
        name: "NodeLocation",
        type: "string",
        default: "localhost:8088",
        aliases: ["FactomdLocation"],
        doc: "host:port where tools find the node; its host is also put in the generated TLS certificate",
      },
      {
        name: "WalletdLocation",
        type: "string",
        default: "localhost:8089",
        doc: "host:port of the wallet service (wallet tools)",
      },
      { name: "WalletEncrypted", type: "bool", default: "false", extension: true, doc: "reference field; ignored" },
    ],
  },
  {
    name: "Cluster",
    fields: [
      {
        name: "NatsURLs",
        type: "string",
        default: "",
        extension: true,
        doc: "NATS client URLs of the cluster's JetStream servers, comma-separated; empty = the single node (docs/cluster.md)",
      },
      {
        name: "Role",
        type: "string",
        default: "follower",
        choices: ["federated", "audit", "follower"],
        extension: true,
        doc: "federated | audit | follower (federated and audit need [App] IdentityChainID and LocalServerPrivKey)",
      },
      {
        name: "NatsUser",
        type: "string",
        default: "",
        extension: true,
        doc: "NATS user of this node (the NATS servers' authorization users); empty = none",
      },
      {
        name: "NatsPassword",
        type: "string",
        default: "",
        secret: true,
        extension: true,
        doc: "NATS password of NatsUser; secret",
      },
      {
        name: "NatsTlsCA",
        type: "string",
        default: "",
        extension: true,
        doc: "CA certificate (PEM) that signed the NATS servers' certificates; set = TLS to NATS (relative to the home directory)",
      },
      {
        name: "NatsTlsCert",
        type: "string",
        default: "",
        extension: true,
        doc: "this node's client certificate (PEM) for NATS servers that verify clients; with NatsTlsKey",
      },
      {
        name: "NatsTlsKey",
        type: "string",
        default: "",
        extension: true,
        doc: "the key (PEM) of NatsTlsCert",
      },
      {
        name: "Replicas",
        type: "int",
        default: "3",
        min: 1,
        max: 5,
        extension: true,
        doc: "replicas of the log stream when this node creates it (1 for one NATS server, 3 for three)",
      },
      {
        name: "FaultTimeout",
        type: "int",
        default: "120",
        min: 1,
        max: 86400,
        extension: true,
        doc: "seconds without a federated server's signature or end of minute before it is faulted",
      },
      {
        name: "RoundTimeout",
        type: "int",
        default: "30",
        min: 1,
        max: 86400,
        extension: true,
        doc: "seconds per election round",
      },
    ],
  },
  {
    // ledgerd's anchoring into an Ethereum-compatible chain (docs/anchoring.md). The reference node's
    // [anchor] group (its old in-node Bitcoin anchoring) used the same name: its four fields are accepted
    // and ignored, so that its files still load. Not part of the `configuration` result (spec §4.2.1).
    name: "Anchor",
    fields: [
      {
        name: "RpcUrl",
        type: "string",
        default: "",
        extension: true,
        doc: "JSON-RPC URL (http/https) of the Ethereum-compatible chain to anchor into; empty = this node does not anchor (also -anchorrpc)",
      },
      {
        name: "KeyFile",
        type: "string",
        default: "",
        extension: true,
        doc: "file holding the hex private key (64 characters, 0x optional) of the paying Ethereum account; relative to the home directory; never logged (also -anchorkey)",
      },
      {
        name: "ECKeyFile",
        type: "string",
        default: "",
        extension: true,
        doc: "file holding the entry credit private key (Es…) that pays for the anchor records and signs them; relative to the home directory",
      },
      {
        name: "ChainId",
        type: "int",
        default: "1",
        min: 1,
        max: SAFE,
        extension: true,
        doc: "chain ID the RPC must serve (1 = Ethereum mainnet, 11155111 = Sepolia, 1337 = ganache)",
      },
      {
        name: "Interval",
        type: "int",
        default: "1",
        min: 1,
        max: 1_000_000,
        extension: true,
        doc: "anchor every N saved directory blocks",
      },
      {
        name: "MaxWindow",
        type: "int",
        default: "1000",
        min: 1,
        max: 100_000,
        extension: true,
        doc: "most directory blocks in one anchor (the reference's WindowSize); a backlog goes in windows of this size",
      },
      {
        name: "Confirmations",
        type: "int",
        default: "12",
        min: 1,
        max: 100_000,
        extension: true,
        doc: "external blocks, the anchor's own included, before the anchor is recorded",
      },
      {
        name: "GasLimit",
        type: "int",
        default: "100000",
        min: 21_000,
        max: 30_000_000,
        extension: true,
        doc: "most gas one anchor transaction may use (a plain anchor uses about 22,000)",
      },
      {
        name: "MaxFeeGwei",
        type: "int",
        default: "0",
        min: 0,
        max: 1_000_000,
        extension: true,
        doc: "most gwei per gas an anchor may pay; 0 = what the chain suggests; above it anchoring waits",
      },
      {
        name: "To",
        type: "string",
        default: "",
        extension: true,
        doc: "0x address the anchor transactions go to (e.g. an anchor contract); empty = the paying account itself",
      },
      {
        name: "ServerECPrivKey",
        type: "string",
        default: "",
        secret: true,
        extension: true,
        doc: "reference field; ignored",
      },
      { name: "ServerPublicKey", type: "string", default: "", extension: true, doc: "reference field; ignored" },
      { name: "AnchorChainID", type: "string", default: "", extension: true, doc: "reference field; ignored" },
      {
        name: "ConfirmationsNeeded",
        type: "int",
        default: "0",
        min: 0,
        max: SAFE,
        extension: true,
        doc: "reference field; ignored",
      },
    ],
  },
];

/** The spec of one field by canonical group and field name (exact case). */
export function fieldSpec(group: GroupName, field: string): FieldSpec {
  const g = GROUPS.find((x) => x.name === group);
  const f = g?.fields.find((x) => x.name === field);
  if (!f) throw new InvariantError(`no field ${group}.${field}`); // programming error: names are constants
  return f;
}

/** Canonical group name for a name written in the file (case-insensitive, as the reference's gcfg). */
export function findGroup(name: string): GroupSpec | undefined {
  const lower = name.toLowerCase();
  return GROUPS.find((g) => g.name.toLowerCase() === lower);
}

/** Field of `group` for a name written in the file (case-insensitive; reference aliases accepted). */
export function findField(group: GroupSpec, name: string): FieldSpec | undefined {
  const lower = name.toLowerCase();
  return group.fields.find(
    (f) => f.name.toLowerCase() === lower || (f.aliases ?? []).some((a) => a.toLowerCase() === lower),
  );
}
