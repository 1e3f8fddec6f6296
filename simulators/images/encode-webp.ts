import type { Rgb } from './encode-png.ts';

/** VP8L's largest side: 14 bits of (side − 1). */
const maximumSidePx = 16_384;

/**
 * A real lossless WebP (VP8L) of the given size in one solid colour, opaque unless `alpha` (0 transparent, 255
 * opaque) says otherwise. Each of the five prefix codes is a "simple" code with a single symbol (green, red, blue,
 * alpha, distance 0); a one-symbol code takes zero bits per use, so the pixels need no bits at all and any size is a
 * few dozen bytes.
 * @see https://www.rfc-editor.org/rfc/rfc9649 (WebP: RIFF container §2, lossless bitstream §3, simple codes §3.7.2.1.1)
 */
export function encodeWebp(input: { width: number; height: number; colour: Rgb; alpha?: number }): Buffer {
  const { width, height } = input;
  if (width < 1 || height < 1 || width > maximumSidePx || height > maximumSidePx) {
    throw new RangeError(`a lossless WebP is 1 to ${maximumSidePx} pixels a side, not ${width}x${height}`);
  }
  const [red, green, blue] = input.colour;
  const alpha = input.alpha ?? 255;
  const bits = createLsbBitWriter();
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(alpha < 255 ? 1 : 0, 1); // alpha_is_used: a hint to decoders that some pixel is not opaque
  bits.write(0, 3); // version 0
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes: one group for the whole image
  for (const symbol of [green, red, blue, alpha, 0]) writeSingleSymbolCode(bits, symbol);
  const payload = Buffer.concat([Buffer.from([0x2f]), bits.finish()]);
  const chunk = riffChunk('VP8L', payload);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(4 + chunk.length, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, chunk]);
}

/** is_simple = 1, num_symbols − 1 = 0, is_first_8bits = 1, then the symbol in 8 bits. */
function writeSingleSymbolCode(bits: LsbBitWriter, symbol: number): void {
  bits.write(1, 1);
  bits.write(0, 1);
  bits.write(1, 1);
  bits.write(symbol, 8);
}

/** A RIFF chunk: FourCC, little-endian payload size, payload, and a pad byte when the size is odd. */
function riffChunk(fourCc: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(fourCc, 0, 'latin1');
  header.writeUInt32LE(payload.length, 4);
  return Buffer.concat([header, payload, payload.length % 2 === 1 ? Buffer.from([0]) : Buffer.alloc(0)]);
}

type LsbBitWriter = { write: (value: number, length: number) => void; finish: () => Buffer };

/** VP8L packs bits least significant first: a value's low bit goes into the lowest free bit of the current byte. */
function createLsbBitWriter(): LsbBitWriter {
  const bytes: number[] = [];
  let current = 0;
  let filled = 0;
  return {
    write: (value, length) => {
      for (let bit = 0; bit < length; bit += 1) {
        current |= ((value >> bit) & 1) << filled;
        filled += 1;
        if (filled === 8) {
          bytes.push(current);
          current = 0;
          filled = 0;
        }
      }
    },
    finish: () => Buffer.from(filled > 0 ? [...bytes, current] : bytes),
  };
}
