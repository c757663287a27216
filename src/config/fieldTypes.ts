/**
 * The shape of the configuration file's field table (fields.ts): a field's type, default, bounds, choices and
 * meaning, and the names of the groups. Types only, shared by the table's parts (appFields.ts,
 * extensionFields.ts) and its readers (ini.ts, view.ts, tools/deploy/confExample.ts through ini.ts).
 */
/** "list" is a multi-valued field: each `Name = value` line appends, a bare `Name` line empties the list. */
export type FieldType = "string" | "int" | "bool" | "list";

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** default as it would be written in the file; null = none (lists: the result shows null; VerifyThreads:
   *  computed from the CPU count) */
  default: string | null;
  /** inclusive bounds of "int" fields */
  min?: number;
  max?: number;
  /** allowed values of a "string" field, compared case-insensitively */
  choices?: readonly string[];
  /** value must never leave the process in clear (the `configuration` result redacts it) */
  secret?: boolean;
  /** ledgerd's own field: accepted in the file, not part of the `configuration` result */
  extension?: boolean;
  /** other names accepted in the file for this field (the reference node's vendor-named fields) */
  aliases?: readonly string[];
  /** one line for docs/configuration.md and error messages */
  doc: string;
}

export interface GroupSpec {
  name: GroupName;
  fields: readonly FieldSpec[];
}

export const GROUP_NAMES = ["App", "Peer", "Log", "Wallet", "Walletd", "Cluster", "Anchor"] as const;
export type GroupName = (typeof GROUP_NAMES)[number];
