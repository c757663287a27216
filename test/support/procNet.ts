/**
 * The kernel's TCP socket tables (`/proc/net/tcp` and `tcp6`, or a process's own view under `/proc/<pid>/net`),
 * read for tests that check which sockets a node listens on or holds. Linux only.
 */
import { readFileSync } from "node:fs";

/** One row of a TCP table, as the kernel prints it: addresses in hex (little-endian words), ports as numbers. */
export interface TcpSocketRow {
  localAddress: string;
  localPort: number;
  remotePort: number;
  /** TCP state in hex: "01" established, "0A" listening. */
  state: string;
  /** The socket's inode: a process holds the socket when one of its descriptors links to `socket:[inode]`. */
  inode: string;
}

/** Every row of `<dir>/tcp` and `<dir>/tcp6` (a table that cannot be read, e.g. no IPv6, is skipped). */
export function tcpSockets(dir = "/proc/net"): TcpSocketRow[] {
  const rows: TcpSocketRow[] = [];
  for (const table of [`${dir}/tcp`, `${dir}/tcp6`]) {
    let lines: string[];
    try {
      lines = readFileSync(table, "utf8").split("\n").slice(1);
    } catch {
      continue;
    }
    for (const line of lines) {
      // columns: sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      const [localAddress, localPort] = cols[1]!.split(":");
      const remotePort = cols[2]!.split(":")[1]!;
      rows.push({
        localAddress: localAddress!,
        localPort: Number.parseInt(localPort!, 16),
        remotePort: Number.parseInt(remotePort, 16),
        state: cols[3]!,
        inode: cols[9]!,
      });
    }
  }
  return rows;
}
