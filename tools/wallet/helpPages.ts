/**
 * The full help page of each wallet command (`ledgerd-wallet help <command>`): what it does, its options,
 * what it costs, the limits it checks, and one example. The usage line and summary stay with the command
 * (commands.ts); a test checks that every command has a page and that its example names the command.
 */
import { MAX_ENTRY_PAYLOAD } from "../../src/protocol/entry.js";

export interface HelpPage {
  /** lines after the usage line and summary */
  details: readonly string[];
  /** one command line, as typed */
  example: string;
}

const BYTES = MAX_ENTRY_PAYLOAD.toLocaleString("en-US");

const WAITING = [
  "waiting (default: until the node acknowledges, at most 60 s):",
  "  --wait-confirmed    wait until the block holding it is saved (DBlockConfirmed; default limit 3 blocks + 60 s)",
  "  --no-wait           return once the node accepted the request",
  "  -timeout=SECONDS    give up waiting after this long (the request may still be confirmed later)",
  "  -q, --quiet         print only the result (hash or txid), no progress lines",
];

const ENTRY_CONTENT = [
  "entry contents:",
  "  --ext TEXT, --ext-hex HEX      an external ID (repeat for several), as text or hex",
  "  --content TEXT | --content-hex HEX | --content-file FILE   the content (at most one of them)",
  `limits: external IDs and content together at most ${BYTES} bytes per entry (the node refuses more).`,
];

const ENTRY_COST =
  "cost: 1 entry credit per started KiB of external IDs + content (at least 1, at most 10), paid by the EC key.";

const PAGING = [
  "paging (the node's opaque cursors; a page is stable while blocks are added):",
  "  -limit=N          items per page, 1 to 1000 (default 100)",
  "  -cursor=CURSOR    start after the page that printed `next page: -cursor=CURSOR`",
  "  --all             follow the cursors to the last page",
  "  -order=asc|desc   oldest first (default) or newest first (not with --search)",
];

const FUNDING = [
  "funding: an FA… address gets asset units from another address (`send`); an EC… address gets entry credits",
  "  from an FA… address (`buy-ec`). On a LOCAL network the genesis key (import",
  "  Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK) holds 20 000 asset units.",
];

const TRANSACTION_FEE = [
  "fee: paid in asset units by the sender, at the node's entry-credit rate (`entry-credit-rate`): entry credits",
  "  = started KiB of the transaction + 10 per output + 1 per signature (a simple payment: 12).",
];

export const HELP_PAGES: Readonly<Record<string, HelpPage>> = {
  "new-fa": {
    details: [
      "Derives the wallet seed's next asset (FA…) key pair (BIP44 m/44'/131'/0'/0/i, as the reference wallet), stores",
      "it in the wallet file and prints its public address. A wallet without a seed gets a new 12-word one first.",
      ...FUNDING,
    ],
    example: "ledgerd-wallet new-fa",
  },
  "new-ec": {
    details: [
      "Derives the wallet seed's next entry credit (EC…) key pair (BIP44 m/44'/132'/0'/0/i, as the reference",
      "wallet), stores it in the wallet file and prints its public address.",
      ...FUNDING,
    ],
    example: "ledgerd-wallet new-ec",
  },
  import: {
    details: [
      "Adds private keys (Fs… for assets, Es… for entry credits) to the wallet file; prints their public addresses.",
      "The wallet file is written with mode 0600.",
      "  -   read the keys from stdin, one per line (a key on the command line is visible in `ps` and shell history)",
    ],
    example: "ledgerd-wallet import Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK",
  },
  encrypt: {
    details: [
      "Encrypts a plain wallet file in place: the keys are sealed with AES-256-GCM under a key derived from a",
      "passphrase with scrypt. Every later command that uses the wallet needs the passphrase: -passfile=FILE (its",
      "first line), LEDGERD_WALLET_PASS, or typed on the terminal when asked. A wrong passphrase is an error; the",
      "file is never changed by one. Without the passphrase the keys are lost: keep it, and a backup of the file.",
      "A new wallet is created encrypted when the command that creates it is given a passphrase.",
    ],
    example: "ledgerd-wallet encrypt -passfile=$HOME/.ledgerd/passphrase",
  },
  restore: {
    details: [
      "Reads a 12-word BIP39 mnemonic (from the reference wallet or a `backup`) from stdin and makes it the wallet's",
      "seed; new-fa and new-ec then give that seed's keys in the same order as the reference wallet. A wallet that",
      "already has a different seed is refused: restore into a new file with -wallet=FILE.",
    ],
    example: "ledgerd-wallet restore -wallet=$HOME/.ledgerd/restored.json < mnemonic.txt",
  },
  backup: {
    details: [
      'Prints {"wallet-seed": the 12 words, "addresses": [{public, secret}…]} — every private key in the wallet.',
      "Keys derived from the seed can be re-derived from the words alone; imported keys only from this output.",
    ],
    example: "ledgerd-wallet backup > /media/offline/wallet-backup.json",
  },
  list: {
    details: ["Lists the public addresses of the wallet's keys.", "  --json   one JSON array of {kind, public}"],
    example: "ledgerd-wallet list --json",
  },
  balance: {
    details: [
      "Prints each address's balance at the node: asset units for FA…, entry credits for EC…, including what the",
      "node acknowledged but not yet saved in a block.",
      ...FUNDING,
    ],
    example: "ledgerd-wallet balance FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q",
  },
  "buy-ec": {
    details: [
      "Converts asset units of <fromFA> into entry credits on <toEC> at the node's current rate.",
      ...TRANSACTION_FEE,
      "The FA… address pays credits × rate + the fee.",
      ...WAITING,
    ],
    example:
      "ledgerd-wallet buy-ec FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q EC2DKSYyRcNWf7RS963VFYgMExoHRYLHVeCfQ9PGPmNzwrcmgm2r 100",
  },
  send: {
    details: [
      "Sends asset units from <fromFA> (a key in the wallet) to <toFA>. Amounts are decimal asset units",
      "(8 decimals: 1.5 = 150000000 base units).",
      ...TRANSACTION_FEE,
      ...WAITING,
    ],
    example: "ledgerd-wallet send FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q FA3… 1.5",
  },
  "compose-chain": {
    details: [
      "Prints the commit-chain and reveal-chain JSON-RPC requests of a new chain, signed by the EC key, without",
      "sending them (for curl or another tool). The chain ID follows from the external IDs.",
      ...ENTRY_CONTENT,
      `${ENTRY_COST} A new chain costs 10 more.`,
    ],
    example:
      'ledgerd-wallet compose-chain --ext hello --content "first entry" EC2DKSYyRcNWf7RS963VFYgMExoHRYLHVeCfQ9PGPmNzwrcmgm2r',
  },
  "compose-entry": {
    details: [
      "Prints the commit-entry and reveal-entry JSON-RPC requests of an entry in an existing chain, without sending.",
      ...ENTRY_CONTENT,
      ENTRY_COST,
    ],
    example:
      'ledgerd-wallet compose-entry --chain <chain ID> --content "second entry" EC2DKSYyRcNWf7RS963VFYgMExoHRYLHVeCfQ9PGPmNzwrcmgm2r',
  },
  "compose-transaction": {
    details: [
      "Prints the asset-submit request of a payment from <fromFA>, without sending: to an FA… address the amount",
      "is in asset units, to an EC… address in entry credits.",
      "  -rate=BASE_UNITS_PER_EC   the rate to price it at (default: ask the node)",
      ...TRANSACTION_FEE,
    ],
    example: "ledgerd-wallet compose-transaction FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q FA3… 2",
  },
  "add-chain": {
    details: [
      "Creates a chain with its first entry: sends the commit, then the reveal, paid by the EC key; prints the",
      "chain ID (and the entry hash).",
      ...ENTRY_CONTENT,
      `${ENTRY_COST} A new chain costs 10 more (11 at least).`,
      ...WAITING,
    ],
    example:
      'ledgerd-wallet add-chain --ext hello --ext "$(date +%s)" --content "Hello, ledger" EC2DKSYyRcNWf7RS963VFYgMExoHRYLHVeCfQ9PGPmNzwrcmgm2r',
  },
  "add-entry": {
    details: [
      "Adds an entry to an existing chain: commit, then reveal, paid by the EC key; prints the entry hash.",
      ...ENTRY_CONTENT,
      ENTRY_COST,
      ...WAITING,
    ],
    example:
      'ledgerd-wallet add-entry --wait-confirmed --chain <chain ID> --content "My first entry" EC2DKSYyRcNWf7RS963VFYgMExoHRYLHVeCfQ9PGPmNzwrcmgm2r',
  },
  entry: {
    details: [
      "Shows an entry by its hash: chain ID, external IDs and content (text when printable, else hex).",
      "  --json   the node's JSON",
    ],
    example: "ledgerd-wallet entry <entry hash>",
  },
  "chain-head": {
    details: [
      "Prints the keymr of the chain's newest saved entry block.",
      "  --json        the node's JSON",
      "  -q, --quiet   only the keymr",
    ],
    example: "ledgerd-wallet chain-head -q <chain ID>",
  },
  entries: {
    details: [
      "Lists a chain's entries from the node's query index (`chain-entries`): every entry, oldest first, unless",
      "paged. With --search, only the entries whose ext IDs start with the given ones, position by position",
      "(`search-entries`), one page at a time.",
      "  --search TEXT, --search-hex HEX   an ext ID to match (repeat for the 2nd, 3rd …), as text or hex",
      "  --prefix          the last --search matches the start of the entry's ext ID (default: all exact)",
      ...PAGING,
      "  --json            the whole chain: a JSON array; paged or searched: { entries, nextcursor }",
      "Reads saved blocks only: entries still in the open block appear once it is saved.",
    ],
    example: "ledgerd-wallet entries <chain ID> --search invoice --search 2026- --prefix",
  },
  history: {
    details: [
      "Lists what the saved blocks did to an address (`address-history`): for FA… payments sent and received;",
      "for EC… entry credits bought and spent on commits. One page at a time (-limit, default 100).",
      "Columns: height, time (UTC), kind, amount (asset units, or entry credits), transaction ID.",
      ...PAGING,
      "  --json            { items, nextcursor } as the node answers them (amounts in base units or EC)",
    ],
    example: "ledgerd-wallet history FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q -order=desc -limit=20",
  },
  receipt: {
    details: [
      "Prints the entry's Merkle receipt: the path from the entry to its directory block.",
      "  --verify   recompute every hash locally and check the directory block against the node (exit 2 if not)",
      "  --json     the node's JSON",
    ],
    example: "ledgerd-wallet receipt --verify <entry hash>",
  },
  proof: {
    details: [
      "Saves the node's self-contained proof of a saved entry (the `proof` method), or checks a saved one with no node.",
      "  --out FILE           write the proof to FILE (default: print it)",
      "  --verify FILE        check FILE offline: entry hash, Merkle branch to the directory block, the majority's",
      "                       signatures against the authority set derived from genesis (exit 2 if anything fails)",
      "  --bootstrap-key HEX  the network's bootstrap key to trust (LOCAL's and MAIN's are known to the wallet)",
      "  --anchor-rpc URL     also check the anchor's Ethereum transaction at this RPC (needs the network)",
      "  --json               the verified summary as JSON",
      "Limits: a proof exists once the block after the entry's is saved (its admin block holds the signatures).",
    ],
    example: "ledgerd-wallet proof <entry hash> --out doc.proof && ledgerd-wallet proof --verify doc.proof",
  },
  watch: {
    details: [
      "Follows the node's live event feed (/live) and prints one line per event; reconnects and resumes by itself.",
      "  --chain <chain ID>, --address <FA…|EC…>, --hash <entry hash|txid>   what to follow besides blocks",
      "  --minutes, --health   minute and health events too",
      "  --with-content        entry contents in entry events",
      "  -from=HEIGHT          replay blocks from this height first",
      "  -count=N              stop after N events",
      "  --json                the events as JSON lines",
    ],
    example: "ledgerd-wallet watch --chain <chain ID> -count=10",
  },
};

/** The page's lines after the usage line: details, then "example:". */
export function helpPageText(command: string): string {
  const page = HELP_PAGES[command];
  if (page === undefined) return "";
  return `\n\n${page.details.map((l) => `  ${l}`).join("\n")}\n\nexample:\n  ${page.example}`;
}
