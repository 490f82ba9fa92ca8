// A passive run from start to report: the proxy with its judge and its live line
// (`workflow-conformance proxy`), or a HAR file judged offline (`check-har`). The CLI and
// the tests both start runs through here.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Surface } from '../families.ts';
import { toHar } from '../har.ts';
import type { TapeEntry } from '../tape.ts';
import { REDACTED } from '../redact.ts';
import type { ConformanceReport } from '../../report/report.ts';
import { PassiveJudge } from './judge.ts';
import { startProxy, type RunningProxy } from './proxy.ts';
import { observedFromHar } from './har-input.ts';
import { passiveReport, writePassiveReports } from './report.ts';
import type { Observed } from './observed.ts';

export interface PassiveTarget {
  name: string;
  surface: Surface;
  baseUrl: string;
  brand?: string;
  scenario?: Readonly<Record<string, unknown>>;
}

export interface ProxySession {
  url: string;
  judge: PassiveJudge;
  proxy: RunningProxy;
  /** exchanges, rules judged, findings: the live line. */
  line(): string;
  /** Stops listening, judges what only the whole run shows, writes the reports (and the recording). */
  stop(): Promise<{
    report: ConformanceReport;
    files: { json: string; markdown: string; html: string };
    recorded?: string;
  }>;
}

const TEXTUAL = /json|text|xml|html|javascript|x-www-form-urlencoded|event-stream/i;

/** One exchange as a HAR entry, every credential replaced (as the cassette keeps them). */
function tapeOf(ex: Observed, judge: PassiveJudge): TapeEntry {
  const scrub = (text: string): string => judge.redact.text(text).split(REDACTED).join('REDACTED');
  const headers = (h: Record<string, string>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(h).map(([k, v]) => [k, judge.redact.header(k, v).split(REDACTED).join('REDACTED')]),
    );
  const body = (buf: Buffer | undefined, type: string | undefined): { body: string; bodyEncoding?: 'base64' } =>
    buf === undefined
      ? { body: '' }
      : TEXTUAL.test(type ?? '')
        ? { body: scrub(buf.toString('utf8')) }
        : { body: buf.toString('base64'), bodyEncoding: 'base64' };
  const r = ex.response;
  const req = ex.requestBody ? body(ex.requestBody, ex.requestHeaders['content-type']) : undefined;
  return {
    scope: '',
    key: `${ex.method} ${new URL(ex.url).pathname}`,
    started: new Date(ex.started).toISOString(),
    request: {
      method: ex.method,
      url: scrub(ex.url),
      headers: headers(ex.requestHeaders),
      ...(req
        ? {
            body: req.body,
            ...(req.bodyEncoding ? { bodyEncoding: req.bodyEncoding } : {}),
            ...(ex.requestHeaders['content-type'] ? { mimeType: ex.requestHeaders['content-type'] } : {}),
          }
        : {}),
    },
    ...(r
      ? {
          response: {
            status: r.status,
            headers: headers(r.headers),
            ...body(r.body, r.headers['content-type']),
            truncated: r.truncated,
            elapsedMs: Math.round(r.elapsedMs),
          },
        }
      : {}),
    ...(ex.error ? { error: scrub(ex.error) } : {}),
    ...(ex.ws
      ? {
          ws: {
            id: String(ex.seq),
            items: ex.ws.messages.map((m) => ({
              kind: m.dir,
              at: m.at,
              after: 0,
              opcode: m.binary ? (2 as const) : (1 as const),
              data: m.binary ? m.data.toString('base64') : scrub(m.data.toString('utf8')),
            })),
          },
        }
      : {}),
  };
}

function writeRecording(
  file: string,
  kept: Observed[],
  judge: PassiveJudge,
  target: PassiveTarget,
  version: string,
): void {
  const baseUrl = judge.redact.text(target.baseUrl);
  const meta = {
    target: { name: target.name, entry: { surfaces: { [target.surface]: { base_url: baseUrl } } }, variables: [] },
    args: [],
    env: {},
    passive: { surface: target.surface, base_url: baseUrl },
  };
  writeFileSync(
    file,
    JSON.stringify(
      toHar(
        kept.map((ex) => tapeOf(ex, judge)),
        meta,
        version,
      ),
      null,
      1,
    ) + '\n',
  );
}

export async function startProxySession(opts: {
  target: PassiveTarget;
  port: number;
  reportsDir: string;
  record?: string;
  version: string;
  onChange?: () => void;
}): Promise<ProxySession> {
  const { target } = opts;
  const judge = new PassiveJudge({
    surface: target.surface,
    baseUrl: target.baseUrl,
    ...(target.brand ? { brand: target.brand } : {}),
    ...(target.scenario ? { scenario: target.scenario } : {}),
  });
  const kept: Observed[] = [];
  const notes: string[] = [];
  const started = Date.now();
  const changed = (): void => opts.onChange?.();
  const proxy = await startProxy({
    upstream: target.baseUrl,
    port: opts.port,
    onExchange: (ex) => {
      if (opts.record) kept.push(ex);
      judge.exchange(ex);
      changed();
    },
    onWsMessage: (ex, m) => {
      judge.wsMessage(ex.seq, ex, m);
      changed();
    },
    onWsClose: (ex) => {
      if (ex.ws?.note) notes.push(`${ex.method} ${judge.redact.text(ex.url)}: ${ex.ws.note}`);
      judge.wsClosed(ex.seq, ex);
      changed();
    },
  });
  return {
    url: proxy.url,
    judge,
    proxy,
    line: () => {
      const c = judge.counts();
      return `${judge.exchanges} exchanges, ${c.rules} rules judged, ${c.findings} findings (${c.must} MUST)`;
    },
    stop: async () => {
      await proxy.close();
      judge.finish();
      const report = passiveReport(judge, {
        source: 'proxy',
        from: judge.redact.text(target.baseUrl),
        target: { name: target.name, base_url: judge.redact.text(target.baseUrl) },
        brand: target.brand ?? 'Comfy',
        seconds: Math.round((Date.now() - started) / 100) / 10,
        latency: proxy.latency.summary(),
        notes,
      });
      const files = writePassiveReports(report, opts.reportsDir, (t) => judge.redact.text(t));
      if (opts.record) writeRecording(opts.record, kept, judge, target, opts.version);
      return { report, files, ...(opts.record ? { recorded: opts.record } : {}) };
    },
  };
}

/** Judges a HAR file as the proxy judges traffic; exchanges off the target are listed, not judged. */
export function checkHar(
  file: string,
  opts: {
    surface: Surface;
    baseUrl?: string;
    name?: string;
    brand?: string;
    scenario?: Readonly<Record<string, unknown>>;
    reportsDir: string;
  },
): { report: ConformanceReport; files: { json: string; markdown: string; html: string } } {
  const observed = observedFromHar(JSON.parse(readFileSync(file, 'utf8')) as unknown);
  const judge = new PassiveJudge({
    surface: opts.surface,
    ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}),
    ...(opts.brand ? { brand: opts.brand } : {}),
    ...(opts.scenario ? { scenario: opts.scenario } : {}),
  });
  for (const ex of observed) {
    judge.exchange(ex);
    for (const m of ex.ws?.messages ?? []) judge.wsMessage(ex.seq, ex, m);
    if (ex.ws) judge.wsClosed(ex.seq, ex);
  }
  judge.finish();
  const report = passiveReport(judge, {
    source: 'har',
    from: file,
    target: { name: opts.name ?? 'har', base_url: opts.baseUrl ? judge.redact.text(opts.baseUrl) : '(any host)' },
    brand: opts.brand ?? 'Comfy',
  });
  return { report, files: writePassiveReports(report, opts.reportsDir, (t) => judge.redact.text(t)) };
}
