import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Agent } from 'undici';
import { z } from 'zod';
import { createPaymentHttp } from '../../create-payment-http.ts';
import { callProviderApi } from './call-provider-api.ts';
import { PaymentProviderError } from './payment-provider-error.ts';

let baseUrl = '';
let requestCount = 0;
const server = createServer((_request, response) => {
  requestCount += 1;
  response.writeHead(503, { 'content-type': 'application/json' }).end('{}');
});
const agent = new Agent();
const http = createPaymentHttp({ dispatcher: agent });

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await agent.close();
  await new Promise((resolve) => server.close(resolve));
});

const call = (headers: Record<string, string>) =>
  callProviderApi({
    http,
    providerId: 'yookassa',
    method: 'POST',
    url: `${baseUrl}/v3/refunds`,
    headers,
    body: '{}',
    schema: z.object({}),
    retryDelaysMs: [5, 5],
  });

test('a header our HTTP client refuses to send fails at once, not retryable, and nothing reaches the provider', async () => {
  requestCount = 0;
  const error = await call({ 'idempotence-key': 'ключ\n' }).catch((caught: unknown) => caught);
  assert.ok(error instanceof PaymentProviderError);
  assert.equal(error.isRetryable, false);
  assert.match(error.message, /could not be sent/);
  assert.equal(requestCount, 0);
});

test('a 5xx from the provider stays retryable and is repeated as configured', async () => {
  requestCount = 0;
  const error = await call({ 'idempotence-key': 'refund-1' }).catch((caught: unknown) => caught);
  assert.ok(error instanceof PaymentProviderError);
  assert.equal(error.isRetryable, true);
  assert.equal(error.httpStatus, 503);
  assert.equal(requestCount, 3);
});
