/**
 * `ledgerd-cluster set-ec-rate` and `ledgerd-cluster swap` (docs/cluster.md "Maintenance without downtime"):
 * a new entry-credit rate signed by the rate authority, and a brain swap — one identity moved from machine A
 * to machine B at a height, by writing [App] IdentityStopHeight into A's configuration file and
 * [App] IdentityActivationHeight into B's (a running node applies both on reload-configuration or SIGHUP).
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { encodeRecord, signRecord } from "../../src/cluster/records.js";
import { fileString, fileValue, parseIni } from "../../src/config/ini.js";
import { toHex } from "../../src/protocol/bytes.js";

/** LOCAL's rate authority seed: the reference's ExchangeRateAuthorityPublicKeyLocalNet has private key all zeroes. */
export const LOCAL_RATE_AUTHORITY_SEED_HEX = "00".repeat(32);

/** send-raw-message type of a set-ec-rate message (rpc/v2/submit.ts RawMessageType.setEcRate). */
const SET_EC_RATE_RAW_TYPE = 0x19;

/** A signed setEcRate record and its send-raw-message hex. */
export function setEcRateMessage(p: { rate: bigint; activationHeight: number; seed: Uint8Array; network: number }): {
  record: Record<string, string | number>;
  message: string;
} {
  const rec = signRecord(
    { kind: "setEcRate", rate: p.rate, activationHeight: p.activationHeight, signature: new Uint8Array(64) },
    p.network,
    p.seed,
  );
  const bytes = encodeRecord(rec);
  bytes[0] = SET_EC_RATE_RAW_TYPE;
  return {
    record: {
      kind: rec.kind,
      rate: rec.rate.toString(),
      activationHeight: rec.activationHeight,
      signature: toHex(rec.signature),
    },
    message: toHex(bytes),
  };
}

/** A rate an operator typed: base units per entry credit, a whole number above 0. */
export function parseRate(text: string): bigint {
  if (!/^\d{1,20}$/.test(text))
    throw new Error(`--rate: expected base units per entry credit (1…2^64−1), got ${JSON.stringify(text)}`);
  const rate = BigInt(text);
  if (rate === 0n) throw new Error("--rate: 0 would give entry credits away; the rules refuse it");
  if (rate >= 1n << 64n) throw new Error(`--rate: ${text} does not fit in 64 bits`);
  return rate;
}

/**
 * `text` (an INI file) with `[group] field = value` set: the field's line replaced when it is there, else a
 * line added at the end of the group (the group added at the end when missing). Comments and the other lines
 * are kept as written.
 */
export function setIniField(text: string, group: string, field: string, value: string): string {
  const lines = text.split("\n");
  const header = /^\s*\[\s*([A-Za-z][A-Za-z0-9-]*)\s*\]/;
  let inGroup = false;
  let groupEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    const h = header.exec(lines[i]!);
    if (h !== null) {
      if (inGroup) break;
      inGroup = h[1]!.toLowerCase() === group.toLowerCase();
      if (inGroup) groupEnd = i + 1;
      continue;
    }
    if (!inGroup) continue;
    if (new RegExp(`^\\s*${field}\\s*(=|$)`, "i").test(lines[i]!)) {
      lines[i] = `${field} = ${value}`;
      return lines.join("\n");
    }
    if (lines[i]!.trim() !== "") groupEnd = i + 1;
  }
  if (groupEnd < 0) return `${text}${text.endsWith("\n") || text === "" ? "" : "\n"}[${group}]\n${field} = ${value}\n`;
  lines.splice(groupEnd, 0, `${field} = ${value}`);
  return lines.join("\n");
}

/** One side of a swap: its file and the [App] fields written into it. */
export interface SwapSide {
  file: string;
  set: { field: "IdentityStopHeight" | "IdentityActivationHeight"; value: number }[];
}

/**
 * The plan of a brain swap at `height`: A (`from`) stops signing at it, B (`to`) starts at it (its stop height,
 * from an earlier swap the other way, cleared). Both files must name the same identity and signing key, or the
 * swap would hand the identity to a machine that cannot sign for it: refused, naming what differs; refused too
 * when A's own activation height is not before `height` (A would never sign).
 */
export function swapPlan(from: string, to: string, height: number): { identity: string; a: SwapSide; b: SwapSide } {
  const read = (path: string, which: string) => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new Error(`${which} ${path}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const raw = parseIni(text, path).values;
    return {
      identity: fileString(raw, "App", "IdentityChainID").trim().toLowerCase(),
      key: fileString(raw, "App", "LocalServerPrivKey").trim().toLowerCase(),
      from: Number(fileValue(raw, "App", "IdentityActivationHeight") ?? 0),
    };
  };
  const a = read(from, "--from");
  const b = read(to, "--to");
  if (!/^[0-9a-f]{64}$/.test(a.identity)) throw new Error(`--from ${from}: no [App] IdentityChainID`);
  if (a.identity !== b.identity)
    throw new Error(
      `--to ${to}: [App] IdentityChainID is ${b.identity || "empty"}, not the identity of --from (${a.identity})`,
    );
  if (a.key !== b.key)
    throw new Error(
      `--to ${to}: [App] LocalServerPrivKey differs from --from's: the identity's key in force signs for it (rotate-key first to change keys)`,
    );
  if (a.from >= height)
    throw new Error(
      `--from ${from}: its IdentityActivationHeight ${a.from} is not before ${height}: it would never sign`,
    );
  return {
    identity: a.identity,
    a: { file: from, set: [{ field: "IdentityStopHeight", value: height }] },
    b: {
      file: to,
      set: [
        { field: "IdentityActivationHeight", value: height },
        { field: "IdentityStopHeight", value: 0 },
      ],
    },
  };
}

/** Write one side's fields (a temporary file renamed over the old one). */
export function applySwapSide(side: SwapSide): void {
  let text = readFileSync(side.file, "utf8");
  for (const { field, value } of side.set) text = setIniField(text, "App", field, String(value));
  const tmp = `${side.file}.swap.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, side.file);
}
