import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { OperatorUsagePage } from '../../../contract/operator.ts';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { callApi } from '../support/account-api-client.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

/** Image calls go through the same routing policy as chat: reserved routes, health, failover, budget, deadline. */
describe('image generation over upstream routes', () => {
  let fixture: RoutingFixture;
  let owner: { userId: string; client: OpenAI };

  before(async () => {
    fixture = await startRoutingFixture();
    const account = await fixture.gateway.createUserWithKey({ balanceMicros: 50_000_000 });
    owner = {
      userId: account.userId,
      client: new OpenAI({ apiKey: account.key, baseURL: `${fixture.gateway.url}/v1`, maxRetries: 0 }),
    };
  });
  after(() => fixture.close());

  /** Draws one image and returns the usage record of the call (found by the request id the gateway answered with). */
  const draw = async (client: OpenAI, model: string) => {
    const { data, response } = await client.images
      .generate({ model, prompt: 'a lighthouse at dusk', size: '1024x1024' })
      .withResponse();
    assert.equal(data.data?.length, 1);
    const record = await findUsageRecord(
      fixture.gateway.gateway.database.db,
      response.headers.get('x-request-id') ?? '',
    );
    assert.ok(record, 'a usage record for the call');
    return { record, headers: response.headers };
  };

  test("a route reserved for an account draws only that account's images, even at the best priority", async () => {
    const model = 'gpt-image-1';
    const shared = await fixture.addRoute({ model, priority: 10, base_url: fixture.openAiBase() });
    const dedicated = await fixture.addRoute({
      model,
      priority: 1,
      base_url: fixture.openAiBase(),
      reserved_for: [owner.userId],
    });
    for (let index = 0; index < 3; index += 1) {
      const { record } = await draw(fixture.client, model);
      assert.equal(record.route_id, shared.id, "another account's images never use the reserved route");
    }
    const { record } = await draw(owner.client, model);
    assert.equal(record.route_id, dedicated.id, 'the owner is served by its dedicated route');
    const listed = (await fixture.listRoutes()).find((route) => route.id === dedicated.id);
    assert.equal(listed?.health.attempts, 1, 'one attempt on the reserved route: the one of its owner');
  });

  test('a 5xx from the first route fails over to the next; the image is charged once', async () => {
    const model = 'dall-e-3';
    const sick = await fixture.addRoute({ model, priority: 1, base_url: fixture.openAiBase('status=503') });
    const healthy = await fixture.addRoute({ model, priority: 2, base_url: fixture.openAiBase() });
    const balance = () => sumLedgerAccount(fixture.gateway.gateway.database.db, userLedgerAccount(fixture.userId));
    const [balanceBefore, upstreamBefore] = [await balance(), await fixture.upstreamRequests()];
    const { record } = await draw(fixture.client, model);
    assert.equal(record.route_id, healthy.id);
    assert.equal(record.status, 'completed');
    assert.ok(record.cost_micros > 0);
    assert.equal(balanceBefore - (await balance()), record.cost_micros, 'charged once, whatever the attempts');
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 2, 'the failed attempt and the one that drew');
    const listed = (await fixture.listRoutes()).find((route) => route.id === sick.id);
    assert.equal(listed?.health.failures, 1, "the failure counts in the sick route's health");
  });

  test('an image model whose only route is reserved for another account does not exist for it: 404 model_not_found', async () => {
    const model = 'flux-dev';
    await fixture.addRoute({
      model,
      provider: 'bfl',
      base_url: `${fixture.simulatorUrl}/bfl`,
      upstream_model: model,
      reserved_for: [owner.userId],
    });
    const { record } = await draw(owner.client, model);
    assert.equal(record.status, 'completed', 'the owner draws on its reserved route');
    const upstreamBefore = await fixture.upstreamRequests();
    const refusal = await fixture.client.images.generate({ model, prompt: 'a lighthouse at dusk' }).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof OpenAI.APIError, String(refusal));
    assert.equal(refusal.status, 404);
    assert.equal(refusal.code, 'model_not_found');
    assert.doesNotMatch(refusal.message, /retry in/i, 'no promise of a retry: the route is not theirs');
    assert.equal(refusal.headers?.get('retry-after') ?? null, null, 'no Retry-After, as for chat');
    assert.equal(await fixture.upstreamRequests(), upstreamBefore, 'no upstream call');
  });

  test('operators see the route that drew an image in their usage view; only operator keys get x-gateway-route', async () => {
    const model = 'gpt-image-1';
    const customer = await draw(fixture.client, model);
    assert.equal(customer.headers.get('x-gateway-route'), null, 'a customer never learns the route');
    const admin = await fixture.gateway.createUserWithKey({ role: 'admin', balanceMicros: 50_000_000 });
    const adminClient = new OpenAI({ apiKey: admin.key, baseURL: `${fixture.gateway.url}/v1`, maxRetries: 0 });
    const operatorCall = await draw(adminClient, model);
    assert.equal(operatorCall.headers.get('x-gateway-route'), operatorCall.record.route_id);
    const usage = await callApi(fixture.gateway.url, `/api/operator/usage?user_id=${fixture.userId}&limit=1`, {
      session: fixture.operator,
    });
    assert.equal(usage.status, 200, usage.text);
    const [row] = (usage.json as OperatorUsagePage).data;
    assert.equal(row?.request_id, customer.record.request_id);
    assert.equal(row.route_id, customer.record.route_id);
    assert.equal(row.provider, 'openai');
  });
});
