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
import { APP_GROUP } from "./appFields.js";
import { ANCHOR_GROUP, CLUSTER_GROUP } from "./extensionFields.js";
import type { FieldSpec, GroupName, GroupSpec } from "./fieldTypes.js";
import { LEVEL_CHOICES, SAFE } from "./limits.js";

/**
 * Groups the reference node's files may contain and ledgerd has no use for: accepted, contents ignored,
 * so that an existing reference configuration file loads unchanged.
 */
export const IGNORED_GROUPS = ["LiveFeedAPI", "rpc", "wsapi"] as const;

/** The placeholder path of the reference file template: "leave /full/path/to/... in place to use the defaults". */
export const PLACEHOLDER_PATH_PREFIX = "/full/path/to/";

/**
 * Every group of the file, in the order of the `configuration` result: [App] (appFields.ts), the reference's
 * [Peer], [Log], [Wallet] and [Walletd] (here), and ledgerd's own [Cluster] and [Anchor] (extensionFields.ts).
 */
export const GROUPS: readonly GroupSpec[] = [
  APP_GROUP,
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
  CLUSTER_GROUP,
  ANCHOR_GROUP,
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
