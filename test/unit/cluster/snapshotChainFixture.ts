/**
 * The chains of the header-chain tests (snapshotChain.test.ts, snapshotChainCost.test.ts): real directory and admin
 * blocks built with the protocol's encoders, signed with real ed25519 keys, an authority change (two servers added
 * at 3) and a key rotation (A's, from 6) on the way, each part replaceable to break one rule.
 */

import assert from "node:assert/strict";
import { HeaderChain, HeaderChainBroken, type HeaderLink, headerLink } from "../../../src/cluster/snapshotChain.js";
import { signEd25519 } from "../../../src/crypto/ed25519.js";
import { type AdminEntry, encodeAdminBlock } from "../../../src/protocol/ablock.js";
import { ZERO_HASH } from "../../../src/protocol/bytes.js";
import { ADMIN_CHAIN_ID, ASSET_CHAIN_ID, EC_CHAIN_ID } from "../../../src/protocol/chains.js";
import {
  buildDirectoryBlock,
  DIRECTORY_BLOCK_HEADER_SIZE,
  directoryBlockHashes,
  encodeDirectoryBlock,
} from "../../../src/protocol/dblock.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { networkId } from "../../../src/protocol/network.js";
import { serverIdentity } from "../../support/memoryFederation.js";

export const NET = networkId("LOCAL");
export const INTERVAL = 4;
export type Server = ReturnType<typeof serverIdentity>;
export const boot = serverIdentity(1);
export const a = serverIdentity(2);
export const b = serverIdentity(3);
/** A's rotated key, in force from height 6 */
export const aNext = { ...a, ...keyOf(12) };
export const stranger = serverIdentity(9);
export const BOOTSTRAP = { identity: boot.identity, publicKey: boot.publicKey };

export function keyOf(n: number): { seed: Uint8Array; publicKey: Uint8Array } {
  const s = serverIdentity(n);
  return { seed: s.seed, publicKey: s.publicKey };
}

/** Who signs header h−1 in admin block h (the federated servers of h, with their keys in force). */
export function signersAt(h: number): Server[] {
  if (h === 0) return [];
  if (h < 3) return [boot];
  if (h < 6) return [boot, a, b];
  return [boot, aNext, b];
}

/** Admin entries beyond the signatures: genesis names the bootstrap server; 2 adds A and B from 3; 5 rotates A's key from 6. */
export function changesAt(h: number): AdminEntry[] {
  if (h === 0) return [{ type: 0x05, identityChainId: boot.identity, dbHeight: 0 }];
  if (h === 2)
    return [a, b].flatMap((s): AdminEntry[] => [
      { type: 0x05, identityChainId: s.identity, dbHeight: 3 },
      { type: 0x08, identityChainId: s.identity, keyPriority: 0, publicKey: s.publicKey, dbHeight: 3 },
    ]);
  if (h === 5)
    return [{ type: 0x08, identityChainId: a.identity, keyPriority: 0, publicKey: aNext.publicKey, dbHeight: 6 }];
  return [];
}

export interface Build {
  network?: number;
  signers?: (h: number) => Server[];
  /** the header the signatures of admin block h are over (default: header h−1) */
  signedHeader?: (h: number, headers: Uint8Array[]) => Uint8Array;
  changes?: (h: number) => AdminEntry[];
  /** the admin block's bytes at h (default: its encoding); the directory block names these */
  adminRaw?: (h: number, raw: Uint8Array) => Uint8Array;
  adminHeight?: (h: number) => number;
  timestamp?: (h: number) => number;
}

/** A chain of `n` heights: the links a federated server's segments carry, and its genesis keyMR. */
export function buildChain(
  n: number,
  o: Build = {},
): { links: HeaderLink[]; genesisKeyMR: Uint8Array; directories: Uint8Array[] } {
  const links: HeaderLink[] = [];
  /** the stored directory blocks whole */
  const directories: Uint8Array[] = [];
  const headers: Uint8Array[] = [];
  let prevKeyMR = ZERO_HASH;
  let genesisKeyMR = ZERO_HASH;
  for (let h = 0; h < n; h++) {
    const signed = h === 0 ? undefined : (o.signedHeader?.(h, headers) ?? headers[h - 1]!);
    const sigs: AdminEntry[] =
      signed === undefined
        ? []
        : (o.signers ?? signersAt)(h).map((s) => ({
            type: 0x01,
            identityAdminChainId: s.identity,
            publicKey: s.publicKey,
            signature: signEd25519(s.seed, signed),
          }));
    const encoded = encodeAdminBlock({
      prevBackRefHash: ZERO_HASH,
      dbHeight: o.adminHeight?.(h) ?? h,
      headerExpansion: new Uint8Array(0),
      entries: [...(o.changes ?? changesAt)(h), ...sigs],
    });
    const adminRaw = o.adminRaw?.(h, encoded) ?? encoded;
    // (h % 4 entry blocks besides the three system blocks: bodies of 3 to 6 entries, branches of 2 or 3 levels)
    const entryBlocks = Array.from({ length: h % 4 }, (_, i) => ({
      chainId: sha256(new Uint8Array([h, i, 1])),
      keyMR: sha256(new Uint8Array([h, i, 2])),
    }));
    const block = buildDirectoryBlock({
      version: 0,
      networkId: o.network ?? NET,
      prevKeyMR,
      prevFullHash: ZERO_HASH,
      timestamp: o.timestamp?.(h) ?? 1000 + h,
      dbHeight: h,
      entries: [
        { chainId: ADMIN_CHAIN_ID, keyMR: sha256(adminRaw) },
        { chainId: EC_CHAIN_ID, keyMR: sha256(new Uint8Array([h, 0xec])) },
        { chainId: ASSET_CHAIN_ID, keyMR: sha256(new Uint8Array([h, 0xfa])) },
        ...entryBlocks,
      ],
    });
    const raw = encodeDirectoryBlock(block);
    links.push(headerLink(raw, adminRaw));
    directories.push(raw);
    headers.push(raw.slice(0, DIRECTORY_BLOCK_HEADER_SIZE));
    prevKeyMR = directoryBlockHashes(block).keyMR;
    if (h === 0) genesisKeyMR = prevKeyMR;
  }
  return { links, genesisKeyMR, directories };
}

/** The genuine chain of 10 heights the rule tests break link by link. */
export const good = buildChain(10);

export function chainOf(genesisKeyMR = good.genesisKeyMR, network = NET): HeaderChain {
  return new HeaderChain({ networkId: network, genesisKeyMR, bootstrap: BOOTSTRAP, interval: INTERVAL });
}

/** Add `links` in order; the HeaderChainBroken thrown (asserted to be at `height` and to match `reason`). */
export function breaksAt(
  links: readonly HeaderLink[],
  height: number,
  reason: RegExp,
  chain = chainOf(),
): HeaderChainBroken {
  let thrown: unknown;
  try {
    for (const l of links) chain.add(l);
  } catch (e) {
    thrown = e;
  }
  assert.ok(thrown instanceof HeaderChainBroken, `expected a break at ${height}, got ${String(thrown)}`);
  assert.equal(thrown.height, height, thrown.reason);
  assert.match(thrown.reason, reason);
  assert.equal(chain.next, height, "no link at or after the break is folded in");
  return thrown;
}

/** The good links with link `h` replaced. */
export function withLink(h: number, link: HeaderLink): HeaderLink[] {
  return good.links.map((l, i) => (i === h ? link : l));
}

/** keyMR preimage of a link's header: sha256(header) ‖ BodyMR. */
export function concatHeader(l: HeaderLink): Uint8Array {
  const out = new Uint8Array(64);
  out.set(sha256(l.header), 0);
  out.set(l.header.subarray(5, 37), 32);
  return out;
}
