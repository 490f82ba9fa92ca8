// Counts arrivals in a sliding window: how the load faults (reference/faults/load.ts,
// reference/faults/load/v2.ts) tell "many clients at once" from one request at a time.

/** Polls per second above which the "under load" faults switch on. */
export const UNDER_LOAD_PER_SECOND = 20;

/**
 * Counts arrivals in a sliding one-second window. A reference instance serves one
 * request at a time, so "many clients at once" is seen as many arrivals per second.
 */
export class ArrivalMeter {
  private readonly stamps: number[] = [];
  private head = 0;

  constructor(
    private readonly windowMs = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records one arrival and tells whether more than `threshold` arrived within the window. */
  hit(threshold = UNDER_LOAD_PER_SECOND): boolean {
    const t = this.now();
    this.stamps.push(t);
    while (this.head < this.stamps.length && t - this.stamps[this.head] > this.windowMs) this.head += 1;
    // Compact now and then so the array does not grow for the life of the server.
    if (this.head > 1024 && this.head * 2 > this.stamps.length) {
      this.stamps.splice(0, this.head);
      this.head = 0;
    }
    return this.stamps.length - this.head > threshold;
  }
}
