// A passive run's conformance report: the judge's result values through the same matrix and
// the same verdict as a run of the specs (report/matrix.ts, report/summary.ts), written as
// the usual conformance.json / .md / .html with `mode: passive`. A cell no exchange
// exercised reads "not exercised" (a skip: never a pass, never a failure); the verdict fails
// only on MUST findings (SHOULD findings are reported), and a run that judged nothing is an
// error ("no rule was judged"), never a pass.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { familyOfRule, familiesOn, type Surface } from '../families.ts';
import { loadRules, ruleOrThrow } from '../rules.ts';
import { loadContract } from '../contracts/loader.ts';
import { FAMILY_CONTRACTS } from '../contracts/registry.ts';
import { loadTrace } from '../seeds/trace.ts';
import { runSeeds } from '../seeds/runtime.ts';
import { buildMatrix } from '../../report/matrix.ts';
import { summarize } from '../../report/summary.ts';
import { coverageOf } from '../../report/coverage.ts';
import { seedCoverage } from '../../report/seed-coverage.ts';
import { toMarkdown } from '../../report/markdown.ts';
import { toHtml } from '../../report/html.ts';
import { NOT_EXERCISED } from '../../report/passive-section.ts';
import type { ConformanceReport, PassiveRun } from '../../report/report.ts';
import type { PassiveJudge } from './judge.ts';
import type { LatencySummary } from './latency.ts';

export interface PassiveMeta {
  source: PassiveRun['source'];
  from: string;
  target: { name: string; base_url: string };
  brand: string;
  seconds?: number;
  latency?: LatencySummary;
  notes?: string[];
}

export function passiveReport(judge: PassiveJudge, meta: PassiveMeta): ConformanceReport {
  const surface: Surface = judge.surface;
  const families = familiesOn(surface);
  const rules = [...loadRules().values()];
  const matrix = buildMatrix({
    rules,
    outcomes: [
      {
        title: meta.source === 'proxy' ? 'traffic through the proxy' : `the exchanges of ${path.basename(meta.from)}`,
        surface,
        status: 'passed',
        rules: [],
        results: judge.results.map(({ seq: _, ...r }) => r),
        errors: [],
      },
    ],
    surfacesRun: new Set([surface]),
    familyRun: (id, s) => s === surface && families.includes(familyOfRule(id)!),
  });
  for (const row of matrix.rows) {
    const cell = row.results[surface];
    // The judge keeps a few result values per rule and counts all of them: the evidence is the count.
    const t = judge.tally.get(row.id);
    if (cell?.evidence && t) cell.evidence = { ...cell.evidence, held: t.held, broken: t.broken };
    if (
      cell &&
      (cell.status === 'not_covered' || (cell.status === 'not_run' && families.includes(familyOfRule(row.id)!)))
    ) {
      row.results[surface] = {
        status: 'skipped',
        reason: `${NOT_EXERCISED}: no exchange this run saw exercised it (a passive run sends nothing of its own)`,
      };
    }
  }
  const { summary } = summarize({ matrix, rules, strict: false });
  const contracts = families.flatMap((f) => {
    const c = FAMILY_CONTRACTS[f];
    return c ? [loadContract(c.file, meta.brand, c.rulePrefix)] : [];
  });
  const exercised = [...judge.tally]
    .map(([id, t]) => ({ id, level: ruleOrThrow(id).level, exchanges: t.exchanges, held: t.held, broken: t.broken }))
    .sort((a, b) => b.broken - a.broken || a.id.localeCompare(b.id));
  const passive: PassiveRun = {
    source: meta.source,
    from: meta.from,
    ...(meta.seconds !== undefined ? { seconds: meta.seconds } : {}),
    exchanges: judge.exchanges,
    judged: judge.judged,
    unplaced: judge.unplacedCount,
    unplaced_list: judge.unplaced,
    rules: exercised,
    ...(meta.latency ? { latency: meta.latency } : {}),
    ...(meta.notes?.length ? { notes: meta.notes } : {}),
  };
  return {
    generated_at: new Date().toISOString(),
    mode: 'passive',
    passive,
    target: { name: meta.target.name, surfaces: [{ surface, base_url: meta.target.base_url }] },
    profile: 'passive',
    strict: false,
    summary,
    unplaced: matrix.unplaced,
    tests: { passed: 0, failed: 0, skipped: 0 },
    rules: matrix.rows,
    coverage: coverageOf(contracts, new Set([surface]), judge.coverage),
    ...(matrix.judged > 0 ? { seed_coverage: seedCoverage(loadTrace(), matrix.rows, new Set([surface])) } : {}),
    seeds: [],
  };
}

/** Writes conformance.json, .md and .html, every byte through the judge's redactor (the credentials it saw, and every credential shape). */
export function writePassiveReports(
  report: ConformanceReport,
  dir: string,
  redact: (text: string) => string,
): { json: string; markdown: string; html: string } {
  mkdirSync(dir, { recursive: true });
  const files = {
    json: path.join(dir, 'conformance.json'),
    markdown: path.join(dir, 'conformance.md'),
    html: path.join(dir, 'conformance.html'),
  };
  writeFileSync(files.json, redact(JSON.stringify(report, null, 2)) + '\n');
  writeFileSync(files.markdown, redact(toMarkdown(report)));
  writeFileSync(files.html, redact(toHtml(report, runSeeds())));
  return files;
}

/** The one line a passive run prints at its end. */
export function verdictLine(report: ConformanceReport): string {
  const s = report.summary;
  const p = report.passive!;
  const failed = [...s.must_failed.map((id) => `${id} (MUST)`), ...s.should_failed.map((id) => `${id} (SHOULD)`)];
  return (
    `Passive ${s.verdict.toUpperCase()}${s.reason ? ` (${s.reason})` : ''}: ` +
    `${p.exchanges} exchanges, ${p.judged} judged, ${p.rules.length} rules exercised` +
    `${failed.length ? `; broken: ${failed.join(', ')}` : ''}`
  );
}
