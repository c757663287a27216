// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §6.2–6.3.
import type { AdminBlock } from "./ablock.js";
import type { DirectoryBlock } from "./dblock.js";
import type { ECBlock } from "./ecblock.js";
import type { AssetBlock } from "./fblock.js";
import type { NetworkName } from "./network.js";

export interface GenesisBlocks {
  directory: DirectoryBlock;
  admin: AdminBlock;
  ec: ECBlock;
  asset: AssetBlock;
}

/** The height-0 blocks of a network (CUSTOM uses the LOCAL asset block and the configured bootstrap identity). */
export function genesisBlocks(_network: NetworkName, _customName?: string): GenesisBlocks {
  throw new Error("not implemented");
}

/**
 * LOCAL bootstrap server key (32-byte ed25519 seed, hex), identity sha256("FNode0"); signs directory blocks on LOCAL.
 * TODO(protocol): fill with the real value (factomd util/config.go LocalServerPrivKey, private 4c38c72f…d26d,
 * public cc1985cd…e31a) and test that its public key matches.
 */
export const LOCAL_BOOTSTRAP_SEED_HEX: string = "";
/** LOCAL bootstrap identity chain ID = sha256("FNode0") = 38bab145…7be9, hex. */
export const LOCAL_BOOTSTRAP_IDENTITY_HEX: string = "";
