// The part of conformance.md and conformance.html only a passive run has (workflow-conformance
// proxy, check-har): what it saw, the latency the proxy added, what it could not place, and
// per rule how many exchanges exercised it.
import type { CellStatus } from './matrix.ts';
import type { ConformanceReport, PassiveRun } from './report.ts';

/** A passive run's cell that no exchange exercised reads so, not as a skip the target asked for. */
export const NOT_EXERCISED = 'not exercised';

export function passiveLabel(
  report: ConformanceReport,
  status: CellStatus,
  reason: string | undefined,
): string | undefined {
  return report.mode === 'passive' && status === 'skipped' && reason?.startsWith(NOT_EXERCISED)
    ? NOT_EXERCISED
    : undefined;
}

function headline(p: PassiveRun): string {
  const seen =
    p.source === 'proxy'
      ? `through the proxy in front of ${p.from}${p.seconds !== undefined ? ` for ${p.seconds} s` : ''}`
      : `in ${p.from}`;
  return (
    `Passive run: ${p.exchanges} exchanges ${seen}, ${p.judged} judged, ${p.unplaced} not ` +
    `placed on an operation of the surface. Nothing was sent by the suite: a rule is judged ` +
    `only where traffic exercised it, and the verdict fails only on MUST findings.`
  );
}

export function passiveMarkdown(p: PassiveRun): string[] {
  const lines = ['## Passive run', '', headline(p), ''];
  if (p.latency)
    lines.push(
      `Latency the proxy added per exchange (${p.latency.samples} samples): p50 ` +
        `${p.latency.p50_ms} ms, p99 ${p.latency.p99_ms} ms, max ${p.latency.max_ms} ms.`,
      '',
    );
  if (p.rules.length) {
    lines.push('| Rule | Level | Exchanges | Held | Broken |', '| - | - | - | - | - |');
    for (const r of p.rules) lines.push(`| \`${r.id}\` | ${r.level} | ${r.exchanges} | ${r.held} | ${r.broken} |`);
    lines.push('');
  }
  if (p.unplaced_list.length) {
    lines.push(
      `### Not judged (${p.unplaced})`,
      '',
      ...p.unplaced_list.map(
        (u) => `- ${u.method} ${u.url}${u.status !== undefined ? ` -> ${u.status}` : ''}: ${u.why}`,
      ),
      '',
    );
  }
  if (p.notes?.length) lines.push(...p.notes.map((n) => `- ${n}`), '');
  return lines;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function passiveHtml(p: PassiveRun): string {
  return `<h2>Passive run</h2><p>${esc(headline(p))}</p>
${
  p.latency
    ? `<p>Latency the proxy added per exchange (${p.latency.samples} samples): p50 ` +
      `${p.latency.p50_ms} ms, p99 ${p.latency.p99_ms} ms, max ${p.latency.max_ms} ms.</p>`
    : ''
}
${
  p.rules.length
    ? '<table><tr><th>Rule</th><th>Level</th><th>Exchanges</th><th>Held</th><th>Broken</th></tr>' +
      p.rules
        .map(
          (r) =>
            `<tr><td><code>${esc(r.id)}</code></td><td>${r.level}</td>` +
            `<td>${r.exchanges}</td><td>${r.held}</td><td>${r.broken}</td></tr>`,
        )
        .join('') +
      '</table>'
    : ''
}
${
  p.unplaced_list.length
    ? `<h3>Not judged (${p.unplaced})</h3><ul>` +
      p.unplaced_list
        .map(
          (u) => `<li>${esc(`${u.method} ${u.url}${u.status !== undefined ? ` -> ${u.status}` : ''}: ${u.why}`)}</li>`,
        )
        .join('') +
      '</ul>'
    : ''
}
${p.notes?.length ? `<ul>${p.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}`;
}
