// The wallet's seed derives the reference wallet's keys: the reference's own published vectors (FactomProject
// wallet walletDBO_test.go and go-bip44 bip44_test.go, mnemonic "yellow ×12") and vectors of four mnemonics
// computed by an independent BIP39/BIP32 implementation (seedVectors.json, referenceDerivation.py).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { keyPairFromSeed } from "../../../src/protocol/address.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { derivationPath, newMnemonic, normalizeMnemonic, SeedDeriver } from "../../../tools/wallet/seed.js";
import { deriveNextKey, restoreSeed, WalletFile } from "../../../tools/wallet/walletFile.js";

const YELLOW = Array(12).fill("yellow").join(" ");
/** FactomProject/wallet walletDBO_test.go TestWalletDBO / TestDBSeed: the first two keys of each kind. */
const REFERENCE_ADDRESSES = {
  FA: ["FA22de5NSG2FA2HmMaD4h8qSAZAJyztmmnwgLPghCQKoSekwYYct", "FA3heCmxKCk1tCCfiAMDmX8Ctg6XTQjRRaJrF5Jagc9rbo7wqQLV"],
  EC: ["EC2KnJQN86MYq4pQyeSGTHSiVdkhRCPXS3udzD4im6BXRBjZFMmR", "EC2UNG5LztGN3BNiVMEgkBP8ra8ud3HjjWWXKjrQozJ98rTvXKYy"],
} as const;
/** FactomProject/go-bip44 bip44_test.go TestNewKeyFromMnemonic: the extended keys at index 0. */
const REFERENCE_XPRV = {
  FA: "xprvA2vH8KdcBBKhMxhENJpJdbwiU5cUXSkaHR7QVTpBmusgYMR8NsZ4BFTNyRLUiaPHg7UYP8u92FJkSEAmmgu3PDQCoY7gBsdvpB7msWGCpXG",
  EC: "xprvA2ziNegvZRfAAUtDsjeS9LvCP1TFXfR3hUzMcJw7oYAhdPqZyiJTMf1ByyLRxvQmGvgbPcG6Q569m26ixWsmgTR3d3PwicrG7hGD7C7seJA",
} as const;

const HERE = dirname(fileURLToPath(import.meta.url));
const WALLET_BIN = join(HERE, "..", "..", "..", "..", "bin", "ledgerd-wallet");

/** The real bin/ledgerd-wallet with `stdin`, no LEDGERD_* variables from outside. */
function cli(args: string[], stdin = ""): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("LEDGERD_")));
  return new Promise((resolve) => {
    const child = execFile(WALLET_BIN, args, { env, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: typeof err?.code === "number" ? err.code : err === null ? 0 : -1, stdout, stderr }),
    );
    child.stdin!.end(stdin);
  });
}
/** seedVectors.json stays in the source tree (tsc does not copy it): from dist/test/unit/wallet. */
const VECTORS_FILE = join(HERE, "..", "..", "..", "..", "test", "unit", "wallet", "seedVectors.json");

interface Vector {
  mnemonic: string;
  kind: "FA" | "EC";
  index: number;
  path: string;
  privateKeyHex: string;
}

describe("wallet seed: the reference wallet's derivation", () => {
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test("the reference's published addresses and extended keys of 'yellow ×12'", () => {
    const d = new SeedDeriver(YELLOW);
    for (const kind of ["FA", "EC"] as const)
      REFERENCE_ADDRESSES[kind].forEach((address, i) => {
        assert.equal(d.keyPair(kind, i).publicAddress, address, `${kind} ${i}`);
      });
    const root = HDKey.fromMasterSeed(mnemonicToSeedSync(YELLOW, ""));
    assert.equal(root.derive(derivationPath("FA", 0)).privateExtendedKey, REFERENCE_XPRV.FA);
    assert.equal(root.derive(derivationPath("EC", 0)).privateExtendedKey, REFERENCE_XPRV.EC);
    assert.equal(derivationPath("FA", 7), "m/44'/131'/0'/0/7");
    assert.equal(derivationPath("EC", 0), "m/44'/132'/0'/0/0");
  });

  test("24 keys of four mnemonics match an independent BIP39/BIP32 implementation", () => {
    const file = JSON.parse(readFileSync(VECTORS_FILE, "utf8")) as { vectors: Vector[] };
    assert.equal(file.vectors.length, 24);
    const yellowFa0 = file.vectors.find((v) => v.mnemonic === YELLOW && v.kind === "FA" && v.index === 0)!;
    // the independent implementation's key gives the reference's published address
    assert.equal(
      keyPairFromSeed("FA", Buffer.from(yellowFa0.privateKeyHex, "hex")).publicAddress,
      REFERENCE_ADDRESSES.FA[0],
    );
    const derivers = new Map<string, SeedDeriver>();
    for (const v of file.vectors) {
      const d = derivers.get(v.mnemonic) ?? new SeedDeriver(v.mnemonic);
      derivers.set(v.mnemonic, d);
      assert.equal(derivationPath(v.kind, v.index), v.path);
      assert.equal(toHex(d.privateKey(v.kind, v.index)), v.privateKeyHex, `${v.mnemonic.slice(0, 12)}… ${v.path}`);
    }
  });

  test("mnemonics are read as the reference reads them, and refused with the reason", () => {
    assert.equal(normalizeMnemonic(`  YELLOW ${Array(11).fill("yellow").join("   ")}\n`), YELLOW);
    assert.throws(() => normalizeMnemonic(Array(11).fill("yellow").join(" ")), /expected 12 words, got 11/);
    assert.throws(() => normalizeMnemonic(`yello ${Array(11).fill("yellow").join(" ")}`), /word 1 is not in the BIP39/);
    assert.throws(() => normalizeMnemonic(Array(12).fill("abandon").join(" ")), /checksum does not match/);
    const fresh = newMnemonic();
    assert.equal(fresh.split(" ").length, 12);
    assert.equal(normalizeMnemonic(fresh), fresh);
    assert.notEqual(newMnemonic(), fresh);
  });

  test("ledgerd-wallet restore (words on stdin) then new-fa/new-ec give the reference's addresses; backup lists them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "wallet-restore-"));
    dirs.push(dir);
    const w = `-wallet=${join(dir, "w.json")}`;
    const restored = await cli([w, "restore"], `${YELLOW}\n`);
    assert.equal(restored.code, 0, restored.stderr);
    assert.doesNotMatch(restored.stdout + restored.stderr, /yellow/, "the words are never echoed");
    const got = [];
    for (const cmd of ["new-fa", "new-fa", "new-ec", "new-ec"]) {
      const r = await cli([w, cmd]);
      assert.equal(r.code, 0, r.stderr);
      got.push(r.stdout.trim());
    }
    assert.deepEqual(got, [...REFERENCE_ADDRESSES.FA, ...REFERENCE_ADDRESSES.EC]);
    assert.equal(statSync(join(dir, "w.json")).mode & 0o777, 0o600);
    const backup = await cli([w, "backup"]);
    const parsed = JSON.parse(backup.stdout) as {
      "wallet-seed": string;
      addresses: { public: string; secret: string }[];
    };
    assert.equal(parsed["wallet-seed"], YELLOW);
    assert.deepEqual(
      parsed.addresses.map((a) => a.public),
      got,
    );
    assert.ok(parsed.addresses.every((a) => /^(Fs|Es)/.test(a.secret)));
    const bad = await cli([`-wallet=${join(dir, "other.json")}`, "restore"], "yellow yellow\n");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /mnemonic: expected 12 words, got 2/);
  });

  test("a wallet file keeps its seed: new keys follow it, a restore re-derives the same addresses", () => {
    const dir = mkdtempSync(join(tmpdir(), "wallet-seed-"));
    dirs.push(dir);
    const restored = WalletFile.load(join(dir, "restored.json"));
    restored.update((_k, extras) => restoreSeed(extras, `${YELLOW}\n`));
    const got = [
      restored.update((k, e) => deriveNextKey(k, e, "FA")).publicAddress,
      restored.update((k, e) => deriveNextKey(k, e, "EC")).publicAddress,
      restored.update((k, e) => deriveNextKey(k, e, "FA")).publicAddress,
    ];
    assert.deepEqual(got, [REFERENCE_ADDRESSES.FA[0], REFERENCE_ADDRESSES.EC[0], REFERENCE_ADDRESSES.FA[1]]);
    const reread = WalletFile.load(join(dir, "restored.json"));
    assert.deepEqual(reread.seed(), { mnemonic: YELLOW, nextFA: 2, nextEC: 1 });
    assert.equal(reread.list().length, 3);
    assert.throws(
      () =>
        reread.update((_k, e) =>
          restoreSeed(e, "legal winner thank year wave sausage worth useful legal winner thank yellow"),
        ),
      /already has a different seed with keys derived/,
    );
    // a new wallet gets a random seed on its first key, and a second wallet restored from it agrees
    const fresh = WalletFile.load(join(dir, "fresh.json"));
    const first = fresh.update((k, e) => deriveNextKey(k, e, "EC")).publicAddress;
    const words = WalletFile.load(join(dir, "fresh.json")).seed()!.mnemonic;
    const copy = WalletFile.load(join(dir, "copy.json"));
    copy.update((_k, e) => restoreSeed(e, words));
    assert.equal(copy.update((k, e) => deriveNextKey(k, e, "EC")).publicAddress, first);
  });
});
