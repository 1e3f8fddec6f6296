import qrcode from 'qrcode-generator';

const quietZoneModules = 4;

/**
 * `text` as a QR code drawn with one SVG path (error correction M, the smallest version that holds it, the four-module
 * quiet zone the standard asks for), so a phone's wallet can scan the deposit address. Width and height are set so the
 * code keeps its size when the SVG is drawn on its own (a printed page, a canvas).
 */
export function QrCodeSvg(props: { text: string; label: string; size?: number }) {
  const code = qrcode(0, 'M');
  code.addData(props.text, 'Byte');
  code.make();
  const count = code.getModuleCount();
  const side = count + quietZoneModules * 2;
  const cells: string[] = [];
  for (let row = 0; row < count; row += 1) {
    for (let column = 0; column < count; column += 1) {
      if (code.isDark(row, column)) cells.push(`M${column + quietZoneModules} ${row + quietZoneModules}h1v1h-1z`);
    }
  }
  const size = props.size ?? 200;
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      viewBox={`0 0 ${side} ${side}`}
      width={size}
      height={size}
      role="img"
      aria-label={props.label}
      shapeRendering="crispEdges"
      data-qr={props.text}
    >
      <rect width={side} height={side} fill="#fff" />
      <path d={cells.join('')} fill="#000" />
    </svg>
  );
}
