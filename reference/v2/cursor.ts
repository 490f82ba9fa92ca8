// Job-list cursors: HMAC-signed, bound to the surface, account and filters they were
// issued for, so a mutated or foreign cursor is refused, never reinterpreted. (The seed does
// not ask for opaque cursors; the job-list-plain-cursors control sends bare positions.)
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors.ts';

export interface CursorPosition {
  createdAt: number;
  id: string;
}

export class CursorCodec {
  private readonly secret = randomBytes(32);

  /**
   * plain: the cursor is the bare position `<created ms>_<job id>`, unsigned and unbound (the
   * seed does not say v2 cursors are opaque; the job-list-plain-cursors control), so a changed
   * or foreign cursor that still reads as a position is a place in the caller's own list.
   */
  constructor(private readonly plain = false) {}

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.secret).update(payload).digest().subarray(0, 16);
  }

  encode(scope: string, pos: CursorPosition): string {
    if (this.plain) return `${pos.createdAt}_${pos.id}`;
    const payload = Buffer.from(JSON.stringify({ s: scope, t: pos.createdAt, i: pos.id })).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The scope a genuine cursor was issued for, unchecked against the caller (only the cursor-follows-owner fault asks). */
  issuedScope(cursor: string): string | undefined {
    return this.open(cursor)?.s;
  }

  decode(scope: string, cursor: string): CursorPosition {
    if (this.plain) {
      const m = /^(\d{1,15})_([0-9A-Za-z-]{1,64})$/.exec(cursor);
      if (!m) throw new ApiError('invalid_cursor', 'cursor is not a list position');
      return { createdAt: Number(m[1]), id: m[2] };
    }
    const parsed = this.open(cursor);
    if (parsed === undefined || parsed.s !== scope)
      throw new ApiError('invalid_cursor', 'cursor is not one this server issued for this listing');
    return { createdAt: parsed.t, id: parsed.i };
  }

  /** The payload of a cursor this server signed, or undefined for anything else. */
  private open(cursor: string): { s: string; t: number; i: string } | undefined {
    const [payload, sig, extra] = cursor.split('.');
    if (!payload || !sig || extra !== undefined) return undefined;
    const given = Buffer.from(sig, 'base64url');
    const want = this.mac(payload);
    if (given.length !== want.length || !timingSafeEqual(given, want)) return undefined;
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s: string; t: number; i: string };
  }
}
