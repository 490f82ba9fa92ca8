// The v2 live event stream as the public documents describe it (text/event-stream,
// `event:` / `data:` frames with JSON data). Its shape is public-docs, so a stream that
// does not parse is V2.JOB.EVENTS_FORMAT's (SHOULD) finding, never a MUST failure.
import type { ApiResponse } from '../api.ts';
import { check, notJudged } from '../check.ts';

export interface SseFrame {
  event: string;
  data: string;
}

/** Frames of an event-stream body: fields per line, a blank line ends a frame; `message` when no event name. */
export function parseSse(text: string): SseFrame[] {
  const frames: SseFrame[] = [];
  let event = '';
  let data: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    if (raw === '') {
      if (data.length > 0 || event) frames.push({ event: event || 'message', data: data.join('\n') });
      event = '';
      data = [];
      continue;
    }
    if (raw.startsWith(':')) continue;
    const i = raw.indexOf(':');
    const field = i < 0 ? raw : raw.slice(0, i);
    const value = i < 0 ? '' : raw.slice(i + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length > 0 || event) frames.push({ event: event || 'message', data: data.join('\n') });
  return frames;
}

/** The `status` values of a stream's status events, and the frames that were not JSON {status}. */
export function statusesOf(frames: SseFrame[]): { statuses: string[]; malformed: SseFrame[] } {
  const statuses: string[] = [];
  const malformed: SseFrame[] = [];
  for (const f of frames.filter((x) => x.event === 'status')) {
    try {
      const v = JSON.parse(f.data) as { status?: unknown };
      if (typeof v.status === 'string') statuses.push(v.status);
      else malformed.push(f);
    } catch {
      malformed.push(f);
    }
  }
  return { statuses, malformed };
}

/**
 * Whether the complete frames of a stream read so far carry a status event with one of
 * `statuses`. A live stream may stay open after the job ends, so the read stops there
 * (lib/http.ts readUntil) instead of waiting for the server to close it.
 */
export function reachedStatus(bodySoFar: Buffer | string, statuses: ReadonlySet<string>): boolean {
  const text = bodySoFar.toString();
  // Only frames a blank line has closed: the last one may still be arriving.
  const end = Math.max(text.lastIndexOf('\n\n'), text.lastIndexOf('\r\n\r\n'), text.lastIndexOf('\r\r'));
  return end >= 0 && statusesOf(parseSse(text.slice(0, end))).statuses.some((s) => statuses.has(s));
}

/**
 * The last terminal job state a stream names, read without the public documents' format:
 * whatever the content type and event names, each SSE frame (or, failing those, each line)
 * whose data is JSON, and in it any top-level string member holding one of `terminal` (the
 * target's job_terminal_states). Undefined when none can be read.
 */
export function lastTerminalRead(
  text: string,
  terminal: ReadonlySet<string>,
): { state: string; member: string } | undefined {
  const frames = parseSse(text);
  const datas = frames.some((f) => f.data !== '') ? frames.map((f) => f.data) : text.split(/\r\n|\r|\n/);
  let last: { state: string; member: string } | undefined;
  for (const data of datas) {
    let v: unknown;
    try {
      v = JSON.parse(data);
    } catch {
      continue;
    }
    if (typeof v === 'string' && terminal.has(v)) last = { state: v, member: '(the whole data)' };
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    for (const [member, value] of Object.entries(v))
      if (typeof value === 'string' && terminal.has(value)) last = { state: value, member };
  }
  return last;
}

/**
 * V2.JOB.EVENTS_FORMAT and V2.JOB.EVENTS_AGREE on one read of a job's event stream that ran
 * to a terminal status, against the status polling reads for the finished job. One
 * judgement for the suite's own reads and for a stream a passive observer saw (lib/passive/).
 */
export function judgeEventStream(res: ApiResponse, polledStatus: string, terminal: ReadonlySet<string>): void {
  const type = res.header('content-type') ?? '';
  const { statuses, malformed } = statusesOf(parseSse(res.body.toString('utf8')));
  const readable = res.status === 200 && /^text\/event-stream/i.test(type) && statuses.length > 0;
  check('V2.JOB.EVENTS_FORMAT', readable, {
    what: "the answer of the job's urls.events",
    expected: 'text/event-stream with `event: status` frames',
    received: `${res.status} ${type || 'no content-type'}, ${statuses.length} status events`,
    on: res,
  });
  check('V2.JOB.EVENTS_FORMAT', malformed.length === 0, {
    what: 'the data of the status events',
    expected: 'JSON {"status": string, ...}',
    received: malformed.map((f) => f.data).slice(0, 3),
    on: res,
  });
  if (!readable) {
    // Another format still agrees or not wherever it names a terminal state (job_terminal_states).
    const end = res.status === 200 ? lastTerminalRead(res.body.toString('utf8'), terminal) : undefined;
    if (end === undefined)
      return notJudged(
        'V2.JOB.EVENTS_AGREE',
        `the stream could not be read as the public documents describe it (see ` +
          `V2.JOB.EVENTS_FORMAT) and names no terminal job state (scenario input job_terminal_states) ` +
          `anywhere, so it cannot be compared with polling (${res.status} ${type || 'no content-type'})`,
      );
    return void check('V2.JOB.EVENTS_AGREE', end.state === polledStatus, {
      what: `the last terminal state the stream names (member ${end.member}, outside the public documents' format)`,
      expected: `the polled status ${polledStatus}`,
      received: end.state,
      on: res,
    });
  }
  check('V2.JOB.EVENTS_AGREE', statuses[statuses.length - 1] === polledStatus, {
    what: 'the last status event of the stream',
    expected: `the polled status ${polledStatus}`,
    received: statuses.join(' → '),
    on: res,
  });
}
