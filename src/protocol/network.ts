// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §6.1.
export const NETWORK_NAMES = ["MAIN", "TEST", "LOCAL", "CUSTOM"] as const;
export type NetworkName = (typeof NETWORK_NAMES)[number];

/** MAIN 0xFA92E5A2, TEST 0xFA92E5A3, LOCAL 0xFA92E5A4, CUSTOM first 4 bytes of sha256(customName) as u32 BE. */
export function networkId(_network: NetworkName, _customName?: string): number {
  throw new Error("not implemented");
}
