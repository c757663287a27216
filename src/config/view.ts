/**
 * The result of the debug method `configuration` (and `reload-configuration`): groups App, Peer, Log,
 * Wallet, Walletd with exactly the fields of spec §4.2.1, typed as listed there, holding the values in
 * effect. Unlike the reference node, secrets never leave in clear (docs/reference/README.md, Precedence 3).
 */

import { GROUPS } from "./fields.js";
import type { GroupName } from "./fieldTypes.js";
import { type FieldValue, fileValue } from "./ini.js";
import { LOG_LEVEL_WORDS } from "./limits.js";
import type { LogLevel, NodeConfig } from "./types.js";

/** What a secret reads as in the result; an empty secret stays "" so that "not set" remains visible. */
export const REDACTED = "<redacted>";

/** Fields of spec §4.2.1 whose value is secret. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  "App.LocalServerPrivKey",
  "App.LocalServerNextPrivKey",
  "App.NodeRpcPass",
  "Walletd.WalletRpcPass",
]);

/** Exchange-rate authority of each network whose key the reference picks by network (CUSTOM: the file's value). */
const AUTHORITY_FIELD: Readonly<Partial<Record<string, string>>> = {
  MAIN: "ExchangeRateAuthorityPublicKeyMainNet",
  TEST: "ExchangeRateAuthorityPublicKeyTestNet",
  LOCAL: "ExchangeRateAuthorityPublicKeyLocalNet",
};

function redact(value: string): string {
  return value === "" ? "" : REDACTED;
}

/** The file's level word when it means the effective level ("standard" stays "standard"), else the level. */
function levelWord(config: NodeConfig, field: "LogLevel" | "ConsoleLogLevel", effective: LogLevel): string {
  const word = (fileValue(config.file, "Log", field) as string).trim();
  return LOG_LEVEL_WORDS[word.toLowerCase()] === effective ? word : effective;
}

/** Values that come from the effective settings rather than from the file (flags may have changed them). */
function effective(config: NodeConfig, group: GroupName, field: string): FieldValue | undefined {
  switch (`${group}.${field}`) {
    case "App.PortNumber":
      return config.port;
    case "App.ControlPanelPort":
      return config.controlPanel.port;
    case "App.ControlPanelSetting":
      return config.controlPanel.setting;
    case "App.HomeDir":
      return config.homeDir;
    case "App.DirectoryBlockInSeconds":
      return config.blockTimeSeconds;
    case "App.Network":
      return config.network;
    case "App.ExchangeRateAuthorityPublicKey": {
      const source = AUTHORITY_FIELD[config.network];
      return source === undefined ? undefined : fileValue(config.file, "App", source);
    }
    case "App.NodeTlsEnabled":
      return config.tls.enabled;
    case "App.NodeTlsPrivateKey":
      return config.tls.keyFile;
    case "App.NodeTlsPublicCert":
      return config.tls.certFile;
    case "App.NodeRpcUser":
      return config.rpcUser;
    case "App.NodeRpcPass":
      return config.rpcPass;
    case "Log.LogLevel":
      return levelWord(config, "LogLevel", config.logLevel);
    case "Log.ConsoleLogLevel":
      return levelWord(config, "ConsoleLogLevel", config.consoleLogLevel);
    default:
      return undefined;
  }
}

/**
 * The `configuration` result for `config`: `{App: {...}, Peer: {...}, Log: {...}, Wallet: {...},
 * Walletd: {...}}`, fields in spec order; integers as numbers, booleans as booleans, lists as arrays or
 * null when unset; LocalServerPrivKey, NodeRpcPass and WalletRpcPass as "<redacted>" (or "" when empty).
 */
export function configurationView(config: NodeConfig): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const group of GROUPS) {
    // a group of ledgerd's own fields only ([Cluster], [Anchor]) is not part of the reference's result
    if (group.fields.every((f) => f.extension)) continue;
    const fields: Record<string, unknown> = {};
    for (const spec of group.fields) {
      if (spec.extension) continue;
      let value = effective(config, group.name, spec.name);
      if (value === undefined) value = fileValue(config.file, group.name, spec.name);
      if (SECRET_FIELDS.has(`${group.name}.${spec.name}`)) value = redact(String(value));
      fields[spec.name] = value;
    }
    out[group.name] = fields;
  }
  return out;
}
