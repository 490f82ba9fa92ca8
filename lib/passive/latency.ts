// The latency the proxy adds to each exchange, in milliseconds: the time it holds a request
// before passing it on, plus the time between the upstream's answer arriving and its head
// being passed to the client. Samples are kept (up to a bound, then every other one is
// dropped and only every other new one kept), so percentiles are exact for a short run and
// a fair sample of a long one.

export interface LatencySummary {
  samples: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
}

const KEEP = 200_000;

export class LatencyLog {
  private values: number[] = [];
  private stride = 1;
  private seen = 0;
  private max = 0;

  add(ms: number): void {
    this.max = Math.max(this.max, ms);
    if (this.seen++ % this.stride !== 0) return;
    this.values.push(ms);
    if (this.values.length >= KEEP) {
      this.values = this.values.filter((_, i) => i % 2 === 0);
      this.stride *= 2;
    }
  }

  summary(): LatencySummary {
    const sorted = [...this.values].sort((a, b) => a - b);
    const at = (q: number): number =>
      sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
    const round = (n: number): number => Math.round(n * 1000) / 1000;
    return { samples: this.seen, p50_ms: round(at(0.5)), p99_ms: round(at(0.99)), max_ms: round(this.max) };
  }
}
