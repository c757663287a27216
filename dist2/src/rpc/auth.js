/**
 * HTTP Basic authentication of both endpoints (spec §5; reference api-behavior §1.3). Enabled when the
 * configuration has an RPC user or password. The whole `Authorization` value must equal
 * `Basic base64(user:pass)`; both sides are hashed first so the comparison is constant-time whatever
 * their lengths.
 */
import { createHash, timingSafeEqual } from "node:crypto";
/** Realm of the 401 challenge (the reference's "factomd RPC" with the vendor word replaced). */
export const AUTH_REALM = "node RPC";
/** Body of a 401 answer (plain text, as the reference). */
export const UNAUTHORIZED_BODY = "401 Unauthorized.\n";
/** True when Basic auth is configured. */
export function authEnabled(user, pass) {
    return user !== "" || pass !== "";
}
function digest(text) {
    return createHash("sha256").update(text, "utf8").digest();
}
/**
 * Does the request's Authorization header carry exactly the configured credentials?
 * @param header the header value, undefined when absent
 */
export function authorized(header, user, pass) {
    const expected = `Basic ${Buffer.from(`${user}:${pass}`, "utf8").toString("base64")}`;
    // Hash even an absent header, so the time taken does not tell absent from wrong.
    return timingSafeEqual(digest(header ?? ""), digest(expected)) && header !== undefined;
}
//# sourceMappingURL=auth.js.map