/**
 * The federation under faults of its servers (test/support/clusterFaults.ts): a federated server stopped
 * (SIGSTOP) past the fault timeout, and restarted with its clock 30 s fast, then 30 s slow (libfaketime).
 */
import { describeFaults } from "../support/clusterFaults.js";

describeFaults("servers", ["sigstop", "skew"]);
