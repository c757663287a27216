import { randomBytes } from "node:crypto";
import {
  closeSync,
  fchmodSync,
  constants as fsConstants,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { type KeyPair, keyPairFromPrivate } from "../../src/protocol/address.js";
import { WalletError } from "./errors.js";
import { newMnemonic, normalizeMnemonic, SeedDeriver, type WalletSeed } from "./seed.js";
import { ENCRYPTED_FORMAT_VERSION, type KdfParams, kdfOf, open, Passphrase, SealError, seal } from "./walletCrypto.js";

/** Format version of a plain wallet file (an encrypted one is ENCRYPTED_FORMAT_VERSION, walletCrypto.ts). */
export const WALLET_FORMAT_VERSION = 1;

/** Where the passphrase of an encrypted wallet can come from (docs/wallet.md, "Encrypted wallet"). */
export const PASSPHRASE_HINT =
  "give the passphrase with -passfile=FILE or LEDGERD_WALLET_PASS, or run the command on a terminal to be asked";

/** An encrypted wallet's passphrase and KDF parameters (kept for its writes: one scrypt per command). */
interface Sealing {
  pass: Passphrase;
  kdf: KdfParams;
}
/** Owner read/write only: the file holds private keys. */
export const WALLET_FILE_MODE = 0o600;
/** Owner-only directory created for a new wallet. */
const WALLET_DIR_MODE = 0o700;
/**
 * How long another wallet process may hold the lock, ms. Writes take a few ms; a lock older than
 * this belongs to a process that died between creating and removing it.
 */
const STALE_LOCK_MS = 30_000;
/** How long to wait for the lock before giving up, ms. */
const LOCK_WAIT_MS = 10_000;

/** One stored key: its kind, public address (for `list`) and private key string. */
export interface WalletKey {
  kind: "FA" | "EC";
  public: string;
  secret: string;
  /** ISO-8601 time the key was added */
  added: string;
}

interface WalletJson {
  version: number;
  keys: WalletKey[];
  /** the mnemonic the derived keys come from (seed.ts); absent in wallets written before seeds */
  seed?: WalletSeed;
}

/** What `update` may change besides the key list: the seed (created on the first derived key, or restored). */
export interface WalletExtras {
  seed: WalletSeed | undefined;
}

/** Default wallet path: ~/.ledgerd/wallet.json (HOME decides). */
export function defaultWalletPath(): string {
  return join(homedir(), ".ledgerd", "wallet.json");
}

/**
 * A wallet file: JSON with the private keys, mode 0600, replaced atomically (write a temporary file
 * in the same directory, fsync, rename, fsync the directory), so a crash leaves either the old or the
 * new file, never a torn one. Changes go through `update`, which holds a lock file so two wallet
 * processes cannot lose each other's keys. An encrypted wallet (walletCrypto.ts) stays encrypted through
 * every change; its keys are only ever in memory in the clear.
 */
export class WalletFile {
  private constructor(
    readonly path: string,
    private keys: WalletKey[],
    private seedValue: WalletSeed | undefined,
    /** false when the file does not exist yet */
    readonly exists: boolean,
    /** set for an encrypted wallet, and for a new one created with a passphrase */
    private sealing: Sealing | undefined,
  ) {}

  /**
   * Load the wallet at `path`; a missing file is an empty wallet (encrypted once written, when `pass` is
   * given). An encrypted file needs `pass`. Throws WalletError for an unreadable, corrupt or locked file, or
   * a wrong passphrase — never quoting the file.
   */
  static load(path: string, pass?: Passphrase): WalletFile {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT")
        return new WalletFile(
          path,
          [],
          undefined,
          false,
          pass === undefined ? undefined : { pass, kdf: Passphrase.newKdf() },
        );
      throw new WalletError(`wallet file ${path}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    const json = parseJson(path, text);
    if (json.version !== ENCRYPTED_FORMAT_VERSION)
      return new WalletFile(path, parseWallet(path, json), parseSeed(path, json), true, undefined);
    if (pass === undefined)
      throw new WalletError(`wallet file ${path} is encrypted: its passphrase is needed`, PASSPHRASE_HINT);
    let plain: string;
    try {
      plain = open(json, pass);
    } catch (e) {
      if (e instanceof SealError && e.reason === "wrong-passphrase")
        throw new WalletError(`wallet file ${path}: wrong passphrase (or the file was changed)`);
      throw new WalletError(
        `wallet file ${path}: damaged encrypted wallet (${e instanceof Error ? e.message : String(e)}); restore it from a backup`,
      );
    }
    const sealing = { pass, kdf: kdfOf(json) };
    const inner = parseJson(path, plain);
    return new WalletFile(path, parseWallet(path, inner), parseSeed(path, inner), true, sealing);
  }

  /** Is the file at `path` an encrypted wallet? (false when missing or unreadable: `load` reports those) */
  static isEncrypted(path: string): boolean {
    try {
      return (JSON.parse(readFileSync(path, "utf8")) as { version?: unknown }).version === ENCRYPTED_FORMAT_VERSION;
    } catch {
      return false;
    }
  }

  /** True when the keys are (or, for a new wallet, will be) stored encrypted. */
  get encrypted(): boolean {
    return this.sealing !== undefined;
  }

  /**
   * Encrypt a plain wallet in place under `pass` (the migration from the plain format): re-read under the
   * lock, written atomically, so a crash leaves the plain or the encrypted file, never neither. Returns how
   * many keys it holds.
   */
  encrypt(pass: Passphrase): number {
    if (!this.exists) throw new WalletError(`wallet file ${this.path} does not exist: nothing to encrypt`);
    if (this.sealing !== undefined) throw new WalletError(`wallet file ${this.path} is already encrypted`);
    return this.locked(() => {
      const fresh = WalletFile.load(this.path, pass);
      if (fresh.sealing !== undefined)
        throw new WalletError(`wallet file ${this.path} is already encrypted (by another process meanwhile)`);
      const sealing = { pass, kdf: Passphrase.newKdf() };
      this.write(fresh.keys, fresh.seedValue, sealing);
      this.keys = fresh.keys;
      this.seedValue = fresh.seedValue;
      this.sealing = sealing;
      return fresh.keys.length;
    });
  }

  /** Permission bits of the file (e.g. 0o600), or undefined when it does not exist. */
  static mode(path: string): number | undefined {
    try {
      return statSync(path).mode & 0o777;
    } catch {
      return undefined;
    }
  }

  /** All keys, in the order they were added. */
  list(): readonly WalletKey[] {
    return this.keys;
  }

  /** The wallet's seed (mnemonic and next indexes), or undefined for a wallet without one. */
  seed(): WalletSeed | undefined {
    return this.seedValue;
  }

  /** The stored key of a public address (FA… or EC…), or undefined. */
  find(publicAddress: string): WalletKey | undefined {
    return this.keys.find((k) => k.public === publicAddress);
  }

  /** Key pair (seed and public key) of a public address stored in this wallet, or undefined. */
  keyPair(publicAddress: string): KeyPair | undefined {
    const k = this.find(publicAddress);
    return k === undefined ? undefined : keyPairFromPrivate(k.secret);
  }

  /**
   * Re-read the file under the lock, apply `change` to the fresh key list, write it atomically.
   * Returns whatever `change` returns. The in-memory wallet reflects the written state afterwards.
   */
  update<T>(change: (keys: WalletKey[], extras: WalletExtras) => T): T {
    return this.locked(() => {
      const fresh = WalletFile.load(this.path, this.sealing?.pass);
      // a wallet that did not exist yet is created as this one was asked for (encrypted with a passphrase)
      const sealing = fresh.exists ? fresh.sealing : this.sealing;
      const keys = [...fresh.keys];
      const extras: WalletExtras = { seed: fresh.seedValue === undefined ? undefined : { ...fresh.seedValue } };
      const result = change(keys, extras);
      this.write(keys, extras.seed, sealing);
      this.keys = keys;
      this.seedValue = extras.seed;
      this.sealing = sealing;
      return result;
    });
  }

  private write(keys: WalletKey[], seed: WalletSeed | undefined, sealing: Sealing | undefined): void {
    const plain = JSON.stringify(
      { version: WALLET_FORMAT_VERSION, keys, ...(seed === undefined ? {} : { seed }) } satisfies WalletJson,
      null,
      2,
    );
    writeAtomically(
      this.path,
      `${sealing === undefined ? plain : JSON.stringify(seal(plain, sealing.pass, sealing.kdf), null, 2)}\n`,
    );
  }

  /** Run `f` holding the wallet's lock file (creating the wallet's directory first). */
  private locked<T>(f: () => T): T {
    const dir = dirname(this.path);
    try {
      mkdirSync(dir, { recursive: true, mode: WALLET_DIR_MODE });
    } catch (e) {
      throw new WalletError(
        `wallet directory ${dir}: cannot create it (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
      );
    }
    const unlock = acquireLock(`${this.path}.lock`);
    try {
      return f();
    } finally {
      unlock();
    }
  }
}

/** Add a key pair unless its public address is already stored; returns true when added. */
export function addKey(keys: WalletKey[], pair: KeyPair): boolean {
  if (keys.some((k) => k.public === pair.publicAddress)) return false;
  keys.push({
    kind: pair.publicAddress.startsWith("FA") ? "FA" : "EC",
    public: pair.publicAddress,
    secret: pair.privateAddress,
    added: new Date().toISOString(),
  });
  return true;
}

/**
 * Derive the wallet's next key of `kind` from its seed (creating a new random seed first when the wallet has
 * none, as the reference does on its first generated address), add it, and return it. Inside `update`.
 */
export function deriveNextKey(keys: WalletKey[], extras: WalletExtras, kind: "FA" | "EC"): KeyPair {
  if (extras.seed === undefined) extras.seed = { mnemonic: newMnemonic(), nextFA: 0, nextEC: 0 };
  const seed = extras.seed;
  const deriver = new SeedDeriver(seed.mnemonic);
  const field = kind === "FA" ? "nextFA" : "nextEC";
  const pair = deriver.keyPair(kind, seed[field]);
  seed[field] += 1;
  addKey(keys, pair);
  return pair;
}

/**
 * Replace the wallet's seed by `mnemonic` (a restore): its derived keys are added again as they are generated
 * (`deriveNextKey`); keys already in the wallet stay. Refuses to replace a different seed that keys were derived
 * from, whose keys could then no longer be re-derived from any backup.
 */
export function restoreSeed(extras: WalletExtras, mnemonic: string): void {
  const words = normalizeMnemonic(mnemonic);
  const seed = extras.seed;
  // a seed no key was derived from yet (a new wallet's) may be replaced: nothing of it is lost
  if (seed !== undefined && seed.mnemonic !== words && (seed.nextFA > 0 || seed.nextEC > 0))
    throw new WalletError(
      "the wallet already has a different seed with keys derived from it; restore into a new wallet file (-wallet=FILE) so neither is lost",
    );
  if (seed === undefined || seed.mnemonic !== words) extras.seed = { mnemonic: words, nextFA: 0, nextEC: 0 };
}

function parseSeed(path: string, json: Record<string, unknown>): WalletSeed | undefined {
  const s = json.seed as Partial<WalletSeed> | undefined;
  if (s === undefined) return undefined;
  const index = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) < 2 ** 31;
  if (typeof s !== "object" || s === null || typeof s.mnemonic !== "string" || !index(s.nextFA) || !index(s.nextEC))
    throw new WalletError(`wallet file ${path}: seed: expected {mnemonic, nextFA, nextEC}`);
  try {
    return { mnemonic: normalizeMnemonic(s.mnemonic), nextFA: s.nextFA, nextEC: s.nextEC };
  } catch (e) {
    throw new WalletError(`wallet file ${path}: seed: ${(e as Error).message} (file damaged?)`);
  }
}

function parseJson(path: string, text: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the text around the fault, which may be a private key.
    throw new WalletError(`wallet file ${path} is not valid JSON; restore it from a backup`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw new WalletError(`wallet file ${path}: expected a JSON object`);
  return json as Record<string, unknown>;
}

function parseWallet(path: string, json: Record<string, unknown>): WalletKey[] {
  const w = json as Partial<WalletJson>;
  if (!Array.isArray(w.keys)) throw new WalletError(`wallet file ${path}: expected an object with a "keys" array`);
  if (w.version !== WALLET_FORMAT_VERSION)
    throw new WalletError(
      `wallet file ${path}: format version ${String(w.version)} is not supported (this wallet reads versions ${WALLET_FORMAT_VERSION} and ${ENCRYPTED_FORMAT_VERSION})`,
    );
  return w.keys.map((k, i) => {
    const where = `wallet file ${path}: keys[${i}]`;
    if (typeof k !== "object" || k === null || typeof k.secret !== "string" || typeof k.public !== "string")
      throw new WalletError(`${where}: expected {kind, public, secret, added}`);
    let pair: KeyPair;
    try {
      pair = keyPairFromPrivate(k.secret);
    } catch (e) {
      throw new WalletError(`${where}: the private key is invalid (${(e as Error).message})`);
    }
    if (pair.publicAddress !== k.public)
      throw new WalletError(`${where}: public address ${k.public} does not belong to its private key (file damaged?)`);
    return {
      kind: pair.publicAddress.startsWith("FA") ? "FA" : "EC",
      public: k.public,
      secret: k.secret,
      added: String(k.added ?? ""),
    };
  });
}

/**
 * Write `text` to `path` via a temporary file + rename; the file ends with mode 0600. A `path` that is a
 * symbolic link stays one: the file it points to is replaced, in its own directory.
 */
export function writeAtomically(linkOrPath: string, text: string): void {
  const path = resolveLink(linkOrPath);
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, WALLET_FILE_MODE);
    fchmodSync(fd, WALLET_FILE_MODE); // the umask may have removed bits; make the mode exact
    const data = Buffer.from(text, "utf8");
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // the temporary file may not exist; nothing else to clean
    }
    throw new WalletError(`wallet file ${path}: cannot write it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  // Persist the rename itself: fsync the directory (not supported on every platform; best effort).
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {
    // directories cannot be opened for fsync on some systems; the rename is still atomic
  }
}

function acquireLock(lockPath: string): () => void {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = openSync(lockPath, "wx", WALLET_FILE_MODE);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockPath);
        } catch {
          // already removed (e.g. judged stale by another process); nothing to undo
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST")
        throw new WalletError(
          `wallet lock ${lockPath}: cannot create it (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
        );
    }
    try {
      if (Date.now() - statSync(lockPath).mtimeMs > STALE_LOCK_MS) {
        unlinkSync(lockPath);
        continue;
      }
    } catch {
      continue; // removed meanwhile: try again
    }
    if (Date.now() > deadline)
      throw new WalletError(`wallet is locked by another process (${lockPath}); if none is running, delete that file`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}

/** The file a symbolic link finally points to (the path itself when it is no link or does not exist). */
function resolveLink(path: string): string {
  try {
    if (!lstatSync(path).isSymbolicLink()) return path;
  } catch {
    return path;
  }
  try {
    return realpathSync(path);
  } catch {
    // a dangling link: write where it points, creating that file
    return resolve(dirname(path), readlinkSync(path));
  }
}
