// Reporter of a batched self-test run: the rule x surface matrix of each case and its
// verdict, built by the same functions as the user's report (report/matrix.ts, and
// report/summary.ts for the verdict), one JSON file per case.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { buildMatrix, type TestOutcome } from '../../../report/matrix.ts';
import { summarize } from '../../../report/summary.ts';
import { loadRules } from '../../../lib/rules.ts';
import { familyOfRule, type Family, type Surface } from '../../../lib/families.ts';
import { RESULTS_ATTACHMENT, type TestEvidence } from '../../../lib/results.ts';
import type { CaseReport } from './run.ts';
import { casesOf, type ReferenceCase } from '../../../fixtures/reference-cases.ts';

interface Meta {
  family: Family;
  surface: Surface;
  cases: ReferenceCase[];
}

export default class BatchReporter implements Reporter {
  private readonly outputDir: string;
  private readonly outcomes = new Map<string, TestOutcome[]>();
  private readonly projects = new Map<string, Array<{ family: Family; surface: Surface }>>();
  private readonly errorLines = new Map<string, string[]>();

  constructor(options: { outputDir: string }) {
    this.outputDir = options.outputDir;
  }

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const meta = test.parent.project()?.metadata as Meta | undefined;
    if (!meta?.cases) return;
    // The same matching as the fixtures': a test no case selects was skipped and is nobody's;
    // one two cases select failed loudly and counts against both.
    for (const c of casesOf(meta.cases, test.location.file, test.tags)) this.record(c.id, meta, test, result);
  }

  private record(caseId: string, meta: Meta, test: TestCase, result: TestResult): void {
    const list = this.outcomes.get(caseId) ?? this.outcomes.set(caseId, []).get(caseId)!;
    const projects = this.projects.get(caseId) ?? this.projects.set(caseId, []).get(caseId)!;
    if (!projects.some((p) => p.family === meta.family && p.surface === meta.surface)) projects.push({ family: meta.family, surface: meta.surface });
    const annotations = [...test.annotations, ...result.annotations];
    const a = result.attachments.find((x) => x.name === RESULTS_ATTACHMENT);
    let evidence: TestEvidence | undefined;
    try {
      evidence = a ? (JSON.parse(a.body ? a.body.toString('utf8') : readFileSync(a.path!, 'utf8')) as TestEvidence) : undefined;
    } catch {
      evidence = undefined;
    }
    const errors = result.errors.map((e) => e.message ?? e.value ?? '');
    const lines = this.errorLines.get(caseId) ?? this.errorLines.set(caseId, []).get(caseId)!;
    if (result.status !== 'passed' && result.status !== 'skipped') {
      lines.push(`${test.title} [${meta.family}-${meta.surface}]: ${(errors[0] ?? result.status).split('\n').slice(0, 6).join('\n  ')}`);
    } else {
      // A batched test is not failed for its broken checks (fixtures/evidence.ts): name them here.
      for (const r of evidence?.results ?? []) if (r.outcome === 'broken') lines.push(`${test.title} [${meta.family}-${meta.surface}]: ${r.rule} broken: ${r.what}${r.expected ? `; expected ${r.expected}` : ''}${r.received ? `; received ${r.received}` : ''}`.slice(0, 600));
    }
    const skip = annotations.find((x) => x.type === 'skip');
    list.push({
      title: test.titlePath().slice(2).join(' › '),
      surface: meta.surface,
      status: result.status,
      rules: [...new Set(annotations.filter((x) => x.type === 'rule').map((x) => x.description ?? ''))],
      ...(evidence ? { results: evidence.results } : {}),
      errors,
      ...(skip?.description ? { skipReason: skip.description } : {}),
    });
  }

  onEnd(): void {
    mkdirSync(this.outputDir, { recursive: true });
    const rules = [...loadRules().values()];
    for (const [id, outcomes] of this.outcomes) {
      const ran = this.projects.get(id) ?? [];
      const matrix = buildMatrix({
        rules,
        outcomes,
        surfacesRun: new Set(ran.map((r) => r.surface)),
        familyRun: (rule, surface) => ran.some((r) => r.surface === surface && r.family === familyOfRule(rule)),
      });
      // The user's verdict, by the user's code (report/summary.ts); a batched case has no baseline and is never strict.
      const { summary } = summarize({ matrix, rules, strict: false });
      const report: CaseReport = {
        id,
        summary: { verdict: summary.verdict, must_failed: summary.must_failed, should_failed: summary.should_failed, errors: summary.errors },
        unplaced: matrix.unplaced,
        rules: matrix.rows,
        tests: outcomes.length,
        output: (this.errorLines.get(id) ?? []).join('\n'),
      };
      writeFileSync(path.join(this.outputDir, `${id}.json`), JSON.stringify(report));
    }
  }
}
