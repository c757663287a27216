// JSON view of an asset block (spec §2.5; reference/api-behavior.md §5.6): the `fblock` member of
// `fblock-by-height` and `asset-block`.
import { toHex } from "../bytes.js";
import { ASSET_CHAIN_ID } from "../chains.js";
import { type AssetBlock, assetBlockHashes, assetBlockTransactions } from "../fblock.js";
import { type AssetTransactionJson, assetTransactionJson, type JsonInteger, jsonInteger } from "./transactionJson.js";

/** The reference node's fblock shape, field order kept. */
export interface AssetBlockJson {
  bodymr: string;
  prevkeymr: string;
  prevledgerkeymr: string;
  exchrate: JsonInteger; // base units per EC in force for this block
  dbheight: number;
  transactions: AssetTransactionJson[]; // body order, [0] = coinbase; blockheight 0 in listings
  chainid: string; // …0f
  keymr: string;
  ledgerkeymr: string;
}

/** The asset block as the API shows it. */
export function assetBlockJson(block: AssetBlock): AssetBlockJson {
  const { keyMR, ledgerKeyMR } = assetBlockHashes(block);
  return {
    bodymr: toHex(block.bodyMR),
    prevkeymr: toHex(block.prevKeyMR),
    prevledgerkeymr: toHex(block.prevLedgerKeyMR),
    exchrate: jsonInteger(block.exchangeRate),
    dbheight: block.dbHeight,
    transactions: assetBlockTransactions(block).map((tx) => assetTransactionJson(tx)),
    chainid: toHex(ASSET_CHAIN_ID),
    keymr: toHex(keyMR),
    ledgerkeymr: toHex(ledgerKeyMR),
  };
}
