// PNG decoding and encoding for the engine's images: 8-bit truecolour (RGB) and
// truecolour with alpha (RGBA), non-interlaced, every scanline filter type. Anything
// else is refused with a PngError that says why, so a node can report it.
import { deflateSync, inflateSync } from 'node:zlib';
import type { Image } from './types.ts';

/** The upload limits of the v1 cloud (16384 px per edge, 64 MP); larger images are refused. */
const MAX_EDGE = 16_384;
const MAX_PIXELS = 67_108_864;

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

export class PngError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PngError';
  }
}

const CRC_TABLE: Uint32Array = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (ISO 3309) over the given byte ranges, as PNG chunks use it. */
export function crc32(...parts: Uint8Array[]): number {
  let c = 0xffffffff;
  for (const p of parts) for (let i = 0; i < p.length; i++) c = CRC_TABLE[(c ^ p[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** True when the bytes start with the PNG signature. */
export function isPng(bytes: Uint8Array): boolean {
  if (bytes.length < SIGNATURE.length) return false;
  for (let i = 0; i < SIGNATURE.length; i++) if (bytes[i] !== SIGNATURE[i]) return false;
  return true;
}

function u32(b: Uint8Array, at: number): number {
  return ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

const COLOR_TYPE_NAMES: Record<number, string> = {
  0: 'greyscale',
  2: 'truecolour',
  3: 'indexed-colour',
  4: 'greyscale with alpha',
  6: 'truecolour with alpha',
};

/** Decodes an 8-bit RGB or RGBA non-interlaced PNG. Throws PngError on anything else or on damage. */
export function decodePng(bytes: Uint8Array): Image {
  if (!isPng(bytes)) throw new PngError('not a PNG file (bad signature)');
  let pos = SIGNATURE.length;
  let header: { width: number; height: number; channels: 3 | 4 } | undefined;
  const idat: Uint8Array[] = [];
  let sawEnd = false;
  while (pos < bytes.length) {
    if (pos + 12 > bytes.length) throw new PngError('truncated PNG chunk header');
    const length = u32(bytes, pos);
    const typeBytes = bytes.subarray(pos + 4, pos + 8);
    const type = String.fromCharCode(...typeBytes);
    if (!/^[A-Za-z]{4}$/.test(type)) throw new PngError('malformed PNG chunk type');
    const dataEnd = pos + 8 + length;
    if (length > 0x7fffffff || dataEnd + 4 > bytes.length) throw new PngError(`truncated PNG chunk ${type}`);
    const data = bytes.subarray(pos + 8, dataEnd);
    if (crc32(typeBytes, data) !== u32(bytes, dataEnd)) throw new PngError(`CRC mismatch in PNG chunk ${type}`);
    pos = dataEnd + 4;

    if (type === 'IHDR') {
      if (header) throw new PngError('more than one IHDR chunk');
      if (length !== 13) throw new PngError('IHDR chunk has the wrong length');
      const width = u32(data, 0);
      const height = u32(data, 4);
      const [bitDepth, colorType, compression, filter, interlace] = [data[8], data[9], data[10], data[11], data[12]];
      if (width === 0 || height === 0) throw new PngError('PNG has a zero dimension');
      if (width > MAX_EDGE || height > MAX_EDGE || width * height > MAX_PIXELS) {
        throw new PngError(
          `PNG is ${width}x${height}; at most ${MAX_EDGE} px per edge and ${MAX_PIXELS} px in total are supported`,
        );
      }
      if (colorType !== 2 && colorType !== 6) {
        throw new PngError(
          `unsupported PNG colour type ${colorType} (${COLOR_TYPE_NAMES[colorType] ?? 'unknown'}); only 8-bit RGB and RGBA are supported`,
        );
      }
      if (bitDepth !== 8)
        throw new PngError(`unsupported PNG bit depth ${bitDepth}; only 8-bit RGB and RGBA are supported`);
      if (compression !== 0) throw new PngError(`unsupported PNG compression method ${compression}`);
      if (filter !== 0) throw new PngError(`unsupported PNG filter method ${filter}`);
      if (interlace !== 0) throw new PngError('interlaced PNGs are not supported');
      header = { width, height, channels: colorType === 6 ? 4 : 3 };
    } else if (!header) {
      throw new PngError('PNG does not start with an IHDR chunk');
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      sawEnd = true;
      break;
    } else if (type !== 'PLTE' && (type.charCodeAt(0) & 0x20) === 0) {
      // An unknown critical chunk (upper-case first letter) must not be skipped.
      throw new PngError(`unsupported critical PNG chunk ${type}`);
    }
  }
  if (!header) throw new PngError('PNG has no IHDR chunk');
  if (!sawEnd) throw new PngError('PNG has no IEND chunk (truncated file?)');
  if (idat.length === 0) throw new PngError('PNG has no image data (IDAT)');

  const { width, height, channels } = header;
  const stride = width * channels;
  const expected = height * (stride + 1);
  let raw: Uint8Array;
  try {
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (err instanceof RangeError || code === 'ERR_BUFFER_TOO_LARGE')
      throw new PngError('PNG image data is larger than its dimensions allow');
    throw new PngError(`PNG image data does not inflate: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (raw.length < expected) throw new PngError(`PNG image data is truncated (${raw.length} of ${expected} bytes)`);

  const out = new Uint8Array(height * stride);
  const bpp = channels;
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const dst = y * stride;
    const prev = dst - stride; // only read when y > 0
    switch (filter) {
      case 0:
        out.set(raw.subarray(src, src + stride), dst);
        break;
      case 1:
        for (let x = 0; x < stride; x++) out[dst + x] = (raw[src + x] + (x >= bpp ? out[dst + x - bpp] : 0)) & 0xff;
        break;
      case 2:
        for (let x = 0; x < stride; x++) out[dst + x] = (raw[src + x] + (y > 0 ? out[prev + x] : 0)) & 0xff;
        break;
      case 3:
        for (let x = 0; x < stride; x++) {
          const left = x >= bpp ? out[dst + x - bpp] : 0;
          const up = y > 0 ? out[prev + x] : 0;
          out[dst + x] = (raw[src + x] + ((left + up) >> 1)) & 0xff;
        }
        break;
      case 4:
        for (let x = 0; x < stride; x++) {
          const left = x >= bpp ? out[dst + x - bpp] : 0;
          const up = y > 0 ? out[prev + x] : 0;
          const upLeft = x >= bpp && y > 0 ? out[prev + x - bpp] : 0;
          out[dst + x] = (raw[src + x] + paeth(left, up, upLeft)) & 0xff;
        }
        break;
      default:
        throw new PngError(`PNG row ${y} has unknown filter type ${filter}`);
    }
  }
  return { width, height, channels, data: out };
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const typeBytes = new TextEncoder().encode(type);
  out.set(typeBytes, 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(typeBytes, data));
  return out;
}

/** Checks an Image's shape; throws PngError when dimensions and data disagree. */
function assertImage(img: Image): void {
  if (!Number.isInteger(img.width) || !Number.isInteger(img.height) || img.width < 1 || img.height < 1)
    throw new PngError('image dimensions must be positive integers');
  if (img.width > MAX_EDGE || img.height > MAX_EDGE || img.width * img.height > MAX_PIXELS)
    throw new PngError(`image is ${img.width}x${img.height}, over the size limit`);
  if (img.channels !== 3 && img.channels !== 4) throw new PngError('image must have 3 or 4 channels');
  if (img.data.length !== img.width * img.height * img.channels)
    throw new PngError('image data length does not match its dimensions');
}

/** Encodes an RGB or RGBA image as a PNG (every row with filter 0). */
export function encodePng(img: Image): Uint8Array {
  assertImage(img);
  const { width, height, channels, data } = img;
  const stride = width * channels;
  const raw = new Uint8Array(height * (stride + 1));
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0;
    raw.set(data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = 8;
  ihdr[9] = channels === 4 ? 6 : 2;
  const parts = [SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))];
  return new Uint8Array(Buffer.concat(parts));
}
