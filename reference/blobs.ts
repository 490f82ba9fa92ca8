import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { link, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { blake3 } from '@noble/hashes/blake3.js';

const HASH_PREFIX = 'blake3:';
const HASH_RE = /^blake3:([0-9a-f]{64})$/;
const HEX_RE = /^[0-9a-f]{64}$/;

export const formatHash = (hex: string): string => `${HASH_PREFIX}${hex}`;

/** Returns the hex digest of a well-formed `blake3:<64 lowercase hex>`, else undefined. */
export function parseHash(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  return HASH_RE.exec(value)?.[1];
}

export const isBlobHex = (value: string): boolean => HEX_RE.test(value);

/** Bytes written to a temporary file and hashed, not yet visible under their hash. */
export interface StagedBlob {
  readonly hex: string;
  readonly size: number;
  /** Makes the bytes addressable by hash; a blob already on disk is left untouched. */
  commit(): Promise<void>;
  discard(): Promise<void>;
}

// Blobs live at <dir>/<blake3 hex>; the hash is the only name, so identical
// bytes can never be stored twice.
export class BlobStore {
  constructor(readonly dir: string) {}

  pathOf(hex: string): string {
    if (!isBlobHex(hex)) throw new Error('not a blob hex');
    return join(this.dir, hex);
  }

  async sizeOf(hex: string): Promise<number | undefined> {
    try {
      const s = await stat(this.pathOf(hex));
      return s.size;
    } catch {
      return undefined;
    }
  }

  /** Streams `source` to a temp file, hashing as it goes. */
  async stage(source: Readable): Promise<StagedBlob> {
    const tempPath = join(this.dir, `.upload-${randomUUID()}`);
    const b3 = blake3.create();
    let size = 0;
    const hasher = new Transform({
      transform(chunk: Buffer, _enc, done) {
        b3.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(source, hasher, createWriteStream(tempPath, { flags: 'wx' }));
    } catch (err) {
      await unlink(tempPath).catch(() => undefined);
      throw err;
    }
    const hex = Buffer.from(b3.digest()).toString('hex');
    const finalPath = this.pathOf(hex);
    let settled = false;
    return {
      hex,
      size,
      async commit() {
        if (settled) return;
        settled = true;
        try {
          // link() refuses to replace an existing file, which is exactly the write-once rule.
          await link(tempPath, finalPath);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
            await unlink(tempPath).catch(() => undefined);
            throw err;
          }
        }
        await unlink(tempPath);
      },
      async discard() {
        if (settled) return;
        settled = true;
        await unlink(tempPath).catch(() => undefined);
      },
    };
  }

  /** Inclusive byte range, as HTTP ranges are. */
  read(hex: string, start?: number, end?: number): Readable {
    const opts: { start?: number; end?: number } = {};
    if (start !== undefined) opts.start = start;
    if (end !== undefined) opts.end = end;
    return createReadStream(this.pathOf(hex), opts);
  }
}
