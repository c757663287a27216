/**
 * The wallet's seed: a 12-word BIP39 mnemonic from which its keys are derived, as the reference wallet derives
 * them (FactomProject/wallet walletDBO.go NextFCTAddress / NextECAddress → FactomProject/factom
 * MakeBIP44FactoidAddress / MakeBIP44ECAddress → FactomProject/go-bip44 NewKeyFromMnemonic):
 *
 *   BIP39 seed of the mnemonic with the empty passphrase → BIP32 master key →
 *   m / 44' / coin' / 0' / 0 / index, the child's 32-byte private key used as the ed25519 seed,
 *   coin 131 for asset (FA) keys, 132 for entry credit (EC) keys (SLIP-44 numbers 0x83 and 0x84).
 *
 * So a mnemonic written down from the reference wallet yields the same addresses here, in the same order
 * (test/unit/wallet/walletSeed.test.ts checks the reference's published vectors and ones computed with an
 * independent implementation). BIP39 and BIP32 are the audited @scure libraries, not code of ours.
 */
import { HDKey } from "@scure/bip32";
import { generateMnemonic, mnemonicToSeedSync, validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { type KeyPair, keyPairFromSeed } from "../../src/protocol/address.js";
import { WalletError } from "./errors.js";

/** BIP44 purpose (hardened). */
const PURPOSE = 44;
/** SLIP-44 coin types of the reference wallet (go-bip44 TypeFactomFactoids 0x80000083, TypeFactomEntryCredits 0x80000084). */
export const COIN_TYPE = { FA: 131, EC: 132 } as const;
/** Account (hardened: the reference passes bip32.FirstHardenedChild) and chain (external) of every derived key. */
const ACCOUNT = 0;
const CHAIN = 0;
/** 128 bits of entropy: 12 words, as the reference's NewRandomSeed (16 random bytes). */
const ENTROPY_BITS = 128;
/** The reference accepts exactly 12 words (factom ParseMnemonic, ErrMnemonicLength). */
export const MNEMONIC_WORDS = 12;

/** What the wallet file keeps of its seed: the words and how many keys of each kind were derived. */
export interface WalletSeed {
  mnemonic: string;
  /** index of the next FA / EC key to derive */
  nextFA: number;
  nextEC: number;
}

/** A fresh random 12-word mnemonic. */
export function newMnemonic(): string {
  return generateMnemonic(wordlist, ENTROPY_BITS);
}

/**
 * A mnemonic as typed, in the reference's canonical form (lower case, single spaces), or a WalletError saying
 * what is wrong with it — never quoting the words, which are a secret.
 */
export function normalizeMnemonic(text: string): string {
  const words = text
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== "");
  if (words.length !== MNEMONIC_WORDS)
    throw new WalletError(`mnemonic: expected ${MNEMONIC_WORDS} words, got ${words.length}`);
  const unknown = words.map((w, i) => (wordlist.includes(w) ? -1 : i + 1)).filter((i) => i !== -1);
  if (unknown.length > 0)
    throw new WalletError(`mnemonic: word ${unknown.join(", ")} is not in the BIP39 English word list`);
  const mnemonic = words.join(" ");
  if (!validateMnemonic(mnemonic, wordlist))
    throw new WalletError("mnemonic: the checksum does not match (a word is wrong or the words are out of order)");
  return mnemonic;
}

/** The BIP44 path of the `index`-th key of `kind`, e.g. m/44'/131'/0'/0/0. */
export function derivationPath(kind: "FA" | "EC", index: number): string {
  return `m/${PURPOSE}'/${COIN_TYPE[kind]}'/${ACCOUNT}'/${CHAIN}/${index}`;
}

/** Derives keys from one mnemonic; the BIP39 seed (2048 PBKDF2 rounds) is computed once per instance. */
export class SeedDeriver {
  private readonly root: HDKey;

  constructor(mnemonic: string) {
    this.root = HDKey.fromMasterSeed(mnemonicToSeedSync(normalizeMnemonic(mnemonic), ""));
  }

  /** The 32-byte private key (ed25519 seed) at the key's path. */
  privateKey(kind: "FA" | "EC", index: number): Uint8Array {
    if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31)
      throw new WalletError(`key index ${index} is outside 0..2^31-1 (a BIP32 non-hardened index)`);
    const key = this.root.derive(derivationPath(kind, index)).privateKey;
    if (key === null) throw new WalletError(`no private key at ${derivationPath(kind, index)}`);
    return key;
  }

  /** The key pair (FA or EC) at the key's path. */
  keyPair(kind: "FA" | "EC", index: number): KeyPair {
    return keyPairFromSeed(kind, this.privateKey(kind, index));
  }
}
