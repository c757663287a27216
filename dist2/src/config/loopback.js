/**
 * Which addresses are loopback: the default listen address and the callers that need no second credential
 * for the state-changing /debug methods. Loopback is 127.0.0.0/8, ::1, their IPv4-mapped IPv6 forms, and the
 * name `localhost` (which resolves to those everywhere we run).
 */
import { isIPv4, isIPv6 } from "node:net";
/** Is `address` (an IP address in any textual form, brackets allowed) a loopback address? */
export function isLoopbackAddress(address) {
    let a = address.trim().toLowerCase();
    if (a.startsWith("[") && a.endsWith("]"))
        a = a.slice(1, -1);
    if (isIPv4(a))
        return a.startsWith("127.");
    if (!isIPv6(a))
        return false;
    if (a.startsWith("::ffff:")) {
        const tail = a.slice("::ffff:".length);
        if (isIPv4(tail))
            return tail.startsWith("127.");
        // ::ffff:7f00:1 — the mapped address written as hex groups
        const groups = tail.split(":");
        return groups.length === 2 && Number.parseInt(groups[0], 16) >> 8 === 0x7f;
    }
    return expandIPv6(a) === "0000:0000:0000:0000:0000:0000:0000:0001";
}
/** Is the listen host (address or name) loopback-only? `0.0.0.0` and `::` are every interface: not loopback. */
export function isLoopbackHost(host) {
    const h = host.trim().toLowerCase().replace(/\.$/, "");
    return h === "localhost" || isLoopbackAddress(h);
}
function expandIPv6(a) {
    const [head = "", tail] = a.split("::");
    const left = head === "" ? [] : head.split(":");
    const right = tail === undefined || tail === "" ? [] : tail.split(":");
    const missing = 8 - left.length - right.length;
    const groups = [...left, ...Array(tail === undefined ? 0 : missing).fill("0"), ...right];
    return groups.map((g) => g.padStart(4, "0")).join(":");
}
//# sourceMappingURL=loopback.js.map