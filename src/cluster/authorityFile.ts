/**
 * The authority set kept beside the saved blocks, so a start is O(1) in the height (docs/cluster.md §1.5):
 * after each saved block the federation writes the set as folded through that block, with the block's
 * keyMR; a start takes the file when that keyMR is the one of the saved block of that height, and folds in
 * only the admin blocks saved after it (none after a clean stop, a few after a crash between the block's
 * save and the file's). A missing, damaged or foreign file costs one rebuild from the admin blocks, never
 * a wrong set: the file is a cache of what the chain says.
 *
 * Written as a temporary file renamed over the old one (a crash leaves the old or the new file, whole).
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { fromHex, toHex } from "../protocol/bytes.js";
import { AuthoritySet, type AuthoritySnapshot } from "./authorities.js";

/** File name inside the node's data directory. */
export const AUTHORITY_FILE_NAME = "cluster-authorities.json";
const FORMAT = 1;

/** A set read back from the file: the admin blocks 0…through are folded in; `keyMR` is directory block `through`'s. */
export interface SavedAuthorities {
  through: number;
  keyMR: Uint8Array;
  set: AuthoritySet;
}

/** Write the set as folded through the admin block of `through` (directory block keyMR `keyMR`). */
export function saveAuthorities(path: string, through: number, keyMR: Uint8Array, set: AuthoritySet): void {
  const body = JSON.stringify({ format: FORMAT, through, keyMR: toHex(keyMR), set: set.snapshot() });
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, body, { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * Read the file. Undefined when it is missing; `{ reason }` when it cannot be used (damaged, another format):
 * the caller rebuilds from the admin blocks.
 */
export function loadAuthorities(
  path: string,
  bootstrap: { identity: Uint8Array; publicKey: Uint8Array },
): SavedAuthorities | { reason: string } | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { reason: e instanceof Error ? e.message : String(e) };
  }
  try {
    const j = JSON.parse(text) as { format?: unknown; through?: unknown; keyMR?: unknown; set?: AuthoritySnapshot };
    if (j.format !== FORMAT) return { reason: `format ${String(j.format)}, expected ${FORMAT}` };
    if (!Number.isSafeInteger(j.through) || (j.through as number) < 0) return { reason: "no height" };
    if (typeof j.keyMR !== "string" || j.set === undefined) return { reason: "no keyMR or set" };
    return {
      through: j.through as number,
      keyMR: fromHex(j.keyMR, "keyMR", 32),
      set: AuthoritySet.restore(bootstrap, j.set),
    };
  } catch (e) {
    return { reason: e instanceof Error ? e.message : String(e) };
  }
}
