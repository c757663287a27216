/**
 * Progress of a long walk over heights on stderr: a bar redrawn in place on a terminal, a plain line now and
 * then otherwise (logs and pipes stay readable), nothing when quiet. Wall-clock time only paces the drawing.
 */

/** Redraws of the terminal bar at most this often, ms (more is flicker and CPU for nothing). */
const TTY_REDRAW_MS = 100;
/** A plain progress line at most this often, ms (a log gets a line per 5 s of a long run, not per height). */
const PLAIN_LINE_MS = 5000;
/** Characters of the bar itself. */
const BAR_WIDTH = 30;

export interface ProgressOptions {
  /** what is being done, e.g. "export" */
  label: string;
  /** heights to go through (first..last inclusive) */
  total: number;
  /** where the progress goes (stderr); its isTTY chooses the bar */
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  quiet?: boolean;
}

export class Progress {
  private readonly started = performance.now();
  private lastDraw = 0;
  private readonly tty: boolean;
  private drewBar = false;

  constructor(private readonly options: ProgressOptions) {
    this.tty = options.stream.isTTY === true;
  }

  /** `done` heights of `total` gone through, `entries` entries so far. */
  update(done: number, entries: number): void {
    if (this.options.quiet === true) return;
    const now = performance.now();
    const last = done >= this.options.total;
    if (!last && now - this.lastDraw < (this.tty ? TTY_REDRAW_MS : PLAIN_LINE_MS)) return;
    this.lastDraw = now;
    const total = Math.max(1, this.options.total);
    const share = Math.min(1, done / total);
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(entries / seconds) : 0;
    const text = `${this.options.label}: ${done}/${this.options.total} heights, ${entries} entries, ${seconds.toFixed(1)} s (${rate} entries/s)`;
    if (this.tty) {
      const filled = Math.round(share * BAR_WIDTH);
      this.options.stream.write(
        `\r\x1b[K[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${(share * 100).toFixed(0)}% ${text}`,
      );
      this.drewBar = true;
    } else this.options.stream.write(`${text}\n`);
  }

  /** End the bar's line (a terminal's cursor back at a fresh line before the result is printed). */
  end(): void {
    if (this.drewBar) this.options.stream.write("\n");
    this.drewBar = false;
  }
}
