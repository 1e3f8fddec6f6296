import assert from 'node:assert/strict';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { after, afterEach, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { openRawHttpStream } from '../support/raw-http-stream.ts';
import { fetchMetrics, startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

const bodyLimitBytes = 64 * 1024;
const route = '/v1/chat/completions';

type Answer = { status: number; headers: IncomingHttpHeaders; body: string; isReusedSocket: boolean };

/** One request over node:http's client on `agent`, straight to the gateway's port (no proxy in between). */
function send(input: {
  url: string;
  agent: Agent;
  headers: Record<string, string>;
  body: string | Buffer;
  path?: string;
}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      new URL(input.path ?? route, input.url),
      { method: 'POST', agent: input.agent, headers: input.headers },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          resolve({
            status: incoming.statusCode ?? 0,
            headers: incoming.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            isReusedSocket: outgoing.reusedSocket,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(input.body);
  });
}

/** The value of one series of `/metrics` (0 when it is not there yet). */
function readSeries(metrics: string, status: number, path = route): number {
  const series = `gateway_http_requests_total{route="${path}",method="POST",status="${status}"}`;
  const line = metrics.split('\n').find((text) => text.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/**
 * Issue 20: `POST /v1/chat/completions`, `/v1/messages` and `/v1/responses` are served on node:http past Fastify
 * (`server/src/http/hot-routes.ts`). What Fastify did for them still happens, over a real socket: the request id and
 * its log line, the HTTP metrics, CORS, keep-alive, the body limit, the body's parsing and its errors, a disconnect
 * charged once.
 */
describe('the hot /v1 routes on node:http', () => {
  let gateway: TestGateway;
  let key: string;
  let userId: string;
  const logLines: string[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  before(async () => {
    gateway = await startTestGateway({
      environment: { BODY_LIMIT_BYTES: String(bodyLimitBytes), CORS_ORIGINS: 'https://app.example' },
      logStream: { write: (line) => void logLines.push(line) },
    });
    ({ key, userId } = await gateway.createUserWithKey({ balanceMicros: 10_000_000 }));
  });
  after(async () => {
    agent.destroy();
    await gateway.close();
  });
  afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

  const url = () => gateway.gateway.url;
  const json = { 'content-type': 'application/json' };
  const chat = (content: string, extra: object = {}) =>
    JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }], ...extra });
  const logsOf = (requestId: string) =>
    logLines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line['reqId'] === requestId);

  test('answers on one kept-alive socket, each answer with its own request id, access log line and count', async () => {
    const before = readSeries(await fetchMetrics(url()), 200);
    const headers = { ...json, authorization: `Bearer ${key}` };
    const first = await send({ url: url(), agent, headers, body: chat('Hello.') });
    const second = await send({ url: url(), agent, headers, body: chat('Hello again.'), path: `${route}?trace=1` });
    for (const answer of [first, second]) {
      assert.equal(answer.status, 200, answer.body);
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(answer.headers['content-length'], String(Buffer.byteLength(answer.body)));
      assert.equal((JSON.parse(answer.body) as { object: string }).object, 'chat.completion');
      assert.match(String(answer.headers['x-request-id']), /^req_/);
      const lines = logsOf(String(answer.headers['x-request-id']));
      assert.deepEqual(
        lines
          .filter((line) => line['msg'] === 'request')
          .map(({ method, route, status }) => ({ method, route, status })),
        [{ method: 'POST', route, status: 200 }],
      );
    }
    assert.notEqual(first.headers['x-request-id'], second.headers['x-request-id']);
    assert.equal(second.isReusedSocket, true, 'the second call went over the first one’s connection');
    assert.equal(first.headers['connection'], 'keep-alive');
    assert.equal(readSeries(await fetchMetrics(url()), 200), before + 2);
  });

  test('a path only Fastify’s router matches (percent-encoded) is answered through the Fastify route, logged once', async () => {
    const before = readSeries(await fetchMetrics(url()), 200);
    const headers = { ...json, authorization: `Bearer ${key}` };
    const path = '/v1/chat/%63ompletions';
    const answer = await send({ url: url(), agent: new Agent(), headers, body: chat('Hello.'), path });
    assert.equal(answer.status, 200, answer.body);
    assert.equal((JSON.parse(answer.body) as { object: string }).object, 'chat.completion');
    const requestLines = logsOf(String(answer.headers['x-request-id'])).filter((line) => line['msg'] === 'request');
    assert.deepEqual(
      requestLines.map(({ route, status }) => ({ route, status })),
      [{ route, status: 200 }],
    );
    assert.equal(readSeries(await fetchMetrics(url()), 200), before + 1);
  });

  test('a body over the limit: 413 in the OpenAI shape, with its request id, logged and counted', async () => {
    const before = readSeries(await fetchMetrics(url()), 413);
    const body = chat('x'.repeat(bodyLimitBytes));
    const answer = await send({
      url: url(),
      agent: new Agent(),
      headers: { ...json, authorization: `Bearer ${key}` },
      body,
    });
    assert.equal(answer.status, 413);
    assert.deepEqual(JSON.parse(answer.body), {
      error: {
        message: 'The request body is larger than this server accepts.',
        type: 'invalid_request_error',
        param: null,
        code: 'payload_too_large',
      },
    });
    const requestId = String(answer.headers['x-request-id']);
    assert.match(requestId, /^req_/);
    assert.equal(logsOf(requestId).find((line) => line['msg'] === 'request')?.['status'], 413);
    assert.equal(readSeries(await fetchMetrics(url()), 413), before + 1);
  });

  const refusals: { name: string; headers: Record<string, string>; body: string | Buffer; code: string }[] = [
    { name: 'bad JSON', headers: json, body: '{"model": "gpt-4o-mini", "messages": [', code: 'invalid_json' },
    { name: 'bytes that are not UTF-8', headers: json, body: Buffer.from([0x7b, 0xff, 0x7d]), code: 'invalid_json' },
    { name: 'an empty JSON body', headers: json, body: '', code: 'invalid_json' },
    {
      name: 'a type that is not JSON',
      headers: { 'content-type': 'text/xml' },
      body: '<a/>',
      code: 'unsupported_media_type',
    },
    { name: 'a body without a type', headers: {}, body: chat('Hello.'), code: 'unsupported_media_type' },
    {
      name: 'a malformed type',
      headers: { 'content-type': 'json' },
      body: chat('Hello.'),
      code: 'unsupported_media_type',
    },
  ];
  for (const refusal of refusals) {
    test(`${refusal.name}: 400 ${refusal.code}, before the key is even looked at`, async () => {
      const answer = await send({ url: url(), agent: new Agent(), headers: refusal.headers, body: refusal.body });
      assert.equal(answer.status, 400, answer.body);
      const { error } = JSON.parse(answer.body) as { error: Record<string, unknown> };
      assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'param', 'type']);
      assert.equal(error['code'], refusal.code);
      assert.equal(error['type'], 'invalid_request_error');
      assert.match(String(answer.headers['x-request-id']), /^req_/);
    });
  }

  test('a body the parser refused closes the connection after the answer; a wrong type keeps it', async () => {
    const badJson = await send({ url: url(), agent: new Agent({ keepAlive: true }), headers: json, body: '{' });
    assert.equal(badJson.headers['connection'], 'close');
    const wrongType = await send({
      url: url(),
      agent: new Agent({ keepAlive: true }),
      headers: { 'content-type': 'text/xml' },
      body: '<a/>',
    });
    assert.equal(wrongType.headers['connection'], 'keep-alive');
  });

  test('CORS: an allowed origin may read the answer and its request id', async () => {
    const headers = { ...json, authorization: `Bearer ${key}`, origin: 'https://app.example' };
    const answer = await send({ url: url(), agent: new Agent(), headers, body: chat('Hello.') });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['access-control-allow-origin'], 'https://app.example');
    assert.match(String(answer.headers['access-control-expose-headers']), /\bx-request-id\b/);
    assert.equal(answer.headers['vary'], 'origin');
  });

  test('a stream whose upstream breaks: the in-stream error is logged with the request id', async () => {
    const headers = { ...json, authorization: `Bearer ${key}` };
    const body = chat('Go on [sim:words=200 reset-after=3]', { stream: true });
    const answer = await send({ url: url(), agent: new Agent(), headers, body });
    assert.equal(answer.status, 200);
    assert.match(answer.body, /data: \{"error":/);
    const requestId = String(answer.headers['x-request-id']);
    const warning = logsOf(requestId).find((line) => line['msg'] === 'stream ended with an error');
    assert.equal(warning?.['level'], 40, 'a warning bound to the request id');
  });

  test('POST /v1/messages too: Anthropic’s request-id, its error shape, the log line and the count', async () => {
    const before = readSeries(await fetchMetrics(url()), 200, '/v1/messages');
    const headers = { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' };
    const body = JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 50, messages: [{ role: 'user', content: 'Hi' }] });
    const answer = await send({ url: url(), agent, headers, body, path: '/v1/messages' });
    assert.equal(answer.status, 200, answer.body);
    assert.equal((JSON.parse(answer.body) as { type: string }).type, 'message');
    const requestId = String(answer.headers['x-request-id']);
    assert.equal(answer.headers['request-id'], requestId);
    assert.deepEqual(
      logsOf(requestId)
        .filter((line) => line['msg'] === 'request')
        .map(({ route, status }) => ({ route, status })),
      [{ route: '/v1/messages', status: 200 }],
    );
    assert.equal(readSeries(await fetchMetrics(url()), 200, '/v1/messages'), before + 1);

    const refused = await send({ url: url(), agent: new Agent(), headers, body: '{', path: '/v1/messages' });
    assert.equal(refused.status, 400);
    const refusedId = String(refused.headers['request-id']);
    assert.deepEqual(JSON.parse(refused.body), {
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'We could not parse the JSON body of your request. The body must be valid JSON (UTF-8).',
      },
      request_id: refusedId,
    });
  });

  test('POST /v1/responses too: the Response object, the log line and the count', async () => {
    const before = readSeries(await fetchMetrics(url()), 200, '/v1/responses');
    const headers = { ...json, authorization: `Bearer ${key}` };
    const body = JSON.stringify({ model: 'gpt-4o-mini', input: 'Hi' });
    const answer = await send({ url: url(), agent, headers, body, path: '/v1/responses' });
    assert.equal(answer.status, 200, answer.body);
    assert.equal((JSON.parse(answer.body) as { object: string }).object, 'response');
    const requestId = String(answer.headers['x-request-id']);
    assert.deepEqual(
      logsOf(requestId)
        .filter((line) => line['msg'] === 'request')
        .map(({ route, status }) => ({ route, status })),
      [{ route: '/v1/responses', status: 200 }],
    );
    assert.equal(readSeries(await fetchMetrics(url()), 200, '/v1/responses'), before + 1);
  });

  test('a client that leaves mid-stream: the upstream stops, and the call is charged once for what was sent', async () => {
    const db = gateway.gateway.database.db;
    const balanceBefore = await sumLedgerAccount(db, userLedgerAccount(userId));
    const stream = openRawHttpStream({
      url: url(),
      path: route,
      headers: { ...json, authorization: `Bearer ${key}` },
      body: chat('Go on [sim:words=3000]', { stream: true }),
    });
    const head = await stream.head;
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-type'], 'text/event-stream; charset=utf-8');
    const requestId = head.headers['x-request-id'] ?? '';
    // A few chunks in: the first carries only the role, and the charge is for the text delivered.
    while (stream.bodyText().split('data: {').length <= 5) await sleep(5);
    stream.socket.destroy();

    const rows = () =>
      db
        .selectFrom('usage_records')
        .selectAll()
        .where('user_id', '=', userId)
        .where('request_id', '=', requestId)
        .execute();
    // The record is written once the gateway has seen the client leave; a hang guard caps the wait.
    let records = await rows();
    for (let attempt = 0; attempt < 200 && records.length === 0; attempt += 1) {
      await sleep(50);
      records = await rows();
    }
    await sleep(300);
    assert.equal((await rows()).length, 1, 'one usage record');
    const [record] = records;
    assert.equal(record?.status, 'interrupted');
    assert.equal(record.error_code, 'client_disconnected');
    assert.ok(record.output_tokens > 0 && record.output_tokens < 3000, `${record.output_tokens} output tokens`);
    const balanceAfter = await sumLedgerAccount(db, userLedgerAccount(userId));
    assert.equal(balanceBefore - balanceAfter, record.cost_micros, 'the ledger debited exactly the recorded cost');
  });
});
