import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync, inflateSync } from 'node:zlib';
import { crc32, decodePng, encodePng, isPng, PngError } from '../../reference/engine/png.ts';
import { craftPng, image } from './helpers.ts';

test('encode then decode gives the same RGB and RGBA images back', () => {
  for (const channels of [3, 4] as const) {
    for (const [w, h] of [
      [1, 1],
      [7, 5],
      [64, 33],
    ] as const) {
      const img = image(w, h, channels, w * 31 + h);
      const png = encodePng(img);
      assert.ok(isPng(png));
      const back = decodePng(png);
      assert.deepEqual({ ...back, data: Buffer.from(back.data) }, { ...img, data: Buffer.from(img.data) });
    }
  }
});

test('the encoder writes valid chunks: IHDR fields, CRCs and filter-0 rows', () => {
  const img = image(3, 2, 4, 9);
  const png = Buffer.from(encodePng(img));
  assert.equal(png.subarray(12, 16).toString('ascii'), 'IHDR');
  assert.equal(png.readUInt32BE(16), 3);
  assert.equal(png.readUInt32BE(20), 2);
  assert.equal(png[24], 8);
  assert.equal(png[25], 6);
  let pos = 8;
  const types: string[] = [];
  while (pos < png.length) {
    const len = png.readUInt32BE(pos);
    const type = png.subarray(pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + len);
    assert.equal(png.readUInt32BE(pos + 8 + len), crc32(type, data));
    types.push(type.toString('ascii'));
    if (type.toString('ascii') === 'IDAT') {
      const raw = inflateSync(data);
      assert.equal(raw.length, 2 * (3 * 4 + 1));
      assert.equal(raw[0], 0);
      assert.equal(raw[13], 0);
    }
    pos += 12 + len;
  }
  assert.deepEqual(types, ['IHDR', 'IDAT', 'IEND']);
});

test('decodes rows written with each filter type (None, Sub, Up, Average, Paeth), RGB and RGBA', () => {
  for (const channels of [3, 4] as const) {
    const img = image(9, 6, channels, 77 + channels);
    for (let f = 0; f <= 4; f++) {
      const decoded = decodePng(craftPng(img, { filter: () => f }));
      assert.deepEqual(Buffer.from(decoded.data), Buffer.from(img.data), `filter ${f}, ${channels} channels`);
      assert.equal(decoded.channels, channels);
    }
    const mixed = decodePng(craftPng(img, { filter: (y) => (y * 3 + 1) % 5, idatChunks: 3, ancillary: true }));
    assert.deepEqual(Buffer.from(mixed.data), Buffer.from(img.data), 'mixed filters over several IDAT chunks');
  }
});

test('Paeth and Average filters with saturated values decode exactly (wrap-around arithmetic)', () => {
  const data = new Uint8Array(4 * 4 * 3);
  for (let i = 0; i < data.length; i++) data[i] = i % 2 ? 255 : 0;
  const img = { width: 4, height: 4, channels: 3 as const, data };
  for (const f of [3, 4])
    assert.deepEqual(Buffer.from(decodePng(craftPng(img, { filter: () => f })).data), Buffer.from(data));
});

test('unsupported or damaged PNGs are refused with a clear PngError', () => {
  const img = image(4, 4, 3);
  const cases: Array<[Uint8Array, RegExp]> = [
    [Buffer.from('GIF89a not a png at all'), /signature/],
    [craftPng(img, { colorType: 0 }), /colour type 0 \(greyscale\)/],
    [craftPng(img, { colorType: 3 }), /colour type 3/],
    [craftPng(img, { bitDepth: 16 }), /bit depth 16/],
    [craftPng(img, { interlace: 1 }), /interlaced/],
    [craftPng(img, { filter: () => 7 }), /unknown filter type 7/],
    [craftPng(img).subarray(0, 40), /truncated|IEND/],
  ];
  for (const [bytes, re] of cases) {
    assert.throws(
      () => decodePng(bytes),
      (err: unknown) => err instanceof PngError && re.test(err.message),
      String(re),
    );
  }
  const good = Buffer.from(craftPng(img));
  const corrupt = Buffer.from(good);
  corrupt[30] = corrupt[30] ^ 0xff; // inside IHDR/IDAT data: CRC no longer matches
  assert.throws(() => decodePng(corrupt), /CRC mismatch/);
});

test('image data that inflates to more or less than the dimensions allow is refused', () => {
  const img = image(4, 4, 3);
  const withData = (raw: Buffer): Buffer => {
    const png = Buffer.from(craftPng(img));
    // Rebuild with a replaced IDAT.
    const ihdrEnd = 8 + 12 + 13;
    const idat = deflateSync(raw);
    const head = Buffer.alloc(8);
    head.writeUInt32BE(idat.length, 0);
    head.write('IDAT', 4, 'ascii');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.from('IDAT'), idat), 0);
    const iend = png.subarray(png.length - 12);
    return Buffer.concat([png.subarray(0, ihdrEnd), head, idat, crc, iend]);
  };
  assert.throws(() => decodePng(withData(Buffer.alloc(4 * 13 + 100))), /larger than/);
  assert.throws(() => decodePng(withData(Buffer.alloc(10))), /truncated/);
});

test('encodePng refuses an image whose data does not match its dimensions', () => {
  assert.throws(() => encodePng({ width: 2, height: 2, channels: 3, data: new Uint8Array(5) }), PngError);
});
