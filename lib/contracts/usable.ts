// The line between a value in another form and an answer a test cannot use, drawn on
// ajv's error keywords. The judge (judge.ts) decides with it whether a contract finding
// stops a test; the loader uses it to read a failed anyOf/oneOf as its nearest branch.
import type { ErrorObject } from 'ajv';

/** What of an ajv error the line needs. */
export type SchemaError = Pick<ErrorObject, 'keyword' | 'instancePath' | 'params'>;

// A value of the right JSON type whose content is off. ajv reports these only on a value
// that is present and of the type the keyword applies to, so the body still has the
// member and the member still reads as what a test expects (a string is a string).
// maxItems/maxProperties: more than the contract allows still holds everything a test reads.
const FORM_KEYWORDS = new Set([
  'format',
  'pattern',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'maxItems',
  'maxProperties',
  'maxContains',
  'uniqueItems',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
]);

/**
 * Whether an answer whose schema errors are these can still be used by a test. Everything
 * else is a structure a test may rely on and cannot: `type` (a member, or the body, of
 * another JSON type), `required`/`dependentRequired` (a member missing), `minItems`/
 * `minProperties`/`contains` (an item a test may read is not there), `not`, a false schema,
 * an anyOf/oneOf none of whose branches the value is near (see nearestBranch) and any
 * keyword not named here. An `if` error only sums up its then/else errors, which decide.
 */
export function usableDespite(errors: ReadonlyArray<SchemaError>): boolean {
  return errors.every((e) => FORM_KEYWORDS.has(e.keyword) || e.keyword === 'if');
}

/**
 * A failed anyOf/oneOf read as the branch the value is nearest to: when one branch fails by
 * form only (a cancel answer whose request_id is in upper case), the value has that
 * branch's shape, so that branch's errors stand for it and the other branches' errors and
 * the combinator's own are dropped. Otherwise the errors are left as ajv gave them.
 * `recheck` validates a value against one branch (needs ajv's `verbose` errors, which carry
 * the branches and the value).
 */
export function nearestBranch(
  errors: ErrorObject[],
  recheck: (schema: unknown, data: unknown) => ErrorObject[],
): ErrorObject[] {
  const out = [...errors];
  for (let i = 0; i < out.length; i++) {
    const e = out[i];
    if ((e.keyword !== 'anyOf' && e.keyword !== 'oneOf') || !Array.isArray(e.schema)) continue;
    const raw = (e.schema as unknown[]).map((b) =>
      recheck(b, e.data).map((x) => ({ ...x, instancePath: e.instancePath + x.instancePath })),
    );
    const near = raw.map((b) => nearestBranch(b, recheck)).find((b) => b.length > 0 && usableDespite(b));
    if (!near) continue;
    // Drop what the branches reported (they precede the combinator's error), then the combinator.
    let end = i;
    for (const b of raw) {
      for (const x of b) {
        for (let j = end - 1; j >= 0; j--) {
          const o = out[j];
          if (
            o.keyword === x.keyword &&
            o.instancePath === x.instancePath &&
            JSON.stringify(o.params) === JSON.stringify(x.params)
          ) {
            out.splice(j, 1);
            end--;
            break;
          }
        }
      }
    }
    out.splice(end, 1, ...near);
    i = end + near.length - 1;
  }
  return out;
}
