// What a test's spawned child inherits of the user's environment (test/support/child-env.ts):
// never the user's choice of target nor the settings its caller names, always the caller's own values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { childEnv } from '../support/child-env.ts';

/** Runs `body` with the given variables in process.env, then puts the environment back. */
function withEnv(vars: Record<string, string>, body: () => void): void {
  const saved = { ...process.env };
  Object.assign(process.env, vars);
  try {
    body();
  } finally {
    for (const k of Object.keys(vars)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}

const USER = {
  TARGET: 'mine',
  TARGETS_FILE: '/home/me/targets.yaml',
  TARGET_SURFACE: 'local',
  TARGET_BASE_URL: 'http://10.0.0.1',
  TARGET_TOKEN: 'secret',
  REPORTS_DIR: '/home/me/reports',
  CHILD_ENV_UNRELATED: 'kept',
};

test("a child inherits none of the user's choice of target, and the rest of the user's environment", () => {
  withEnv(USER, () => {
    const env = childEnv();
    for (const k of ['TARGET', 'TARGETS_FILE', 'TARGET_SURFACE', 'TARGET_BASE_URL', 'TARGET_TOKEN'])
      assert.equal(env[k], undefined, k);
    assert.equal(env.REPORTS_DIR, '/home/me/reports');
    assert.equal(env.CHILD_ENV_UNRELATED, 'kept');
  });
});

test('a child does not inherit a setting its caller drops, but inherits one of the target choice the caller keeps', () => {
  withEnv(USER, () => {
    const env = childEnv({ drop: ['REPORTS_DIR'], keep: ['TARGET_TOKEN'] });
    assert.equal(env.REPORTS_DIR, undefined);
    assert.equal(env.TARGET_TOKEN, 'secret');
    assert.equal(env.TARGET, undefined);
  });
});

test("the caller's own values win over both the user's and what was dropped", () => {
  withEnv(USER, () => {
    const env = childEnv({ drop: ['REPORTS_DIR'], set: { TARGET: 'reference', REPORTS_DIR: '/tmp/r', CI: '1' } });
    assert.deepEqual([env.TARGET, env.REPORTS_DIR, env.CI], ['reference', '/tmp/r', '1']);
    assert.equal(env.TARGETS_FILE, undefined);
  });
});
