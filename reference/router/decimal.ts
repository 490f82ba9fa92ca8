// Exact decimal arithmetic for prices: a value is a BigInt count of 10^-SCALE dollars, so
// rates times quantities never pick up binary floating-point noise.
const SCALE = 12;
const ONE = 10n ** BigInt(SCALE);

export class Dec {
  private constructor(readonly units: bigint) {}

  static readonly ZERO = new Dec(0n);

  static of(text: string): Dec {
    const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
    if (!m) throw new Error(`not a decimal: ${text}`);
    const frac = (m[2] ?? '').padEnd(SCALE, '0');
    if (frac.length > SCALE) throw new Error(`too many decimals: ${text}`);
    return new Dec(BigInt(m[1]) * ONE + BigInt(frac));
  }

  static int(n: number): Dec {
    if (!Number.isInteger(n) || n < 0) throw new Error(`not a non-negative integer: ${n}`);
    return new Dec(BigInt(n) * ONE);
  }

  plus(other: Dec): Dec {
    return new Dec(this.units + other.units);
  }

  times(other: Dec): Dec {
    return new Dec((this.units * other.units) / ONE);
  }

  timesInt(n: number): Dec {
    return new Dec(this.units * BigInt(n));
  }

  isZero(): boolean {
    return this.units === 0n;
  }

  /** Half-up rounding to `decimals` places. */
  round(decimals: number): Dec {
    const step = 10n ** BigInt(SCALE - decimals);
    return new Dec(((this.units + step / 2n) / step) * step);
  }

  /** Truncation to `decimals` places. */
  floor(decimals: number): Dec {
    const step = 10n ** BigInt(SCALE - decimals);
    return new Dec((this.units / step) * step);
  }

  /** Plain decimal notation, trailing zeros dropped, at most `maxDecimals` places (half-up). */
  toString(maxDecimals = 8): string {
    const r = this.round(maxDecimals).units;
    const whole = r / ONE;
    const frac = (r % ONE).toString().padStart(SCALE, '0').slice(0, maxDecimals).replace(/0+$/, '');
    return frac.length > 0 ? `${whole}.${frac}` : `${whole}`;
  }

  toNumber(maxDecimals = SCALE): number {
    return Number(this.toString(maxDecimals));
  }
}
