// JSON view of an asset block (spec §2.5; reference/api-behavior.md §5.6): the `fblock` member of
// `fblock-by-height` and `asset-block`.
import { toHex } from "../bytes.js";
import { ASSET_CHAIN_ID } from "../chains.js";
import { assetBlockHashes, assetBlockTransactions } from "../fblock.js";
import { assetTransactionJson, jsonInteger } from "./transactionJson.js";
/** The asset block as the API shows it. */
export function assetBlockJson(block) {
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
//# sourceMappingURL=assetBlockJson.js.map