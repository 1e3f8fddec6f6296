import { once } from 'node:events';
import { connect, type Socket } from 'node:net';

/**
 * A streaming POST over a bare socket, so a test controls reading: `pause()` stops reading from the socket (the
 * kernel's receive buffer fills and TCP pushes back on the server), `resume()` reads again. HTTP/1.0 keeps the body
 * free of chunk framing: the server closes the connection at the end of the answer.
 */
export type RawHttpStream = {
  /** The status line and headers, once they have arrived. */
  head: Promise<{ status: number; headers: Record<string, string> }>;
  socket: Socket;
  /** Body bytes received so far. */
  bodyBytes: () => number;
  /** The body received so far, as text. */
  bodyText: () => string;
  /** Resolves when the server has closed the connection. */
  closed: Promise<void>;
};

export function openRawHttpStream(input: {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}): RawHttpStream {
  const { hostname, port } = new URL(input.url);
  const socket = connect({ host: hostname, port: Number(port) });
  const body = Buffer.from(input.body);
  const headerLines = Object.entries({ ...input.headers, 'content-length': String(body.length) })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`POST ${input.path} HTTP/1.0\r\nhost: ${hostname}:${port}\r\n${headerLines}\r\n`);
  socket.write(body);
  const received: Buffer[] = [];
  let receivedBytes = 0;
  let headEnd = -1;
  let resolveHead: (head: { status: number; headers: Record<string, string> }) => void = () => undefined;
  const head = new Promise<{ status: number; headers: Record<string, string> }>((resolve) => {
    resolveHead = resolve;
  });
  socket.on('data', (bytes: Buffer) => {
    received.push(bytes);
    receivedBytes += bytes.length;
    if (headEnd !== -1) return;
    const soFar = Buffer.concat(received);
    headEnd = soFar.indexOf('\r\n\r\n');
    if (headEnd !== -1) resolveHead(parseHead(soFar.subarray(0, headEnd).toString('latin1')));
  });
  return {
    head,
    socket,
    bodyBytes: () => (headEnd === -1 ? 0 : receivedBytes - headEnd - 4),
    bodyText: () =>
      headEnd === -1
        ? ''
        : Buffer.concat(received)
            .subarray(headEnd + 4)
            .toString('utf8'),
    closed: once(socket, 'close').then(() => undefined),
  };
}

function parseHead(text: string): { status: number; headers: Record<string, string> } {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers };
}
