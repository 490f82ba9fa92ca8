// The request body (seed W: an object with `data`, an object; public documents: each
// value of `data` is an object, one per language). Refusals list every problem found.
import type { IsFault } from '../faults.ts';
import { detailsError } from './errors.ts';
import type { Translations } from './nodes.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function translationsOf(body: unknown, isFault: IsFault): Translations {
  const status = isFault('registry-bad-body-422') ? 422 : 400;
  if (!isObject(body)) throw detailsError(status, 'the request body is invalid', ['the body must be a JSON object with a "data" object']);
  if (!('data' in body) && isFault('registry-missing-data-accepted')) return {};
  const { data } = body;
  if (data === undefined) throw detailsError(status, 'the request body is invalid', ['"data" is required']);
  if (!isObject(data)) throw detailsError(status, 'the request body is invalid', [`"data" must be an object, not ${data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data}`]);
  const problems = Object.entries(data)
    .filter(([, v]) => !isObject(v))
    .map(([lang]) => `"data.${lang}" must be an object`);
  if (problems.length > 0) throw detailsError(status, 'the request body is invalid', problems);
  return data as Translations;
}
