// Text both report forms (Markdown and HTML) share: the note on coordinated omission and
// a profile's extra figures as rows of a table.
import { textOf } from '../../lib/values.ts';

/** Why the corrected latency is the one to read (two sentences, shown beside the latency table). */
export const COORDINATED_OMISSION_NOTE =
  'A client that waits for each answer before sending its next request goes quiet while the server ' +
  'stalls, so the requests that would have waited longest are never timed at all: that blind spot ' +
  'is called coordinated omission, and it makes a stalling server look fast. ' +
  'The corrected latency is counted from the moment each request was due on the schedule rather ' +
  'than from when it finally went out, so it includes the time spent stuck behind a slow answer, ' +
  'which is the wait a user arriving at that moment really has.';

const label = (key: string): string => key.replace(/_/g, ' ');

function scalar(v: unknown): string {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'number') return Number.isFinite(v) ? String(Math.round(v * 1000) / 1000) : '–';
  return textOf(v);
}

/**
 * A profile's figures (nested counts and values) as `[name, value]` rows: nested members
 * join their names with ›, an empty mapping or list reads "none", a list of plain values
 * is one comma-separated cell, and the parts of a merge are named by their shard.
 */
export function figureRows(figures: Record<string, unknown>, prefix = ''): Array<[string, string]> {
  const rows: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(figures)) {
    // A merge nests each shard's own figures under `figures`: the shard's name says enough.
    const name = key === 'figures' && prefix ? prefix.replace(/ › $/, '') : `${prefix}${label(key)}`;
    if (Array.isArray(value)) {
      if (value.length === 0) rows.push([name, 'none']);
      else if (value.every((v) => v === null || typeof v !== 'object')) rows.push([name, value.map(scalar).join(', ')]);
      else
        value.forEach((item, i) => {
          const part = item as Record<string, unknown>;
          const { shard, ...rest } = part && typeof part === 'object' ? part : { shard: undefined };
          rows.push(...figureRows(rest, `${name} › ${typeof shard === 'string' ? shard : String(i + 1)} › `));
        });
    } else if (value && typeof value === 'object') {
      const inner = value as Record<string, unknown>;
      if (Object.keys(inner).length === 0) rows.push([name, 'none']);
      else rows.push(...figureRows(inner, `${name} › `));
    } else {
      rows.push([name, scalar(value)]);
    }
  }
  return rows;
}
