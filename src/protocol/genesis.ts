// Genesis (height 0) blocks: wire-format §6.2–6.3 (factomd state/loadDatabase.go GenerateGenesisBlocks,
// common/factoid/genesisBlockNew.go, util/config.go).
import { type AdminBlock, type AdminEntry, adminBlockHashes } from "./ablock.js";
import { fromHex, toHex, ZERO_HASH } from "./bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "./chains.js";
import { buildDirectoryBlock, type DirectoryBlock } from "./dblock.js";
import { buildECBlock, type ECBlock, type ECBlockItem, ecBlockHashes } from "./ecblock.js";
import { ProtocolError } from "./errors.js";
import {
  type AssetBlock,
  assetBlockHashes,
  assetBlockTransactions,
  buildAssetBlock,
  decodeAssetBlock,
  PERIOD_COUNT,
} from "./fblock.js";
import {
  LOCAL_GENESIS_ASSET_BLOCK_HEX,
  MAIN_GENESIS_ASSET_BLOCK_HEX,
  TEST_GENESIS_ASSET_BLOCK_HEX,
} from "./genesis/data.js";
import { type NetworkName, networkId } from "./network.js";
import {
  AMOUNT_LIMIT,
  decodeTransaction,
  encodeTransaction,
  MAX_IO_COUNT,
  TRANSACTION_VERSION,
  type Transaction,
} from "./transaction.js";

/** The four blocks of height 0 (no entry blocks at genesis). */
export interface GenesisBlocks {
  directory: DirectoryBlock;
  admin: AdminBlock;
  ec: ECBlock;
  asset: AssetBlock;
}

/** Genesis directory block timestamp, MINUTES since epoch (= 2015-09-01 20:00 UTC, 1441137600 s). */
export const GENESIS_TIMESTAMP_MINUTES = 24018960;

/** Activation height of the bootstrap federated server added by the genesis admin block (AddFedServer). */
const BOOTSTRAP_ACTIVATION_HEIGHT = 1;

/**
 * LOCAL bootstrap server key (32-byte ed25519 seed, hex), identity sha256("FNode0"); signs directory blocks on LOCAL.
 * factomd util/config.go LocalServerPrivKey; its public key is LocalServerPublicKey cc1985cd…e31a (tested).
 */
export const LOCAL_BOOTSTRAP_SEED_HEX: string = "4c38c72fc5cdad68f13b74674d3ffb1f3d63a112710868c9b08946553448d26d";
/** LOCAL bootstrap identity chain ID = sha256("FNode0") = 38bab145…7be9, hex (factomd's default CustomBootstrapIdentity
 *  too, which a CUSTOM network here refuses). */
export const LOCAL_BOOTSTRAP_IDENTITY_HEX: string = "38bab1455b7bd7e5efd15c53c777c79d0c988e9210f1da49a99d95b3a6417be9";
// The LOCAL and MAIN bootstrap public keys live in bootstrapKeys.ts (the in-browser proof verifier loads them).
export { LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX, MAIN_BOOTSTRAP_PUBLIC_KEY_HEX } from "./bootstrapKeys.js";

/**
 * A CUSTOM network's own genesis, from its operator's configuration: the bootstrap identity the genesis admin
 * block names, and the allocation its coinbase pays (CUSTOM never reuses LOCAL's block, whose supply sits on an
 * address with a published private key).
 */
export interface CustomGenesis {
  /** bootstrap identity chain ID, 32 bytes */
  identityChainId: Uint8Array;
  /** genesis outputs: RCD hash (the 32 bytes of an FA address) → base units */
  allocations: readonly { address: Uint8Array; amount: bigint }[];
}

/** Exchange rate of a CUSTOM genesis, base units per entry credit (LOCAL's). */
const CUSTOM_GENESIS_EXCHANGE_RATE = 1000n;

/** The genesis asset block of MAIN, TEST or LOCAL, decoded from its fixed bytes. */
export function genesisAssetBlock(network: NetworkName): AssetBlock {
  if (network === "CUSTOM")
    throw new ProtocolError("BAD_VALUE", "network", "a CUSTOM genesis asset block comes from customGenesisAssetBlock");
  const hex =
    network === "MAIN"
      ? MAIN_GENESIS_ASSET_BLOCK_HEX
      : network === "TEST"
        ? TEST_GENESIS_ASSET_BLOCK_HEX
        : LOCAL_GENESIS_ASSET_BLOCK_HEX;
  return decodeAssetBlock(fromHex(hex, "genesisAssetBlock"));
}

/**
 * A CUSTOM network's genesis asset block: one coinbase at the genesis time paying `allocations` (at most
 * 255 outputs, each and their sum below 2^63 base units), LOCAL's exchange rate.
 */
export function customGenesisAssetBlock(allocations: CustomGenesis["allocations"]): AssetBlock {
  if (allocations.length > MAX_IO_COUNT)
    throw new ProtocolError("BAD_VALUE", "allocations", `at most ${MAX_IO_COUNT} outputs, got ${allocations.length}`);
  let total = 0n;
  for (const a of allocations) {
    if (a.address.length !== 32) throw new ProtocolError("BAD_LENGTH", "allocations.address", "expected 32 bytes");
    total += a.amount;
  }
  if (total >= AMOUNT_LIMIT)
    throw new ProtocolError("BAD_VALUE", "allocations", `the total ${total} is not below 2^63 base units`);
  const raw = encodeTransaction({
    version: TRANSACTION_VERSION,
    milliTimestamp: GENESIS_TIMESTAMP_MINUTES * 60_000,
    inputs: [],
    outputs: allocations.map((a) => ({ address: a.address.slice(), amount: a.amount })),
    ecOutputs: [],
    rcds: [],
    signatures: [],
  });
  const periods: Transaction[][] = Array.from({ length: PERIOD_COUNT }, () => []);
  periods[0]!.push(decodeTransaction(raw));
  return buildAssetBlock({
    prevKeyMR: ZERO_HASH.slice(),
    prevLedgerKeyMR: ZERO_HASH.slice(),
    exchangeRate: CUSTOM_GENESIS_EXCHANGE_RATE,
    dbHeight: 0,
    headerExpansion: new Uint8Array(0),
    periods,
  });
}

/** Every address LOCAL's genesis pays (their keys are public: a CUSTOM network must not reuse them), hex. */
export function localGenesisAddressesHex(): Set<string> {
  const out = new Set<string>();
  for (const tx of assetBlockTransactions(genesisAssetBlock("LOCAL")))
    for (const o of tx.outputs) out.add(toHex(o.address));
  return out;
}

/** MAIN: server index 0 then minutes 1..10 (the M1 layout); every other network: empty. */
function genesisECItems(network: NetworkName): ECBlockItem[] {
  if (network !== "MAIN") return [];
  const items: ECBlockItem[] = [{ type: "serverIndex", number: 0 }];
  for (let m = 1; m <= 10; m++) items.push({ type: "minute", number: m });
  return items;
}

/** MAIN: no entries; TEST: fed server = zero hash; LOCAL: sha256("FNode0"); CUSTOM: the configured bootstrap identity. */
function genesisAdminEntries(network: NetworkName, custom: CustomGenesis | undefined): AdminEntry[] {
  let identity: Uint8Array;
  switch (network) {
    case "MAIN":
      return [];
    case "TEST":
      identity = ZERO_HASH;
      break;
    case "LOCAL":
      identity = fromHex(LOCAL_BOOTSTRAP_IDENTITY_HEX);
      break;
    case "CUSTOM":
      identity = requireCustom(custom).identityChainId;
      if (identity.length !== 32)
        throw new ProtocolError("BAD_LENGTH", "customGenesis.identityChainId", "expected 32 bytes");
      break;
  }
  return [{ type: 0x05, identityChainId: identity.slice(), dbHeight: BOOTSTRAP_ACTIVATION_HEIGHT }];
}

function requireCustom(custom: CustomGenesis | undefined): CustomGenesis {
  if (custom === undefined)
    throw new ProtocolError(
      "BAD_VALUE",
      "customGenesis",
      "a CUSTOM network needs its own genesis (bootstrap identity and allocations)",
    );
  return custom;
}

/**
 * The height-0 blocks of a network. MAIN, TEST and LOCAL: the reference blocks, byte for byte. CUSTOM: its
 * operator's genesis (`custom`, required): the bootstrap identity and a coinbase paying the allocations.
 */
export function genesisBlocks(network: NetworkName, customName?: string, custom?: CustomGenesis): GenesisBlocks {
  const id = networkId(network, customName);
  const admin: AdminBlock = {
    prevBackRefHash: ZERO_HASH.slice(),
    dbHeight: 0,
    headerExpansion: new Uint8Array(0),
    entries: genesisAdminEntries(network, custom),
  };
  const ec = buildECBlock({
    prevHeaderHash: ZERO_HASH.slice(),
    prevFullHash: ZERO_HASH.slice(),
    dbHeight: 0,
    headerExpansion: new Uint8Array(0),
    items: genesisECItems(network),
  });
  const asset =
    network === "CUSTOM" ? customGenesisAssetBlock(requireCustom(custom).allocations) : genesisAssetBlock(network);
  const directory = buildDirectoryBlock({
    version: 0,
    networkId: id,
    prevKeyMR: ZERO_HASH.slice(),
    prevFullHash: ZERO_HASH.slice(),
    timestamp: GENESIS_TIMESTAMP_MINUTES,
    dbHeight: 0,
    entries: [
      { chainId: ADMIN_CHAIN_ID.slice(), keyMR: adminBlockHashes(admin).lookupHash },
      { chainId: EC_CHAIN_ID.slice(), keyMR: ecBlockHashes(ec).headerHash },
      { chainId: ASSET_CHAIN_ID.slice(), keyMR: assetBlockHashes(asset).keyMR },
    ],
  });
  return { directory, admin, ec, asset };
}
