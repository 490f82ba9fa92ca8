// "Did you mean …?": the known name nearest to a misspelt one (edit distance), for the
// flags of the command line and the keys of a targets file.

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const here = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = here;
    }
  }
  return row[b.length];
}

/** The nearest of `known` to `name`, when it is near enough to be a likely slip (a third of its length). */
export function nearest(name: string, known: Iterable<string>): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(name.toLowerCase(), k.toLowerCase());
    if (!best || d < best.d) best = { name: k, d };
  }
  return best && best.d <= Math.max(2, Math.ceil(name.length / 3)) ? best.name : undefined;
}

/** " (did you mean `x`?)" or nothing. */
export const didYouMean = (name: string, known: Iterable<string>, quote = (s: string) => `\`${s}\``): string => {
  const n = nearest(name, known);
  return n ? ` (did you mean ${quote(n)}?)` : '';
};
