import { createServer } from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export type SimulatorRequest = {
  method: string;
  /** The path and query, parsed against the simulator's own origin. */
  url: URL;
  /** Header names in lower case. */
  headers: IncomingMessage['headers'];
  rawBody: Buffer;
};

export type SimulatorResponse = { status: number; contentType: string; body: string; headers?: Record<string, string> };

export type SimulatorServer = { url: string; close: () => Promise<void> };

const maxRequestBytes = 1024 * 1024;

/** An HTTP server on 127.0.0.1 that hands each whole request to `handle`; a throw becomes a 500, never a crash. */
export async function startSimulatorServer(input: {
  port?: number;
  handle: (request: SimulatorRequest) => Promise<SimulatorResponse> | SimulatorResponse;
}): Promise<SimulatorServer> {
  const server = createServer((request, response) => {
    void readRequest(request)
      .then(async (simulatorRequest) => {
        const reply = simulatorRequest
          ? await input.handle(simulatorRequest)
          : { status: 413, contentType: 'text/plain', body: 'request too large' };
        response.writeHead(reply.status, { 'content-type': reply.contentType, ...reply.headers });
        response.end(reply.body);
      })
      .catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(error instanceof Error ? error.message : 'simulator error');
      });
  });
  await new Promise<void>((resolve) => server.listen(input.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function readRequest(request: IncomingMessage): Promise<SimulatorRequest | undefined> {
  const chunks: Buffer[] = [];
  let byteCount = 0;
  for await (const chunk of request) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    byteCount += buffer.length;
    if (byteCount > maxRequestBytes) return undefined;
    chunks.push(buffer);
  }
  return {
    method: request.method ?? 'GET',
    url: new URL(request.url ?? '/', 'http://127.0.0.1'),
    headers: request.headers,
    rawBody: Buffer.concat(chunks),
  };
}

export function jsonResponse(status: number, value: unknown): SimulatorResponse {
  return { status, contentType: 'application/json', body: JSON.stringify(value) };
}

/** The request body as JSON, or undefined when it is not JSON. */
export function readJson(request: SimulatorRequest): unknown {
  try {
    return JSON.parse(request.rawBody.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
