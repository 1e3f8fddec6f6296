import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createUpstreamAgent } from './create-upstream-agent.ts';
import { requestBuffered, type UpstreamRequest } from './request-buffered.ts';
import { UpstreamTransportError, type UpstreamTransportErrorKind } from './upstream-transport-error.ts';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const handlers: Record<string, Handler> = {
  '/echo': (request, response, body) => {
    response.writeHead(201, { 'content-type': 'application/json', 'x-trace': ['a', 'b'] });
    response.end(JSON.stringify({ method: request.method, auth: request.headers.authorization ?? null, body }));
  },
  '/error': (_request, response) => {
    response.writeHead(503, { 'retry-after': '4' });
    response.end('down for maintenance');
  },
  '/large': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('x'.repeat(4096));
  },
  '/exact': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('y'.repeat(64));
  },
  '/silent': () => undefined,
  '/stall-after-first-chunk': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('partial');
  },
};

const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  request.on('end', () => handlers[request.url ?? '']?.(request, response, body));
});
// The test server is on loopback, so this pool allows private addresses (the SSRF guard has its own tests).
const agent = createUpstreamAgent({ connectTimeoutMs: 1000, addresses: { allowPrivate: true, trustedOrigins: [] } });
let baseUrl = '';

const call = (path: string, options: Partial<UpstreamRequest> = {}) =>
  requestBuffered({ method: 'GET', url: `${baseUrl}${path}`, timeoutMs: 2000, maxBodyBytes: 1024, ...options }, agent);

const failsWith = (kind: UpstreamTransportErrorKind, code?: string) => (error: unknown) => {
  assert.ok(error instanceof UpstreamTransportError, String(error));
  assert.equal(error.kind, kind);
  if (code !== undefined) assert.equal(error.code, code);
  return true;
};

describe('requestBuffered', () => {
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await agent.close();
  });

  it('sends method, headers and body and returns status, flattened headers and the body text', async () => {
    const reply = await call('/echo', { method: 'PUT', headers: { authorization: 'Bearer k' }, body: '{"x":1}' });
    assert.equal(reply.status, 201);
    assert.equal(reply.headers['x-trace'], 'a, b');
    assert.deepEqual(JSON.parse(reply.bodyText), { method: 'PUT', auth: 'Bearer k', body: '{"x":1}' });
  });

  it('returns an error status with its body for the caller to judge', async () => {
    const reply = await call('/error');
    assert.equal(reply.status, 503);
    assert.equal(reply.headers['retry-after'], '4');
    assert.equal(reply.bodyText, 'down for maintenance');
  });

  it('works without a dispatcher, on the global pool', async () => {
    const reply = await requestBuffered({
      method: 'POST',
      url: `${baseUrl}/echo`,
      timeoutMs: 2000,
      maxBodyBytes: 1024,
    });
    assert.equal(reply.status, 201);
  });

  it('accepts a body of exactly maxBodyBytes and refuses one byte more as body_too_large', async () => {
    assert.equal((await call('/exact', { maxBodyBytes: 64 })).bodyText.length, 64);
    await assert.rejects(call('/exact', { maxBodyBytes: 63 }), failsWith('body_too_large'));
    await assert.rejects(call('/large'), failsWith('body_too_large'));
  });

  it('fails with timeout when the headers do not come within timeoutMs', async () => {
    const startedMs = Date.now();
    await assert.rejects(call('/silent', { timeoutMs: 200 }), failsWith('timeout'));
    assert.ok(Date.now() - startedMs < 1500, 'the deadline, not a default, ended the call');
  });

  it('fails with timeout when the body stalls past timeoutMs', async () => {
    await assert.rejects(call('/stall-after-first-chunk', { timeoutMs: 200 }), failsWith('timeout'));
  });

  it('fails with connection when nothing listens', async () => {
    await assert.rejects(
      requestBuffered({ method: 'GET', url: 'http://127.0.0.1:1/', timeoutMs: 2000, maxBodyBytes: 10 }, agent),
      failsWith('connection', 'ECONNREFUSED'),
    );
  });

  it("fails with aborted, carrying the caller's reason, when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const reason = new Error('shutting down');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(call('/silent', { signal: controller.signal }), (error: unknown) => {
      assert.ok(failsWith('aborted', 'cancelled')(error));
      assert.equal((error as Error).cause, reason);
      return true;
    });
  });
});
