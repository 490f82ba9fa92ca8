// A v1 prompt cancelled by its user while it runs. Seed W shows no operation that cancels a
// v1 prompt: the target names its own in scenario input prompt_interrupt ({method, path,
// body}, `{prompt_id}` standing for the prompt's id), sent with the v1 key.
import { SuiteError } from '../violations.ts';
import type { ApiResponse } from '../api.ts';
import type { PromptStream } from '../ws/session.ts';
import type { Polled, V1Client } from './client.ts';
import { untilRunning } from './run.ts';
import { slowWorkflow } from './workflows.ts';

interface PromptInterrupt {
  method: string | undefined;
  path: string | undefined;
  body: unknown;
}

interface Interrupted {
  promptId: string;
  /** The answer to the cancel; a non-2xx one means nothing was cancelled (the rest is absent). */
  asked: ApiResponse;
  polled?: Polled;
  stream?: PromptStream;
  /** The status read once more after the stream's terminal message. */
  after?: string;
}

/** Runs a slow prompt, cancels it once the stream shows it running, polls it to its end and reads the stream's end. */
export async function cancelWhileRunning(
  v1: V1Client,
  slow: string,
  how: PromptInterrupt,
  label: string,
): Promise<Interrupted> {
  if (typeof how.path !== 'string' || how.path === '')
    throw new SuiteError(
      'scenario input prompt_interrupt must hold a path (with {prompt_id} where the prompt is named)',
    );
  const session = await v1.openStream();
  try {
    const promptId = await v1.accept(slowWorkflow(v1.classes, slow, 5, label));
    // The slow node runs ~5 s; any sign it runs (executing, progress, or the prompt's start) means seconds to go.
    await untilRunning(session, promptId, '2');
    const fill = (v: unknown): unknown =>
      typeof v === 'string'
        ? v.replaceAll('{prompt_id}', promptId)
        : Array.isArray(v)
          ? v.map(fill)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]))
            : v;
    const asked = await v1.api.follow(String(fill(how.path)), {
      method: how.method ?? 'POST',
      ...(how.body !== undefined ? { json: fill(how.body) } : {}),
      auth: { apiKey: v1.key },
    });
    if (asked.status < 200 || asked.status > 299) return { promptId, asked };
    const polled = await v1.pollToTerminal(promptId);
    const stream = await session.streamOf(promptId);
    const after = await v1.status(promptId);
    return { promptId, asked, polled, stream, after };
  } finally {
    session.close();
  }
}
