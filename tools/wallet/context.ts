/**
 * What every wallet command gets: the parsed command line, the wallet file (unlocked with its passphrase
 * when encrypted), a node client created on first use, and output.
 */
import { readFileSync } from "node:fs";
import { AuthError, RpcError, UnreachableError } from "../../src/client/errors.js";
import { NodeClient } from "../../src/client/nodeClient.js";
import { WalletClient } from "../../src/client/walletClient.js";
import type { ParsedArgs } from "./args.js";
import { WalletError } from "./errors.js";
import { Passphrase } from "./walletCrypto.js";
import { defaultWalletPath, PASSPHRASE_HINT, WalletFile } from "./walletFile.js";

/** Node URL used when neither -node nor LEDGERD_NODE is given (spec §1 rule 4: port 8088). */
export const DEFAULT_NODE_URL = "http://127.0.0.1:8088";

export interface Io {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  /** stdin, for --content-file - */
  readStdin: () => Buffer;
  /** ask for a passphrase without echoing it; absent when there is no terminal to ask on */
  askPassphrase?: (prompt: string) => Promise<string>;
}

export interface Command {
  usage: string;
  summary: string;
  /** allowed positional count */
  args: [min: number, max: number];
  /** options this command takes besides the global ones */
  opts: readonly string[];
  /** reads or writes the wallet file: an encrypted one is unlocked before `run` */
  wallet?: true;
  run: (ctx: Context) => Promise<void>;
}

/** Everything a command needs: the parsed line, the wallet, a lazily created node client, output. */
export class Context {
  private clientInstance: NodeClient | undefined;
  private walletdInstance: WalletClient | undefined;
  private pass: Passphrase | undefined;
  readonly walletPath: string;
  constructor(
    readonly args: ParsedArgs,
    readonly io: Io,
  ) {
    this.walletPath = args.values.get("wallet") ?? io.env.LEDGERD_WALLET ?? defaultWalletPath();
  }

  get nodeUrl(): string {
    return this.args.values.get("node") ?? this.io.env.LEDGERD_NODE ?? DEFAULT_NODE_URL;
  }

  /** The node client, created on first use from -node, -rpcuser, -rpcpass, -cafile (or LEDGERD_* variables). */
  client(): NodeClient {
    if (this.clientInstance === undefined) {
      this.clientInstance = new NodeClient({
        url: this.nodeUrl,
        user: this.args.values.get("rpcuser") ?? this.io.env.LEDGERD_RPCUSER,
        password: this.args.values.get("rpcpass") ?? this.io.env.LEDGERD_RPCPASS,
        caFile: this.args.values.get("cafile") ?? this.io.env.LEDGERD_CAFILE,
      });
    }
    return this.clientInstance;
  }

  close(): void {
    this.clientInstance?.close();
    this.walletdInstance?.close();
  }

  /**
   * The wallet service whose keys to use instead of the wallet file (-walletd=URL or LEDGERD_WALLETD), or
   * undefined. With one, the CLI and the service cannot disagree: the keys are the service's.
   */
  walletd(): WalletClient | undefined {
    const url = this.args.values.get("walletd") ?? this.io.env.LEDGERD_WALLETD;
    if (url === undefined || url === "") return undefined;
    this.walletdInstance ??= new WalletClient({
      url,
      user: this.args.values.get("walletduser") ?? this.io.env.LEDGERD_WALLETD_RPCUSER,
      password: this.args.values.get("walletdpass") ?? this.io.env.LEDGERD_WALLETD_RPCPASS,
    });
    return this.walletdInstance;
  }

  /** A call to the wallet service; its refusals and failures become WalletErrors that name the service. */
  async fromWalletd<T>(call: (w: WalletClient) => Promise<T>): Promise<T> {
    const w = this.walletd()!;
    try {
      return await call(w);
    } catch (e) {
      if (e instanceof RpcError)
        throw new WalletError(
          `the wallet service refused ${e.method}: ${typeof e.data === "string" ? e.data : e.rpcMessage}`,
          e.code === -32001
            ? `unlock it: its unlock-wallet method, with the passphrase and a timeout (docs/wallet.md)`
            : undefined,
        );
      if (e instanceof UnreachableError || e instanceof AuthError)
        throw new WalletError(
          `wallet service at ${w.baseUrl}: ${e.message}`,
          e instanceof AuthError
            ? "pass -walletduser and -walletdpass (or LEDGERD_WALLETD_RPCUSER / LEDGERD_WALLETD_RPCPASS)"
            : "is ledgerd-walletd running there? (-walletd=URL)",
        );
      throw e;
    }
  }

  /**
   * Before a command that uses the wallet: get the passphrase of an encrypted wallet, or the one a new
   * wallet is to be created with (given by -passfile or LEDGERD_WALLET_PASS; a new wallet is never prompted
   * for, so scripts keep working).
   */
  async unlock(): Promise<void> {
    if (WalletFile.isEncrypted(this.walletPath)) this.pass = await this.passphrase(false);
    else if (WalletFile.mode(this.walletPath) === undefined) this.pass = this.givenPassphrase();
  }

  /**
   * The passphrase: the first line of -passfile=FILE, else LEDGERD_WALLET_PASS, else asked on the terminal
   * (twice when `confirm`, for a new one). Never from the command line itself, which other users see in `ps`.
   */
  async passphrase(confirm: boolean): Promise<Passphrase> {
    const given = this.givenPassphrase();
    if (given !== undefined) return given;
    const ask = this.io.askPassphrase;
    if (ask === undefined)
      throw new WalletError(
        confirm
          ? `wallet file ${this.walletPath}: encrypting needs a new passphrase`
          : `wallet file ${this.walletPath} is encrypted: its passphrase is needed`,
        PASSPHRASE_HINT,
      );
    const text = await ask(confirm ? "new wallet passphrase: " : "wallet passphrase: ");
    if (confirm && (await ask("the same again: ")) !== text) throw new WalletError("the two passphrases differ");
    return this.checked(text, "the passphrase typed");
  }

  private givenPassphrase(): Passphrase | undefined {
    const file = this.args.values.get("passfile");
    if (file !== undefined) {
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch (e) {
        throw new WalletError(`-passfile ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
      }
      return this.checked(text.split(/\r?\n/)[0] ?? "", `-passfile ${file}`);
    }
    const env = this.io.env.LEDGERD_WALLET_PASS;
    return env === undefined ? undefined : this.checked(env, "LEDGERD_WALLET_PASS");
  }

  private checked(text: string, from: string): Passphrase {
    if (text.length === 0) throw new WalletError(`${from}: the passphrase is empty`);
    return new Passphrase(text);
  }

  wallet(): WalletFile {
    const mode = WalletFile.mode(this.walletPath);
    if (mode !== undefined && (mode & 0o077) !== 0)
      this.warn(
        `wallet file ${this.walletPath} can be read by other users (mode ${mode.toString(8)}); run: chmod 600 ${this.walletPath}`,
      );
    return WalletFile.load(this.walletPath, this.pass);
  }

  out(line: string): void {
    this.io.stdout.write(`${line}\n`);
  }
  warn(line: string): void {
    this.io.stderr.write(`${line}\n`);
  }
  get quiet(): boolean {
    return this.args.flags.has("q") || this.args.flags.has("quiet");
  }
  pos(i: number): string {
    return this.args.positionals[i]!;
  }
}

/** JSON output: indented, bigints as decimal strings. */
export function json(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2);
}
