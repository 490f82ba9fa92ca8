// The request body (seed W: an object with `data`, an object; public documents: each
// value of `data` is an object, one per language). Refusals list every problem found.
import { detailsError } from './errors.ts';
import type { Translations } from './nodes.ts';
import { isPlainObject } from '../../lib/values.ts';

export function translationsOf(body: unknown): Translations {
  if (!isPlainObject(body))
    throw detailsError(400, 'the request body is invalid', ['the body must be a JSON object with a "data" object']);
  const { data } = body;
  if (data === undefined) throw detailsError(400, 'the request body is invalid', ['"data" is required']);
  if (!isPlainObject(data))
    throw detailsError(400, 'the request body is invalid', [
      `"data" must be an object, not ${data === null ? 'null' : Array.isArray(data) ? 'an array' : typeof data}`,
    ]);
  const problems = Object.entries(data)
    .filter(([, v]) => !isPlainObject(v))
    .map(([lang]) => `"data.${lang}" must be an object`);
  if (problems.length > 0) throw detailsError(400, 'the request body is invalid', problems);
  return data as Translations;
}
