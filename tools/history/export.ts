/** Entry point of `ledgerd-export` (bin/ledgerd-export imports this file; docs/export.md). */
import { runHistoryCommand } from "../../src/history/commands.js";

process.exitCode = await runHistoryCommand("export", process.argv.slice(2), process);
