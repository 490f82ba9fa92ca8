// The router's harmless variations of the catalog, schema and estimate surface
// (reference/controls.ts, the router-surface block; issue #29 §2): readings seed R allows
// that the reference does not take by default. Kept apart from variations.ts so the two
// slices of the router grow without touching one file.
import type { ModelDef } from './catalog.ts';
import { inputSchema, schemaDocument, type JsonSchema, type SchemaDocument } from './schemas.ts';
import { BRAND } from './constants.ts';
import type { RouterState } from './state.ts';

/**
 * router-catalog-of-three: the catalog lists three models (R § Catalog page gives no
 * minimum): the scenario's image model, its future-sunset model (which must stay listed,
 * R:82) and a text model. Every other model is still addressed, read and run by its ID.
 */
const LISTED_UNDER_CONTROL = new Set(['pixelforge/pf-flux-lite', 'pixelforge/pf-sunset', 'textile/chat-small']);

export function listedModels(state: RouterState): ReadonlyArray<ModelDef> {
  const all = state.catalog.listed;
  return state.isControl('router-catalog-of-three') ? all.filter((d) => LISTED_UNDER_CONTROL.has(d.id)) : all;
}

/**
 * router-schemas-without-max-length: partner schemas bound no string length (R § Opaque
 * documents: the partner owns them), so the document declares no maxLength and the router
 * refuses no long string (the body size cap still holds).
 */
function withoutMaxLength(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutMaxLength);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([k]) => k !== 'maxLength')
      .map(([k, v]) => [k, withoutMaxLength(v)]),
  );
}

/** The input schema the router validates against and serves. */
export function servedInputSchema(state: RouterState, model: ModelDef): JsonSchema | undefined {
  const schema = inputSchema(model);
  return schema !== undefined && state.isControl('router-schemas-without-max-length')
    ? (withoutMaxLength(schema) as JsonSchema)
    : schema;
}

/** The schema document the router serves (endpoint and snapshot alike). */
export function servedDocument(state: RouterState, model: ModelDef): SchemaDocument {
  return state.isControl('router-schemas-without-max-length')
    ? schemaDocument(model, BRAND, servedInputSchema(state, model))
    : state.document(model);
}

/**
 * router-estimate-ignores-capacity: the estimate dispatches nothing, so this router quotes a
 * model at capacity instead of refusing it (R § estimate lists a capacity 503; it does not
 * require one).
 */
export function estimatesRefuseAtCapacity(state: RouterState): boolean {
  return !state.isControl('router-estimate-ignores-capacity');
}

/**
 * router-quote-other-names: the quote members whose names R:58 does not show (currency,
 * model ID, provider leg, the min/max cents) under other names.
 */
const QUOTE_NAMES: Readonly<Record<string, string>> = {
  currency: 'currency_code',
  model_id: 'model',
  provider: 'provider_leg',
  min_amount_cents: 'min_cents',
  max_amount_cents: 'max_cents',
};

/**
 * router-quote-open-vocabulary (estimate route only): the source and reason sets are read
 * open (R:46 and R:56 tell clients how to read values they do not know): a quote with no
 * figure says source `indeterminate`, and a body priced only afterwards says reason
 * `priced_after_run`, both read by a client as unknown / not_quotable.
 */
export function shapeSurfaceQuote(
  state: RouterState,
  quote: Record<string, unknown>,
  route: 'estimate' | 'submit',
): Record<string, unknown> {
  let out = quote;
  if (route === 'estimate' && state.isControl('router-quote-open-vocabulary') && out.source === 'unknown') {
    out = { ...out, source: 'indeterminate', ...(out.reason === 'not_quotable' ? { reason: 'priced_after_run' } : {}) };
  }
  if (state.isControl('router-quote-other-names'))
    out = Object.fromEntries(Object.entries(out).map(([k, v]) => [QUOTE_NAMES[k] ?? k, v]));
  return out;
}
