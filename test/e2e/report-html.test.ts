// The conformance report a server team reads, from a real run of a broken server (the
// reference with a fault): with the seeds where the README lays them out (../shared/seeds)
// and no --seeds, conformance.md and conformance.html quote the seed row a failure rests
// on; and the HTML page, opened in a real browser (Debian's chromium, headless, as the
// load report's test does), shows for a failure why, expected, received, the seed
// statement and the curl without hovering, every skip and error reason written out, no
// text running off the page, and links to the run's other reports. The screenshot is kept
// at /tmp/conformance-report.png.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runSuite, type SuiteRun } from '../support/run-suite.ts';
import { launchChromium, noChromium, pageProblems } from '../support/chromium.ts';
import { defaultSeedsDir, loadSeeds } from '../../lib/seeds/statements.ts';
import { runConfig } from '../../lib/config/env.ts';

const seedsDir = defaultSeedsDir(runConfig().seeds.dev);

let run: SuiteRun;
before(async () => {
  // No --seeds, no SEEDS_DIR: the copy beside the checkout is found by itself.
  run = await runSuite({
    fault: 'drop-url-expires-at',
    args: ['--project=v2-local', 'specs/v2/assets.spec.ts', '--grep', 'blake3|deleting'],
    keep: true,
    env: { CONFORMANCE_SEEDS: '', SEEDS_DIR: '' },
  });
});
after(() => rmSync(run.reportsDir, { recursive: true, force: true }));

/** The seed row of the member the fault drops, read from the user's copy as the run read it. */
function missingMemberRow(): string {
  const row = loadSeeds(seedsDir!)!.W.find((s) => /^\|\s*`url_expires_at`\s*\|/.test(s.text));
  assert.ok(row, 'the seed has a url_expires_at row');
  return row.text;
}

test(
  'with the seeds beside the checkout and no --seeds, failures quote the row they rest on',
  { skip: seedsDir ? false : 'the seeds are not beside this checkout' },
  () => {
    const md = readFileSync(path.join(run.reportsDir, 'conformance.md'), 'utf8');
    const failures = md.slice(md.indexOf('## Failures'), md.indexOf('## Rules'));
    assert.ok(
      failures.includes(`> ${missingMemberRow()}`),
      `conformance.md quotes the row:\n${failures.slice(0, 2000)}`,
    );
    assert.match(md, /\[junit\.xml\]\(junit\.xml\)/, 'conformance.md links the other reports');
  },
);

test(
  'the HTML report shows why, expected, received, the seed statement and the curl without hovering',
  { skip: noChromium },
  async () => {
    assert.equal(run.report.summary.verdict, 'fail', run.output.slice(-2000));
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const problems = pageProblems(page);
      await page.goto(pathToFileURL(path.join(run.reportsDir, 'conformance.html')).href, { waitUntil: 'load' });
      assert.deepEqual(problems, []);

      // Written as source text: tsx's helpers do not exist inside the page.
      const seen = await page.evaluate<Record<string, string | number | string[]>>(
        `(() => {
      const shown = (el) => { if (!el) return ''; const b = el.getBoundingClientRect(); const st = getComputedStyle(el); ` +
          `return b.width > 0 && b.height > 0 && st.visibility !== 'hidden' && st.display !== 'none' && ` +
          `b.right <= window.innerWidth + 1 ? el.innerText : ''; };
      const card = document.querySelector('section.failure');
      const q = (sel) => shown(card && card.querySelector(sel));
      const reasons = [...document.querySelectorAll('td.skipped .reason, td.error .reason, td.not_covered .reason')].map(shown).filter(Boolean);
      const titled = [...document.querySelectorAll('td[title]')].length;
      return {
        rule: q('h3'), why: q('.why'), expected: q('.expected'), received: q('.received'), statement: q('blockquote.statement'), curl: q('pre.curl'),
        reasons: reasons.length, titled,
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        links: [...document.querySelectorAll('nav.links a')].map((a) => a.getAttribute('href')),
        causes: shown(document.querySelector('ul.causes')),
      };
    })()`,
      );
      assert.match(String(seen.rule), /V2\.ASSET\.FIELDS/);
      assert.match(String(seen.why), /postAssets 201/);
      assert.match(String(seen.expected), /url_expires_at/);
      assert.match(String(seen.received), /"id":/);
      assert.match(String(seen.curl), /curl -sS -i -X POST/);
      if (seedsDir)
        assert.equal(
          String(seen.statement).split(' W:')[0],
          missingMemberRow(),
          'the statement the failure rests on is shown',
        );
      assert.ok(Number(seen.reasons) > 0, 'skip, error and not-covered reasons are written out in their cells');
      assert.equal(seen.titled, 0, 'no reason hides in a hover tooltip');
      assert.ok(Number(seen.overflow) <= 0, `nothing runs off the page (${Number(seen.overflow)} px too wide)`);
      assert.deepEqual(seen.links, ['conformance.md', 'conformance.json', 'junit.xml', 'html/index.html']);
      assert.match(String(seen.causes), /tests? fails? because V2\.ASSET\.FIELDS/);
      await page.screenshot({ path: '/tmp/conformance-report.png', fullPage: false });
    } finally {
      await browser.close();
    }
  },
);
