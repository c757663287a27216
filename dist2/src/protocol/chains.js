/** Reserved chain IDs (wire-format §0.6): 31 zero bytes then the last byte. */
function reserved(last) {
    const id = new Uint8Array(32);
    id[31] = last;
    return id;
}
export const ADMIN_CHAIN_ID = reserved(0x0a);
export const EC_CHAIN_ID = reserved(0x0c);
export const DIRECTORY_CHAIN_ID = reserved(0x0d);
export const ASSET_CHAIN_ID = reserved(0x0f);
//# sourceMappingURL=chains.js.map