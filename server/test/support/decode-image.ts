import assert from 'node:assert/strict';
import { crc32, inflateSync } from 'node:zlib';

/** What an image's bytes decode to, after every structural check passed. */
export type DecodedImage = { format: 'png' | 'jpeg' | 'webp'; width: number; height: number };

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Samples per pixel by PNG colour type (greyscale, RGB, palette, greyscale + alpha, RGBA). */
const pngChannels: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/**
 * Decodes an image far enough to prove it is whole: PNG chunks with their CRCs, and the inflated IDAT stream exactly
 * height × (1 filter byte + width × channels × depth) long with valid filter bytes; JPEG segments up to the start of
 * scan, the frame's size, and entropy-coded data that runs (with only stuffed bytes and restart markers) to the
 * end-of-image marker at the very end; a lossless WebP's RIFF sizes and VP8L header.
 */
export function decodeImage(bytes: Buffer): DecodedImage {
  if (bytes.subarray(0, 8).equals(pngSignature)) return decodePng(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return decodeJpeg(bytes);
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF') return decodeWebp(bytes);
  return assert.fail(`not a PNG, JPEG or WebP (starts ${bytes.subarray(0, 8).toString('hex')})`);
}

/** The decoded image's `WxH`. */
export function decodeImageSize(bytes: Buffer): string {
  const image = decodeImage(bytes);
  return `${image.width}x${image.height}`;
}

function decodePng(bytes: Buffer): DecodedImage {
  const chunks: Array<{ type: string; data: Buffer }> = [];
  for (let offset = 8; offset < bytes.length;) {
    const length = bytes.readUInt32BE(offset);
    const typeAndData = bytes.subarray(offset + 4, offset + 8 + length);
    assert.equal(bytes.readUInt32BE(offset + 8 + length), crc32(typeAndData), 'every PNG chunk CRC matches');
    chunks.push({ type: typeAndData.subarray(0, 4).toString('latin1'), data: typeAndData.subarray(4) });
    offset += 12 + length;
  }
  assert.equal(chunks[0]?.type, 'IHDR', 'IHDR comes first');
  assert.equal(chunks.at(-1)?.type, 'IEND', 'IEND comes last');
  const header = chunks[0].data;
  const [width, height] = [header.readUInt32BE(0), header.readUInt32BE(4)];
  const [bitDepth = 0, colourType = -1, , , interlace] = [...header.subarray(8, 13)];
  const channels = pngChannels[colourType];
  assert.ok(channels !== undefined, `PNG colour type ${colourType}`);
  assert.equal(interlace, 0, 'not interlaced');
  const rowBytes = 1 + Math.ceil((width * channels * bitDepth) / 8);
  const pixels = inflateSync(Buffer.concat(chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data)));
  assert.equal(pixels.length, height * rowBytes, 'the inflated IDAT holds every row of the frame');
  for (let row = 0; row < height; row += 1) assert.ok((pixels[row * rowBytes] ?? 255) <= 4, 'a valid filter byte');
  return { format: 'png', width, height };
}

function decodeJpeg(bytes: Buffer): DecodedImage {
  let size: { width: number; height: number } | undefined;
  let offset = 2;
  for (;;) {
    assert.equal(bytes[offset], 0xff, `a JPEG marker at ${offset}`);
    const marker = bytes[offset + 1] ?? 0;
    const length = bytes.readUInt16BE(offset + 2);
    // SOF0–SOF3 (baseline, extended, progressive, lossless): precision, height, width.
    if (marker >= 0xc0 && marker <= 0xc3)
      size = { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    offset += 2 + length;
    if (marker === 0xda) break;
  }
  assert.ok(size, 'a start-of-frame segment before the scan');
  for (let index = offset; index < bytes.length - 2; index += 1) {
    if (bytes[index] !== 0xff) continue;
    const next = bytes[index + 1] ?? 0;
    assert.ok(
      next === 0x00 || (next >= 0xd0 && next <= 0xd7),
      `only stuffed bytes or restarts inside the scan at ${index}`,
    );
  }
  assert.deepEqual([...bytes.subarray(-2)], [0xff, 0xd9], 'the entropy-coded data ends with EOI');
  return { format: 'jpeg', ...size };
}

function decodeWebp(bytes: Buffer): DecodedImage {
  assert.equal(bytes.readUInt32LE(4), bytes.length - 8, 'the RIFF size covers the file');
  assert.equal(bytes.subarray(8, 16).toString('latin1'), 'WEBPVP8L', 'a lossless WebP');
  assert.equal(bytes[20], 0x2f, 'the VP8L signature');
  const header = bytes.readUInt32LE(21);
  assert.equal(header >>> 29, 0, 'VP8L version 0');
  return { format: 'webp', width: (header & 0x3fff) + 1, height: ((header >>> 14) & 0x3fff) + 1 };
}
