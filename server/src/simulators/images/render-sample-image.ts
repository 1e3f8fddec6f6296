import { createRandom } from '../shared/random.ts';
import { encodePng, type Rgb } from './encode-png.ts';

/**
 * The picture every image simulator answers with: a PNG of exactly the size the vendor would produce, in a gradient
 * whose colours come from `seed` (vendor, model, prompt hash and index), so one request always gets the same bytes
 * and two images of one request differ. The prompt itself never appears in it.
 */
export function renderSampleImage(input: { seed: string; width: number; height: number }): Buffer {
  const random = createRandom(input.seed);
  const colour = (): Rgb => [random.nextInt(256), random.nextInt(256), random.nextInt(256)];
  return encodePng({ width: input.width, height: input.height, from: colour(), to: colour() });
}
