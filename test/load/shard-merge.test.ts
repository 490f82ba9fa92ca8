// Shards merge exactly: two shards at r/2 against one reference, run side by side as two
// machines would, merged by `npm run load:merge`, against one run at r on the same
// reference. Counts must match exactly; percentiles within histogram precision plus the
// noise of two runs. The merge adds HDR histograms, so a merged percentile always lies
// between the shards' own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runProfile, type LoadReport } from '../../load/engine.ts';
import { decodeHdr, encodeHdr, HDR_PRECISION, mergeHdr, newHdr, percentileMs, recordMs } from '../../load/hdr.ts';
import { mergeReports } from '../../load/merge.ts';
import { profileNamed } from '../../load/profiles/index.ts';
import { writeReports } from '../../load/report/write.ts';
import { startEmbedded } from '../../load/target.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RATE = 60;
const DURATION_S = 3;

test('histograms merge by adding counts: the merged percentiles are those of all values together', () => {
  const parts = [newHdr(), newHdr()];
  const all = newHdr();
  for (let i = 0; i < 20_000; i++) {
    // Two different distributions, so averaging their percentiles would be visibly wrong.
    const v = i % 2 ? 1 + (i % 97) / 10 : 50 + (i % 13);
    recordMs(parts[i % 2], v);
    recordMs(all, v);
  }
  const merged = mergeHdr(parts.map((p) => decodeHdr(encodeHdr(p))));
  assert.equal(merged.totalCount, all.totalCount);
  for (const p of [50, 90, 99, 99.9]) assert.equal(percentileMs(merged, p), percentileMs(all, p), `p${p}`);
  const averaged = (percentileMs(parts[0], 50) + percentileMs(parts[1], 50)) / 2;
  assert.notEqual(percentileMs(merged, 50), averaged);
});

test('two shards at r/2 merged equal one run at r: counts exactly, percentiles within precision and noise', async () => {
  const profile = profileNamed('v2-job-poll')!;
  const reference = await startEmbedded();
  try {
    // Latency limits are for real runs; CI shares two cores.
    const thresholds = ['errors<0.1%', 'contract_violations==0'];
    const run = (shard?: { index: number; count: number }): Promise<LoadReport> =>
      runProfile(profile, {
        env: {},
        reference,
        rate: RATE,
        durationS: DURATION_S,
        warmupS: 1,
        thresholds,
        ...(shard ? { shard } : {}),
      });
    const single = await run();
    const shards = await Promise.all([run({ index: 1, count: 2 }), run({ index: 2, count: 2 })]);

    const dirs = shards.map(() => mkdtempSync(path.join(tmpdir(), 'load-shard-')));
    await Promise.all(shards.map((r, i) => writeReports(r, dirs[i])));
    const out = mkdtempSync(path.join(tmpdir(), 'load-merged-'));
    const cli = spawnSync(process.execPath, ['--import', 'tsx', 'load/merge.ts', ...dirs, '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(cli.status, 0, `${cli.stdout}\n${cli.stderr}`);
    const files = readdirSync(out);
    assert.deepEqual(files.map((f) => path.extname(f)).sort(), ['.html', '.json', '.md']);
    const merged = JSON.parse(
      readFileSync(
        path.join(
          out,
          files.find((f) => f.endsWith('.json'))!,
        ),
        'utf8',
      ),
    ) as LoadReport;
    assert.deepEqual(
      merged,
      JSON.parse(
        JSON.stringify({
          ...mergeReports(shards),
          environment: merged.environment,
          startedAt: merged.startedAt,
          finishedAt: merged.finishedAt,
        }),
      ),
    );

    for (const s of shards) {
      assert.equal(s.profile.effective.rate, RATE / 2);
      assert.equal(s.metrics.requests, (RATE / 2) * DURATION_S, 'each shard runs half the arrivals');
    }
    const m = merged.metrics;
    const one = single.metrics;
    const figures =
      `merged p50 ${m.p50} p99 ${m.p99} (shards ${shards.map((s) => `${s.metrics.p50}/${s.metrics.p99}`).join(', ')}); ` +
      `single p50 ${one.p50} p99 ${one.p99}`;
    console.log(
      `# shard merge: ${merged.metrics.requests} requests merged, ${single.metrics.requests} single; ${figures}`,
    );
    assert.equal(
      merged.verdict,
      'pass',
      merged.checks
        .filter((c) => c.outcome !== 'held')
        .map((c) => `${c.what}: ${c.received ?? ''}`)
        .join('; '),
    );
    assert.equal(m.requests, one.requests, 'arrivals: exactly the same count');
    assert.equal(m.requests, RATE * DURATION_S);
    assert.equal(m.requested_rate, one.requested_rate);
    assert.equal(merged.raw!.counts.sent, shards[0].raw!.counts.sent + shards[1].raw!.counts.sent);
    assert.equal(decodeHdr(merged.raw!.corrected).totalCount, merged.raw!.counts.answered);
    assert.equal(merged.statusCodes['200'], (shards[0].statusCodes['200'] ?? 0) + (shards[1].statusCodes['200'] ?? 0));
    // Exact: the median of the union lies between the parts' medians; the max is the larger
    // max, to the histogram's precision (the encoded form keeps a bucket, not the value).
    const [a, b] = shards.map((s) => s.metrics);
    assert.ok(m.p50 >= Math.min(a.p50, b.p50) && m.p50 <= Math.max(a.p50, b.p50), figures);
    assert.ok(Math.abs(m.max - Math.max(a.max, b.max)) <= Math.max(a.max, b.max) * HDR_PRECISION + 0.001, figures);
    // Against the single run: the same load on the same server, so the same figures up to
    // noise (0.1 % histogram precision is far below it).
    assert.ok(Math.abs(m.p50 - one.p50) <= Math.max(5, one.p50), figures);
    assert.equal(merged.timeline.length, single.timeline.length);
    assert.ok(
      merged.timeline.every((s, i) => s.requested === single.timeline[i].requested),
      'each second requests the whole rate',
    );
  } finally {
    await reference.close();
  }
});
