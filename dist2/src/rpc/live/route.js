import { AUTH_REALM, authEnabled, authorized, UNAUTHORIZED_BODY } from "../auth.js";
/** The path of the feed on both servers. */
export const LIVE_PATH = "/live";
/**
 * Most bytes of one client frame. A subscribe request of a few hundred chains or hashes fits (~70 bytes
 * per hex ID); larger lists go in several frames. uWS closes a connection sending more (code 1009).
 */
const MAX_CLIENT_FRAME_BYTES = 64 * 1024;
/**
 * Seconds without any frame before uWS closes the connection. uWS pings idle connections itself
 * (sendPingsAutomatically), so a live client that answers pings is never closed by this.
 */
const IDLE_TIMEOUT_SECONDS = 120;
/** Mount the feed at LIVE_PATH on `app`. */
export function mountLiveRoute(app, feed, checks) {
    app.ws(LIVE_PATH, {
        idle_timeout: IDLE_TIMEOUT_SECONDS,
        message_type: "String",
        max_payload_length: MAX_CLIENT_FRAME_BYTES,
        // The feed never lets a connection go over its own limit; uWS's (larger) is only a backstop.
        max_backpressure: 64 * 1024 * 1024,
    }, (ws) => {
        let conn;
        conn = feed.open({
            send: (text) => {
                ws.send(text);
            },
            end: (code, reason) => {
                if (!ws.closed)
                    ws.close(code, reason);
            },
            bufferedBytes: () => (ws.closed ? 0 : ws.buffered),
        });
        ws.on("message", (text) => {
            if (conn !== undefined)
                feed.message(conn, text);
        });
        ws.on("drain", () => {
            if (conn !== undefined)
                feed.drained(conn);
        });
        ws.on("close", () => {
            if (conn !== undefined)
                feed.closed(conn);
            conn = undefined;
        });
    });
    app.upgrade(LIVE_PATH, (req, res) => {
        const refusal = checks.refuse(req);
        if (refusal === undefined && !feed.hasRoom()) {
            res.status(503).header("Content-Type", "text/plain; charset=utf-8").send("too many live feed connections\n");
            return;
        }
        if (refusal !== undefined) {
            res.status(refusal.status);
            for (const [name, value] of refusal.headers)
                res.header(name, value);
            res.send(refusal.body);
            return;
        }
        res.upgrade();
    });
}
/** The API's Basic auth (auth.ts) as a route check: credentials read from the configuration per request. */
export function basicAuthCheck(credentials) {
    return {
        refuse: (req) => {
            const { user, pass } = credentials();
            if (!authEnabled(user, pass) || authorized(req.headers.authorization, user, pass))
                return undefined;
            return {
                status: 401,
                headers: [
                    ["Content-Type", "text/plain; charset=utf-8"],
                    ["WWW-Authenticate", `Basic realm="${AUTH_REALM}"`],
                ],
                body: UNAUTHORIZED_BODY,
            };
        },
    };
}
//# sourceMappingURL=route.js.map