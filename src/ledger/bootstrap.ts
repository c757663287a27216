/**
 * The identity and key that sign the blocks a standalone node produces, and the check that a data directory
 * holds the genesis its configuration describes. LOCAL signs with its reference bootstrap key (so its blocks
 * stay byte-identical to the reference's); a CUSTOM network with its operator's key (config/customNetwork.ts).
 */
import { publicKeyFromSeed } from "../crypto/ed25519.js";
import { fromHex, toHex } from "../protocol/bytes.js";
import { directoryBlockHashes } from "../protocol/dblock.js";
import { type GenesisBlocks, LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_SEED_HEX } from "../protocol/genesis.js";
import type { NetworkName } from "../protocol/network.js";
import { StoreError } from "../store/errors.js";
import { BlockKind } from "../store/keys.js";
import type { LedgerStore } from "../store/store.js";
import type { BlockSigner } from "./blockBuilder.js";

/** The signer of `bootstrap`, or LOCAL's reference bootstrap identity and key when none is given. */
export function bootstrapSigner(bootstrap?: { identityChainId: Uint8Array; seed: Uint8Array }): BlockSigner {
  const seed = bootstrap?.seed ?? fromHex(LOCAL_BOOTSTRAP_SEED_HEX, "LOCAL_BOOTSTRAP_SEED_HEX", 32);
  return {
    seed,
    publicKey: publicKeyFromSeed(seed),
    identityChainId:
      bootstrap?.identityChainId ?? fromHex(LOCAL_BOOTSTRAP_IDENTITY_HEX, "LOCAL_BOOTSTRAP_IDENTITY_HEX", 32),
  };
}

/**
 * A CUSTOM network's genesis comes from configuration, which can change after the data directory was made:
 * refuse a directory whose saved genesis is not the configured one (other networks' genesis is fixed).
 */
export function assertSameGenesis(
  store: Pick<LedgerStore, "blockHashAt" | "path">,
  genesis: GenesisBlocks,
  network: NetworkName,
): void {
  if (network !== "CUSTOM") return;
  const saved = store.blockHashAt(BlockKind.directory, 0);
  const configured = directoryBlockHashes(genesis.directory).keyMR;
  if (saved !== undefined && toHex(saved) !== toHex(configured))
    throw new StoreError({
      code: "GENESIS_MISMATCH",
      path: store.path,
      info:
        `${store.path} holds a CUSTOM network whose genesis block ${toHex(saved)} is not the configured one ` +
        `(${toHex(configured)}): the bootstrap identity or the genesis allocation changed since the directory ` +
        "was created; restore the configuration it was made with, or use another directory",
    });
}
