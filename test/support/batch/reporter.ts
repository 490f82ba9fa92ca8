// Reporter of a batched self-test run: the rule x surface matrix of each case, built by
// the same functions as the user's report (report/matrix.ts), one JSON file per case.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { buildMatrix, verdictOf, type TestOutcome } from '../../../report/matrix.ts';
import { loadRules } from '../../../lib/rules.ts';
import { familyOfRule, type Family, type Surface } from '../../../lib/families.ts';
import { RESULTS_ATTACHMENT, type TestEvidence } from '../../../lib/results.ts';
import type { CaseReport } from './run.ts';

interface Meta {
  caseId: string;
  family: Family;
  surface: Surface;
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
    if (!meta?.caseId) return;
    const list = this.outcomes.get(meta.caseId) ?? this.outcomes.set(meta.caseId, []).get(meta.caseId)!;
    const projects = this.projects.get(meta.caseId) ?? this.projects.set(meta.caseId, []).get(meta.caseId)!;
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
    if (result.status !== 'passed' && result.status !== 'skipped') {
      const lines = this.errorLines.get(meta.caseId) ?? this.errorLines.set(meta.caseId, []).get(meta.caseId)!;
      lines.push(`${test.title} [${meta.family}-${meta.surface}]: ${(errors[0] ?? result.status).split('\n').slice(0, 6).join('\n  ')}`);
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
      const v = verdictOf(matrix, false);
      const report: CaseReport = {
        id,
        summary: { verdict: v.nothingJudged ? 'error' : v.passed ? 'pass' : 'fail', must_failed: v.mustFailed, should_failed: v.shouldFailed, errors: v.errors },
        unplaced: matrix.unplaced,
        rules: matrix.rows,
        tests: outcomes.length,
        output: (this.errorLines.get(id) ?? []).join('\n'),
      };
      writeFileSync(path.join(this.outputDir, `${id}.json`), JSON.stringify(report));
    }
  }
}
