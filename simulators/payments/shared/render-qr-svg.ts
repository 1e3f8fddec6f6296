import qrcode from 'qrcode-generator';

/**
 * A QR code of `text` as an inline SVG, as a bank's SBP page shows it for a phone's camera: error correction M
 * (the level SBP payment links are usually printed with), the smallest version that holds the text, and the
 * four-module quiet zone the QR standard asks for.
 */
export function renderQrSvg(text: string): string {
  const code = qrcode(0, 'M');
  code.addData(text, 'Byte');
  code.make();
  return code.createSvgTag({ cellSize: 6, margin: 24 });
}
