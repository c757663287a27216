/**
 * Where the RPC password comes from, and warnings about secrets that others can read (issue 19 item 9).
 *
 * The password may come from, first found wins: `-rpcpass` (visible to every user of the machine in `ps`:
 * warned), `-rpcpassfile=FILE`, the environment variable LEDGERD_RPC_PASS, `[App] NodeRpcPassFile`, or
 * `[App] NodeRpcPass`. A password file holds the password on its first line (a final newline is dropped).
 */
import { readFileSync, statSync } from "node:fs";
import { ConfigError } from "./errors.js";
import { fileString, type RawFile } from "./ini.js";
import type { NodeConfig } from "./types.js";

/** Environment variable that may hold the RPC password. */
export const RPC_PASS_ENV = "LEDGERD_RPC_PASS";

/** Secret fields of the configuration file (a world-readable file holding one of them is warned about). */
const SECRET_FILE_FIELDS = [
  "NodeRpcPass",
  "DebugRpcPass",
  "LocalServerPrivKey",
  "WalletRpcPass",
  "NatsPassword",
] as const;
/** Group of each secret field. */
const SECRET_GROUP: Record<(typeof SECRET_FILE_FIELDS)[number], "App" | "Walletd" | "Cluster"> = {
  NodeRpcPass: "App",
  DebugRpcPass: "App",
  LocalServerPrivKey: "App",
  WalletRpcPass: "Walletd",
  // the NATS credential of a cluster node (security review 3, M1/L4: a 0644 follower configuration holding it
  // started without a word)
  NatsPassword: "Cluster",
};

/** Read a password file: its first line, without the line end. */
export function readPasswordFile(path: string, field: string): string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new ConfigError(
      `${field}: cannot read the password file ${path}: ${(e as NodeJS.ErrnoException).code ?? "error"}`,
      {
        field,
      },
    );
  }
  const first = text.split(/\r?\n/, 1)[0] ?? "";
  if (first === "") throw new ConfigError(`${field}: the password file ${path} is empty`, { field });
  return first;
}

/**
 * The RPC password and where it came from.
 * @param flagPass -rpcpass; @param flagFile -rpcpassfile
 */
export function rpcPassword(
  flagPass: string | undefined,
  flagFile: string | undefined,
  env: NodeJS.ProcessEnv,
  raw: RawFile,
): { pass: string; source: NodeConfig["rpcPassSource"]; file?: string } {
  if (flagPass !== undefined) return { pass: flagPass, source: "command line" };
  if (flagFile !== undefined)
    return { pass: readPasswordFile(flagFile, "-rpcpassfile"), source: "password file", file: flagFile };
  const fromEnv = env[RPC_PASS_ENV];
  if (fromEnv !== undefined && fromEnv !== "") return { pass: fromEnv, source: "environment" };
  const file = fileString(raw, "App", "NodeRpcPassFile").trim();
  if (file !== "") return { pass: readPasswordFile(file, "App.NodeRpcPassFile"), source: "password file", file };
  const inConfig = fileString(raw, "App", "NodeRpcPass");
  return { pass: inConfig, source: inConfig === "" ? "none" : "configuration file" };
}

/** Warnings about how the secrets of `config` are kept (logged at start). */
export function secretWarnings(config: NodeConfig): string[] {
  const out: string[] = [];
  if (config.rpcPassSource === "command line")
    out.push(
      "-rpcpass puts the API password on the command line, where every user of this machine can read it (ps); " +
        `use -rpcpassfile=FILE or the environment variable ${RPC_PASS_ENV}`,
    );
  if (config.rpcPassFile !== undefined) {
    try {
      const mode = statSync(config.rpcPassFile).mode & 0o777;
      if ((mode & 0o077) !== 0)
        out.push(
          `the password file ${config.rpcPassFile} is readable by other users (mode ` +
            `${mode.toString(8).padStart(4, "0")}): chmod 600 it`,
        );
    } catch {
      // the file went away since it was read; nothing to say about its mode
    }
  }
  if (config.configFile !== "") {
    const held = SECRET_FILE_FIELDS.filter((f) => (config.file[SECRET_GROUP[f]]?.[f] ?? "").trim() !== "");
    if (held.length > 0) {
      try {
        const mode = statSync(config.configFile).mode & 0o777;
        if ((mode & 0o077) !== 0)
          out.push(
            `${config.configFile} holds ${held.join(", ")} and is readable by other users (mode ` +
              `${mode.toString(8).padStart(4, "0")}): chmod 600 it`,
          );
      } catch {
        // the file went away since it was read; nothing to say about its mode
      }
    }
  }
  return out;
}
