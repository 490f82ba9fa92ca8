// Catalog page cursors: authenticated encryption of (catalog epoch, position), so a cursor
// can be neither read as an offset nor forged, and stops working when the catalog is rebuilt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export class CursorCodec {
  private readonly key = randomBytes(32);

  constructor(private readonly epoch: string) {}

  encode(position: number): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const plain = Buffer.from(JSON.stringify({ e: this.epoch, p: position }));
    const sealed = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return sealed.toString('base64url');
  }

  /** The position, or undefined for anything this server did not produce for this catalog. */
  decode(cursor: string): number | undefined {
    if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) return undefined;
    const raw = Buffer.from(cursor, 'base64url');
    // Lenient base64 decoding ignores stray trailing characters: only the exact text served counts.
    if (raw.length < 12 + 16 + 1 || raw.toString('base64url') !== cursor) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      const plain = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
      const parsed = JSON.parse(plain.toString('utf8')) as { e?: unknown; p?: unknown };
      if (parsed.e !== this.epoch || typeof parsed.p !== 'number' || !Number.isInteger(parsed.p) || parsed.p < 0)
        return undefined;
      return parsed.p;
    } catch {
      return undefined;
    }
  }
}
