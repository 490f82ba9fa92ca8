// Deterministic randomness for recorded and replayed runs. The suite draws fresh ids,
// names and bytes for every test (parallel-safe, unique per run); a replay must draw
// the very same ones, or its uploads hash differently from the recorded answers. So
// in a recording or a replay, at the start of each test, randomUUID, randomBytes and
// Math.random are re-seeded from the run's seed (FC_SEED, random per recording) and the
// test's name. Modules import them by name from node:crypto; syncBuiltinESMExports
// carries the replacement into those bindings. Ordinary runs never come here.
// randomInt stays as it is: the HTTP client draws its multipart boundaries with it, which a
// replay (answering from the recording) never does, so seeding it would shift every later
// draw of the replay. The suite therefore draws its own numbers from randomBytes (freshNumber).
import crypto, { createHash } from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

/** sfc32: small, fast, and good enough for test data (never for secrets). */
function sfc32(seed: Buffer): () => number {
  let a = seed.readUInt32LE(0),
    b = seed.readUInt32LE(4),
    c = seed.readUInt32LE(8),
    d = seed.readUInt32LE(12);
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

export function seedRandomness(seed: string): void {
  const next = sfc32(createHash('sha256').update(seed).digest());
  const bytes = (n: number): Buffer => {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(next() * 256);
    return out;
  };
  const c = crypto as unknown as Record<string, unknown>;
  c.randomBytes = (n: number) => bytes(n);
  c.randomUUID = () => {
    const b = bytes(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  Math.random = next;
  syncBuiltinESMExports();
}

/** A random integer in [0, 2^24), drawn from randomBytes so a recording and its replay draw the same. */
export function freshNumber(): number {
  return crypto.randomBytes(3).readUIntBE(0, 3);
}
