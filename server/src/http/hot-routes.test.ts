import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type Agent, request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createHotRoutes, type HotExchange } from './hot-routes.ts';
import { createHttpMetrics } from './metrics.ts';
import { createOpenCalls } from './open-calls.ts';

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

function send(url: string, input: { method: string; path: string; agent?: Agent }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(new URL(input.path, url), { method: input.method, agent: input.agent }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (text: string) => (body += text));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('hot routes: a POST to a hot path is served on the server’s own listener, past Fastify', () => {
  const metrics = createHttpMetrics();
  const openCalls = createOpenCalls();
  const logLines: string[] = [];
  let requestCount = 0;
  const hot = createHotRoutes({
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
    newRequestId: () => `req_${(requestCount += 1)}`,
    metrics,
    openCalls,
    corsOrigins: '*',
  });
  const served: HotExchange[] = [];
  let release: () => void = () => undefined;
  let fastifyRequests = 0;
  let app: FastifyInstance;
  let url: string;

  before(async () => {
    app = Fastify({ serverFactory: hot.serverFactory });
    app.addHook('onRequest', async () => void (fastifyRequests += 1));
    app.post('/hot', async () => 'from fastify');
    app.get('/hot', async () => 'from fastify');
    hot.serve('/hot', async (exchange) => {
      served.push(exchange);
      if (exchange.incoming.url?.includes('hold') === true) await new Promise<void>((resolve) => (release = resolve));
      exchange.response.writeHead(200, { 'content-type': 'text/plain' }).end('from the hot route');
    });
    hot.watchClosing(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  after(() => app.close());

  test('POST to the hot path, with or without a query string, never reaches Fastify', async () => {
    const before = fastifyRequests;
    const plain = await send(url, { method: 'POST', path: '/hot' });
    const withQuery = await send(url, { method: 'POST', path: '/hot?a=1' });
    assert.deepEqual([plain.body, withQuery.body], ['from the hot route', 'from the hot route']);
    assert.equal(fastifyRequests, before);
    assert.deepEqual([plain.headers['x-request-id'], withQuery.headers['x-request-id']], ['req_1', 'req_2']);
  });

  test('another method, or a path that is not exactly the hot one, goes to Fastify', async () => {
    const before = fastifyRequests;
    assert.equal((await send(url, { method: 'GET', path: '/hot' })).body, 'from fastify');
    assert.equal((await send(url, { method: 'POST', path: '/hot/' })).status, 404);
    assert.equal(fastifyRequests, before + 2);
  });

  test('each answer gets the access log line and the HTTP metrics of a Fastify route', async () => {
    const answer = await send(url, { method: 'POST', path: '/hot' });
    const requestId = answer.headers['x-request-id'];
    const line = logLines
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((l) => l['reqId'] === requestId);
    assert.deepEqual(
      { msg: line?.['msg'], method: line?.['method'], route: line?.['route'], status: line?.['status'] },
      { msg: 'request', method: 'POST', route: '/hot', status: 200 },
    );
    assert.equal(typeof line?.['ms'], 'number');
    const counted = await metrics.requests.get();
    const series = counted.values.find((value) => value.labels['route'] === '/hot' && value.labels['status'] === '200');
    assert.equal(series?.value, 3, 'the three hot answers so far');
  });

  test('the server has the timeouts Fastify gives a server it creates', () => {
    assert.equal(app.server.keepAliveTimeout, 72_000);
    assert.equal(app.server.requestTimeout, 0);
  });

  test('closing: the call in flight finishes; one more on its connection gets Fastify’s 503 and a close', async () => {
    const socket = connect({ host: '127.0.0.1', port: (app.server.address() as AddressInfo).port });
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (text: string) => (received += text));
    const post = (path: string) =>
      socket.write(`POST ${path} HTTP/1.1\r\nhost: localhost\r\ncontent-length: 0\r\n\r\n`);
    post('/hot?hold');
    while (!served.some((exchange) => exchange.incoming.url === '/hot?hold')) await sleep(5);
    const closed = app.close();
    // The connection is busy, so closing does not end it: the next request on it arrives while the app closes.
    post('/hot');
    await sleep(50);
    release();
    await once(socket, 'end');
    await closed;
    const [first = '', second = ''] = received.split(/(?=HTTP\/1\.1 )/);
    assert.match(first, /^HTTP\/1\.1 200 /);
    assert.match(first, /\r\nfrom the hot route\r\n/);
    assert.match(second, /^HTTP\/1\.1 503 /);
    assert.match(second, /\r\nconnection: close\r\n/i);
    assert.ok(second.endsWith('{"error":"Service Unavailable","message":"Service Unavailable","statusCode":503}'));
  });
});
