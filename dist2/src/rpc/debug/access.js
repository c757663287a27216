/**
 * Who may call the `/debug` methods that change the node's state (set-drop-rate, set-delay,
 * reload-configuration): only with `DebugApi = readwrite`, and a caller off loopback only with the debug
 * credential ([App] DebugRpcUser / DebugRpcPass) — the API's own credential is not enough there. Each change
 * is logged at warning level with the caller.
 */
import { isLoopbackAddress } from "../../config/loopback.js";
import { serverError } from "../errors.js";
/** Error message of a refused state-changing debug call. */
export const DEBUG_REFUSED = "Debug method not allowed";
/** The caller as a log field: address and credential ("unknown" outside an HTTP request). */
export function callerOf(ctx) {
    const r = ctx.request;
    return r === undefined ? { caller: "unknown", credential: "none" } : { caller: r.remote, credential: r.credential };
}
/**
 * Throws a -32000 error unless the request in `ctx` may change the node's state through `method`.
 * Without request information (not an HTTP call) the caller counts as remote without credential.
 */
export function assertMayChangeState(method, ctx) {
    const config = ctx.getConfig();
    if (config.debugApi !== "readwrite") {
        throw serverError(DEBUG_REFUSED, `${method} changes the node's state and the debug API is ${config.debugApi}: ` +
            "start the node with -debugapi=readwrite ([App] DebugApi = readwrite) to allow it");
    }
    const request = ctx.request;
    const remote = request?.remote ?? "";
    if (isLoopbackAddress(remote) || request?.credential === "debug")
        return;
    const configured = config.debugRpcUser !== "" ? "" : " (none is configured)";
    throw serverError(DEBUG_REFUSED, `${method} from ${remote === "" ? "an unknown address" : remote} (not loopback) needs the debug credential, ` +
        `[App] DebugRpcUser / DebugRpcPass${configured}`);
}
/** `handler` behind assertMayChangeState (same type, so the method contract still types it). */
export function stateChanging(method, handler) {
    return (params, ctx) => {
        assertMayChangeState(method, ctx);
        return handler(params, ctx);
    };
}
//# sourceMappingURL=access.js.map