import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeJpeg } from './encode-jpeg.ts';

type Segment = { marker: number; payload: Buffer };

/** The marker segments up to the start of scan, and the entropy-coded bytes between it and the end marker. */
function readJpeg(jpeg: Buffer): { segments: Segment[]; entropy: Buffer } {
  assert.deepEqual([...jpeg.subarray(0, 2)], [0xff, 0xd8], 'starts with SOI');
  assert.deepEqual([...jpeg.subarray(-2)], [0xff, 0xd9], 'ends with EOI');
  const segments: Segment[] = [];
  let offset = 2;
  for (;;) {
    assert.equal(jpeg[offset], 0xff);
    const marker = jpeg[offset + 1] ?? 0;
    const length = jpeg.readUInt16BE(offset + 2);
    segments.push({ marker, payload: jpeg.subarray(offset + 4, offset + 2 + length) });
    offset += 2 + length;
    if (marker === 0xda) return { segments, entropy: jpeg.subarray(offset, -2) };
  }
}

/** Reads the first MCU back: per component a 4-bit DC size, that many bits of value, and a 1-bit end-of-block. */
function readFirstDcValues(entropy: Uint8Array): number[] {
  let position = 0;
  const bit = () => ((entropy[position >> 3] ?? 0) >> (7 - (position++ & 7))) & 1;
  const bits = (count: number) => Array.from({ length: count }).reduce<number>((value) => (value << 1) | bit(), 0);
  return [0, 1, 2].map(() => {
    const size = bits(4);
    const raw = size === 0 ? 0 : bits(size);
    assert.equal(bit(), 0, 'end of block');
    return size === 0 || raw >= 1 << (size - 1) ? raw : raw - (1 << size) + 1;
  });
}

describe('encodeJpeg', () => {
  it('writes a baseline JPEG whose frame has the size and whose first block decodes to the colour', () => {
    const colour = [200, 40, 90] as const;
    const jpeg = encodeJpeg({ width: 1000, height: 618, colour });
    const { segments, entropy } = readJpeg(jpeg);
    assert.deepEqual(
      segments.map((segment) => segment.marker),
      [0xe0, 0xdb, 0xc0, 0xc4, 0xc4, 0xda],
    );
    const frame = segments[2]?.payload ?? Buffer.alloc(0);
    assert.deepEqual(
      [frame.readUInt8(0), frame.readUInt16BE(1), frame.readUInt16BE(3), frame.readUInt8(5)],
      [8, 618, 1000, 3],
    );
    const [y = 0, cb = 0, cr = 0] = readFirstDcValues(entropy).map((dc) => dc / 8 + 128);
    const decoded = [y + 1.402 * (cr - 128), y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128), y + 1.772 * (cb - 128)];
    decoded.forEach((value, index) => assert.ok(Math.abs(value - (colour[index] ?? 0)) <= 2, `channel ${index}`));
  });

  it('codes every later block as “no change, end of block” and stuffs every 0xFF byte', () => {
    const jpeg = encodeJpeg({ width: 64, height: 64, colour: [255, 255, 255] });
    const { entropy } = readJpeg(jpeg);
    entropy.forEach((byte, index) => {
      if (byte === 0xff) assert.equal(entropy[index + 1], 0x00, 'stuffed');
    });
    const unstuffed = Buffer.from(entropy.filter((byte, index) => !(byte === 0x00 && entropy[index - 1] === 0xff)));
    const firstMcuBits = readFirstDcValues(unstuffed).reduce(
      (sum, dc) => sum + 5 + (dc === 0 ? 0 : Math.floor(Math.log2(Math.abs(dc))) + 1),
      0,
    );
    assert.equal(unstuffed.length, Math.ceil((firstMcuBits + 63 * 15) / 8), '64 blocks: the rest take 15 bits each');
  });
});
