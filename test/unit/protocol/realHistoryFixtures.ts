/**
 * The real-history fixtures of test/fixtures/history/ (blocks and entries of the reference's main network,
 * copied as data from public repositories: test/fixtures/history/SOURCE.md names each repository, path and
 * commit). Read once per test file; every byte field is hex.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** test/fixtures/history/, from dist/test/unit/protocol/. */
export const HISTORY_DIR = join(import.meta.dirname, "../../../../test/fixtures/history");

function load<T>(name: string): T {
  return JSON.parse(readFileSync(join(HISTORY_DIR, name), "utf8")) as T;
}

/** One chain's entry blocks and entries as fatd stored them (table `eblock`, table `entry`). */
export interface FatdChain {
  source: { repo: string; commit: string; path: string };
  chainId: string;
  networkId: string;
  entryBlocks: { seq: number; keyMR: string; dbHeight: number; dbKeyMR: string; timestamp: number; raw: string }[];
  /** `timestamp`: seconds since epoch of the entry (its directory block's start + its minute). */
  entries: { ebSeq: number; timestamp: number; hash: string; raw: string }[];
}

/** The two fatd chains (72 + 13 entry blocks, 92 + 16 entries). */
export function fatdChains(): FatdChain[] {
  return [load<FatdChain>("fatd-b54c4310.json"), load<FatdChain>("fatd-0692c0f9.json")];
}

/** The pegnet oracle price record chain's entries at seven heights (ext IDs and content base64). */
export interface PegnetEntries {
  source: { repo: string; commit: string; paths: string[] };
  chainNameExtIds: string[];
  blocks: { height: number; entries: { hash: string; extIds: string[]; content: string }[] }[];
}

export function pegnetEntries(): PegnetEntries {
  return load<PegnetEntries>("pegnet-opr.json");
}

/** A raw block or element with the values its source published for it. */
export interface RawItem {
  path: string;
  raw: string;
  [field: string]: unknown;
}

/** sambarnes/factom-core's test data: the block set of height 10 and single blocks of other heights. */
export interface FactomCoreData {
  source: { repo: string; commit: string };
  height10: {
    directoryBlock: string;
    adminBlock: string;
    assetBlock: string;
    ecBlock: string;
    entryBlocks: string[];
    entries: string[];
  };
  blocks: Record<string, RawItem>;
}

export function factomCoreData(): FactomCoreData {
  return load<FactomCoreData>("factom-core.json");
}

/** Factom-Asset-Tokens/factom's test data: directory blocks 1,000 and 10,000, asset block 100,000. */
export interface FactomGoData {
  source: { repo: string; commit: string };
  blocks: Record<string, RawItem>;
}

export function factomGoData(): FactomGoData {
  return load<FactomGoData>("factom-go.json");
}
