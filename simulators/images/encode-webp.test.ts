import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeWebp } from './encode-webp.ts';

/** Reads VP8L bits least significant first, as a decoder does (RFC 9649 §3.1). */
function createBitReader(bytes: Buffer) {
  let position = 0;
  return {
    read: (length: number) => {
      let value = 0;
      for (let bit = 0; bit < length; bit += 1, position += 1) {
        value |= (((bytes[position >> 3] ?? 0) >> (position & 7)) & 1) << bit;
      }
      return value;
    },
    bitCount: () => position,
  };
}

describe('encodeWebp', () => {
  it('writes a RIFF WEBP file with one VP8L chunk whose sizes add up', () => {
    const webp = encodeWebp({ width: 1536, height: 1024, colour: [200, 40, 90] });
    assert.equal(webp.subarray(0, 4).toString('latin1'), 'RIFF');
    assert.equal(webp.readUInt32LE(4), webp.length - 8, 'the RIFF size covers everything after it');
    assert.equal(webp.subarray(8, 16).toString('latin1'), 'WEBPVP8L');
    const chunkSize = webp.readUInt32LE(16);
    assert.equal(20 + chunkSize + (chunkSize % 2), webp.length, 'one chunk, padded to an even size');
    assert.equal(webp[20], 0x2f, 'the VP8L signature');
  });

  it('codes the size, no transforms, and five single-symbol codes that spell the colour', () => {
    const webp = encodeWebp({ width: 3, height: 5, colour: [0, 255, 17] });
    const chunkSize = webp.readUInt32LE(16);
    const bits = createBitReader(webp.subarray(21, 20 + chunkSize));
    assert.deepEqual([bits.read(14) + 1, bits.read(14) + 1, bits.read(1), bits.read(3)], [3, 5, 0, 0]);
    assert.deepEqual([bits.read(1), bits.read(1), bits.read(1)], [0, 0, 0], 'no transform, cache or meta codes');
    const symbols = Array.from({ length: 5 }, () => {
      assert.deepEqual([bits.read(1), bits.read(1)], [1, 0], 'a simple code with one symbol');
      return bits.read(1) === 1 ? bits.read(8) : bits.read(1);
    });
    assert.deepEqual(symbols, [255, 0, 17, 255, 0], 'green, red, blue, alpha, distance');
    assert.ok(Math.ceil(bits.bitCount() / 8) === chunkSize - 1, 'single-symbol codes leave no pixel bits');
  });

  it('codes a see-through colour with its alpha and the alpha_is_used hint', () => {
    const webp = encodeWebp({ width: 2, height: 2, colour: [1, 2, 3], alpha: 128 });
    const bits = createBitReader(webp.subarray(21, 20 + webp.readUInt32LE(16)));
    assert.deepEqual([bits.read(14), bits.read(14), bits.read(1), bits.read(3)], [1, 1, 1, 0], 'alpha_is_used set');
    bits.read(3);
    const symbols = Array.from({ length: 5 }, () => {
      bits.read(2);
      return bits.read(1) === 1 ? bits.read(8) : bits.read(1);
    });
    assert.deepEqual(symbols, [2, 1, 3, 128, 0], 'green, red, blue, alpha, distance');
  });

  it('refuses a side VP8L cannot code', () => {
    assert.throws(() => encodeWebp({ width: 16_385, height: 1, colour: [0, 0, 0] }), RangeError);
    assert.throws(() => encodeWebp({ width: 0, height: 1, colour: [0, 0, 0] }), RangeError);
  });
});
