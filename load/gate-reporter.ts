// The conformance reporter of `run --load` (playwright.config.ts picks it when
// CONFORMANCE_LOAD names profiles): once the conformance projects end, it runs the load
// profiles (load/gate.ts), joins their runs into the report as values (report/load-cells.ts)
// and only then writes conformance.{json,md,html}, once, with one verdict line and the exit
// status of that verdict. An interrupted run stops before the load, as the projects did.
import { environment, runConfig } from '../lib/config/env.ts';
import ConformanceReporter, { type Completion, type CompletionInput } from '../report/conformance-reporter.ts';
import { joinLoadRuns } from '../report/load-cells.ts';
import type { ConformanceReport } from '../report/report.ts';
import { gateLines, runLoadProfiles } from './gate.ts';
import { loadProfilesNamed } from './profiles/index.ts';

export default class LoadGateReporter extends ConformanceReporter {
  protected override async complete(projects: ConformanceReport, run: CompletionInput): Promise<Completion> {
    const settings = runConfig();
    if (run.status === 'interrupted' || !settings.run.load) return { report: projects };
    // `run` refused an unknown name before Playwright started (cli/run.ts).
    const { profiles } = loadProfilesNamed(settings.run.load);
    const runs = await runLoadProfiles({
      profiles,
      env: environment(),
      reports: this.outputDir,
      full: settings.profile === 'full',
      quiet: settings.quiet,
      ...(settings.fault ? { fault: settings.fault } : {}),
    });
    const report = joinLoadRuns(projects, runs, run.rules);
    return {
      report,
      ...gateLines(report, runs, this.outputDir),
      status: report.summary.verdict === 'pass' ? 'passed' : 'failed',
    };
  }
}
