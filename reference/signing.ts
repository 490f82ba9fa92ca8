import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface SignedUrl {
  url: string;
  /** Epoch milliseconds; always a whole second so it matches `expires` in the URL. */
  expiresAtMs: number;
}

export type Verdict = 'ok' | 'bad-signature' | 'expired';

// The URL carries its own authorization, so a third party without an API key can open it.
export class UrlSigner {
  private readonly secret = randomBytes(32);

  constructor(
    private readonly baseUrl: () => string,
    private readonly ttlSeconds: number,
  ) {}

  private mac(hex: string, expires: number, contentType: string): string {
    return createHmac('sha256', this.secret).update(`${hex}\n${expires}\n${contentType}`).digest('hex');
  }

  sign(hex: string, contentType: string, nowMs: number = Date.now()): SignedUrl {
    // Rounding up keeps the real lifetime at least ttlSeconds.
    const expires = Math.ceil(nowMs / 1000) + this.ttlSeconds;
    const q = new URLSearchParams({
      ct: contentType,
      expires: String(expires),
      signature: this.mac(hex, expires, contentType),
    });
    return { url: `${this.baseUrl()}/storage/blobs/${hex}?${q.toString()}`, expiresAtMs: expires * 1000 };
  }

  verify(hex: string, contentType: string, expiresRaw: string, signature: string, nowMs: number = Date.now()): Verdict {
    if (!/^\d{1,12}$/.test(expiresRaw) || !/^[0-9a-f]{64}$/.test(signature)) return 'bad-signature';
    const expires = Number(expiresRaw);
    const expected = Buffer.from(this.mac(hex, expires, contentType), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'bad-signature';
    return nowMs < expires * 1000 ? 'ok' : 'expired';
  }
}
