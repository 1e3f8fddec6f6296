import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createUndiciPaymentHttp } from './undici-payment-http.ts';

describe('the undici PaymentHttp', () => {
  let baseUrl = '';
  const server = createServer((request, response) => {
    if (request.url === '/echo') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.writeHead(201, {
          'content-type': 'application/json',
          'X-Echo-Key': String(request.headers['idempotence-key']),
        });
        response.end(JSON.stringify({ method: request.method, body: Buffer.concat(chunks).toString('utf8') }));
      });
      return;
    }
    if (request.url === '/large') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('x'.repeat(64 * 1024));
      return;
    }
    // /slow: headers never come.
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('sends the method, headers and body and returns the status, lower-case headers and body text', async () => {
    const http = createUndiciPaymentHttp();
    const reply = await http({
      method: 'POST',
      url: `${baseUrl}/echo`,
      headers: { 'Idempotence-Key': 'order-1' },
      body: 'a=1',
      timeoutMs: 5_000,
      maxBodyBytes: 1024,
    });
    assert.equal(reply.status, 201);
    assert.equal(reply.headers['x-echo-key'], 'order-1');
    assert.deepEqual(JSON.parse(reply.bodyText), { method: 'POST', body: 'a=1' });
  });

  it('refuses an answer larger than maxBodyBytes', async () => {
    const http = createUndiciPaymentHttp();
    await assert.rejects(
      http({ method: 'GET', url: `${baseUrl}/large`, timeoutMs: 5_000, maxBodyBytes: 1024 }),
      /larger than 1024 bytes/,
    );
  });

  it('gives up after timeoutMs when the server does not answer', async () => {
    const http = createUndiciPaymentHttp();
    const startedMs = Date.now();
    await assert.rejects(http({ method: 'GET', url: `${baseUrl}/slow`, timeoutMs: 200, maxBodyBytes: 1024 }));
    assert.ok(Date.now() - startedMs < 5_000);
  });
});
