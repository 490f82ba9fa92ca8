// A Node test reporter (scripts/run-tests.mjs adds it): when each test file's first test
// started and its last one ended, written as one JSON object, so a run can say which files
// its wall time went to. Node's own reporters give each test's duration, not each file's.
export default async function* fileTimes(source) {
  const files = new Map();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file || (event.type !== 'test:start' && event.type !== 'test:pass' && event.type !== 'test:fail')) continue;
    const now = Date.now();
    const span = files.get(file) ?? files.set(file, { first: now, last: now }).get(file);
    span.last = now;
  }
  yield JSON.stringify(Object.fromEntries([...files].map(([f, s]) => [f, s.last - s.first])));
}
