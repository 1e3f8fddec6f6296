import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
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
  /**
   * True when only the beginning of the answer was kept: the client or the gateway left before its end (a client
   * disconnect), or the body outgrew what the proxy records. Only the whole events of a partial stream are checked.
   */
  isPartial?: boolean;
};

export type RecordingProxy = {
  /** `http://127.0.0.1:<port>`, no trailing slash: point an SDK's base URL here instead of at the gateway. */
  url: string;
  /** Returns the exchanges completed since the last call and forgets them. */
  takeExchanges: () => RecordedExchange[];
  close: () => Promise<void>;
};

/**
 * Headers about one connection (RFC 9110 §7.6.1), which each hop sets for itself: an HTTP/1.0 client gets its answer
 * unchunked and ended by the close of the connection, whatever framing the gateway used towards the proxy.
 */
const hopByHopHeaders = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te']);

function withoutHopByHopHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !hopByHopHeaders.has(name.toLowerCase())));
}

/** A test streaming 100 MB needs no copy of it all: the first 16 MiB of a body are checked, the rest passes. */
const maxRecordedBytes = 16 * 1024 * 1024;

/**
 * A pass-through HTTP proxy in front of the gateway that keeps a copy of every response, so that what any SDK in any
 * language received can be checked against the OpenAPI schemas. Streams are forwarded as each piece arrives, and the
 * proxy stops reading the gateway while the client is not reading (backpressure passes through); a client that
 * leaves closes the gateway's connection too.
 */
export async function startRecordingProxy(targetUrl: string): Promise<RecordingProxy> {
  const target = new URL(targetUrl);
  const agent = new Agent({ keepAlive: true });
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
        headers: { ...withoutHopByHopHeaders(clientRequest.headers), host: target.host },
        agent,
      },
      (gatewayResponse) =>
        relayAndRecord(gatewayResponse, clientResponse, (answer) =>
          exchanges.push({
            method: clientRequest.method ?? '',
            path: clientRequest.url ?? '',
            requestBody: Buffer.concat(requestPieces).toString('utf8'),
            ...answer,
          }),
        ),
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
      agent.destroy();
    },
  };
}

type RecordedAnswer = Pick<RecordedExchange, 'status' | 'contentType' | 'body' | 'isPartial'>;

/**
 * Passes the gateway's answer to the client piece by piece, pausing while the client's buffer is full, and records it
 * once: whole when it ended, partial when either side left first.
 */
function relayAndRecord(
  gatewayResponse: IncomingMessage,
  clientResponse: ServerResponse,
  record: (answer: RecordedAnswer) => void,
): void {
  clientResponse.writeHead(gatewayResponse.statusCode ?? 502, withoutHopByHopHeaders(gatewayResponse.headers));
  const pieces: Buffer[] = [];
  let recordedBytes = 0;
  let isRecorded = false;
  const recordOnce = (isWhole: boolean) => {
    if (isRecorded) return;
    isRecorded = true;
    record({
      status: gatewayResponse.statusCode ?? 0,
      contentType: String(gatewayResponse.headers['content-type'] ?? ''),
      body: Buffer.concat(pieces).toString('utf8'),
      ...(isWhole && recordedBytes <= maxRecordedBytes ? {} : { isPartial: true }),
    });
  };
  gatewayResponse.on('data', (piece: Buffer) => {
    if (recordedBytes < maxRecordedBytes) pieces.push(piece.subarray(0, maxRecordedBytes - recordedBytes));
    recordedBytes += piece.length;
    if (!clientResponse.write(piece)) {
      gatewayResponse.pause();
      clientResponse.once('drain', () => gatewayResponse.resume());
    }
  });
  gatewayResponse.on('end', () => {
    recordOnce(true);
    clientResponse.end();
  });
  gatewayResponse.on('error', () => undefined);
  gatewayResponse.on('close', () => {
    if (gatewayResponse.complete) return;
    recordOnce(false);
    clientResponse.destroy();
  });
}
