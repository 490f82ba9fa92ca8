// The preflight of a run, before any test: each surface answers, and the credential
// the target names is accepted. A refused credential is almost always the user's
// mistake (a wrong key, a key of another environment); checked once here it is one
// message naming the surface and the variable, instead of every test failing on 401
// and the bearer-key rule reported broken.
import { randomUUID } from 'node:crypto';
import type { Surface } from './families.ts';
import type { SurfaceTarget } from './targets.ts';

// Each probe waits `timeoutMs` for the surface's first response headers: the run's
// CONFORMANCE_PROBE_TIMEOUT_MS (Bounds.probeTimeoutMs), which the caller (fixtures/global-setup.ts) hands down.

function why(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no response headers within ${timeoutMs} ms`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') return 'nothing listens there (connection refused)';
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN')
    return `the host name does not resolve (${cause.code})`;
  return `the connection failed before a response (${cause?.code ?? cause?.message ?? (err as Error).message})`;
}

interface Answer {
  status: number;
  /** The server's own error code and message, when its body carried them. */
  said: string;
}

/** One GET, its status and what its body says; the body is read only up to a few KiB. */
async function get(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Answer | { failed: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(url, { method: 'GET', headers, redirect: 'manual', signal: controller.signal });
    let said = '';
    if (res.status >= 400) {
      const text = (await res.text().catch(() => '')).slice(0, 4096);
      try {
        const body = JSON.parse(text) as { error?: unknown; message?: unknown; code?: unknown };
        const e = (typeof body.error === 'object' && body.error ? body.error : body) as {
          code?: unknown;
          message?: unknown;
          type?: unknown;
        };
        said = [e.code ?? e.type, e.message].filter((x) => typeof x === 'string').join(': ');
      } catch {
        said = text.replace(/\s+/g, ' ').trim().slice(0, 120);
      }
    } else {
      await res.body?.cancel().catch(() => undefined);
    }
    return { status: res.status, said };
  } catch (err) {
    return { failed: why(err, controller.signal.aborted, timeoutMs) };
  } finally {
    clearTimeout(timer);
  }
}

/** Undefined when the surface answered (any status); otherwise why not. Only the headers are awaited. */
export async function probeSurface(surface: SurfaceTarget, timeoutMs: number): Promise<string | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const res = await fetch(surface.baseUrl, { method: 'GET', redirect: 'manual', signal: controller.signal });
    // The body is not needed (and may never come): stop reading it.
    await res.body?.cancel().catch(() => undefined);
    return undefined;
  } catch (err) {
    return why(err, controller.signal.aborted, timeoutMs);
  } finally {
    clearTimeout(timer);
  }
}

interface AuthProbe {
  /** A read that needs the credential and changes nothing. */
  path: () => string;
  /**
   * Another way the same credential may be sent, tried when the first is refused: a
   * server that reads the key only from X-API-Key breaks the bearer rule, which the
   * specs judge, but the credential itself is good and the run must go on.
   */
  alternative?: { path: string; headers: (token: string) => Record<string, string> };
}

// The registry's only operation writes, so its credential is left to the specs.
const AUTH_PROBES: Partial<Record<Surface, AuthProbe>> = {
  local: { path: () => `/api/v2/assets/${randomUUID()}` },
  cloud: {
    path: () => `/api/v2/assets/${randomUUID()}`,
    alternative: { path: '/api/object_info', headers: (t) => ({ 'x-api-key': t }) },
  },
  serverless: { path: () => `/api/v2/assets/${randomUUID()}` },
  router: { path: () => '/v2/models?limit=1' },
};

/**
 * Undefined when the surface accepted its configured credential (or has none, or has no
 * read to try it on); otherwise one sentence naming the surface and where the credential
 * came from. Only a 401 counts as a refusal: any other answer is for the specs to judge.
 */
export async function checkCredential(surface: SurfaceTarget, timeoutMs: number): Promise<string | undefined> {
  const probe = AUTH_PROBES[surface.surface];
  if (!probe || surface.token === undefined) return undefined;
  const path = probe.path();
  const first = await get(
    `${surface.baseUrl}${path}`,
    { accept: 'application/json', authorization: `Bearer ${surface.token}` },
    timeoutMs,
  );
  if ('failed' in first) return `GET ${path.split('?')[0]} with the configured credential: ${first.failed}`;
  if (first.status !== 401) return undefined;
  if (probe.alternative) {
    const alt = await get(
      `${surface.baseUrl}${probe.alternative.path}`,
      { accept: 'application/json', ...probe.alternative.headers(surface.token) },
      timeoutMs,
    );
    if (!('failed' in alt) && alt.status >= 200 && alt.status < 300) return undefined;
  }
  const source = surface.tokenSource ?? 'the targets file';
  return (
    `the ${surface.surface} surface refused the configured credential (${source}): ` +
    `GET ${path.split('?')[0].replace(/[0-9a-f-]{36}$/, '<random id>')} answered 401${first.said ? ` "${first.said}"` : ''}. ` +
    `Check that ${source} holds a key valid for ${surface.baseUrl}`
  );
}
