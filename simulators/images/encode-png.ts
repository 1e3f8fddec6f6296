import { crc32, deflateSync } from 'node:zlib';

/** An RGB colour, each channel 0–255. */
export type Rgb = readonly [number, number, number];

const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** IHDR colour types: truecolour, and truecolour with alpha. */
const rgbColourType = 2;
const rgbaColourType = 6;

/**
 * A real PNG of the given size: 8-bit RGB, a horizontal gradient from `from` to `to`, every row alike; with `alpha`,
 * 8-bit RGBA whose opacity runs from `alpha.from` to `alpha.to` the same way (0 transparent, 255 opaque). Rows that
 * repeat compress to almost nothing, so even a 1792×1024 image is a few kilobytes.
 * @see https://www.w3.org/TR/png-3/ (IHDR, IDAT, IEND; CRC-32 over type and data)
 */
export function encodePng(input: {
  width: number;
  height: number;
  from: Rgb;
  to: Rgb;
  alpha?: { from: number; to: number };
}): Buffer {
  const { width, height, alpha } = input;
  const start = alpha ? [...input.from, alpha.from] : input.from;
  const end = alpha ? [...input.to, alpha.to] : input.to;
  const bytesPerPixel = start.length;
  const rowLength = 1 + width * bytesPerPixel;
  const row = Buffer.alloc(rowLength);
  for (let x = 0; x < width; x += 1) {
    const share = width === 1 ? 0 : x / (width - 1);
    for (let channel = 0; channel < bytesPerPixel; channel += 1) {
      const first = start[channel] ?? 0;
      const last = end[channel] ?? 0;
      row[1 + x * bytesPerPixel + channel] = Math.round(first + (last - first) * share);
    }
  }
  const raw = Buffer.alloc(rowLength * height);
  for (let y = 0; y < height; y += 1) row.copy(raw, y * rowLength);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, alpha ? rgbaColourType : rgbColourType, 0, 0, 0], 8);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(crc32(typeAndData), 0);
  return Buffer.concat([length, typeAndData, checksum]);
}
