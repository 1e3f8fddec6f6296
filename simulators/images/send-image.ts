import type { SimulatorExchange } from '../shared/simulator-exchange.ts';

/** Serves image bytes, as a vendor's file host does behind the URLs it hands out. */
export function sendImage(exchange: SimulatorExchange, input: { bytes: Buffer; mimeType: string }): void {
  exchange.request.resume();
  exchange.response.writeHead(200, { 'content-type': input.mimeType, 'content-length': String(input.bytes.length) });
  exchange.response.end(input.bytes);
}

/** The simulator's own origin as the client reached it, for URLs in answers (polling and file links). */
export function readSimulatorOrigin(exchange: SimulatorExchange): string {
  return `http://${exchange.request.headers.host ?? '127.0.0.1'}`;
}
