import { Transform, pipeline } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobStore } from './blobs.ts';
import { parseRange } from './range.ts';

export interface ServeOptions {
  hex: string;
  size: number;
  contentType: string;
  /** Only for the content-bytes-flipped fault: corrupts the blob's final byte. */
  flipLastByte: boolean;
  /** Only for the range-ignored fault: answers every request with the whole blob. */
  ignoreRange?: boolean;
  /** Only for the content-range-unitless fault: a 206 Content-Range without its unit. */
  unitlessRange?: boolean;
}

// Flips the byte at absolute position `target` of a stream that begins at `offset`.
function flipAt(offset: number, target: number): Transform {
  let pos = offset;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (target >= pos && target < pos + chunk.length) {
        const copy = Buffer.from(chunk);
        copy[target - pos] = (copy[target - pos] ?? 0) ^ 0xff;
        chunk = copy;
      }
      pos += chunk.length;
      done(null, chunk);
    },
  });
}

export function serveBlob(request: FastifyRequest, reply: FastifyReply, blobs: BlobStore, opts: ServeOptions): FastifyReply {
  const { hex, size, contentType, flipLastByte } = opts;
  const range = parseRange(opts.ignoreRange ? undefined : request.headers.range, size);
  reply.header('Accept-Ranges', 'bytes');
  if (range.kind === 'unsatisfiable') {
    return reply.code(416).header('Content-Range', `bytes */${size}`).send();
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  if (range.kind === 'partial') reply.code(206).header('Content-Range', `${opts.unitlessRange ? '' : 'bytes '}${start}-${end}/${size}`);
  reply.type(contentType).header('Content-Length', String(end - start + 1));
  if (size === 0) return reply.send(Buffer.alloc(0));
  const stream = blobs.read(hex, start, end);
  if (!flipLastByte) return reply.send(stream);
  // pipeline() tears both streams down on error; the reply sees the failure on the output side.
  return reply.send(pipeline(stream, flipAt(start, size - 1), () => undefined));
}
