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
import { bytesEqual, fromHex, toHex } from "../protocol/bytes.js";
import { directoryBlockHashes } from "../protocol/dblock.js";
import { AuthoritySet, type AuthoritySnapshot } from "./authorities.js";
import type { FederatedLedger, FederationLogger } from "./federationTypes.js";

/** File name inside the node's data directory. */
export const AUTHORITY_FILE_NAME = "cluster-authorities.json";
/** 2: the snapshot holds pending signing keys (08 in force from its activation height, issue 33) */
const FORMAT = 2;

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

/**
 * The authority set of a node's saved blocks, kept in its file (when there is one) and rebuilt from the saved
 * admin blocks when the file cannot be used.
 */
export class AuthorityKeeper {
  constructor(
    private readonly options: { file?: string; bootstrap: { identity: Uint8Array; publicKey: Uint8Array } },
    private readonly deps: {
      ledger: Pick<FederatedLedger, "directoryBlockByHeight" | "adminEntries">;
      logger: FederationLogger;
    },
  ) {}

  /**
   * The set folded through admin block `openHeight − 1`: from the file when it belongs to this chain, folding
   * in only the admin blocks saved after it; else from every saved admin block (and the file written anew).
   */
  load(openHeight: number): AuthoritySet {
    let set = new AuthoritySet(this.options.bootstrap);
    let from = 0;
    const file = this.options.file;
    const saved = file === undefined ? undefined : loadAuthorities(file, this.options.bootstrap);
    if (saved !== undefined && "reason" in saved) {
      this.deps.logger.warn("authority file not used; rebuilding from the admin blocks", {
        file,
        reason: saved.reason,
      });
    } else if (saved !== undefined) {
      const block = saved.through < openHeight ? this.deps.ledger.directoryBlockByHeight(saved.through) : undefined;
      if (block !== undefined && bytesEqual(directoryBlockHashes(block.block).keyMR, saved.keyMR)) {
        set = saved.set;
        from = saved.through + 1;
      } else
        this.deps.logger.warn("authority file belongs to other blocks; rebuilding from the admin blocks", {
          file,
          height: saved.through,
        });
    }
    for (let h = from; h < openHeight; h++) set.applyAdminBlock(h, this.deps.ledger.adminEntries(h));
    this.deps.logger.debug("authority set loaded", { fromFile: from > 0, adminBlocksRead: openHeight - from });
    if (from < openHeight) this.save(openHeight - 1, set);
    return set;
  }

  /** Keep `set`, as folded through admin block `through` (the last saved), beside the blocks. */
  save(through: number, set: AuthoritySet): void {
    const file = this.options.file;
    if (file === undefined) return;
    const block = this.deps.ledger.directoryBlockByHeight(through);
    if (block === undefined) return;
    try {
      saveAuthorities(file, through, directoryBlockHashes(block.block).keyMR, set);
    } catch (e) {
      // a cache: the next start rebuilds from the admin blocks
      this.deps.logger.warn("authority file not written", { file, error: e instanceof Error ? e.message : String(e) });
    }
  }
}
