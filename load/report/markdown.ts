// A load run as Markdown, short enough for a pull-request comment.
import type { LoadReport } from '../engine.ts';
import { failureSummary, limitText, thresholdOutcome, withUnit } from '../thresholds.ts';
import { COORDINATED_OMISSION_NOTE } from './text.ts';
import { checkText, held } from '../checks.ts';

const fmt = (n: number | undefined, digits = 2): string =>
  n === undefined || !Number.isFinite(n) ? '–' : String(Math.round(n * 10 ** digits) / 10 ** digits);

export function renderMarkdown(r: LoadReport): string {
  const mark =
    r.verdict === 'pass'
      ? 'PASS'
      : r.verdict === 'fail'
        ? '**FAIL**'
        : r.verdict === 'interrupted'
          ? '**INTERRUPTED**'
          : 'SKIPPED';
  const e = r.profile.effective;
  const m = r.metrics;
  // What was measured, not what was asked: an interrupted run says how far it got.
  const measured =
    m.measured_s !== undefined ? `${fmt(m.measured_s, 1)} s measured of ${e.durationS} s` : `${e.durationS} s measured`;
  const shard = r.shard
    ? r.shard.merged
      ? ` Merged from ${r.shard.merged} shards.`
      : ` Shard ${r.shard.index}/${r.shard.count}.`
    : '';
  const lines = [
    `### Load: ${r.profile.name} — ${mark}`,
    '',
    `${r.profile.title}. Target \`${r.target.name}\` (${r.target.surface}` +
      `${r.target.embedded ? ', embedded reference' : ''}${r.target.fault ? `, fault \`${r.target.fault}\`` : ''}), ` +
      `${e.rate} req/s requested over ${e.connections} connections, ${e.warmupS} s warm-up + ${measured}.${shard}`,
    '',
    `Model: ${r.model.summary}.`,
    '',
  ];
  if (r.verdict === 'skipped') {
    lines.push(`Skipped: ${r.skipReason ?? ''}`, '');
    return lines.join('\n');
  }
  const open = r.model.name === 'open';
  lines.push(
    `| requests | achieved rate | errors | ${open ? 'late | dropped | spacing p99 | ' : ''}contract violations |`,
    `| -: | -: | -: | ${open ? '-: | -: | -: | ' : ''}-: |`,
    `| ${fmt(m.requests, 0)} | ${fmt(m.rate)}/s (${fmt(m.rate_achieved, 1)}%) | ${fmt(m.errors, 3)}% | ` +
      `${open ? `${fmt(m.late_requests, 0)} (${fmt(m.late, 2)}%) | ${fmt(m.dropped, 0)} | ${fmt(m.spacing_p99)} ms | ` : ''}` +
      `${fmt(m.contract_violations, 0)} of ${fmt(m.sampled, 0)} sampled |`,
    '',
    '| latency | p50 | p90 | p99 | p99.9 | max |',
    '| - | -: | -: | -: | -: | -: |',
    `| corrected (from the intended start) | ${fmt(m.p50)} ms | ${fmt(m.p90)} ms | ${fmt(m.p99)} ms | ${fmt(m['p99.9'])} ms | ${fmt(m.max)} ms |`,
    `| uncorrected (from the actual send) | ${fmt(m.uncorrected_p50)} ms | ` +
      `${fmt(m.uncorrected_p90)} ms | ${fmt(m.uncorrected_p99)} ms | ` +
      `${fmt(m['uncorrected_p99.9'])} ms | ${fmt(m.uncorrected_max)} ms |`,
    '',
    COORDINATED_OMISSION_NOTE,
    '',
  );
  const why = r.verdict === 'fail' ? failureSummary(r) : undefined;
  if (why) lines.push(`Failed on: ${why}.`, '');
  if (r.thresholds.length) {
    // The team's limits, not the seeds' rules (load/thresholds.ts): a miss is "over your threshold".
    lines.push(
      'Thresholds are limits, not rules of the seeds; the rule checks follow below. ' +
        'A latency, error or rate budget decides the run only when you set it (`--threshold`); ' +
        "the profile's suggested budgets are figures.",
      '',
    );
    lines.push('| threshold | limit | measured | result |', '| - | - | -: | - |');
    for (const t of r.thresholds)
      lines.push(
        `| \`${t.expr}\` | ${limitText(t)} | ${withUnit(t.actual, t.unit)} | ` +
          `${t.ok || t.decides === false ? thresholdOutcome(t) : `**${thresholdOutcome(t)}**`} |`,
      );
    lines.push('');
  }
  if (r.checks.length) {
    lines.push('| rule | check | result |', '| - | - | - |');
    for (const c of r.checks)
      lines.push(
        `| \`${c.rule}\` | ${checkText(c).replace(/\|/g, '\\|')} | ` +
          `${held(c) ? 'pass' : c.outcome === 'broken' ? '**FAIL**' : `**${c.outcome.replace('_', ' ').toUpperCase()}**`} |`,
      );
    lines.push('');
  }
  const codes = Object.entries(r.statusCodes)
    .map(([k, v]) => `${k} ×${v}`)
    .join(', ');
  lines.push(`Status codes (measured): ${codes || 'none'}.`);
  if (r.notes.length) lines.push('', ...r.notes.map((n) => `- ${n}`));
  lines.push(
    '',
    `<sub>${r.environment.cpu_model} ×${r.environment.cpus}, Node ${r.environment.node}, ` +
      `${r.model.name === 'open' ? `own HTTP/1.1 client (http), undici ${r.environment.undici} (https)` : `autocannon ${r.environment.autocannon}`}, ` +
      `${r.startedAt}</sub>`,
    '',
  );
  return lines.join('\n');
}
