/**
 * The identity and key that sign the blocks a standalone node produces, the check that a data directory
 * holds the genesis its configuration describes, and the chain tip its last saved block gives. LOCAL signs with its reference bootstrap key (so its blocks
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
import { type BlockSigner, type ChainTip, tipFromSavedRaw } from "./blockBuilder.js";

/** The signer of `bootstrap`, or LOCAL's reference bootstrap identity and key when none is given. */
export function bootstrapSigner(bootstrap?: { identityChainId: Uint8Array; seed: Uint8Array }): BlockSigner {
  // Stryker disable next-line StringLiteral: the name is shown only for malformed hex; this constant is valid
  const seed = bootstrap?.seed ?? fromHex(LOCAL_BOOTSTRAP_SEED_HEX, "LOCAL_BOOTSTRAP_SEED_HEX", 32);
  return {
    seed,
    publicKey: publicKeyFromSeed(seed),
    identityChainId:
      // Stryker disable next-line StringLiteral: the name is shown only for malformed hex; this constant is valid
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

/** The tip of the chain at the saved `height`: its directory, admin, EC and asset blocks, from the store. */
export function loadTip(store: Pick<LedgerStore, "blockHashAt" | "block" | "path">, height: number): ChainTip {
  const raw = (kind: BlockKind): Uint8Array => {
    const hash = store.blockHashAt(kind, height);
    const block = hash && store.block(hash);
    if (!block)
      throw new StoreError({
        code: "CORRUPT",
        path: store.path,
        info: `no block of kind ${kind} at the saved height ${height}`,
      });
    return block.raw;
  };
  return tipFromSavedRaw({
    directory: raw(BlockKind.directory),
    admin: raw(BlockKind.admin),
    ec: raw(BlockKind.ec),
    asset: raw(BlockKind.asset),
  });
}
