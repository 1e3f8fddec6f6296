import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { databaseKinds } from '../support/test-databases.ts';
import { fetchMetrics, startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

for (const databaseKind of databaseKinds) {
  describe(`foundation on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let key: string;

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      ({ key } = await gateway.createUserWithKey());
    });
    after(() => gateway.close());

    test('the official OpenAI SDK lists at least 32 models, each marked as simulated in sandbox mode', async () => {
      const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1` });
      const models = [];
      for await (const model of client.models.list()) models.push(model);
      assert.ok(models.length >= 32, `only ${models.length} models`);
      for (const model of models) {
        assert.equal(model.object, 'model');
        assert.equal(model.owned_by, 'sandbox');
        assert.equal(typeof model.created, 'number');
        const extended = model as unknown as { is_simulated: boolean; pricing: { input_usd_per_million: number } };
        assert.equal(extended.is_simulated, true);
        assert.equal(typeof extended.pricing.input_usd_per_million, 'number');
      }
      const families = new Set(models.map((model) => (model as unknown as { vendor_family: string }).vendor_family));
      for (const family of ['OpenAI', 'Anthropic', 'Google', 'DeepSeek', 'xAI', 'Mistral', 'Meta', 'Qwen']) {
        assert.ok(families.has(family), `family ${family} present`);
      }
      const imageModels = models.filter((model) => (model as unknown as { kind: string }).kind === 'image');
      assert.ok(imageModels.length >= 2);
    });

    test('retrieves one model and answers an unknown one with an OpenAI 404', async () => {
      const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const model = await client.models.retrieve('claude-sonnet-4-5');
      assert.equal(model.id, 'claude-sonnet-4-5');
      await assert.rejects(client.models.retrieve('no-such-model'), (error: unknown) => {
        assert.ok(error instanceof OpenAI.NotFoundError);
        assert.equal(error.code, 'model_not_found');
        assert.equal(error.param, 'model');
        return true;
      });
    });

    test('a missing, malformed or unknown key is a 401 in the OpenAI error shape', async () => {
      for (const authorization of [undefined, 'Bearer nonsense', `Bearer sk-${'A'.repeat(43)}`]) {
        const response = await fetch(`${gateway.url}/v1/models`, {
          headers: authorization ? { authorization } : {},
        });
        assert.equal(response.status, 401);
        assert.ok(response.headers.get('x-request-id')?.startsWith('req_'));
        const body = (await response.json()) as { error: Record<string, unknown> };
        assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
        assert.equal(body.error.type, 'invalid_request_error');
      }
    });

    test('health, readiness, metrics and the OpenAPI document answer', async () => {
      assert.deepEqual(await (await fetch(`${gateway.url}/healthz`)).json(), { status: 'ok' });
      assert.deepEqual(await (await fetch(`${gateway.url}/readyz`)).json(), { status: 'ready' });
      const metrics = await fetchMetrics(gateway.url);
      assert.match(metrics, /gateway_http_requests_total\{route="\/healthz",method="GET",status="200"\} \d+/);
      const openApi = (await (await fetch(`${gateway.url}/api/openapi.json`)).json()) as Record<string, unknown>;
      assert.equal(openApi.openapi, '3.1.0');
      assert.ok((openApi.paths as Record<string, unknown>)['/api/models']);
    });

    test('the public price list carries list prices, discounts and savings', async () => {
      const list = (await (await fetch(`${gateway.url}/api/models`)).json()) as {
        data: Array<Record<string, number | string | null | boolean>>;
        sandbox: boolean;
      };
      assert.equal(list.sandbox, true);
      const gpt4o = list.data.find((model) => model.id === 'gpt-4o');
      assert.ok(gpt4o);
      assert.equal(gpt4o.list_input_usd_per_million, 2.5);
      assert.equal(gpt4o.list_output_usd_per_million, 10);
      assert.equal(gpt4o.input_usd_per_million, 2);
      assert.equal(gpt4o.output_usd_per_million, 8);
      assert.equal(gpt4o.discount_percent, 20);
      assert.equal(gpt4o.savings_usd_at_10_to_1, 7);
      const image = list.data.find((model) => model.id === 'dall-e-3');
      assert.equal(image?.list_usd_per_request, 0.04);
      assert.equal(image?.usd_per_request, 0.032);
    });

    test('unknown API paths get an OpenAI-shaped 404 and pages get the web app', async () => {
      const response = await fetch(`${gateway.url}/v1/nothing-here`);
      assert.equal(response.status, 404);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'not_found');
      const page = await fetch(`${gateway.url}/models`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    });
  });
}
