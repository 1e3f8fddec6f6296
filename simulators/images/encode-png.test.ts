import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crc32, inflateSync } from 'node:zlib';
import { encodePng } from './encode-png.ts';
import { renderSampleImage } from './render-sample-image.ts';

type Chunk = { type: string; data: Buffer };

function readChunks(png: Buffer): Chunk[] {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const chunks: Chunk[] = [];
  let offset = 8;
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const typeAndData = png.subarray(offset + 4, offset + 8 + length);
    assert.equal(png.readUInt32BE(offset + 8 + length), crc32(typeAndData), 'chunk CRC matches');
    chunks.push({ type: typeAndData.subarray(0, 4).toString('latin1'), data: typeAndData.subarray(4) });
    offset += 12 + length;
  }
  return chunks;
}

describe('encodePng', () => {
  it('writes a signed PNG whose header, pixels and checksums decode', () => {
    const png = encodePng({ width: 5, height: 3, from: [0, 10, 200], to: [100, 10, 0] });
    const chunks = readChunks(png);
    assert.deepEqual(
      chunks.map((chunk) => chunk.type),
      ['IHDR', 'IDAT', 'IEND'],
    );
    const header = chunks[0]?.data ?? Buffer.alloc(0);
    assert.equal(header.readUInt32BE(0), 5);
    assert.equal(header.readUInt32BE(4), 3);
    assert.deepEqual([...header.subarray(8)], [8, 2, 0, 0, 0], '8-bit RGB, no interlace');
    const raw = inflateSync(chunks[1]?.data ?? Buffer.alloc(0));
    assert.equal(raw.length, 3 * (1 + 5 * 3));
    const firstRow = [...raw.subarray(0, 16)];
    assert.deepEqual(firstRow.slice(0, 4), [0, 0, 10, 200], 'filter byte 0, then the start colour');
    assert.deepEqual(firstRow.slice(13, 16), [100, 10, 0], 'the row ends on the end colour');
    assert.deepEqual([...raw.subarray(16, 32)], firstRow, 'rows repeat');
  });

  it('writes RGBA with the opacity running across each row when given an alpha range', () => {
    const png = encodePng({ width: 3, height: 2, from: [10, 20, 30], to: [10, 20, 30], alpha: { from: 0, to: 255 } });
    const chunks = readChunks(png);
    assert.deepEqual([...(chunks[0]?.data ?? Buffer.alloc(0)).subarray(8)], [8, 6, 0, 0, 0], '8-bit RGBA');
    const raw = inflateSync(chunks[1]?.data ?? Buffer.alloc(0));
    assert.equal(raw.length, 2 * (1 + 3 * 4));
    assert.deepEqual([...raw.subarray(0, 13)], [0, 10, 20, 30, 0, 10, 20, 30, 128, 10, 20, 30, 255]);
  });

  it('keeps large images small', () => {
    const png = renderSampleImage({ seed: 'large', width: 1792, height: 1024 });
    assert.ok(png.length < 64 * 1024, `${png.length} bytes`);
    assert.equal(readChunks(png)[0]?.data.readUInt32BE(0), 1792);
  });

  it('answers one seed with the same bytes and another seed with different ones', () => {
    const first = renderSampleImage({ seed: 'a', width: 8, height: 8 });
    assert.deepEqual(renderSampleImage({ seed: 'a', width: 8, height: 8 }), first);
    assert.notDeepEqual(renderSampleImage({ seed: 'b', width: 8, height: 8 }), first);
  });
});
