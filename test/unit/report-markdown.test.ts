// conformance.md as a server team reads it: failures first, one entry per rule with the
// command that sends the breaking exchange again; only the surfaces of the run as columns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RuleRow } from '../../report/matrix.ts';
import { toMarkdown } from '../../report/markdown.ts';
import { runErrorReport } from '../../report/run-error.ts';
import { curlOf } from '../../lib/repro.ts';

const row = (id: string, results: RuleRow['results']): RuleRow => ({
  id,
  level: 'MUST',
  summary: `summary of ${id}`,
  seed: 'W § Part',
  seed_refs: [{ seed: 'W', section: 'Part', line: 7, sha: '0123456789ab' }],
  source: 'seed',
  results,
});

function reportOf(rows: RuleRow[]) {
  const report = runErrorReport('x');
  delete report.run_errors;
  report.summary.verdict = 'fail';
  report.target.surfaces = [{ surface: 'local', base_url: 'http://127.0.0.1:1' }];
  report.rules = rows;
  return report;
}

test('failures lead the report, grouped by rule, each with the curl of the exchange that broke it', () => {
  const md = toMarkdown(
    reportOf([
      row('V2.A', { local: { status: 'pass' } }),
      row('V2.B', {
        local: {
          status: 'fail',
          reason: 'upload — expected 201, received 500',
          curl: "curl -sS -i -X POST 'http://127.0.0.1:1/api/v2/assets'",
        },
      }),
    ]),
  );
  assert.ok(md.indexOf('## Failures (1 rule)') < md.indexOf('| Rule |'), 'the failures come before the matrix');
  assert.match(md, /`V2.B`\*\* \(MUST\)[\s\S]*```sh\n\s+curl -sS -i -X POST/);
});

test('surfaces and rules not part of the run are left out of the matrix and counted in one line', () => {
  const md = toMarkdown(
    reportOf([
      row('V2.A', { local: { status: 'pass' }, cloud: { status: 'not_covered', reason: 'client obligation' } }),
      row('V2.B', { local: { status: 'skipped', reason: 'no input' }, cloud: { status: 'not_run' } }),
      row('ROUTER.C', { router: { status: 'not_run' } }),
    ]),
  );
  assert.match(md, /\| Rule \| Level \| local \| Summary \|/);
  assert.doesNotMatch(md, /`ROUTER.C`/);
  assert.match(md, /Table cells \(.*\): 1 pass, 1 skipped\. 1 rule not part of this run .* left out\./);
  assert.doesNotMatch(md, /on cloud:/, 'no reasons for surfaces outside the run');
});

test('a multipart upload reproduces as pasted: the file is written by a here-document first', () => {
  const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 37) % 256));
  const curl = curlOf({
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:9/api/v2/assets',
      headers: {},
      timeoutMs: 1000,
      maxBodyBytes: 1024,
      form: [
        ['file', { filename: 'dir/a b.png', contentType: 'image/png', data: bytes }],
        ['file_path', 'a.png'],
      ],
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'curl-'));
  const script = curl
    .split('\n')
    .filter((l) => !l.startsWith('curl '))
    .join('\n');
  execFileSync('bash', ['-c', script], { cwd: dir });
  assert.deepEqual(readFileSync(join(dir, 'a_b.png')), bytes);
  assert.match(curl, /-F 'file=@a_b\.png;filename=dir\/a b\.png;type=image\/png'/);
});
