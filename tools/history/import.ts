/** Entry point of `ledgerd-import` (bin/ledgerd-import imports this file; docs/export.md). */
import { runHistoryCommand } from "../../src/history/commands.js";

process.exitCode = await runHistoryCommand("import", process.argv.slice(2), process);
