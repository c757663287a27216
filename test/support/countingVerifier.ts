/** The real inline verifier (src/workers/verifier.ts), counting the checks it is asked: tests see what was checked. */
import { InlineVerifier, type SignatureCheck, type Verifier } from "../../src/workers/verifier.js";

export class CountingVerifier implements Verifier {
  /** checks asked so far */
  asked = 0;
  private readonly inner = new InlineVerifier();

  verify(checks: readonly SignatureCheck[]): Promise<boolean[]> {
    this.asked += checks.length;
    return this.inner.verify(checks);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
