// Local JSON references (`$ref: '#/components/...'`) in an OpenAPI or JSON Schema document:
// one walk of a JSON pointer (RFC 6901 escapes) and one `deref`, shared by the contract
// loader, the schema explorer, the router's schema reader and the reference's controls.
import { isPlainObject } from '../values.ts';

type Obj = Record<string, unknown>;

/** The node a local pointer (`#/a/b~1c`) names in the document, or undefined. */
export function atPointer(doc: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (isPlainObject(node) ? node[key] : undefined), doc);
}

/** Follows local `$ref`s (at most ten hops) to the object they name; undefined for a remote or dangling one. */
export function deref(doc: Obj, value: unknown): Obj | undefined {
  let cur = value;
  for (let hops = 0; isPlainObject(cur) && typeof cur.$ref === 'string' && hops < 10; hops++) {
    const ref = cur.$ref;
    if (!ref.startsWith('#/')) return undefined;
    cur = atPointer(doc, ref);
  }
  return isPlainObject(cur) ? cur : undefined;
}
