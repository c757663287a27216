/**
 * Counts each write the API hands the ledger — accepted, or refused with its LedgerError code — by wrapping
 * the three submit methods of the ledger the RPC server receives. Neither the ledger nor the handlers know
 * about metrics; every other method passes straight through to the ledger.
 */
import type { LedgerApi } from "../ledger/api.js";
import { LedgerError } from "../ledger/errors.js";
import type { NodeMetrics, WriteKind } from "./metrics.js";

const SUBMITS: Readonly<Record<string, WriteKind>> = {
  submitCommit: "commit",
  submitReveal: "reveal",
  submitTransaction: "transaction",
};

/** `ledger` with its submit methods counted in `metrics` (ledgerd_writes_total). */
export function countWrites<L extends LedgerApi>(ledger: L, metrics: NodeMetrics): L {
  const wrapped = new Map<PropertyKey, unknown>();
  for (const [name, kind] of Object.entries(SUBMITS)) {
    const submit = (ledger as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>)[name]!.bind(ledger);
    // the outcome handlers are made once per method: a write costs one promise here, not an async frame more
    const accepted = (result: unknown): unknown => {
      metrics.write(kind);
      return result;
    };
    const refused = (e: unknown): never => {
      metrics.write(kind, e instanceof LedgerError ? e.type.code : "OTHER");
      throw e;
    };
    wrapped.set(name, (...args: unknown[]): Promise<unknown> => {
      let pending: Promise<unknown>;
      try {
        pending = submit(...args);
      } catch (e) {
        // a submit that throws instead of rejecting is counted and refused the same way
        return Promise.reject(e).catch(refused);
      }
      return pending.then(accepted, refused);
    });
  }
  // Methods are bound once and kept: a read-heavy node calls through here on every request.
  return new Proxy(ledger, {
    get(target, property) {
      const known = wrapped.get(property);
      if (known !== undefined) return known;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      const bound = value.bind(target);
      wrapped.set(property, bound);
      return bound;
    },
  });
}
