/**
 * The overview's rate charts: uPlot (served from the project's node_modules as /assets/uplot.js, a global
 * script) drawing one series of per-block rates over the last hour.
 */

interface UPlotInstance {
  setData(data: number[][]): void;
  setSize(size: { width: number; height: number }): void;
  destroy(): void;
}
type UPlotConstructor = new (opts: unknown, data: number[][], target: HTMLElement) => UPlotInstance;

/** Seconds of history a chart keeps. */
export const CHART_WINDOW_SECONDS = 3600;

/** A per-block rate chart: `add(time, value)` appends a point and drops those older than an hour. */
export class RateChart {
  private readonly xs: number[] = [];
  private readonly ys: number[] = [];
  private plot: UPlotInstance | undefined;

  constructor(
    private readonly target: HTMLElement,
    private readonly label: string,
    private readonly color: string,
  ) {}

  /**
   * Add `value` at `timeSeconds`. A directory block's time has minute resolution, so blocks shorter than a
   * minute share a time: their values add up into that minute's point.
   */
  add(timeSeconds: number, value: number): void {
    const last = this.xs.length - 1;
    if (last >= 0 && timeSeconds < this.xs[last]!) return;
    if (last >= 0 && timeSeconds === this.xs[last]) this.ys[last] = this.ys[last]! + value;
    else {
      this.xs.push(timeSeconds);
      this.ys.push(value);
    }
    const oldest = timeSeconds - CHART_WINDOW_SECONDS;
    while (this.xs.length > 0 && this.xs[0]! < oldest) {
      this.xs.shift();
      this.ys.shift();
    }
    this.draw();
  }

  private draw(): void {
    const uPlot = (globalThis as unknown as { uPlot?: UPlotConstructor }).uPlot;
    if (uPlot === undefined || !this.target.isConnected) return;
    const width = Math.max(240, this.target.clientWidth);
    if (this.plot === undefined) {
      this.plot = new uPlot(
        {
          width,
          height: 160,
          legend: { show: false },
          scales: {
            x: { time: true },
            y: { range: (_u: unknown, _min: number, max: number) => [0, Math.max(1, max * 1.1)] },
          },
          series: [
            {},
            { label: this.label, stroke: this.color, fill: `${this.color}22`, width: 1.5, points: { show: false } },
          ],
          axes: [{ stroke: "#8a94a6" }, { stroke: "#8a94a6", size: 50 }],
        },
        [this.xs, this.ys],
        this.target,
      );
    } else {
      this.plot.setData([this.xs, this.ys]);
    }
  }

  destroy(): void {
    this.plot?.destroy();
    this.plot = undefined;
  }
}
