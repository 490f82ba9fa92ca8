// Reporter of a self-test run: each case's tests (the plan's assignment says which test of
// which project served which case), then each case's rule x surface matrix and verdict,
// built by the same functions as the user's report (report/matrix.ts, report/summary.ts),
// one JSON file per case. Errors outside any test (a spec that failed to load) go to
// run-errors.json, which the caller reports: they are never hidden.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullResult, Reporter, TestCase, TestError, TestResult } from '@playwright/test/reporter';
import { RESULTS_ATTACHMENT, type TestEvidence } from '../../../lib/results.ts';
import { testKey } from './keys.ts';
import { originalOf, type Plan, type PlannedProject } from './plan.ts';
import { caseReport, type KeyedOutcome } from './outcomes.ts';

export default class HarnessReporter implements Reporter {
  private readonly plan: Plan;
  private readonly projects: Map<string, PlannedProject>;
  private readonly outcomes = new Map<string, KeyedOutcome[]>();
  private readonly errorLines = new Map<string, string[]>();
  private readonly runErrors: string[] = [];
  /** `<run project> › <test key>` of every planned test that reported an end. */
  private readonly ended = new Set<string>();

  constructor(options: { planFile: string }) {
    this.plan = JSON.parse(readFileSync(options.planFile, 'utf8')) as Plan;
    this.projects = new Map(this.plan.projects.map((p) => [p.name, p]));
  }

  printsToStdio(): boolean {
    return true;
  }

  onError(error: TestError): void {
    this.runErrors.push((error.stack ?? error.message ?? error.value ?? 'an error outside any test').slice(0, 4000));
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const project = this.projects.get(test.parent.project()?.name ?? '');
    if (!project) return;
    const titles = test.titlePath().slice(3);
    // It ran from a copy of its spec file (plan.ts); its outcome is named by the file itself.
    const file = path.relative(this.plan.copyDir, test.location.file).split(path.sep).join('/');
    const key = testKey(file, titles);
    const id = this.plan.assignment[project.name]?.[key];
    // A test the plan did not give this project (a title another file shares) was skipped and is nobody's.
    if (id === undefined) return;
    this.ended.add(`${project.name} › ${key}`);
    const annotations = [...test.annotations, ...result.annotations];
    const a = result.attachments.find((x) => x.name === RESULTS_ATTACHMENT);
    let evidence: TestEvidence | undefined;
    try {
      evidence = a
        ? (JSON.parse(a.body ? a.body.toString('utf8') : readFileSync(a.path!, 'utf8')) as TestEvidence)
        : undefined;
    } catch {
      evidence = undefined;
    }
    const errors = result.errors.map((e) => e.message ?? e.value ?? '');
    const lines = this.errorLines.get(id) ?? this.errorLines.set(id, []).get(id)!;
    const where = `${titles.join(' › ')} [${project.base}]`;
    if (result.status !== 'passed' && result.status !== 'skipped') {
      lines.push(`${where}: ${(errors[0] ?? result.status).split('\n').slice(0, 6).join('\n  ')}`);
    } else {
      // Tests are judged on their results alone here (fixtures/harness.ts): name the broken checks.
      for (const r of evidence?.results ?? [])
        if (r.outcome === 'broken')
          lines.push(
            `${where}: ${r.rule} broken: ${r.what}${r.expected ? `; expected ${r.expected}` : ''}${r.received ? `; received ${r.received}` : ''}`.slice(
              0,
              600,
            ),
          );
    }
    const skip = annotations.find((x) => x.type === 'skip');
    const list = this.outcomes.get(id) ?? this.outcomes.set(id, []).get(id)!;
    list.push({
      key: `${project.base} › ${testKey(originalOf(this.plan, file), titles)}`,
      family: project.family,
      title: [originalOf(this.plan, file).replace(/^specs\//, ''), ...titles].join(' › '),
      surface: project.surface,
      status: result.status,
      rules: [...new Set(annotations.filter((x) => x.type === 'rule').map((x) => x.description ?? ''))],
      ...(evidence ? { results: evidence.results } : {}),
      errors,
      ...(skip?.description ? { skipReason: skip.description } : {}),
    });
  }

  onEnd(result: FullResult): void {
    // A planned test that never ran (its title not matched, the run cut short) is said, not lost.
    const unrun = Object.entries(this.plan.assignment).flatMap(([project, tests]) =>
      Object.keys(tests)
        .filter((key) => !this.ended.has(`${project} › ${key}`))
        .map((key) => `${project} › ${key}`),
    );
    if (unrun.length > 0)
      this.runErrors.push(
        `${unrun.length} planned test(s) never ran (run ${result.status}): ${unrun.slice(0, 5).join('; ')}`,
      );
    const dir = path.join(this.plan.workDir, 'reports');
    mkdirSync(dir, { recursive: true });
    for (const [id, outcomes] of this.outcomes)
      writeFileSync(
        path.join(dir, `${id}.json`),
        JSON.stringify(caseReport(id, outcomes, (this.errorLines.get(id) ?? []).join('\n'))),
      );
    writeFileSync(path.join(dir, 'run-errors.json'), JSON.stringify({ status: result.status, errors: this.runErrors }));
  }
}
