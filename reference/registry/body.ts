// The request body (seed W: an object with `data`, an object; public documents: each
// value of `data` is an object, one per language). Refusals list every problem found.
import { detailsError } from './errors.ts';
import type { Translations } from './nodes.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function translationsOf(body: unknown): Translations {
  if (!isObject(body)) throw detailsError(400, 'the request body is invalid', ['the body must be a JSON object with a "data" object']);
  const { data } = body;
  if (data === undefined) throw detailsError(400, 'the request body is invalid', ['"data" is required']);
  if (!isObject(data)) throw detailsError(400, 'the request body is invalid', [`"data" must be an object, not ${data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data}`]);
  const problems = Object.entries(data)
    .filter(([, v]) => !isObject(v))
    .map(([lang]) => `"data.${lang}" must be an object`);
  if (problems.length > 0) throw detailsError(400, 'the request body is invalid', problems);
  return data as Translations;
}
