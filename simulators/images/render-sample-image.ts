import { createRandom } from '../shared/random.ts';
import { encodeJpeg } from './encode-jpeg.ts';
import { encodePng, type Rgb } from './encode-png.ts';
import { encodeWebp } from './encode-webp.ts';

/**
 * The picture every image simulator answers with: an image of exactly the size the vendor would produce, whose
 * colours come from `seed` (vendor, model, prompt hash and index), so one request always gets the same bytes and two
 * images of one request differ. The prompt itself never appears in it. PNGs are a gradient, JPEGs and WebPs one solid
 * colour. A transparent one (PNG or WebP; JPEG has no alpha channel) has real alpha: the PNG fades in from fully
 * transparent at its left edge, the WebP is half transparent throughout.
 */
export function renderSampleImage(input: {
  seed: string;
  width: number;
  height: number;
  format?: 'png' | 'jpeg' | 'webp';
  isTransparent?: boolean;
}): Buffer {
  const random = createRandom(input.seed);
  const colour = (): Rgb => [random.nextInt(256), random.nextInt(256), random.nextInt(256)];
  const { width, height, isTransparent = false } = input;
  if (input.format === 'jpeg') {
    if (isTransparent) throw new RangeError('a JPEG cannot be transparent');
    return encodeJpeg({ width, height, colour: colour() });
  }
  if (input.format === 'webp')
    return encodeWebp({ width, height, colour: colour(), ...(isTransparent && { alpha: 128 }) });
  return encodePng({
    width,
    height,
    from: colour(),
    to: colour(),
    ...(isTransparent && { alpha: { from: 0, to: 255 } }),
  });
}
