import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { WebSearchHealthView } from '../../../contract/web-search-health.ts';
import { failuresBeforeDegraded } from '../../src/search/watch-search-engine.ts';
import { callApi, signIn, signUp, type BrowserSession } from '../support/account-api-client.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { startSwitchableSearchEngine, type SwitchableSearchEngine } from '../support/switchable-search-engine.ts';

const marker = 'moon-query-marker-8d41';

async function readWebSearch(gateway: TestGateway, session: BrowserSession): Promise<WebSearchHealthView> {
  const answer = await callApi(gateway.url, '/api/operator/web-search', { session });
  assert.equal(answer.status, 200, answer.text);
  assert.ok(!answer.text.includes(marker), 'the report never carries a query');
  return answer.json as WebSearchHealthView;
}

describe('issue 19: the operator sees the search engine, its state and its failures (GET /api/operator/web-search)', () => {
  let engine: SwitchableSearchEngine;
  let gateway: TestGateway;
  let operator: BrowserSession;
  let client: OpenAI;

  before(async () => {
    engine = await startSwitchableSearchEngine();
    gateway = await startTestGateway({ environment: { SEARCH_ENGINE: 'searxng', SEARCH_BASE_URL: engine.url } });
    const email = 'search-operator@example.com';
    await gateway.createUserWithKey({ role: 'admin', email });
    operator = await signIn(gateway.url, { email });
    const { key } = await gateway.createUserWithKey();
    client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gateway?.close();
    await engine?.close();
  });

  const search = async () => {
    const response = await client.responses.create({
      model: 'gpt-4o-mini',
      input: `How far is the moon? ${marker}`,
      tools: [{ type: 'web_search' }],
      tool_choice: 'required',
    });
    return response.output.find((item) => item.type === 'web_search_call')?.status;
  };

  test('only operators may read it', async () => {
    const customer = await signUp(gateway.url, { email: 'search-customer@example.com' });
    const answer = await callApi(gateway.url, '/api/operator/web-search', { session: customer });
    assert.equal(answer.status, 403, answer.text);
  });

  test('ok before any search; failing since the search that crossed the line; ok again after one success', async () => {
    const fresh = await readWebSearch(gateway, operator);
    assert.deepEqual(fresh, {
      engine: 'searxng',
      engine_name: 'SearXNG',
      address: engine.url,
      is_simulator: false,
      status: 'ok',
      failing_since: null,
      failures_in_a_row: 0,
      failures_before_failing: failuresBeforeDegraded,
      failure_count: 0,
      last_failure: null,
      last_success_at: null,
      setup_doc: 'docs/web-search-engines.md#running-searxng-for-production',
    });
    const startedMs = Date.now();
    for (let index = 0; index < failuresBeforeDegraded; index += 1) assert.equal(await search(), 'failed');
    const failing = await readWebSearch(gateway, operator);
    assert.equal(failing.status, 'failing');
    assert.equal(failing.failures_in_a_row, failuresBeforeDegraded);
    assert.equal(failing.failure_count, failuresBeforeDegraded);
    assert.ok(failing.failing_since !== null && Date.parse(failing.failing_since) >= startedMs - 1_000);
    assert.equal(failing.last_failure?.kind, 'unavailable');
    assert.equal(failing.last_failure?.http_status, 500);
    assert.equal(failing.last_success_at, null);

    engine.setFailing(false);
    assert.equal(await search(), 'completed');
    const recovered = await readWebSearch(gateway, operator);
    assert.equal(recovered.status, 'ok');
    assert.equal(recovered.failing_since, null);
    assert.equal(recovered.failures_in_a_row, 0);
    assert.equal(recovered.failure_count, failuresBeforeDegraded, 'past failures stay counted');
    assert.deepEqual(recovered.last_failure, failing.last_failure);
    assert.ok(recovered.last_success_at !== null);
  });
});

describe('the sandbox gateway reports its search simulator', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway();
  });
  after(() => gateway.close());

  test('is_simulator, no address, ok', async () => {
    const email = 'sandbox-search-operator@example.com';
    await gateway.createUserWithKey({ role: 'admin', email });
    const report = await readWebSearch(gateway, await signIn(gateway.url, { email }));
    assert.equal(report.is_simulator, true);
    assert.equal(report.address, null);
    assert.equal(report.engine, 'searxng');
    assert.equal(report.status, 'ok');
  });
});
