/**
 * Which Node.js runs the node (issue 19 item 8). The HTTP and TLS server, hyper-express on uWebSockets.js, is
 * the unofficial @trufflesuite build of uWS v20.30 (package.json `overrides`), which ships native binaries for
 * the Node ABIs 93, 108 and 115 (Node 16, 18, 20) only: on any other Node it cannot load. package.json `engines`
 * says the same (>=20.19 <21); the launchers (bin/) check it first so the user reads this, not a stack trace.
 * Imports nothing, so it runs before any dependency loads. The supply-chain position: docs/operations.md.
 */

/** Node ABI (process.versions.modules) the server's native binary is built for on the supported Node line. */
export const SUPPORTED_NODE_ABI = "115";
/** Supported Node.js: major 20, at least 20.19 (package.json engines). */
export const SUPPORTED_NODE_MAJOR = 20;
export const SUPPORTED_NODE_MIN_MINOR = 19;

/** The refusal for `version` (process.versions.node) and `abi` (process.versions.modules), or undefined when fine. */
export function unsupportedNodeMessage(program: string, version: string, abi: string): string | undefined {
  const [major = 0, minor = 0] = version.split(".").map((n) => Number.parseInt(n, 10));
  if (major === SUPPORTED_NODE_MAJOR && minor >= SUPPORTED_NODE_MIN_MINOR && abi === SUPPORTED_NODE_ABI)
    return undefined;
  return (
    `${program}: this is Node.js ${version}; ledgerd needs Node.js ${SUPPORTED_NODE_MAJOR} ` +
    `(${SUPPORTED_NODE_MAJOR}.${SUPPORTED_NODE_MIN_MINOR} or later ${SUPPORTED_NODE_MAJOR}.x): its HTTP server ` +
    "(uWebSockets.js v20.30, the unofficial @trufflesuite build) ships binaries for Node 16, 18 and 20 only. " +
    "Install Node 20 (e.g. `nvm install 20`); docs/operations.md, Security, says why and what comes next.\n"
  );
}
