// Idempotency records: per scope (workspace, or user without one) and key, kept 24 hours.
// A key is held while its call runs, recorded once a provider produced an answer, and
// released when the router refused before dispatch.
import { createHash } from 'node:crypto';

const RECORD_TTL_MS = 24 * 3600 * 1000;
/** Answers larger than this are recorded but not replayable. */
export const REPLAY_CAP_BYTES = 128 * 1024;

export interface RecordedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

type Entry =
  | { state: 'running'; fingerprint: string; at: number }
  | { state: 'recorded'; fingerprint: string; at: number; answer?: RecordedAnswer };

export type Lookup =
  | { kind: 'fresh' }
  | { kind: 'running'; sameRequest: boolean }
  | { kind: 'conflict' }
  | { kind: 'replay'; answer: RecordedAnswer }
  | { kind: 'not-replayable' };

export function fingerprintOf(method: string, path: string, query: string, canonicalBody: string): string {
  return createHash('sha256').update(`${method} ${path}?${query}\n${canonicalBody}`).digest('hex');
}

export class IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  private id(scope: string, key: string): string {
    return `${scope}\0${key}`;
  }

  private live(scope: string, key: string): Entry | undefined {
    const id = this.id(scope, key);
    const e = this.entries.get(id);
    if (e && this.now() - e.at > RECORD_TTL_MS) {
      this.entries.delete(id);
      return undefined;
    }
    return e;
  }

  /** Looks the key up and, when it is free, holds it for this request. */
  claim(scope: string, key: string, fingerprint: string): Lookup {
    const e = this.live(scope, key);
    if (!e) {
      this.entries.set(this.id(scope, key), { state: 'running', fingerprint, at: this.now() });
      return { kind: 'fresh' };
    }
    if (e.state === 'running') return { kind: 'running', sameRequest: e.fingerprint === fingerprint };
    if (e.fingerprint !== fingerprint) return { kind: 'conflict' };
    return e.answer ? { kind: 'replay', answer: e.answer } : { kind: 'not-replayable' };
  }

  /** A provider produced this answer: the key stays consumed; above the cap it cannot be replayed. */
  record(scope: string, key: string, fingerprint: string, answer: RecordedAnswer, replayable: boolean): void {
    this.entries.set(this.id(scope, key), {
      state: 'recorded',
      fingerprint,
      at: this.now(),
      ...(replayable ? { answer } : {}),
    });
  }

  /** The recorded answer under a key, whatever request it answered. */
  recordedAnswer(scope: string, key: string): RecordedAnswer | undefined {
    const e = this.live(scope, key);
    return e?.state === 'recorded' ? e.answer : undefined;
  }

  /** A recorded answer under this key in any scope (only a fault ever asks). */
  anyRecorded(key: string): RecordedAnswer | undefined {
    for (const [id, e] of this.entries) {
      if (id.endsWith(`\0${key}`) && e.state === 'recorded' && e.answer) return e.answer;
    }
    return undefined;
  }

  release(scope: string, key: string): void {
    this.entries.delete(this.id(scope, key));
  }
}
