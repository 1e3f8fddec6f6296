import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

const origin = 'https://chat.example.com';
const preflight = (url: string, input: { method: string; headers?: string; origin?: string }) =>
  fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin: input.origin ?? origin,
      'access-control-request-method': input.method,
      ...(input.headers === undefined ? {} : { 'access-control-request-headers': input.headers }),
    },
  });

/** Issue #18: browser clients call /v1 directly. */
describe('CORS on /v1, any origin by default', () => {
  let gateway: TestGateway;
  let key: string;

  before(async () => {
    gateway = await startTestGateway();
    ({ key } = await gateway.createUserWithKey({ balanceMicros: 10_000_000 }));
  });
  after(() => gateway.close());

  test('a preflight is answered without a key, for every kind of /v1 endpoint', async () => {
    const cases: Array<[string, string]> = [
      ['/v1/chat/completions', 'POST'],
      ['/v1/responses', 'POST'],
      ['/v1/messages', 'POST'],
      ['/v1/messages/count_tokens', 'POST'],
      ['/v1/models', 'GET'],
      ['/v1/models/gpt-4o', 'GET'],
    ];
    for (const [path, method] of cases) {
      const response = await preflight(`${gateway.url}${path}`, {
        method,
        headers: 'authorization, content-type, x-stainless-os',
      });
      assert.equal(response.status, 204, path);
      assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
      assert.match(response.headers.get('access-control-allow-methods') ?? '', new RegExp(method), path);
      assert.equal(response.headers.get('access-control-allow-headers'), 'authorization, content-type, x-stainless-os');
      assert.equal(response.headers.get('access-control-allow-credentials'), null, 'never credentials');
      assert.equal(response.headers.get('access-control-max-age'), '600');
    }
  });

  test('a preflight for a path or method no endpoint answers is a clear 404 in the API shape', async () => {
    const unknown = await preflight(`${gateway.url}/v1/embedding`, { method: 'POST' });
    assert.equal(unknown.status, 404);
    const body = (await unknown.json()) as { error: { message: string; type: string; code: string } };
    assert.match(body.error.message, /No \/v1 endpoint answers POST \/v1\/embedding/);
    assert.equal(body.error.code, 'not_found');
    const wrongMethod = await preflight(`${gateway.url}/v1/chat/completions`, { method: 'DELETE' });
    assert.equal(wrongMethod.status, 404);
    const messages = await preflight(`${gateway.url}/v1/messages/batches`, { method: 'POST' });
    assert.equal(messages.status, 404);
    const anthropic = (await messages.json()) as { type: string; error: { type: string } };
    assert.equal(anthropic.type, 'error');
    assert.equal(anthropic.error.type, 'not_found_error');
  });

  test('answers, streams and errors carry the CORS headers', async () => {
    const post = (body: unknown, headers: Record<string, string>) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const request = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };
    const answers = [
      await post(request, { authorization: `Bearer ${key}` }),
      await post({ ...request, stream: true }, { authorization: `Bearer ${key}` }),
      await post(request, { authorization: 'Bearer sk-wrong' }),
    ];
    assert.deepEqual(
      answers.map((response) => response.status),
      [200, 200, 401],
    );
    for (const response of answers) {
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      assert.match(response.headers.get('access-control-expose-headers') ?? '', /x-request-id/);
      await response.text();
    }
    const sameOrigin = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(sameOrigin.headers.get('access-control-allow-origin'), null, 'no Origin, no CORS headers');
    await sameOrigin.text();
  });
});

describe('CORS with CORS_ORIGINS set', () => {
  let gateway: TestGateway;

  before(async () => {
    gateway = await startTestGateway({ environment: { CORS_ORIGINS: `${origin}, https://other.example.org` } });
  });
  after(() => gateway.close());

  test('a listed origin is echoed with Vary: Origin; another gets no allow-origin header', async () => {
    const allowed = await preflight(`${gateway.url}/v1/chat/completions`, { method: 'POST' });
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), origin);
    assert.match(allowed.headers.get('vary') ?? '', /origin/i);
    const other = await preflight(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      origin: 'https://evil.example.net',
    });
    assert.equal(other.headers.get('access-control-allow-origin'), null);
    const models = await fetch(`${gateway.url}/v1/models`, { headers: { origin: 'https://OTHER.example.org' } });
    assert.equal(models.headers.get('access-control-allow-origin'), 'https://OTHER.example.org');
    await models.text();
  });
});
