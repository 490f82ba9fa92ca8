// Router faults of model addresses, the catalog, details and schema documents (seed R § Models).
import type { FaultUnit } from '../unit.ts';
import { createHash } from 'node:crypto';
import { BRAND } from '../../router/constants.ts';
import { schemaDocument } from '../../router/schemas.ts';
import { RouterError } from '../../router/errors.ts';
import { validSegments } from '../../router/catalog.ts';
import type { Outgoing, Seams } from '../seams.ts';
import {
  CANCEL,
  COLLECT,
  DETAIL,
  LIST,
  QUEUE_URLS,
  SCHEMA,
  SNAPSHOT,
  STATUS,
  isObj,
  onRouter,
  routerError,
  type Obj,
} from './shared.ts';

/** Edits each entry of a catalog page. */
function eachEntry(s: Seams, edit: (entry: Obj, out: Outgoing) => void): void {
  onRouter(s, [LIST], (out) => {
    const data = out.status === 200 && isObj(out.body) ? out.body.data : undefined;
    if (Array.isArray(data)) for (const entry of data) if (isObj(entry)) edit(entry, out);
  });
}

export const CATALOG_FAULTS = [
  {
    name: 'router-ids-case-insensitive',
    breaks: 'ROUTER.ID.SEGMENTS',
    statements: ['R:21:ac971cc6036a', 'R:22:4e0b39dfbf5b', 'R:116:d52bd504a389'],
    description: 'model addresses with uppercase letters are folded to lowercase and served',
    install(s) {
      s.policy.router.modelSegments = (provider, model) =>
        !validSegments(provider, model) && validSegments(provider.toLowerCase(), model.toLowerCase())
          ? { provider: provider.toLowerCase(), model: model.toLowerCase() }
          : { provider, model };
    },
  },
  {
    name: 'router-billing-renamed',
    breaks: 'ROUTER.CATALOG.MEMBER_NAMES',
    description: 'the billing facts are carried as billing_facts.charged_on_policy_rejection',
    install(s) {
      // The list's entries and the detail alike, the member in its place.
      const rename = (entry: Obj): void => {
        if (!isObj(entry.billing)) return;
        const renamed: Obj = {};
        for (const [k, v] of Object.entries(entry)) {
          if (k === 'billing' && isObj(v))
            renamed.billing_facts = { charged_on_policy_rejection: v.charges_on_policy_rejection };
          else renamed[k] = v;
        }
        for (const k of Object.keys(entry)) delete entry[k];
        Object.assign(entry, renamed);
      };
      eachEntry(s, rename);
      onRouter(s, [DETAIL], (out) => {
        if (out.status === 200 && isObj(out.body)) rename(out.body);
      });
    },
  },
  {
    name: 'router-entry-no-billing',
    breaks: 'ROUTER.CATALOG.ENTRY',
    statements: ['R:29:56b168a3f304', 'R:29:82a4f2af419f'],
    description: 'catalog entries omit the billing object',
    install(s) {
      eachEntry(s, (entry) => {
        delete entry.billing;
      });
    },
  },
  {
    name: 'router-catalog-prices',
    breaks: 'ROUTER.CATALOG.NO_PRICES',
    statements: ['R:29:93c1ce7c6f2a'],
    description: 'catalog entries carry price_usd',
    install(s) {
      // Priced where the entry is built, so the detail, which repeats the entry, carries it too.
      const price = (entry: Obj, out: Outgoing): void => {
        const def = out.ctx.router.catalog.get(String(entry.provider), String(entry.model));
        if (def !== undefined) entry.price_usd = def.rates.text_to_image ?? def.rates.text_to_video ?? '0';
      };
      eachEntry(s, price);
      onRouter(s, [DETAIL], (out) => {
        if (out.status === 200 && isObj(out.body)) price(out.body, out);
      });
    },
  },
  {
    name: 'router-detail-rate-card',
    breaks: 'ROUTER.CATALOG.NO_PRICES',
    statements: ['R:29:93c1ce7c6f2a'],
    description:
      "model details carry the model's rate card under rates (dollars per unit of each operation), as a router serving its internal catalog record would",
    install(s) {
      onRouter(s, [DETAIL], (out) => {
        if (out.status !== 200 || !isObj(out.body)) return;
        const def = out.ctx.router.catalog.get(String(out.body.provider), String(out.body.model));
        if (def !== undefined && Object.keys(def.rates).length > 0) out.body.rates = { ...def.rates };
      });
    },
  },
  {
    name: 'router-page-no-has-more',
    breaks: 'ROUTER.CATALOG.PAGE',
    statements: ['R:38:d5bbac65ae84'],
    description: 'catalog pages omit has_more',
    install(s) {
      onRouter(s, [LIST], (out) => {
        if (out.status === 200 && isObj(out.body)) delete out.body.has_more;
      });
    },
  },
  {
    name: 'router-limit-unclamped',
    breaks: 'ROUTER.CATALOG.LIMIT',
    statements: ['R:40:5b2ffc1244d0', 'R:119:5865e5edde60', 'R:281:03bd127bae89'],
    description: 'a limit above 100 is served up to 150 instead of being clamped',
    install(s) {
      s.policy.router.maxPageLimit = 150;
    },
  },
  {
    name: 'router-page-overlap',
    breaks: 'ROUTER.CATALOG.WALK_UNIQUE',
    description:
      'a cursor followed for the first time resumes one entry early, so the page repeats the last ' +
      'entry of the page before (a followed-again cursor resumes where it should, so every walk still ' +
      'ends)',
    install(s) {
      // Stateful, so a walk at limit 1 still moves on: an overlap on every use would serve the same entry for ever.
      const followed = new Set<number>();
      s.policy.router.pageStart = (position) => {
        if (position === 0 || followed.has(position)) return position;
        followed.add(position);
        return position - 1;
      };
    },
  },
  {
    name: 'router-page-skips',
    breaks: 'ROUTER.CATALOG.WALK',
    statements: ['R:38:d5bbac65ae84'],
    description:
      'every page after the first starts one entry past its cursor, so the entry at each page boundary is never served',
    install(s) {
      s.policy.router.pageStart = (position) => (position > 0 ? position + 1 : position);
    },
  },
  {
    name: 'router-cursor-offset',
    breaks: 'ROUTER.CATALOG.CURSOR_OPAQUE',
    statements: ['R:25:8ca9c6fc742c', 'R:39:39fd1bbddb14'],
    description: 'next_cursor is the plain offset and any number is accepted as a cursor',
    install(s) {
      s.policy.router.encodeCursor = (_cursors, position) => String(position);
      s.policy.router.decodeCursor = (_cursors, raw) => (/^\d+$/.test(raw) ? Number(raw) : undefined);
    },
  },
  {
    name: 'router-cursor-restarts',
    breaks: 'ROUTER.CATALOG.CURSOR_REFUSED',
    description: 'a cursor the router did not issue is served as the first page instead of being refused',
    install(s) {
      s.policy.router.decodeCursor = (cursors, raw) => cursors.decode(raw) ?? 0;
    },
  },
  {
    name: 'router-detail-http-url',
    breaks: 'ROUTER.CATALOG.DETAIL',
    statements: ['R:31:93bb4adeb519'],
    description: 'input_schema_url uses http:// instead of https://',
    install(s) {
      onRouter(s, [DETAIL], (out) => {
        if (out.status === 200 && isObj(out.body) && typeof out.body.input_schema_url === 'string')
          out.body.input_schema_url = out.body.input_schema_url.replace(/^https:/, 'http:');
      });
    },
  },
  {
    name: 'router-detail-no-schema-url',
    breaks: 'ROUTER.CATALOG.DETAIL',
    statements: ['R:31:93bb4adeb519', 'R:122:b7edad8dd67e'],
    description: 'the detail of a model with an authored schema omits its schema URL',
    install(s) {
      onRouter(s, [DETAIL], (out) => {
        if (out.status === 200 && isObj(out.body)) delete out.body.input_schema_url;
      });
    },
  },
  {
    name: 'router-detail-extra-leg',
    breaks: 'ROUTER.CATALOG.DETAIL_LEGS',
    statements: ['R:31:93bb4adeb519', 'R:143:76adcceb31b0'],
    description: 'the detail lists higgsfield for models it has no leg for',
    install(s) {
      onRouter(s, [DETAIL], (out) => {
        const legs = out.status === 200 && isObj(out.body) ? out.body.model_providers : undefined;
        if (Array.isArray(legs) && !legs.includes('higgsfield')) legs.push('higgsfield');
      });
    },
  },
  {
    name: 'router-retired-200',
    breaks: 'ROUTER.CATALOG.RETIRED',
    statements: ['R:82:3ba01903e5f8', 'R:264:8f883ef294f2'],
    description: 'retired models are still served',
    install(s) {
      s.policy.router.retiredOn = () => undefined;
    },
  },
  {
    name: 'router-retired-wording',
    breaks: 'ROUTER.CATALOG.RETIRED_DETAIL',
    statements: ['R:82:3ba01903e5f8'],
    description: 'the retired-model detail says "this model is no longer available"',
    install(s) {
      onRouter(s, undefined, (out) => {
        const err = routerError(out);
        if (
          out.status === 404 &&
          err?.error_type === 'model_not_found' &&
          String(err.detail).includes(' was retired on ')
        )
          err.detail = 'this model is no longer available';
      });
    },
  },
  {
    name: 'router-sunset-retired',
    breaks: 'ROUTER.CATALOG.SUNSET_LISTED',
    statements: ['R:82:201b4024774f'],
    description: 'a model whose sunset date is in the future is treated as retired',
    install(s) {
      s.policy.router.retiredOn = (def) => def.retired?.on ?? def.sunset;
    },
  },
  {
    name: 'router-schema-no-flag',
    breaks: 'ROUTER.SCHEMA.DOCUMENT',
    statements: ['R:183:969b7f129978'],
    description: 'schema documents lack x-comfy-input-schema-authored',
    install(s) {
      s.policy.router.schemaDocument = (model) => {
        const doc = JSON.parse(schemaDocument(model, BRAND).bytes.toString('utf8')) as Record<string, unknown>;
        delete doc[`x-${BRAND.toLowerCase()}-input-schema-authored`];
        const bytes = Buffer.from(JSON.stringify(doc));
        return { bytes, etag: `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"` };
      };
    },
  },
  {
    name: 'router-etag-weak',
    breaks: 'ROUTER.SCHEMA.ETAG',
    statements: ['R:182:8a40260529c8'],
    description: 'the schema document ETag is weak (W/)',
    install(s) {
      onRouter(s, [SCHEMA], (out) => {
        const etag = out.header('etag');
        if (etag !== undefined) out.setHeader('ETag', `W/${etag}`);
      });
    },
  },
  {
    name: 'router-no-cache-control',
    breaks: 'ROUTER.SCHEMA.CACHE_CONTROL',
    statements: ['R:182:8a40260529c8', 'R:225:07b9d8566bff'],
    description: 'schema documents carry no Cache-Control',
    install(s) {
      onRouter(s, [SCHEMA], (out) => {
        out.setHeader('cache-control', undefined);
      });
    },
  },
  {
    name: 'router-ignore-if-none-match',
    breaks: 'ROUTER.SCHEMA.NOT_MODIFIED',
    statements: ['R:182:8dad8a2ac29b', 'R:182:8a40260529c8'],
    description: 'If-None-Match is ignored: always 200 with the body',
    install(s) {
      s.request({ surfaces: ['router'], routes: [SCHEMA] }, ({ request }) => {
        delete request.headers['if-none-match'];
      });
    },
  },
  {
    name: 'router-unauthored-validated',
    breaks: 'ROUTER.SCHEMA.UNAUTHORED',
    statements: ['R:183:969b7f129978'],
    description: 'unauthored models refuse bodies without a prompt (422)',
    install(s) {
      s.policy.router.unauthoredEntries = (body) =>
        typeof body.prompt === 'string'
          ? []
          : [{ loc: ['body', 'prompt'], msg: 'Field required', type: 'missing', input: body }];
    },
  },
  {
    name: 'router-snapshot-needs-key',
    breaks: 'ROUTER.SCHEMA.SNAPSHOT',
    statements: ['R:184:a88f58c934b4'],
    description: 'the published snapshot is found only with a key (404 without one)',
    install(s) {
      s.request(
        { surfaces: ['router'], routes: [SNAPSHOT] },
        ({ request }) => {
          if (request.headers.authorization !== undefined || request.headers['x-api-key'] !== undefined) return;
          const { provider, file } = request.params as { provider: string; file: string };
          throw new RouterError(
            404,
            'model_not_found',
            `no published schema for ${provider}/${file.endsWith('.json') ? file.slice(0, -5) : ''}`,
          );
        },
        'preHandler',
      );
    },
  },
  {
    name: 'router-restricted-visible',
    breaks: 'ROUTER.AUTH.FORBIDDEN',
    statements: ['R:242:991e024d9be6', 'R:263:2162d416be91'],
    description: 'a restricted model is served to every caller',
    install(s) {
      s.policy.router.restricted = () => false;
    },
  },
  {
    name: 'router-schema-failure-404',
    breaks: 'ROUTER.SCHEMA.INTERNAL_ERROR',
    statements: ['R:182:4a4be451e207', 'R:270:a854a467f940'],
    description:
      'a schema document that cannot be built is answered 404 model_not_found, as if the model did not exist',
    install(s) {
      s.policy.router.schemaFailure = (model) =>
        new RouterError(404, 'model_not_found', `no schema document for ${model.id}`);
    },
  },
  // R § Identifiers: a model is addressed by both segments, and the model ID is exactly the
  // path's value. A catalog keyed by model name alone (the provider segment only routed on)
  // serves a listed model's record under any provider segment.
  {
    name: 'router-model-by-segment-only',
    breaks: 'ROUTER.ID.SEGMENTS',
    statements: ['R:7:7c2e8778e4b2', 'R:23:94c53fad03fb'],
    description:
      'models are looked up by their model segment alone: an address naming another provider reaches ' +
      'the listed model of that name (a store keyed by model name)',
    install(s) {
      s.request(
        { surfaces: ['router'] },
        ({ request, ctx }) => {
          const p = request.params as Record<string, string> | undefined;
          if (
            typeof p?.provider !== 'string' ||
            typeof p.model !== 'string' ||
            ctx.router.catalog.get(p.provider, p.model) !== undefined
          )
            return;
          const same = ctx.router.catalog.listed.find((d) => d.model === p.model);
          if (same !== undefined) p.provider = same.provider;
        },
        'preHandler',
      );
    },
  },
  // R § Identifiers, Limits: segments of up to 64 and 128 characters (193 in all) are valid.
  // A path guard sized below them refuses a valid long address as malformed.
  {
    name: 'router-segment-length-cap',
    breaks: 'ROUTER.ID.SEGMENTS',
    statements: ['R:21:ac971cc6036a', 'R:22:4e0b39dfbf5b', 'R:23:94c53fad03fb', 'R:284:7891a86c7bf7'],
    description:
      'a gateway path-length rule sized below the seed refuses a provider segment over 48 or a model ' +
      'segment over 100 characters (403 forbidden), though both are valid',
    install(s) {
      s.request(
        { surfaces: ['router'] },
        ({ request }) => {
          const p = request.params as Record<string, string> | undefined;
          if (typeof p?.provider !== 'string' || typeof p.model !== 'string') return;
          if (p.provider.length > 48 || p.model.length > 100)
            throw new RouterError(403, 'forbidden', 'the request path is longer than this gateway allows');
        },
        'preHandler',
      );
    },
  },
  // R § Catalog page: data holds at most the page size. A page query fetching one row more
  // than the limit (to learn has_more) and forgetting to trim it serves limit + 1 entries.
  {
    name: 'router-page-limit-plus-one',
    breaks: 'ROUTER.CATALOG.LIMIT',
    statements: ['R:37:1f883156fd21'],
    description:
      'a page holds one entry more than the size it reports: the row fetched to learn has_more is not trimmed',
    install(s) {
      onRouter(s, [LIST], (out) => {
        const body = isObj(out.body) ? out.body : undefined;
        const data = body?.data;
        if (body === undefined || body.has_more !== true || !Array.isArray(data) || data.length === 0) return;
        const listed = out.ctx.router.catalog.listed;
        const last: unknown = data[data.length - 1];
        const at = isObj(last) ? listed.findIndex((d) => d.provider === last.provider && d.model === last.model) : -1;
        const next = at >= 0 ? listed[at + 1] : undefined;
        if (next === undefined || !isObj(last)) return;
        const extra: Obj = structuredClone(last);
        for (const [k, v] of Object.entries(extra))
          if (v === `${String(last.provider)}/${String(last.model)}`) extra[k] = next.id;
        extra.provider = next.provider;
        extra.model = next.model;
        data.push(extra);
      });
    },
  },
  // R § Identifiers, Limits: a cursor is 1 to 512 characters. A cursor minted as a signed
  // token (header, page-state claims, an RS256-sized signature) runs past 512.
  {
    name: 'router-cursor-signed-token',
    breaks: 'ROUTER.CATALOG.CURSOR_OPAQUE',
    statements: ['R:39:39fd1bbddb14', 'R:282:c6b972faa572'],
    description:
      'next_cursor is a signed token (header.claims.signature with a 342-character signature), over 600 characters long',
    install(s) {
      const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
      s.policy.router.encodeCursor = (cursors, position) =>
        [
          b64({ alg: 'RS256', typ: 'JWT' }),
          b64({
            iss: 'router-catalog',
            sub: 'catalog-page',
            iat: 1767225600,
            exp: 1767229200,
            page: cursors.encode(position),
          }),
          createHash('sha512').update(String(position)).digest('base64url').repeat(4).slice(0, 342),
        ].join('.');
      s.policy.router.decodeCursor = (cursors, raw) => {
        const claims = raw.split('.')[1];
        if (claims === undefined) return undefined;
        try {
          const page = (JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { page?: unknown }).page;
          return typeof page === 'string' ? cursors.decode(page) : undefined;
        } catch {
          return undefined;
        }
      };
    },
  },
  // R § Catalog entry, Limits: the schema URL is at most 2048 characters. A pre-signed
  // storage link carrying its policy document in the query string runs past it.
  {
    name: 'router-schema-url-presigned',
    breaks: 'ROUTER.CATALOG.DETAIL',
    statements: ['R:31:93bb4adeb519', 'R:285:f1e521cb73fe'],
    description:
      "the detail's schema URL is a pre-signed storage link whose query carries the signing policy, over 2048 characters",
    install(s) {
      onRouter(s, [DETAIL], (out) => {
        if (out.status !== 200 || !isObj(out.body) || typeof out.body.input_schema_url !== 'string') return;
        const policy = Buffer.from(
          JSON.stringify({
            expiration: '2099-01-01T00:00:00Z',
            conditions: Array.from({ length: 24 }, (_, i) => ({
              bucket: 'router-schemas',
              key: `${String(out.body && (out.body as Obj).provider)}/${i}`,
              acl: 'private',
            })),
          }),
        ).toString('base64');
        out.body.input_schema_url =
          `${out.body.input_schema_url}?X-Amz-Algorithm=AWS4-HMAC-SHA256` +
          `&Policy=${encodeURIComponent(policy)}&X-Amz-Signature=${'0'.repeat(64)}`;
      });
    },
  },
  // R § Response headers (ETag on schema documents). A compression middleware that drops
  // the ETag of the bodies it rewrites sends the document without one.
  {
    name: 'router-etag-dropped',
    breaks: 'ROUTER.SCHEMA.ETAG',
    statements: ['R:182:8a40260529c8', 'R:225:07b9d8566bff'],
    description: 'schema documents carry no ETag (dropped by a compression layer that rewrites the body)',
    install(s) {
      onRouter(s, [SCHEMA], (out) => {
        if (out.status === 200) out.setHeader('etag', undefined);
      });
    },
  },
  // R § Identifiers: a queued request ID is a dashed lowercase uuid. A store that keeps the
  // id as uuid.hex (32 hex digits, no dashes) hands that form out, and reads it back.
  {
    name: 'router-request-id-hex',
    breaks: 'ROUTER.ID.REQUEST_ID',
    statements: ['R:24:7fe6723c6c4c', 'R:194:8c3092ed241d'],
    description:
      'queued request IDs are handed out as 32 hex digits without dashes (uuid.hex), in the body and the URLs, and read back in that form',
    install(s) {
      const dashed = (hex: string): string =>
        `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      s.request(
        { surfaces: ['router'], routes: [STATUS, COLLECT, CANCEL] },
        ({ request }) => {
          const p = request.params as Record<string, string>;
          if (/^[0-9a-f]{32}$/.test(p.request_id ?? '')) p.request_id = dashed(p.request_id);
        },
        'preHandler',
      );
      onRouter(s, undefined, (out) => {
        if (!isObj(out.body) || typeof out.body.request_id !== 'string' || !out.body.request_id.includes('-')) return;
        const id = out.body.request_id;
        const hex = id.replaceAll('-', '');
        out.body.request_id = hex;
        for (const k of QUEUE_URLS)
          if (typeof out.body[k] === 'string') out.body[k] = out.body[k].replace(`/requests/${id}`, `/requests/${hex}`);
      });
    },
  },
] as const satisfies ReadonlyArray<FaultUnit>;
