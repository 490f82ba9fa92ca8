// A Node test reporter (scripts/run-tests.mjs adds it beside the spec reporter): what the run
// needs to print its last lines, written as one JSON object. `counts` are the runner's own
// closing figures (its diagnostics `pass N`, `fail N`, ..., the ones the TAP and spec
// reporters print); `files` is how long each test file took, as the sum of its top-level
// tests' and suites' durations (a file runs those one after another unless it asks
// otherwise), so a run can say which files its wall time went to.
export default async function* summary(source) {
  const files = new Map();
  const counts = {};
  for await (const event of source) {
    if (event.type === 'test:diagnostic') {
      const m = /^(tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(event.data?.message ?? '');
      if (m && event.data.nesting === 0) counts[m[1]] = Number(m[2]);
      continue;
    }
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data ?? {};
    if (!file || nesting !== 0 || typeof details?.duration_ms !== 'number') continue;
    files.set(file, (files.get(file) ?? 0) + details.duration_ms);
  }
  yield JSON.stringify({ counts, files: Object.fromEntries(files) });
}
