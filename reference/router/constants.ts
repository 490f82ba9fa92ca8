// The router's fixed names and limits: its brand, the headers it sends, its body and spend limits.
// A leaf module, so the controls, the override points and the dispatch all read them without a circle.

/** The reference serves the Comfy brand (targets.yaml, reference entry). */
export const BRAND = 'Comfy';
export const H = {
  requestId: `X-${BRAND}-Request-Id`,
  errorType: `X-${BRAND}-Error-Type`,
  fallback: `X-${BRAND}-Router-Fallback-Provider`,
  dropped: `X-${BRAND}-Router-Dropped-Params`,
  credits: `X-${BRAND}-Credits-Used`,
  upstreamStatus: `X-${BRAND}-Upstream-Status`,
  upstreamDetail: `X-${BRAND}-Upstream-Detail`,
  refusalSubject: `X-${BRAND}-Refusal-Subject`,
} as const;

/** Where the router's platform storage would serve copied assets (scenario platform_asset_origin); the reference copies none. */
export const PLATFORM_ASSET_ORIGIN = 'https://storage.router.reference.example';
export const SPEND_LIMIT_CENTS = 50_000;
export const MAX_BODY_BYTES = 1024 * 1024;
