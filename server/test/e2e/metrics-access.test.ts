import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { callApi } from '../support/account-api-client.ts';
import { startTestGateway, testMetricsToken, type TestGateway } from '../support/start-test-gateway.ts';

const chat = (url: string, key: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
  });

const metricsWith = (url: string, authorization?: string) =>
  fetch(`${url}/metrics`, authorization === undefined ? {} : { headers: { authorization } });

describe('/metrics with METRICS_TOKEN', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway();
  });
  after(() => gateway.close());

  test('answers only a bearer of the token', async () => {
    const none = await metricsWith(gateway.url);
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    assert.doesNotMatch(await none.text(), /gateway_/);
    assert.equal((await metricsWith(gateway.url, `Bearer ${testMetricsToken}x`)).status, 401);
    assert.equal((await metricsWith(gateway.url, `Basic ${testMetricsToken}`)).status, 401);
    const allowed = await metricsWith(gateway.url, `Bearer ${testMetricsToken}`);
    assert.equal(allowed.status, 200);
    assert.match(await allowed.text(), /gateway_http_requests_total/);
  });

  test('public pages and endpoints never name a route or an upstream address', async () => {
    const { key } = await gateway.createUserWithKey();
    const answered = await chat(gateway.url, key);
    assert.equal(answered.status, 200);
    assert.equal(answered.headers.get('x-gateway-route'), null, 'customers are not told the route');
    const routes = gateway.gateway.deps.routeTable.allRoutes();
    assert.ok(routes.length > 0);
    const secrets = [...new Set(routes.flatMap((route) => [route.id, new URL(route.baseUrl).host]))];
    const pages = await Promise.all(
      ['/', '/models', '/api/models', '/api/openapi.json', '/healthz', '/readyz', '/metrics'].map(async (path) => ({
        path,
        text: (await callApi(gateway.url, path)).text,
      })),
    );
    const models = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    pages.push({ path: '/v1/models', text: await models.text() });
    for (const page of pages) {
      for (const secret of secrets) assert.ok(!page.text.includes(secret), `${page.path} names ${secret}`);
    }
  });
});

describe('/metrics with neither a token nor a separate address', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ environment: { METRICS_TOKEN: '' } });
  });
  after(() => gateway.close());

  test('is not served at all', async () => {
    const response = await metricsWith(gateway.url, `Bearer ${testMetricsToken}`);
    assert.equal(response.status, 404);
    assert.doesNotMatch(await response.text(), /gateway_/);
  });
});

describe('/metrics on a separate address (METRICS_LISTEN)', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway({ environment: { METRICS_LISTEN: '127.0.0.1:0' } });
  });
  after(() => gateway.close());

  test('is served there (with the token) and not on the public port', async () => {
    const metricsUrl = gateway.gateway.metricsUrl;
    assert.ok(metricsUrl);
    assert.equal((await metricsWith(gateway.url, `Bearer ${testMetricsToken}`)).status, 404);
    assert.equal((await metricsWith(metricsUrl)).status, 401);
    const allowed = await metricsWith(metricsUrl, `Bearer ${testMetricsToken}`);
    assert.equal(allowed.status, 200);
    assert.match(await allowed.text(), /gateway_http_requests_total/);
    assert.equal((await fetch(`${metricsUrl}/healthz`)).status, 404, 'only /metrics is there');
  });
});
