/**
 * CONTRACT: the effective configuration every module receives (built by config/, consumed by node.ts,
 * rpc/, ledger/). Flags override the INI file, which overrides the defaults.
 */
import type { NetworkName } from "../protocol/network.js";

/** ControlPanelSetting: no panel, a panel that only reads, or one that also sets the network-testing knobs. */
export type ControlPanelSetting = "disabled" | "readonly" | "readwrite";

export type LogLevel = "debug" | "info" | "warning" | "error" | "none";

/** The /debug endpoint: absent (404), read-only methods, or also the state-changing ones. */
export type DebugApiMode = "off" | "readonly" | "readwrite";

/** A CUSTOM network's genesis and bootstrap key (config/customNetwork.ts), hex and decimal strings. */
export interface CustomNetworkSettings {
  /** bootstrap identity chain ID, 64 hex */
  identityChainIdHex: string;
  /** this node's ed25519 seed (secret), 64 hex: signs the blocks */
  signingSeedHex: string;
  /** its public key (= CustomBootstrapKey), 64 hex */
  publicKeyHex: string;
  /** the genesis coinbase's outputs: RCD hash (64 hex) → base units (decimal string) */
  allocations: { addressHex: string; amount: string }[];
}

export interface NodeConfig {
  network: NetworkName;
  /** name hashed into the CUSTOM network id */
  customNet: string;
  /** CUSTOM only: the operator's genesis and bootstrap key (absent on other networks) */
  custom?: CustomNetworkSettings;
  /** JSON-RPC port (default 8088) */
  port: number;
  /** interface to listen on (default "127.0.0.1"; another address needs credentials or insecureNoAuth) */
  listenHost: string;
  /** -insecure-noauth: serve a non-loopback listenHost without credentials */
  insecureNoAuth: boolean;
  /** -httpfront: a node:net front answers requests uWebSockets.js would drop (rpc/httpFront.ts) */
  httpFront: boolean;
  /** the /debug endpoint (default: off on MAIN, readonly elsewhere) */
  debugApi: DebugApiMode;
  /** Basic credentials that callers off loopback need for the state-changing /debug methods (both empty = none) */
  debugRpcUser: string;
  debugRpcPass: string;
  /** the control panel (src/panel/): port (default 8090), interface (default loopback), what it may change */
  controlPanel: { port: number; host: string; setting: ControlPanelSetting };
  /** data directory (default ~/.ledgerd); LMDB lives in `${homeDir}/${network lowercase}/db` */
  homeDir: string;
  /** path of the INI file actually read ("" when none) */
  configFile: string;
  /** seconds per directory block (LOCAL default 6; a minute is blockTimeSeconds / 10) */
  blockTimeSeconds: number;
  /** keep a human-readable message journal for /debug `messages` */
  journaling: boolean;
  /** Basic auth; both empty = no auth */
  rpcUser: string;
  rpcPass: string;
  /** where rpcPass came from (config/secrets.ts): a password on the command line is warned about */
  rpcPassSource: "command line" | "password file" | "environment" | "configuration file" | "none";
  /** the password file the RPC password was read from (-rpcpassfile, NodeRpcPassFile), for its mode warning */
  rpcPassFile?: string;
  tls: { enabled: boolean; keyFile: string; certFile: string };
  /** extra subject alternative names for the generated TLS certificate (-selfaddr) */
  selfAddrs: string[];
  /** NodeLocation host from the Walletd group (also a SAN of the generated certificate) */
  nodeLocation: string;
  /** largest accepted HTTP body, bytes (default 1 MiB) */
  maxBodyBytes: number;
  /** largest JSON-RPC batch, requests (default 100) */
  maxBatch: number;
  /** MiB kept free on the data directory's disk: writes are refused below it (default 64, least 1) */
  minFreeDiskMB: number;
  /**
   * brain swap (docs/cluster.md "Maintenance without downtime"): the heights at which this server signs for its
   * identity — from `fromHeight` (0: always) until before `untilHeight` (0: never stops); live on reload
   */
  signingWindow: { fromHeight: number; untilHeight: number };
  /** port of the separate /metrics + /health listener; 0 = none (both are on the API port anyway) */
  metricsPort: number;
  /** CORS allowed origins ("" = no CORS headers, "*" = any); also the only foreign Origins let in (rpc/requestOrigin.ts) */
  corsDomains: string[];
  /** Host names requests may carry besides loopback, IP literals, selfAddrs and nodeLocation ("*" = any) */
  allowedHosts: string[];
  logLevel: LogLevel;
  consoleLogLevel: LogLevel;
  /** network-testing knobs (debug API): drop N per mille of submitted messages; delay each by N ms */
  dropRatePerMille: number;
  delayMs: number;
  /** signature verification: worker threads (0 = verify in the main thread) */
  verifyThreads: number;
  /**
   * keep the query index (store/queryIndex.ts; -queryindex, [App] QueryIndex): false = block saves skip it, the
   * query extensions and the live feed's filters answer -32000; turned on again, it is rebuilt from where it stopped
   */
  queryIndex: boolean;
  /** cluster mode ([Cluster], docs/cluster.md); natsUrls empty = the single node */
  cluster: ClusterConfig;
  /** anchoring into an Ethereum-compatible chain ([Anchor], -anchorrpc, -anchorkey; docs/anchoring.md) */
  anchor: AnchorConfig;
  /** the raw INI values by group → field, for the `configuration` debug method (secrets included; redact before output) */
  file: Record<string, Record<string, string>>;
}

/** [Anchor] settings. The node anchors when rpcUrl is set; every node reads the anchor chain. */
export interface AnchorConfig {
  /** "" = this node does not anchor */
  rpcUrl: string;
  /** absolute path of the Ethereum key file ("" when not anchoring) */
  keyFile: string;
  /** absolute path of the entry credit key file ("" when not anchoring) */
  ecKeyFile: string;
  chainId: number;
  /** directory blocks */
  intervalBlocks: number;
  /** directory blocks */
  maxWindow: number;
  /** external blocks */
  confirmations: number;
  /** gas */
  gasLimit: number;
  /** gwei per gas; 0 = no cap */
  maxFeeGwei: number;
  /** 0x address, lowercase; "" = the paying account */
  to: string;
  /** [App] EthereumAnchorRecordPublicKeys, hex; empty = the defaults (docs/anchoring.md) */
  recordPublicKeys: string[];
}

export type ClusterRole = "federated" | "audit" | "follower";

export interface ClusterConfig {
  /** NATS client URLs; empty = no cluster (the single node) */
  natsUrls: string[];
  role: ClusterRole;
  /** replicas of the log stream when this node creates it */
  replicas: number;
  /** seconds */
  faultTimeoutSeconds: number;
  /** seconds */
  roundTimeoutSeconds: number;
  /** [Cluster] SnapshotInterval: blocks between certified snapshots; 0 = none (docs/cluster.md §1.13) */
  snapshotInterval: number;
  /** [App] IdentityChainID (64 hex; "" = none) */
  identityChainId: string;
  /** [App] LocalServerPrivKey (64 hex seed) and LocalServerPublicKey (64 hex) */
  serverPrivKey: string;
  serverPublicKey: string;
  /** [App] LocalServerNextPrivKey (64 hex seed; "" = none): the key of a scheduled rotation */
  serverNextPrivKey: string;
  /** [Cluster] NatsUser / NatsPassword ("" = none) */
  natsUser: string;
  natsPassword: string;
  /** [Cluster] NatsTlsCA / NatsTlsCert / NatsTlsKey, absolute paths; undefined = no TLS to NATS */
  natsTls: { caFile?: string; certFile?: string; keyFile?: string } | undefined;
}
