// A Node test reporter (scripts/run-tests.mjs adds it): how long each test file took, as the
// sum of its top-level tests' and suites' durations (a file runs those one after another
// unless it asks otherwise), written as one JSON object, so a run can say which files its
// wall time went to. Node's own reporters give each test's duration, not each file's.
export default async function* fileTimes(source) {
  const files = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file, nesting, details } = event.data ?? {};
    if (!file || nesting !== 0 || typeof details?.duration_ms !== 'number') continue;
    files.set(file, (files.get(file) ?? 0) + details.duration_ms);
  }
  yield JSON.stringify(Object.fromEntries(files));
}
