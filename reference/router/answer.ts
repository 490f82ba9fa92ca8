// What the router answers: a status, headers and a body, and the error answers built from a
// partner's failure. A leaf module: the dispatch, the variations and the override points use it.
import type { ModelDef } from './catalog.ts';
import { H } from './constants.ts';
import type { PartnerAnswer } from './partners.ts';

/** Which door a request came in by. */
export type Route = 'run' | 'submit' | 'estimate';

/** An answer the caller gets, produced by a provider (and so recorded against a key). */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function errorAnswer(
  status: number,
  errorType: string,
  detail: string,
  headers: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): Answer {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', [H.errorType]: errorType, ...headers },
    body: Buffer.from(JSON.stringify({ detail, error_type: errorType, ...extra })),
  };
}

/** Turns a partner's failure into the router's answer. */
export function failureAnswer(answer: Exclude<PartnerAnswer, { kind: 'ok' }>, model: ModelDef): Answer {
  switch (answer.kind) {
    case 'unavailable':
    case 'unparseable': {
      const upstream = String(answer.upstreamStatus);
      const why =
        answer.kind === 'unavailable'
          ? 'the provider could not take the call'
          : "the provider's answer could not be turned into a result";
      return errorAnswer(502, 'provider_error', `${model.id}: ${why}`, { [H.upstreamStatus]: upstream });
    }
    case 'rejected':
      return errorAnswer(
        400,
        'invalid_input',
        `${model.id}: the provider rejected the request as malformed`,
        { [H.upstreamStatus]: String(answer.upstreamStatus), [H.upstreamDetail]: answer.reason },
        { upstream_detail: answer.reason },
      );
    case 'policy': {
      return errorAnswer(
        400,
        'content_policy_violation',
        `${model.id}: the provider refused the request on content-policy grounds`,
        { [H.refusalSubject]: answer.subject },
        { refusal_subject: answer.subject },
      );
    }
    case 'timeout':
      return errorAnswer(
        504,
        'deadline_exceeded',
        `${model.id}: the call passed its deadline; check the bucket before retrying with the same key`,
        {
          [H.upstreamStatus]: '504',
          'Retry-After': '2',
        },
      );
  }
}
