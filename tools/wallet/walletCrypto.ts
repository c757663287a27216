/**
 * Encryption of a wallet file at rest (issue 19 item 11): the plain wallet JSON sealed with AES-256-GCM under a
 * key derived from a passphrase with scrypt (node:crypto). GCM authenticates: a wrong passphrase, or any change
 * to the file (ciphertext, nonce, tag, or the KDF parameters, which are the additional authenticated data),
 * fails to open instead of yielding garbage keys.
 *
 * File (format version 2):
 *   {"version":2,"cipher":"aes-256-gcm","kdf":{"name":"scrypt","N":…,"r":8,"p":1,"salt":hex},
 *    "iv":hex(12),"tag":hex(16),"data":base64}
 */
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";

/** Format version of an encrypted wallet file. */
export const ENCRYPTED_FORMAT_VERSION = 2;

/**
 * scrypt cost: N = 2^16, r = 8, p = 1 — 64 MiB of memory and ~0.1–0.3 s per unlock on a current core
 * (the figures of the scrypt paper's interactive-login setting raised one step). A wallet command unlocks
 * once (the derived key is kept for its writes), so this is the whole cost a user sees.
 */
const SCRYPT = { N: 2 ** 16, r: 8, p: 1 } as const;
/** scrypt needs 128·N·r bytes; node's default cap (32 MiB) is below that. */
const SCRYPT_MAXMEM = 256 * 2 ** 20;
const SALT_BYTES = 16;
const IV_BYTES = 12;
const KEY_BYTES = 32;

export interface KdfParams {
  name: "scrypt";
  N: number;
  r: number;
  p: number;
  /** hex */
  salt: string;
}

export interface EncryptedWallet {
  version: typeof ENCRYPTED_FORMAT_VERSION;
  cipher: "aes-256-gcm";
  kdf: KdfParams;
  iv: string;
  tag: string;
  data: string;
}

/** Why a sealed wallet could not be opened. */
export class SealError extends Error {
  constructor(
    readonly reason: "wrong-passphrase" | "malformed",
    message: string,
  ) {
    super(message);
    this.name = "SealError";
  }
}

/** A passphrase and the keys derived from it so far (per salt): one scrypt per salt per process. */
export class Passphrase {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly text: string) {
    if (text.length === 0) throw new SealError("malformed", "the passphrase is empty");
  }

  /** The AES key for `kdf` (derived once, then remembered). */
  key(kdf: KdfParams): Buffer {
    const id = `${kdf.N}/${kdf.r}/${kdf.p}/${kdf.salt}`;
    let key = this.keys.get(id);
    if (key === undefined) {
      key = scryptSync(this.text.normalize("NFC"), Buffer.from(kdf.salt, "hex"), KEY_BYTES, {
        N: kdf.N,
        r: kdf.r,
        p: kdf.p,
        maxmem: SCRYPT_MAXMEM,
      });
      this.keys.set(id, key);
    }
    return key;
  }

  /** Fresh KDF parameters (a new random salt) for sealing a wallet that has none yet. */
  static newKdf(): KdfParams {
    return { name: "scrypt", ...SCRYPT, salt: randomBytes(SALT_BYTES).toString("hex") };
  }
}

function aad(kdf: KdfParams): Buffer {
  return Buffer.from(
    JSON.stringify({ version: ENCRYPTED_FORMAT_VERSION, cipher: "aes-256-gcm", kdf: [kdf.N, kdf.r, kdf.p, kdf.salt] }),
  );
}

/** Seal `plain` (the plain wallet JSON) under `pass` with `kdf` (a fresh nonce each time). */
export function seal(plain: string, pass: Passphrase, kdf: KdfParams): EncryptedWallet {
  const iv = randomBytes(IV_BYTES);
  const c = createCipheriv("aes-256-gcm", pass.key(kdf), iv);
  c.setAAD(aad(kdf));
  const data = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return {
    version: ENCRYPTED_FORMAT_VERSION,
    cipher: "aes-256-gcm",
    kdf,
    iv: iv.toString("hex"),
    tag: c.getAuthTag().toString("hex"),
    data: data.toString("base64"),
  };
}

/** The KDF parameters of a parsed version-2 file, checked (never trusting a file to ask for absurd memory). */
export function kdfOf(w: Record<string, unknown>): KdfParams {
  const k = w.kdf as Partial<KdfParams> | undefined;
  const ok =
    w.cipher === "aes-256-gcm" &&
    typeof k === "object" &&
    k !== null &&
    k.name === "scrypt" &&
    Number.isInteger(k.N) &&
    k.N! >= 2 ** 14 &&
    k.N! <= 2 ** 20 &&
    (k.N! & (k.N! - 1)) === 0 &&
    k.r === 8 &&
    Number.isInteger(k.p) &&
    k.p! >= 1 &&
    k.p! <= 16 &&
    typeof k.salt === "string" &&
    /^[0-9a-f]{32,}$/.test(k.salt);
  if (!ok)
    throw new SealError(
      "malformed",
      'expected "cipher":"aes-256-gcm" and scrypt parameters (N a power of two 2^14..2^20, r 8)',
    );
  return { name: "scrypt", N: k!.N!, r: 8, p: k!.p!, salt: k!.salt! };
}

/** Open a parsed version-2 file with `pass`: the plain wallet JSON. Throws SealError. */
export function open(w: Record<string, unknown>, pass: Passphrase): string {
  const kdf = kdfOf(w);
  if (
    typeof w.iv !== "string" ||
    !/^[0-9a-f]{24}$/.test(w.iv) ||
    typeof w.tag !== "string" ||
    !/^[0-9a-f]{32}$/.test(w.tag) ||
    typeof w.data !== "string"
  )
    throw new SealError("malformed", "expected iv (24 hex), tag (32 hex) and data (base64)");
  const d = createDecipheriv("aes-256-gcm", pass.key(kdf), Buffer.from(w.iv, "hex"));
  d.setAAD(aad(kdf));
  d.setAuthTag(Buffer.from(w.tag, "hex"));
  try {
    return Buffer.concat([d.update(Buffer.from(w.data, "base64")), d.final()]).toString("utf8");
  } catch {
    throw new SealError("wrong-passphrase", "wrong passphrase, or the file was changed");
  }
}
