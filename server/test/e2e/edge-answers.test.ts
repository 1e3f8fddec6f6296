import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { callApi, readError, signIn, signUp, type BrowserSession } from '../support/account-api-client.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type RawAnswer = { status: number; body: unknown; text: string };

/** Sends bytes as they are (no client normalises them) and reads the answer until the server closes. */
function sendRaw(baseUrl: string, requestText: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    socket.on('data', (bytes: Buffer) => chunks.push(bytes));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const headEnd = text.indexOf('\r\n\r\n');
      const bodyText = text.slice(headEnd + 4);
      let body: unknown;
      try {
        body = JSON.parse(bodyText);
      } catch {
        body = undefined;
      }
      resolve({ status: Number(text.split(' ', 2)[1]), body, text: bodyText });
    });
    socket.end(requestText);
  });
}

const openAiShape = (answer: RawAnswer) => {
  const error = (answer.body as { error?: Record<string, unknown> } | undefined)?.error;
  assert.ok(error, answer.text);
  assert.deepEqual(Object.keys(error).sort(), ['code', 'message', 'param', 'type'], answer.text);
  return error;
};
const anthropicShape = (answer: RawAnswer) => {
  const body = answer.body as { type?: string; error?: { type: string; message: string }; request_id?: string };
  assert.equal(body.type, 'error', answer.text);
  assert.deepEqual(Object.keys(body.error ?? {}).sort(), ['message', 'type'], answer.text);
  assert.match(body.request_id ?? '', /^req_/);
  return body.error;
};

describe('issue 19: edges of the HTTP layer answer in the API shape with their 4xx status', () => {
  let gateway: TestGateway;
  let direct: string;
  const logLines: string[] = [];

  before(async () => {
    gateway = await startTestGateway({
      environment: { BODY_LIMIT_BYTES: String(8 * 1024 * 1024) },
      logStream: { write: (line) => void logLines.push(line) },
    });
    direct = gateway.gateway.url;
  });
  after(() => gateway.close());

  test('QUERY without a content type is a 400 on every path, never a 500, and logs no error', async () => {
    for (const path of ['/v1/chat/completions', '/v1/messages', '/api/me', '/healthz', '/']) {
      const answer = await sendRaw(direct, `QUERY ${path} HTTP/1.1\r\nhost: gateway\r\nconnection: close\r\n\r\n`);
      assert.equal(answer.status, 400, `${path}: ${answer.text}`);
      if (path === '/v1/messages') assert.equal(anthropicShape(answer)?.type, 'invalid_request_error');
      else assert.equal(openAiShape(answer).code, 'missing_content_type', path);
    }
    assert.deepEqual(
      logLines.filter((line) => /"level":(50|60)/.test(line)),
      [],
      'no error or stack trace in the log',
    );
  });

  test("an unknown method or path under /v1/messages gets Anthropic's 404, elsewhere OpenAI's", async () => {
    for (const [method, path] of [
      ['PUT', '/v1/messages'],
      ['GET', '/v1/messages'],
      ['POST', '/v1/messages/no-such-thing'],
    ] as const) {
      const answer = await sendRaw(direct, `${method} ${path} HTTP/1.1\r\nhost: gateway\r\nconnection: close\r\n\r\n`);
      assert.equal(answer.status, 404, `${method} ${path}`);
      assert.equal(anthropicShape(answer)?.type, 'not_found_error');
    }
    const openAi = await sendRaw(
      direct,
      `PUT /v1/chat/completions HTTP/1.1\r\nhost: gateway\r\nconnection: close\r\n\r\n`,
    );
    assert.equal(openAi.status, 404);
    assert.equal(openAiShape(openAi).code, 'not_found');
  });

  test("Node's own refusals (431 headers too large, 400 malformed) keep their status in the path's shape", async () => {
    const hugeHeader = `x-filler: ${'a'.repeat(20_000)}\r\n`;
    const overflow = await sendRaw(direct, `GET /v1/models HTTP/1.1\r\nhost: gateway\r\n${hugeHeader}\r\n`);
    assert.equal(overflow.status, 431);
    assert.equal(openAiShape(overflow).code, 'headers_too_large');
    const longUrl = await sendRaw(direct, `GET /api/me?${'q'.repeat(20_000)} HTTP/1.1\r\nhost: gateway\r\n\r\n`);
    assert.equal(longUrl.status, 431);
    assert.equal(openAiShape(longUrl).code, 'headers_too_large');
    const messagesOverflow = await sendRaw(direct, `POST /v1/messages HTTP/1.1\r\nhost: gateway\r\n${hugeHeader}\r\n`);
    assert.equal(messagesOverflow.status, 431);
    assert.equal(anthropicShape(messagesOverflow)?.type, 'invalid_request_error');
    const malformed = await sendRaw(direct, `GET /v1/models HTTP/1.1\r\nhost: gateway\r\nno colon here\r\n\r\n`);
    assert.equal(malformed.status, 400);
    assert.equal(openAiShape(malformed).code, 'malformed_http_request');
    const badMethod = await sendRaw(direct, `BREW /v1/messages HTTP/1.1\r\nhost: gateway\r\n\r\n`);
    assert.equal(badMethod.status, 400);
    assert.equal(anthropicShape(badMethod)?.type, 'invalid_request_error');
  });

  test('a path parameter longer than any id is a 414 in the account API shape', async () => {
    const answer = await sendRaw(
      direct,
      `GET /api/operator/users/${'u'.repeat(500)} HTTP/1.1\r\nhost: gateway\r\nconnection: close\r\n\r\n`,
    );
    assert.equal(answer.status, 414, answer.text);
    assert.equal(openAiShape(answer).code, 'uri_too_long');
    assert.ok(!answer.text.includes('u'.repeat(300)), 'the id is not echoed whole');
  });

  test('a 5 MB model name is refused without being echoed back', async () => {
    const { key } = await gateway.createUserWithKey({ balanceMicros: 1_000_000 });
    const model = 'm'.repeat(5 * 1024 * 1024);
    for (const [path, body] of [
      ['/v1/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/messages', { model, max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/responses', { model, input: 'hi' }],
    ] as const) {
      const response = await fetch(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      assert.equal(response.status, 404, `${path}: ${text.slice(0, 300)}`);
      assert.ok(text.length < 2_000, `${path} answered ${text.length} characters`);
    }
  });
});

for (const databaseKind of databaseKinds) {
  describe(`issue 19: amounts and labels on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let operator: BrowserSession;

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      const email = `operator-edges-${databaseKind}@example.com`;
      await gateway.createUserWithKey({ role: 'admin', email });
      operator = await signIn(gateway.url, { email });
    });
    after(async () => {
      await assertLedgerBalanced(gateway.gateway.database.db);
      await gateway.close();
    });

    test('operator amounts out of range are a 400 naming the field, never a 500', async () => {
      const customer = await gateway.createUserWithKey({ balanceMicros: 1_000_000 });
      const adjust = (body: unknown) =>
        callApi(gateway.url, `/api/operator/users/${customer.userId}/adjustments`, { session: operator, body });
      for (const amount of [Number.MAX_SAFE_INTEGER, 2 ** 53, 2 ** 60, 1e300]) {
        for (const direction of ['credit', 'debit']) {
          const answer = await adjust({ direction, amount_micros: amount, reason: 'range' });
          assert.equal(answer.status, 400, `${direction} ${amount}: ${answer.text}`);
          assert.equal(readError(answer).param, 'amount_micros');
        }
      }
      const nearTop = await adjust({ direction: 'credit', amount_micros: 999_999_999_000_000, reason: 'large' });
      assert.equal(nearTop.status, 201, nearTop.text);
      const over = await adjust({ direction: 'credit', amount_micros: 1_000_000_000, reason: 'over the top' });
      assert.equal(over.status, 400, over.text);
      assert.deepEqual([readError(over).code, readError(over).param], ['integer_above_max_value', 'amount_micros']);
      const session = await signUp(gateway.url, { email: `caps-${databaseKind}@example.com` });
      for (const cap of ['9007199254740993', 9007199254740993, '999999999999.5', 1e20]) {
        const answer = await callApi(gateway.url, '/api/keys', { session, body: { name: 'k', spend_cap_usd: cap } });
        assert.equal(answer.status, 400, `${String(cap)}: ${answer.text}`);
        assert.equal(readError(answer).param, 'spend_cap_usd');
      }
    });

    test('a /v1/messages call is recorded as `messages` in usage, not as a chat completion', async () => {
      const customer = await gateway.createUserWithKey({ balanceMicros: 1_000_000 });
      const response = await fetch(`${gateway.url}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': customer.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
      });
      assert.equal(response.status, 200, await response.clone().text());
      await response.text();
      const rows = await gateway.gateway.database.db
        .selectFrom('usage_records')
        .select('endpoint')
        .where('user_id', '=', customer.userId)
        .execute();
      assert.deepEqual(
        rows.map((row) => row.endpoint),
        ['messages'],
      );
    });
  });
}
