// The suite's own choices a server may legally refuse: where an upload is placed, which
// node classes a workflow uses. A refusal of one of them is not a conformance failure:
// the rules behind the step end "error: setup refused ...; set scenario input <name>".
// Only refusals that name the input count; any other refusal of a well-formed request
// is still judged as the server breaking the rule under test.
import type { ApiResponse } from '../api.ts';
import { SetupRefused } from '../violations.ts';
import { inputNaming, type Workflow } from '../data/workflows.ts';

interface Envelope {
  error?: { code?: unknown; message?: unknown; details?: unknown };
}

function envelope(res: ApiResponse): { code: string; message: string; details: unknown } | undefined {
  let json: Envelope | undefined;
  try {
    json = res.json<Envelope>();
  } catch {
    return undefined;
  }
  const e = json?.error;
  if (!e || typeof e !== 'object') return undefined;
  return {
    code: typeof e.code === 'string' ? e.code : '',
    message: typeof e.message === 'string' ? e.message : '',
    details: e.details,
  };
}

/** `422 invalid_request: <message>`, as a failure line quotes the server. */
export function serverSaid(res: ApiResponse): string {
  const e = envelope(res);
  return `${res.status}${e?.code ? ` ${e.code}` : ''}${e?.message ? `: ${e.message.slice(0, 300)}` : ''}`;
}

/** Placement words a refusal of file_path uses ("not an allowlisted placement root", "invalid path"). */
const PATH_WORDS = /file_path|placement|\bpath\b|\broot\b|allow-?list|folder|director|subfolder/i;

/**
 * An upload refused for its placement path: 4xx invalid_request (or forbidden) whose
 * message or details speak of the path. Then the suite's default path is what the
 * server refused, and scenario input upload_file_path changes it.
 */
export function uploadPathRefusal(res: ApiResponse, filePath: string): SetupRefused | undefined {
  if (res.status < 400 || res.status >= 500) return undefined;
  const e = envelope(res);
  if (!e || !['invalid_request', 'forbidden'].includes(e.code)) return undefined;
  const text = `${e.message} ${JSON.stringify(e.details ?? '')}`;
  if (!PATH_WORDS.test(text) && !text.includes(filePath)) return undefined;
  return new SetupRefused(
    `the upload with file_path "${filePath}" (POST /api/v2/assets)`,
    serverSaid(res),
    'upload_file_path',
  );
}

/**
 * A submit refused because the engine lacks a class the suite chose: a 4xx whose
 * node_errors, unknown_node_classes or message name such a class as unknown.
 */
export function classRefusal(
  res: ApiResponse,
  workflow: Workflow,
  scenario: Record<string, unknown>,
): SetupRefused | undefined {
  if (res.status < 400 || res.status >= 500) return undefined;
  const e = envelope(res);
  if (!e || e.code === 'missing_asset') return undefined;
  const used = [...new Set(Object.values(workflow).map((n) => n.class_type))];
  const details = (e.details ?? {}) as {
    node_errors?: Record<string, { class_type?: unknown; errors?: Array<{ type?: unknown }> }>;
    unknown_node_classes?: unknown;
  };
  const unknown = new Set<string>();
  if (Array.isArray(details.unknown_node_classes))
    for (const c of details.unknown_node_classes) if (typeof c === 'string') unknown.add(c);
  for (const [id, entry] of Object.entries(details.node_errors ?? {})) {
    const types = Array.isArray(entry?.errors) ? entry.errors.map((x) => x?.type) : [];
    if (types.some((t) => t === 'unknown_node_class' || t === 'invalid_class_type'))
      unknown.add(typeof entry.class_type === 'string' ? entry.class_type : (workflow[id]?.class_type ?? ''));
  }
  for (const cls of used) {
    const c = cls.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (
      new RegExp(
        `\\b${c}\\b[^.]*\\b(does not exist|not found|unknown|not installed|not a known)|\\b(unknown|no such)\\b[^.]*\\b${c}\\b`,
        'i',
      ).test(e.message)
    )
      unknown.add(cls);
  }
  const ours = [...unknown].filter((c) => used.includes(c));
  if (ours.length === 0) return undefined;
  const inputs = [...new Set(ours.map((c) => inputNaming(c, scenario) ?? 'a *_class input'))];
  return new SetupRefused(
    `the submit of the suite's workflow using ${ours.join(', ')} (POST /api/v2/jobs)`,
    serverSaid(res),
    inputs.join(' or '),
  );
}
