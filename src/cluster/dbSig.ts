/**
 * Directory-block signatures (FEDERATION.md §1.2, wire-format §5.2–5.3): admin block h carries type-01
 * entries, each a federated server's ed25519 signature over the 113-byte header of directory block h−1,
 * in the reference's order (by the signer's minute-0 VM index at h), and at least a majority of the
 * federated servers of h must have signed.
 */
import { signEd25519, verifyEd25519 } from "../crypto/ed25519.js";
import { InvariantError } from "../errors.js";
import type { AdminEntry } from "../protocol/ablock.js";
import { bytesEqual, compareBytes } from "../protocol/bytes.js";
import { type DirectoryBlock, encodeDirectoryBlockHeader } from "../protocol/dblock.js";

/** One collected signature of the open height. */
export interface DbSignature {
  identity: Uint8Array;
  publicKey: Uint8Array;
  signature: Uint8Array;
}

/** Signatures needed out of `federated` servers: ⌊N/2⌋+1 (factomd FixupLinks). */
export function majority(federated: number): number {
  return Math.floor(federated / 2) + 1;
}

/** Sign directory block `previous` (the block before the one whose admin block carries it). */
export function signDirectoryBlock(seed: Uint8Array, previous: DirectoryBlock): Uint8Array {
  return signEd25519(seed, encodeDirectoryBlockHeader(previous));
}

/** True when `signature` by `publicKey` verifies over `previous`'s 113-byte header. */
export function verifyDirectoryBlockSignature(
  publicKey: Uint8Array,
  previous: DirectoryBlock | Uint8Array,
  signature: Uint8Array,
): boolean {
  const header = previous instanceof Uint8Array ? previous : encodeDirectoryBlockHeader(previous);
  return verifyEd25519(publicKey, header, signature);
}

/**
 * The VM that federated server `fedIndex` (its index in the chain-ID-sorted federated list) leads in
 * minute 0 of `height`, with `n` federated servers. factomd `ProcessList.MakeMap`: minute 0's VM j is led by
 * fed (base + 1 + j) mod n, base = uint32(height·131) mod n; so fed f leads VM (f − base − 1) mod n.
 */
export function minuteZeroVmIndex(fedIndex: number, n: number, height: number): number {
  if (!(n > 0 && fedIndex >= 0 && fedIndex < n)) throw new InvariantError(`fed index ${fedIndex} out of 0..${n - 1}`);
  const base = (Math.imul(height >>> 0, 131) >>> 0) % n;
  return (((fedIndex - base - 1) % n) + n) % n;
}

/**
 * The admin-block type-01 entries of `signatures` in the reference's order (factomd `SortDBSigs`: by the
 * signer's minute-0 VM index). `federated` is the federated set of `height`, sorted by identity chain ID;
 * a signature whose identity is not in it is a caller bug and throws.
 */
export function orderedSignatureEntries(
  signatures: readonly DbSignature[],
  federated: readonly Uint8Array[],
  height: number,
): Extract<AdminEntry, { type: 0x01 }>[] {
  const withVm = signatures.map((s) => {
    const f = federated.findIndex((id) => bytesEqual(id, s.identity));
    if (f < 0) throw new InvariantError("a signature of a server that is not federated at this height");
    return { s, vm: minuteZeroVmIndex(f, federated.length, height) };
  });
  withVm.sort((a, b) => a.vm - b.vm || compareBytes(a.s.identity, b.s.identity));
  return withVm.map(({ s }) => ({
    type: 0x01,
    identityAdminChainId: s.identity,
    publicKey: s.publicKey,
    signature: s.signature,
  }));
}

/**
 * Check admin block h's signatures against directory block h−1 (the block, or its 113-byte header) and the
 * federated servers of h (with their keys in force): how many distinct federated servers signed validly, and whether
 * that is a majority. A federated server with no key in force counts in the majority and signs nothing, as the live
 * rules count it (heightMachine.ts, blockSets.ts: a majority of all the federated servers of h). `untilMajority`: stop verifying once a majority is in (the same `ok`; `valid` then counts
 * no further) — a node checking a long chain of headers (snapshotChain.ts) verifies ⌊N/2⌋+1 signatures, not N.
 */
export function checkBlockSignatures(
  entries: readonly AdminEntry[],
  previous: DirectoryBlock | Uint8Array,
  federated: readonly { identity: Uint8Array; publicKey: Uint8Array | undefined }[],
  options: { untilMajority?: boolean } = {},
): { valid: number; needed: number; ok: boolean } {
  const header = previous instanceof Uint8Array ? previous : encodeDirectoryBlockHeader(previous);
  const needed = majority(federated.length);
  const signed = new Set<number>();
  for (const e of entries) {
    if (options.untilMajority === true && signed.size >= needed) break;
    if ("forwardCompatible" in e || e.type !== 0x01) continue;
    const f = federated.findIndex((s) => bytesEqual(s.identity, e.identityAdminChainId));
    const key = federated[f]?.publicKey;
    if (f < 0 || signed.has(f) || key === undefined || !bytesEqual(key, e.publicKey)) continue;
    if (verifyEd25519(e.publicKey, header, e.signature)) signed.add(f);
  }
  return { valid: signed.size, needed, ok: signed.size >= needed };
}
