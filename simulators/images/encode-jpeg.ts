import type { Rgb } from './encode-png.ts';

/**
 * A real baseline JPEG of the given size in one solid colour. Every 8×8 block holds the same colour, so each block is
 * a DC value and an end-of-block: the Huffman tables need only the DC sizes 0–11 (4-bit codes) and the end-of-block
 * (a 1-bit code), and the quantisation table is all ones. A 1792×1024 picture takes about 40 KB.
 * @see https://www.w3.org/Graphics/JPEG/itu-t81.pdf (baseline sequential, Huffman coded)
 */
export function encodeJpeg(input: { width: number; height: number; colour: Rgb }): Buffer {
  const [red, green, blue] = input.colour;
  const luma = 0.299 * red + 0.587 * green + 0.114 * blue;
  const blueDifference = -0.168736 * red - 0.331264 * green + 0.5 * blue + 128;
  const redDifference = 0.5 * red - 0.418688 * green - 0.081312 * blue + 128;
  // A flat block's only coefficient: DC = 8 × (sample − 128), with quantiser 1.
  const dcValues = [luma, blueDifference, redDifference].map((sample) => Math.round(8 * (clamp(sample) - 128)));
  const blockCount = Math.ceil(input.width / 8) * Math.ceil(input.height / 8);
  const writer = createBitWriter();
  for (let block = 0; block < blockCount; block += 1) {
    for (const dc of dcValues) {
      writeDcDifference(writer, block === 0 ? dc : 0);
      writer.write(0, 1);
    }
  }
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0])),
    segment(0xdb, Buffer.from([0x00, ...new Array<number>(64).fill(1)])),
    segment(0xc0, startOfFrame(input.width, input.height)),
    segment(0xc4, Buffer.from([0x00, 0, 0, 0, 12, ...new Array<number>(12).fill(0), ...range(12)])),
    segment(0xc4, Buffer.from([0x10, 1, ...new Array<number>(15).fill(0), 0x00])),
    segment(0xda, Buffer.from([3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0])),
    writer.finish(),
    Buffer.from([0xff, 0xd9]),
  ]);
}

type BitWriter = { write: (value: number, length: number) => void; finish: () => Buffer };

/** DC size category s (Huffman code s in 4 bits), then s bits of the value, negative values in one's complement. */
function writeDcDifference(writer: BitWriter, difference: number): void {
  const size = difference === 0 ? 0 : Math.floor(Math.log2(Math.abs(difference))) + 1;
  writer.write(size, 4);
  if (size > 0) writer.write(difference > 0 ? difference : difference + (1 << size) - 1, size);
}

/** Entropy-coded bytes: a 0xFF byte is followed by a stuffed 0x00; the last byte is padded with ones. */
function createBitWriter(): BitWriter {
  const bytes: number[] = [];
  let current = 0;
  let filled = 0;
  const push = (byte: number) => {
    bytes.push(byte);
    if (byte === 0xff) bytes.push(0x00);
  };
  return {
    write: (value, length) => {
      for (let bit = length - 1; bit >= 0; bit -= 1) {
        current = (current << 1) | ((value >> bit) & 1);
        filled += 1;
        if (filled === 8) {
          push(current);
          current = 0;
          filled = 0;
        }
      }
    },
    finish: () => {
      if (filled > 0) push(((current << (8 - filled)) | ((1 << (8 - filled)) - 1)) & 0xff);
      return Buffer.from(bytes);
    },
  };
}

function startOfFrame(width: number, height: number): Buffer {
  const frame = Buffer.alloc(15);
  frame.writeUInt8(8, 0);
  frame.writeUInt16BE(height, 1);
  frame.writeUInt16BE(width, 3);
  frame.set([3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0], 5);
  return frame;
}

function segment(marker: number, payload: Buffer): Buffer {
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

function clamp(sample: number): number {
  return Math.min(255, Math.max(0, sample));
}

function range(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}
