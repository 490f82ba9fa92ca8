// A test's name in a self-test plan and its reports: its file and titles, unique within a
// project. Its own module, so the workers' provider loads nothing else.

export function testKey(file: string, titles: readonly string[]): string {
  return [file, ...titles].join(' › ');
}
