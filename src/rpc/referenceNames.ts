/**
 * The reference node's method names that this node serves under the spec's neutral names
 * (shared/README.md "Names"; docs/compat.md has the same table). Never served: a call by one of these names
 * gets -32601 whose `data` names the method to call instead, so a client ported from the reference finds
 * its way.
 */
export const REFERENCE_METHOD_NAMES: ReadonlyMap<string, string> = new Map([
  ["factoid-submit", "asset-submit"],
  ["factoid-balance", "asset-balance"],
  ["factoid-block", "asset-block"],
  ["factoid-ack", "asset-ack"],
  ["multiple-fct-balances", "multiple-asset-balances"],
]);
