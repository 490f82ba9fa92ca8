// The contract sample under load keeps each finding at its rule's level: a finding under a
// MUST rule is a violation (LOAD.CONTRACT.UNDER_LOAD fails), a finding under a SHOULD rule
// (a status or body only the public documents give) is a departure, reported apart.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadContract } from '../../lib/contracts/loader.ts';
import { FAMILY_CONTRACTS } from '../../lib/contracts/registry.ts';
import { ruleOrThrow } from '../../lib/rules.ts';
import { ContractSampler } from '../../load/sampler.ts';
import { smoke } from './helpers.ts';

function sampler(family: 'v1' | 'v2'): ContractSampler {
  const c = FAMILY_CONTRACTS[family]!;
  return new ContractSampler(loadContract(c.file, 'Comfy', c.rulePrefix), c.checks, '', 1);
}

const JOB = {
  id: '2f1e0c4a-8d7b-4c3e-9a10-0b1c2d3e4f50',
  status: 'running',
  expires_at: '2030-01-01T00:00:00Z',
  outputs: [],
  error: null,
};

test('a v2 submit answered 200 (the public documents say 201) is a SHOULD departure, not a violation', () => {
  const s = sampler('v2');
  const findings = s.offer(
    'POST',
    '/api/v2/jobs',
    200,
    { 'content-type': 'application/json' },
    JSON.stringify(JOB),
    0,
    true,
  );
  assert.deepEqual(
    findings.map((f) => f.rule),
    ['V2.CONTRACT.DOCUMENTED'],
  );
  assert.equal(ruleOrThrow('V2.CONTRACT.DOCUMENTED').level, 'SHOULD');
  assert.equal(s.violations, 0);
  assert.equal(s.departures, 1);
  assert.equal(s.kept[0]?.level, 'SHOULD');
});

test('a v1 status answer with a status the contract does not declare is a SHOULD departure (v1 statuses are not shown)', () => {
  const s = sampler('v1');
  const findings = s.offer(
    'GET',
    '/api/job/abc/status',
    202,
    { 'content-type': 'application/json' },
    JSON.stringify({ status: 'executing' }),
    0,
    true,
  );
  assert.ok(
    findings.length > 0 && findings.every((f) => ruleOrThrow(f.rule).level === 'SHOULD'),
    findings.map((f) => f.rule).join(', '),
  );
  assert.equal(s.violations, 0);
  assert.equal(s.departures, 1);
});

test('a v2 job read without expires_at breaks a MUST rule: a violation', () => {
  const s = sampler('v2');
  const { expires_at: _, ...noExpiry } = JOB;
  const findings = s.offer(
    'GET',
    `/api/v2/jobs/${JOB.id}`,
    200,
    { 'content-type': 'application/json' },
    JSON.stringify(noExpiry),
    0,
    true,
  );
  assert.deepEqual(
    findings.map((f) => f.rule),
    ['V2.JOB.FIELDS'],
  );
  assert.equal(s.violations, 1);
  assert.equal(s.departures, 0);
  assert.equal(s.kept[0]?.level, 'MUST');
});

test(
  'under load, a v1 status answered with a status only SHOULD rules judge (201) leaves ' +
    'LOAD.CONTRACT.UNDER_LOAD held and the run passing, the departure reported',
  async () => {
    // The reference's v1-status-created-201 fault breaks V1.CONTRACT.STATUS_DECLARED, a SHOULD rule.
    const report = await smoke('v1-job-status', 'v1-status-created-201');
    assert.equal(report.verdict, 'pass', JSON.stringify(report.checks));
    assert.ok(
      report.checks.every((c) => c.outcome === 'held'),
      JSON.stringify(report.checks),
    );
    assert.equal(report.contract.violations, 0);
    assert.ok((report.contract.should ?? 0) > 0, 'the departures are counted');
    assert.ok(
      report.notes.some((n) => n.startsWith('SHOULD:') && n.includes('V1.CONTRACT.STATUS_DECLARED')),
      report.notes.join('\n'),
    );
  },
);
