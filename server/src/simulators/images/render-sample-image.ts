import { createRandom } from '../shared/random.ts';
import { encodeJpeg } from './encode-jpeg.ts';
import { encodePng, type Rgb } from './encode-png.ts';
import { encodeWebp } from './encode-webp.ts';

/**
 * The picture every image simulator answers with: an image of exactly the size the vendor would produce, whose
 * colours come from `seed` (vendor, model, prompt hash and index), so one request always gets the same bytes and two
 * images of one request differ. The prompt itself never appears in it. PNGs are a gradient, JPEGs and WebPs one solid
 * colour.
 */
export function renderSampleImage(input: {
  seed: string;
  width: number;
  height: number;
  format?: 'png' | 'jpeg' | 'webp';
}): Buffer {
  const random = createRandom(input.seed);
  const colour = (): Rgb => [random.nextInt(256), random.nextInt(256), random.nextInt(256)];
  if (input.format === 'jpeg') return encodeJpeg({ width: input.width, height: input.height, colour: colour() });
  if (input.format === 'webp') return encodeWebp({ width: input.width, height: input.height, colour: colour() });
  return encodePng({ width: input.width, height: input.height, from: colour(), to: colour() });
}
