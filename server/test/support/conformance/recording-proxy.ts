import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request through the proxy and the gateway's answer, byte for byte (bodies decoded as UTF-8). */
export type RecordedExchange = {
  method: string;
  path: string;
  /** The request body the client sent. */
  requestBody: string;
  status: number;
  contentType: string;
  body: string;
};

export type RecordingProxy = {
  /** `http://127.0.0.1:<port>`, no trailing slash: point an SDK's base URL here instead of at the gateway. */
  url: string;
  /** Returns the exchanges completed since the last call and forgets them. */
  takeExchanges: () => RecordedExchange[];
  close: () => Promise<void>;
};

/**
 * A pass-through HTTP proxy in front of the gateway that keeps a copy of every response, so that what any SDK in any
 * language received can be checked against the OpenAPI schemas. Streams are forwarded as each piece arrives.
 */
export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  let exchanges: RecordedExchange[] = [];
  const server = createServer((clientRequest, clientResponse) => {
    const requestPieces: Buffer[] = [];
    clientRequest.on('data', (piece: Buffer) => requestPieces.push(piece));
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: clientRequest.method,
        path: clientRequest.url,
        headers: { ...clientRequest.headers, host: target.host },
      },
      (gatewayResponse: IncomingMessage) => {
        clientResponse.writeHead(gatewayResponse.statusCode ?? 502, gatewayResponse.headers);
        const pieces: Buffer[] = [];
        gatewayResponse.on('data', (piece: Buffer) => {
          pieces.push(piece);
          clientResponse.write(piece);
        });
        gatewayResponse.on('end', () => {
          exchanges.push({
            method: clientRequest.method ?? '',
            path: clientRequest.url ?? '',
            requestBody: Buffer.concat(requestPieces).toString('utf8'),
            status: gatewayResponse.statusCode ?? 0,
            contentType: String(gatewayResponse.headers['content-type'] ?? ''),
            body: Buffer.concat(pieces).toString('utf8'),
          });
          clientResponse.end();
        });
      },
    );
    upstream.on('error', () => clientResponse.destroy());
    clientResponse.on('close', () => {
      if (!clientResponse.writableFinished) upstream.destroy();
    });
    clientRequest.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    takeExchanges: () => {
      const taken = exchanges;
      exchanges = [];
      return taken;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
