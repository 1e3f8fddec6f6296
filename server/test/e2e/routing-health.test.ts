import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { loadMasterKey } from '../../src/config/master-key.ts';
import { findRoute } from '../../src/db/routes.ts';
import { createSecretBox } from '../../src/lib/secret-box.ts';
import { callApi } from '../support/account-api-client.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';
import { fetchMetrics } from '../support/start-test-gateway.ts';

const ask = (content: string) => [{ role: 'user' as const, content }];
const coolDownMs = 400;

describe('route health: circuit breaker, Retry-After, affinity, operator view', () => {
  let fixture: RoutingFixture;

  before(async () => {
    fixture = await startRoutingFixture({
      ROUTE_BREAKER_FAILURES: '2',
      ROUTE_BREAKER_COOLDOWN_MS: String(coolDownMs),
    });
  });
  after(() => fixture.close());

  const stateOf = async (routeId: string) =>
    (await fixture.listRoutes()).find((route) => route.id === routeId)?.health.state;

  test('repeated failures open the breaker, which stops traffic; after the cool-down a probe closes it', async () => {
    const flaky = await fixture.addRoute({ model: 'gpt-4o', priority: 1, base_url: fixture.openAiBase('status=500') });
    const steady = await fixture.addRoute({ model: 'gpt-4o', priority: 2, base_url: fixture.openAiBase() });
    for (let index = 0; index < 2; index += 1) {
      const completion = await fixture.client.chat.completions.create({ model: 'gpt-4o', messages: ask('Hi') });
      assert.equal(await fixture.routeOf(completion.id), steady.id);
    }
    assert.equal(await stateOf(flaky.id), 'open');
    const upstreamBefore = await fixture.upstreamRequests();
    const whileOpen = await fixture.client.chat.completions.create({ model: 'gpt-4o', messages: ask('Hi') });
    assert.equal(await fixture.routeOf(whileOpen.id), steady.id);
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 1, 'the open route gets no traffic');

    const repaired = await callApi(fixture.gateway.url, `/api/operator/routes/${flaky.id}`, {
      method: 'PATCH',
      body: { base_url: fixture.openAiBase() },
      session: fixture.operator,
    });
    assert.equal(repaired.status, 200, repaired.text);
    assert.equal((repaired.json as { health: { state: string } }).health.state, 'open', 'health survives a change');
    await sleep(coolDownMs + 100);
    const probe = await fixture.client.chat.completions.create({ model: 'gpt-4o', messages: ask('Hi') });
    assert.equal(await fixture.routeOf(probe.id), flaky.id, 'the probe goes to the recovered route');
    assert.equal(await stateOf(flaky.id), 'healthy');
  });

  test('a 429 with Retry-After cools the route for that long; traffic goes elsewhere meanwhile', async () => {
    const limited = await fixture.addRoute({
      model: 'gpt-4o-mini',
      priority: 1,
      base_url: fixture.openAiBase('status=429 retry-after=30'),
    });
    const spare = await fixture.addRoute({ model: 'gpt-4o-mini', priority: 2, base_url: fixture.openAiBase() });
    const first = await fixture.client.chat.completions.create({ model: 'gpt-4o-mini', messages: ask('Hi') });
    assert.equal(await fixture.routeOf(first.id), spare.id);
    const view = (await fixture.listRoutes()).find((route) => route.id === limited.id);
    assert.equal(view?.health.state, 'cooling');
    const coolingUntil = Date.parse(view.health.cooling_until ?? '');
    assert.ok(coolingUntil > Date.now() + 20_000, 'cooling for about the 30 s asked');
    const upstreamBefore = await fixture.upstreamRequests();
    const second = await fixture.client.chat.completions.create({ model: 'gpt-4o-mini', messages: ask('Hi') });
    assert.equal(await fixture.routeOf(second.id), spare.id);
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 1, 'the cooling route is skipped');
  });

  test('when every route is resting the request fails fast with Retry-After, without calling upstream', async () => {
    await fixture.addRoute({ model: 'gpt-4.1', base_url: fixture.openAiBase('status=503 retry-after=30') });
    const failed = await fixture.client.chat.completions
      .create({ model: 'gpt-4.1', messages: ask('Hi') })
      .catch((e: unknown) => e);
    assert.ok(failed instanceof OpenAI.APIError && failed.status === 502, String(failed));
    const upstreamBefore = await fixture.upstreamRequests();
    const fast = await fixture.client.chat.completions
      .create({ model: 'gpt-4.1', messages: ask('Hi') })
      .catch((e: unknown) => e);
    assert.ok(fast instanceof OpenAI.APIError && fast.status === 502, String(fast));
    assert.equal((fast.error as { code?: string }).code, 'no_route_available');
    assert.ok(Number(fast.headers?.get('retry-after')) >= 20);
    assert.equal(await fixture.upstreamRequests(), upstreamBefore);
  });

  test('the same conversation keeps its route among equals; different conversations spread', async () => {
    const model = 'gpt-4.1-mini';
    const routes = [
      await fixture.addRoute({ model, base_url: fixture.openAiBase() }),
      await fixture.addRoute({ model, base_url: fixture.openAiBase() }),
    ];
    const opening = [
      { role: 'system' as const, content: 'You are a travel agent.' },
      { role: 'user' as const, content: 'Plan a week in Portugal.' },
    ];
    const used = new Set<string | null>();
    let messages: OpenAI.ChatCompletionMessageParam[] = opening;
    for (let turn = 0; turn < 4; turn += 1) {
      const completion = await fixture.client.chat.completions.create({ model, messages });
      used.add(await fixture.routeOf(completion.id));
      messages = [...messages, completion.choices[0]!.message, { role: 'user', content: `And day ${turn + 2}?` }];
    }
    assert.equal(used.size, 1, 'one route for the whole conversation');
    const spread = new Set<string | null>();
    for (let index = 0; index < 16; index += 1) {
      const completion = await fixture.client.chat.completions.create({
        model,
        messages: ask(`Topic number ${index}`),
      });
      spread.add(await fixture.routeOf(completion.id));
    }
    assert.deepEqual([...spread].sort(), routes.map((route) => route.id).sort(), 'both routes serve conversations');
  });

  test('the operator API shows every route with its health, and never a credential', async () => {
    const secret = 'sk-vendor-secret-never-shown-7f3a';
    const created = await callApi(fixture.gateway.url, '/api/operator/routes', {
      body: {
        model: 'o3',
        provider: 'azure',
        base_url: `${fixture.simulatorUrl}/azure`,
        api_key: secret,
        upstream_model: 'o3-deployment',
        options: { api_version: '2024-10-21' },
        max_concurrency: 4,
        input_cost_micros: 2_000_000,
        output_cost_micros: 8_000_000,
      },
      session: fixture.operator,
    });
    assert.equal(created.status, 201, created.text);
    const stream = await fixture.client.chat.completions.create({ model: 'o3', messages: ask('Hi'), stream: true });
    let completionId = '';
    for await (const chunk of stream) {
      assert.equal(chunk.model, 'o3');
      completionId = chunk.id;
    }
    const id = (created.json as { id: string }).id;
    assert.equal(await fixture.routeOf(completionId), id, 'served by the Azure route');
    const updated = await callApi(fixture.gateway.url, `/api/operator/routes/${id}`, {
      method: 'PATCH',
      body: { api_key: `${secret}-rotated`, weight: 3 },
      session: fixture.operator,
    });
    const listed = await callApi(fixture.gateway.url, '/api/operator/routes', { session: fixture.operator });
    const metrics = await fetchMetrics(fixture.gateway.url);
    for (const text of [created.text, updated.text, listed.text, metrics]) assert.ok(!text.includes(secret));
    const route = (
      listed.json as { data: { id: string; has_credential: boolean; health: { attempts: number } }[] }
    ).data.find((candidate) => candidate.id === id);
    assert.equal(route?.has_credential, true);
    assert.equal(route.health.attempts, 1);
    assert.match(
      metrics,
      new RegExp(`gateway_route_attempts_total\\{route="${id}",provider="azure",result="success"\\} 1`),
    );
    assert.match(metrics, new RegExp(`gateway_route_breaker_state\\{route="${id}"\\} 0`), 'a closed breaker');
  });

  test('the credential is sealed with the master key in the routes row, never stored in plain text', async () => {
    const secret = 'sk-sealed-vendor-secret-4b1e';
    const route = await fixture.addRoute({ model: 'gpt-5', base_url: fixture.openAiBase(), api_key: secret });
    const rotated = `${secret}-rotated`;
    const patched = await callApi(fixture.gateway.url, `/api/operator/routes/${route.id}`, {
      method: 'PATCH',
      body: { api_key: rotated },
      session: fixture.operator,
    });
    assert.equal(patched.status, 200, patched.text);
    const row = await findRoute(fixture.gateway.gateway.database.db, route.id);
    const sealed = row?.credential_ciphertext ?? '';
    assert.match(sealed, /^v1\./, 'the sealed form');
    for (const plain of [secret, rotated]) {
      for (const encoding of ['utf8', 'base64', 'hex', 'base64url'] as const) {
        assert.ok(!sealed.includes(Buffer.from(plain).toString(encoding)), `no ${encoding} copy of the credential`);
      }
    }
    const { config } = fixture.gateway;
    const box = createSecretBox(loadMasterKey({ masterKeyHex: config.masterKeyHex, dataDir: config.dataDir }).key);
    assert.equal(box.open(sealed), rotated, 'the master key opens it: it is the rotated credential, sealed');
  });

  test('/metrics has per-route histograms with counts, and the cooling gauge of a route resting after Retry-After', async () => {
    const model = 'gpt-5-nano';
    const resting = await fixture.addRoute({
      model,
      priority: 1,
      base_url: fixture.openAiBase('status=429 retry-after=60'),
    });
    const serving = await fixture.addRoute({ model, priority: 2, base_url: fixture.openAiBase() });
    const stream = await fixture.client.chat.completions.create({ model, messages: ask('Hi'), stream: true });
    let streamedId = '';
    for await (const chunk of stream) streamedId = chunk.id;
    const completion = await fixture.client.chat.completions.create({ model, messages: ask('Hello') });
    for (const id of [streamedId, completion.id]) assert.equal(await fixture.routeOf(id), serving.id);
    const metrics = await fetchMetrics(fixture.gateway.url);
    const sample = (name: string, labels: string) =>
      Number(new RegExp(`^${name}\\{${labels}\\} (\\S+)$`, 'm').exec(metrics)?.[1] ?? Number.NaN);
    const route = `route="${serving.id}"`;
    assert.equal(sample('gateway_route_latency_seconds_count', route), 2, 'two calls, one latency each');
    assert.ok(sample('gateway_route_latency_seconds_sum', route) > 0);
    assert.equal(sample('gateway_route_latency_seconds_bucket', `le="\\+Inf",${route}`), 2);
    assert.equal(sample('gateway_route_time_to_first_token_seconds_count', route), 1, 'the streamed call only');
    assert.equal(sample('gateway_route_attempts_total', `${route},provider="openai",result="success"`), 2);
    assert.equal(
      sample('gateway_route_attempts_total', `route="${resting.id}",provider="openai",result="retryable_error"`),
      1,
    );
    assert.equal(sample('gateway_route_cooling', `route="${resting.id}"`), 1, 'resting after its Retry-After');
    assert.equal(sample('gateway_route_cooling', route), 0);
  });

  test('route changes are checked: bad URL, unknown provider, missing credential, negative weight, private address', async () => {
    const post = (body: Record<string, unknown>) =>
      callApi(fixture.gateway.url, '/api/operator/routes', { body, session: fixture.operator });
    const base = { model: 'gpt-4o', provider: 'openai', base_url: 'https://api.example.com/v1', api_key: 'k' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, base_url: 'not a url' }, 'base_url'],
      [{ ...base, provider: 'acme' }, 'provider'],
      [{ ...base, api_key: undefined }, 'api_key'],
      [{ ...base, weight: -1 }, 'weight'],
      [{ ...base, provider: 'vertex' }, 'vertex_project'],
      [{ ...base, max_concurrency: 0 }, 'max_concurrency'],
    ];
    for (const [body, param] of cases) {
      const response = await post(body);
      assert.equal(response.status, 400, response.text);
      assert.equal((response.json as { error: { param: string } }).error.param, param);
    }
    const customer = await fixture.gateway.createUserWithKey();
    assert.equal((await callApi(fixture.gateway.url, '/api/operator/routes', {})).status, 401);
    assert.ok(customer.key.startsWith('sk-'));
  });
});

describe('private upstreams are refused unless allowed', () => {
  test('a loopback base URL is a 400 naming the guard', async () => {
    const fixture = await startRoutingFixture({ ALLOW_PRIVATE_UPSTREAMS: 'false' });
    try {
      const response = await callApi(fixture.gateway.url, '/api/operator/routes', {
        body: { model: 'gpt-4o', provider: 'openai', base_url: fixture.openAiBase(), api_key: 'k' },
        session: fixture.operator,
      });
      assert.equal(response.status, 400);
      assert.equal((response.json as { error: { code: string } }).error.code, 'private_upstream_refused');
    } finally {
      await fixture.close();
    }
  });
});

describe('retry budget', () => {
  test('when every route fails, retries stop at the budget instead of multiplying upstream calls', async () => {
    const fixture = await startRoutingFixture({
      ROUTE_RETRY_BUDGET_FLOOR: '2',
      ROUTE_RETRY_BUDGET_PERCENT: '0',
      ROUTE_BREAKER_FAILURES: '1000',
    });
    try {
      for (let index = 0; index < 3; index += 1) {
        await fixture.addRoute({ model: 'gpt-4o', base_url: fixture.openAiBase('status=503') });
      }
      const upstreamBefore = await fixture.upstreamRequests();
      const requests = 6;
      for (let index = 0; index < requests; index += 1) {
        const failure = await fixture.client.chat.completions
          .create({ model: 'gpt-4o', messages: ask(`Hi ${index}`) })
          .catch((error: unknown) => error);
        assert.ok(failure instanceof OpenAI.APIError && failure.status === 502, String(failure));
      }
      const calls = (await fixture.upstreamRequests()) - upstreamBefore;
      assert.equal(calls, requests + 2, 'one call per request plus the two retries of the floor');
    } finally {
      await fixture.close();
    }
  });
});

describe('request deadline', () => {
  test('no attempt outlives the deadline, and none starts after it', async () => {
    const fixture = await startRoutingFixture({ ROUTE_DEADLINE_MS: '300' });
    try {
      await fixture.addRoute({ model: 'gpt-4o', priority: 1, base_url: fixture.openAiBase('delay-first-byte=3000') });
      await fixture.addRoute({ model: 'gpt-4o', priority: 2, base_url: fixture.openAiBase() });
      const upstreamBefore = await fixture.upstreamRequests();
      const failure = await fixture.client.chat.completions
        .create({ model: 'gpt-4o', messages: ask('Hi') })
        .catch((error: unknown) => error);
      assert.ok(failure instanceof OpenAI.APIError && failure.status === 504, String(failure));
      assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 1, 'the second route was not tried');
    } finally {
      await fixture.close();
    }
  });
});
