// workflow-conformance load merge <dir or report.json>... --out <dir>   (npm run load:merge -- …)
// Merges the reports of one profile's shards (`workflow-conformance load --shard i/n`) into one
// report (JSON, Markdown, HTML): counts are summed and the HDR histograms added bucket by
// bucket, so the merged percentiles are those of all the shards' requests together,
// never an average of percentiles. Thresholds are evaluated again on the merged figures.
// Shards that ran against different servers are refused: their figures do not add up to
// one server's load. Exit status: 0 the merged run passed, 1 it failed or every shard was
// skipped, 2 the inputs cannot be merged, 130 a shard was interrupted.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { environment, REPORT_SCHEMA, type LoadReport, type Verdict } from './engine.ts';
import { chartOf, mergeFigures, metricsOf } from './figures.ts';
import { writeReports } from './report/write.ts';
import {
  evaluate,
  failureSummary,
  limitText,
  METRIC_UNITS,
  parseThreshold,
  thresholdOutcome,
  withUnit,
} from './thresholds.ts';
import { secondsFromRaw } from './timeline.ts';
import { LOAD_MERGE as USAGE } from '../cli/help.ts';
import { checkOf, checkText, held } from './checks.ts';

export class MergeError extends Error {
  override name = 'MergeError';
}

/** Every load report among the given files and directories (directories are read one level deep). */
function collectReports(inputs: readonly string[]): Array<{ file: string; report: LoadReport }> {
  const files: string[] = [];
  for (const input of inputs) {
    let st;
    try {
      st = statSync(input);
    } catch {
      throw new MergeError(`${input}: no such file or directory`);
    }
    if (st.isDirectory())
      files.push(
        ...readdirSync(input)
          .filter((f) => f.endsWith('.json'))
          .map((f) => path.join(input, f)),
      );
    else files.push(input);
  }
  const out: Array<{ file: string; report: LoadReport }> = [];
  for (const file of files.sort()) {
    let parsed: Partial<LoadReport>;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<LoadReport>;
    } catch {
      continue;
    }
    if (parsed.schema === REPORT_SCHEMA && parsed.profile && parsed.metrics)
      out.push({ file, report: { ...parsed, checks: (parsed.checks ?? []).map(checkOf) } as LoadReport });
  }
  return out;
}

/** Profile metrics the raw figures do not carry: counts are summed, anything else takes the largest shard's value. */
function mergeProfileMetrics(
  reports: readonly LoadReport[],
  computed: ReadonlySet<string>,
): { metrics: Record<string, number>; largest: string[] } {
  const metrics: Record<string, number> = {};
  const largest: string[] = [];
  const keys = new Set(reports.flatMap((r) => Object.keys(r.metrics)).filter((k) => !computed.has(k)));
  for (const k of keys) {
    const values = reports
      .map((r) => r.metrics[k])
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    if (values.length === 0) continue;
    const unit = METRIC_UNITS[k];
    const isCount = unit === 'count' || (unit === undefined && values.every(Number.isInteger));
    if (isCount) metrics[k] = values.reduce((s, v) => s + v, 0);
    else {
      metrics[k] = Math.max(...values);
      largest.push(k);
    }
  }
  return { metrics, largest };
}

/**
 * The server a shard loaded: its surface and base URL; for the embedded reference (each
 * machine starts its own, on ports of its own) the reference and the fault it ran with.
 */
function serverOf(r: LoadReport): string {
  const t = r.target;
  return t.embedded
    ? `the embedded reference, ${t.surface} surface${t.fault ? `, fault ${t.fault}` : ''}`
    : `${t.surface} ${t.baseUrl}`;
}

export function mergeReports(reports: readonly LoadReport[]): LoadReport {
  if (reports.length === 0) throw new MergeError('no load reports (schema load-report/2) among the inputs');
  const first = reports[0];
  const names = new Set(reports.map((r) => r.profile.name));
  if (names.size > 1)
    throw new MergeError(
      `reports of different profiles: ${[...names].join(', ')}; merge one profile's shards at a time`,
    );
  const models = new Set(reports.map((r) => r.model.name));
  if (models.size > 1)
    throw new MergeError('shards ran different load models (open and closed); their figures do not add up');
  const count = first.shard?.count ?? 1;
  const indexes = reports.map((r) => r.shard?.index ?? 1);
  if (reports.some((r) => (r.shard?.count ?? 1) !== count))
    throw new MergeError(
      `shards of different splits: ${reports.map((r) => `${r.shard?.index ?? 1}/${r.shard?.count ?? 1}`).join(', ')}`,
    );
  const dup = indexes.find((i, k) => indexes.indexOf(i) !== k);
  if (dup !== undefined) throw new MergeError(`shard ${dup}/${count} appears twice`);
  const servers = new Set(reports.map(serverOf));
  if (servers.size > 1) {
    const each = [...reports]
      .sort((a, b) => (a.shard?.index ?? 1) - (b.shard?.index ?? 1))
      .map((r) => `shard ${r.shard?.index ?? 1}/${count}: ${serverOf(r)}`);
    throw new MergeError(
      `shards ran against different servers (${each.join('; ')}); their figures are not one ` +
        `server's load, so merge only the shards of one run against one server`,
    );
  }
  const absent = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !indexes.includes(i));
  if (absent.length)
    throw new MergeError(
      `shard${absent.length > 1 ? 's' : ''} ${absent.map((i) => `${i}/${count}`).join(', ')} missing: a merge of part of the run would understate its load`,
    );

  const sorted = [...reports].sort((a, b) => (a.shard?.index ?? 1) - (b.shard?.index ?? 1));
  const label = (r: LoadReport): string => `shard ${r.shard?.index ?? 1}/${count}`;
  const ran = sorted.filter((r) => r.raw);
  const notes = sorted.flatMap((r) => r.notes.map((n) => `${label(r)}: ${n}`));
  const checks = sorted.flatMap((r) => r.checks.map((c) => ({ ...c, what: `${label(r)}: ${c.what}` })));
  const statusCodes: Record<string, number> = {};
  for (const r of sorted)
    for (const [k, v] of Object.entries(r.statusCodes)) statusCodes[k] = (statusCodes[k] ?? 0) + v;
  const byRule: Record<string, number> = {};
  for (const r of sorted) for (const [k, v] of Object.entries(r.contract.byRule)) byRule[k] = (byRule[k] ?? 0) + v;

  let verdict: Verdict;
  let metrics: Record<string, number> = {};
  let thresholds: LoadReport['thresholds'] = [];
  const raw = ran.length ? mergeFigures(ran.map((r) => r.raw!)) : undefined;
  if (raw) {
    const computed = metricsOf(raw);
    const contract = {
      contract_violations: sorted.reduce((s, r) => s + (r.metrics.contract_violations ?? 0), 0),
      sampled: sorted.reduce((s, r) => s + (r.metrics.sampled ?? 0), 0),
    };
    const merged = mergeProfileMetrics(sorted, new Set([...Object.keys(computed), ...Object.keys(contract)]));
    if (merged.largest.length)
      notes.push(
        `${merged.largest.join(', ')}: the largest shard's value (these are not counts, so they do not add up)`,
      );
    metrics = { ...computed, ...contract, ...merged.metrics };
    // The shards' own reading of each threshold: a budget nobody set stays a figure merged.
    const yours = new Set(sorted.flatMap((r) => r.thresholds.filter((t) => t.decides !== false).map((t) => t.expr)));
    thresholds = evaluate(
      first.profile.thresholds.map(parseThreshold),
      metrics,
      sorted.some((r) => r.thresholds.some((t) => t.decides === false)) ? yours : undefined,
    );
  }
  if (sorted.some((r) => r.verdict === 'interrupted')) verdict = 'interrupted';
  else if (sorted.every((r) => r.verdict === 'skipped')) verdict = 'skipped';
  else
    verdict =
      raw &&
      sorted.every((r) => r.verdict !== 'skipped') &&
      thresholds.every((t) => t.ok || t.decides === false) &&
      checks.every(held)
        ? 'pass'
        : 'fail';
  notes.push(
    `merged from ${count} shards: counts summed and HDR histograms added; percentiles are read from the merged histograms`,
  );

  const totalRate = sorted.reduce((s, r) => s + r.profile.effective.rate, 0);
  const skipReasons = [...new Set(sorted.map((r) => r.skipReason).filter((s): s is string => Boolean(s)))];
  return {
    schema: REPORT_SCHEMA,
    verdict,
    ...(skipReasons.length ? { skipReason: skipReasons.join('; ') } : {}),
    profile: { ...first.profile, effective: { ...first.profile.effective, rate: Math.round(totalRate * 1000) / 1000 } },
    model: first.model,
    shard: { index: 0, count, merged: count },
    target: first.target,
    environment: {
      ...environment(),
      shards_environment: sorted
        .map(
          (r) =>
            `${label(r)}: ${r.environment.cpu_model} ×${r.environment.cpus}, Node ${r.environment.node}, load ${r.environment.loadavg_1m}`,
        )
        .join('; '),
    },
    startedAt: sorted.map((r) => r.startedAt).sort()[0],
    finishedAt: sorted
      .map((r) => r.finishedAt)
      .sort()
      .reverse()[0],
    metrics,
    thresholds,
    checks,
    contract: {
      family: first.contract.family,
      sampled: sorted.reduce((s, r) => s + r.contract.sampled, 0),
      violations: sorted.reduce((s, r) => s + r.contract.violations, 0),
      should: sorted.reduce((s, r) => s + (r.contract.should ?? 0), 0),
      unmatched: sorted.reduce((s, r) => s + r.contract.unmatched, 0),
      byRule,
      examples: sorted.flatMap((r) => r.contract.examples).slice(0, 25),
    },
    statusCodes,
    timeline: raw ? secondsFromRaw(raw.seconds, totalRate, first.profile.effective.warmupS) : [],
    histogram: raw ? chartOf(raw) : { bounds: [], counts: [] },
    figures: { shards: sorted.map((r) => ({ shard: label(r), verdict: r.verdict, figures: r.figures })) },
    notes,
    ...(raw ? { raw } : {}),
  };
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      options: { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
  } catch (err) {
    console.error(`load merge: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0 || !values.out) {
    console.error(USAGE);
    return 2;
  }
  try {
    const found = collectReports(positionals);
    const merged = mergeReports(found.map((f) => f.report));
    const files = await writeReports(merged, values.out);
    const m = merged.metrics;
    console.log(
      `${merged.profile.name} (${found.length} shards merged): ${merged.verdict.toUpperCase()}` +
        `${merged.verdict === 'fail' ? ` — ${failureSummary(merged) ?? ''}` : ''}`,
    );
    if (m.requests !== undefined) {
      console.log(
        `  ${m.requests} requests at ${m.rate}/s of ${m.requested_rate}/s; corrected p50 ${m.p50} ` +
          `ms, p99 ${m.p99} ms; uncorrected p99 ${m.uncorrected_p99} ms; late ${m.late}%, dropped ` +
          `${m.dropped}; errors ${m.errors}%`,
      );
      for (const t of merged.thresholds)
        console.log(
          `  ${t.decides === false ? 'note' : t.ok ? 'pass' : 'FAIL'}  ${t.metric} ${limitText(t)}  ` +
            `${thresholdOutcome(t)} (measured ${withUnit(t.actual, t.unit)})`,
        );
      for (const c of merged.checks) if (!held(c)) console.log(`  FAIL  ${c.rule}: ${checkText(c)}`);
    }
    console.log(`  reports: ${files.json}\n           ${files.markdown}\n           ${files.html}`);
    if (merged.verdict === 'interrupted') return 130;
    if (merged.verdict === 'skipped') {
      console.error(
        `load merge: nothing was judged: every shard was skipped: ${merged.skipReason ?? 'no reason given'}`,
      );
      return 1;
    }
    return merged.verdict === 'fail' ? 1 : 0;
  } catch (err) {
    if (err instanceof MergeError) {
      console.error(`load merge: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(err);
      process.exitCode = 2;
    },
  );
}
