import jsqr from 'jsqr';
import type { Locator } from 'playwright-core';

/**
 * Reads the QR code an `<svg>` on the page draws: the browser paints the SVG onto a canvas, and jsQR (an
 * independent decoder) reads the pixels, so the test sees what a phone's camera would.
 */
export async function readQrCode(svg: Locator): Promise<string | undefined> {
  const pixels = await svg.evaluate(async (element) => {
    const markup = new XMLSerializer().serializeToString(element);
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d canvas');
    context.drawImage(image, 0, 0);
    const data = context.getImageData(0, 0, canvas.width, canvas.height);
    return { width: data.width, height: data.height, rgba: Array.from(data.data) };
  });
  // jsqr is a CommonJS bundle whose decoder is its `default` export: from an ES module that is `.default`.
  return jsqr.default(Uint8ClampedArray.from(pixels.rgba), pixels.width, pixels.height)?.data;
}
