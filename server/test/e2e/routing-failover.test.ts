import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { OperatorUsagePage } from '../../../contract/operator.ts';
import { listLedgerEntries, sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { callApi } from '../support/account-api-client.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

const ask = (content = 'Name three rivers.') => [{ role: 'user' as const, content }];

describe('failover between upstream routes, before the first byte only', () => {
  let fixture: RoutingFixture;
  const balance = () => sumLedgerAccount(fixture.gateway.gateway.database.db, userLedgerAccount(fixture.userId));

  before(async () => {
    fixture = await startRoutingFixture();
  });
  after(() => fixture.close());

  /** A failing route at priority 1 and a healthy one at priority 2 for `model`. */
  const failingThenHealthy = async (
    model: string,
    failing: { base_url: string; api_key?: string; first_byte_timeout_ms?: number },
  ) => {
    const sick = await fixture.addRoute({ model, priority: 1, ...failing });
    const healthy = await fixture.addRoute({ model, priority: 2, base_url: fixture.openAiBase() });
    return { sick, healthy };
  };

  /** Asserts the completion looks exactly like a direct answer for `model`, and that it was charged once. */
  const assertServedOnce = async (completion: OpenAI.ChatCompletion, model: string, balanceBefore: number) => {
    assert.equal(completion.model, model);
    assert.equal(completion.object, 'chat.completion');
    assert.equal(completion.choices[0]?.message.role, 'assistant');
    assert.ok(completion.choices[0]?.message.content);
    assert.equal(completion.choices[0]?.finish_reason, 'stop');
    const record = await findUsageRecord(fixture.gateway.gateway.database.db, completion.id.replace(/^chatcmpl-/, ''));
    assert.ok(record && record.cost_micros > 0);
    assert.equal(balanceBefore - (await balance()), record.cost_micros, 'charged once, whatever the attempts');
  };

  test('a 503 from the first route fails over to the next, which serves the same model and shape', async () => {
    const { healthy } = await failingThenHealthy('gpt-4o', { base_url: fixture.openAiBase('status=503') });
    const [balanceBefore, upstreamBefore] = [await balance(), await fixture.upstreamRequests()];
    const completion = await fixture.client.chat.completions.create({ model: 'gpt-4o', messages: ask() });
    await assertServedOnce(completion, 'gpt-4o', balanceBefore);
    assert.equal(await fixture.routeOf(completion.id), healthy.id);
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 2);
    const usage = await callApi(fixture.gateway.url, `/api/operator/usage?user_id=${fixture.userId}&limit=1`, {
      session: fixture.operator,
    });
    const [row] = (usage.json as OperatorUsagePage).data;
    assert.equal(row?.request_id, completion.id.replace(/^chatcmpl-/, ''));
    assert.equal(row.route_id, healthy.id, 'operators see the route that answered');
    assert.ok(!completion.model.includes(healthy.id) && !JSON.stringify(completion).includes(healthy.id));
  });

  test('a streamed request that fails over is charged exactly once, for the answer it got', async () => {
    const model = 'o3';
    const { healthy } = await failingThenHealthy(model, { base_url: fixture.openAiBase('status=503') });
    const startedAt = Date.now();
    const [balanceBefore, upstreamBefore] = [await balance(), await fixture.upstreamRequests()];
    const stream = await fixture.client.chat.completions.create({
      model,
      messages: ask(),
      stream: true,
      stream_options: { include_usage: true },
    });
    let id = '';
    let completionTokens = 0;
    for await (const chunk of stream) {
      id = chunk.id;
      completionTokens = chunk.usage?.completion_tokens ?? completionTokens;
    }
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 2, 'the failed attempt and the answer');
    const record = await findUsageRecord(fixture.gateway.gateway.database.db, id.replace(/^chatcmpl-/, ''));
    assert.equal(record?.route_id, healthy.id);
    assert.equal(record.status, 'completed');
    assert.equal(record.output_tokens, completionTokens, 'billed for the answer streamed, as its usage says');
    assert.ok(record.cost_micros > 0);
    assert.equal(balanceBefore - (await balance()), record.cost_micros);
    const charges = (
      await listLedgerEntries(fixture.gateway.gateway.database.db, {
        account: userLedgerAccount(fixture.userId),
        limit: 20,
      })
    ).filter((entry) => entry.kind === 'usage' && entry.created_at >= startedAt);
    assert.equal(charges.length, 1, 'one usage charge, not one per attempt');
    assert.equal(charges[0]?.amount_micros, -record.cost_micros);
  });

  test('a connection reset fails over, streamed', async () => {
    const { healthy } = await failingThenHealthy('gpt-4o-mini', { base_url: fixture.openAiBase('reset') });
    const stream = await fixture.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: ask(),
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let id = '';
    for await (const chunk of stream) {
      assert.equal(chunk.model, 'gpt-4o-mini');
      id = chunk.id;
      text += chunk.choices[0]?.delta.content ?? '';
    }
    assert.ok(text.length > 0);
    assert.equal(await fixture.routeOf(id), healthy.id);
  });

  test('a route slower than its first-byte timeout fails over', async () => {
    const { sick, healthy } = await failingThenHealthy('gpt-4.1', {
      base_url: fixture.openAiBase('delay-first-byte=5000'),
      first_byte_timeout_ms: 200,
    });
    const balanceBefore = await balance();
    const completion = await fixture.client.chat.completions.create({ model: 'gpt-4.1', messages: ask() });
    await assertServedOnce(completion, 'gpt-4.1', balanceBefore);
    assert.equal(await fixture.routeOf(completion.id), healthy.id);
    const listed = (await fixture.listRoutes()).find((route) => route.id === sick.id);
    assert.equal(listed?.health.failures, 1);
  });

  test('a credential the vendor rejects fails over, and the client never learns of it', async () => {
    const { healthy } = await failingThenHealthy('gpt-4.1-mini', {
      base_url: fixture.openAiBase(),
      api_key: 'invalid-vendor-key-0001',
    });
    const balanceBefore = await balance();
    const completion = await fixture.client.chat.completions.create({ model: 'gpt-4.1-mini', messages: ask() });
    await assertServedOnce(completion, 'gpt-4.1-mini', balanceBefore);
    assert.equal(await fixture.routeOf(completion.id), healthy.id);
    assert.ok(!JSON.stringify(completion).includes('invalid-vendor-key'));
  });

  test('a malformed answer (truncated JSON) fails over', async () => {
    const { healthy } = await failingThenHealthy('gpt-5-nano', { base_url: fixture.openAiBase('invalid-json') });
    const completion = await fixture.client.chat.completions.create({ model: 'gpt-5-nano', messages: ask() });
    assert.equal(completion.model, 'gpt-5-nano');
    assert.equal(await fixture.routeOf(completion.id), healthy.id);
  });

  test('a 400 caused by the request is returned as is, without trying another route', async () => {
    await fixture.addRoute({ model: 'gpt-5-mini', priority: 1, base_url: fixture.openAiBase() });
    await fixture.addRoute({ model: 'gpt-5-mini', priority: 2, base_url: fixture.openAiBase() });
    const upstreamBefore = await fixture.upstreamRequests();
    const error = await fixture.client.chat.completions
      .create({ model: 'gpt-5-mini', messages: ask('Hello [sim:status=400]') })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.type, 'invalid_request_error');
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 1, 'one upstream call, no failover');
  });

  test('an error after the first byte ends the stream in-stream, is never retried, and bills what was delivered', async () => {
    await fixture.addRoute({ model: 'gpt-5', priority: 1, base_url: fixture.openAiBase() });
    await fixture.addRoute({ model: 'gpt-5', priority: 2, base_url: fixture.openAiBase() });
    const [balanceBefore, upstreamBefore] = [await balance(), await fixture.upstreamRequests()];
    const stream = await fixture.client.chat.completions.create({
      model: 'gpt-5',
      messages: ask('Tell me a story [sim:words=40 mid-stream-error]'),
      stream: true,
    });
    let id = '';
    let received = 0;
    const failure = await (async () => {
      try {
        for await (const chunk of stream) {
          id = chunk.id;
          received += 1;
        }
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    assert.ok(failure instanceof OpenAI.APIError, `an in-stream error, got ${String(failure)}`);
    assert.ok(received > 1, 'chunks arrived before the error');
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 1, 'no failover after the first byte');
    const record = await findUsageRecord(fixture.gateway.gateway.database.db, id.replace(/^chatcmpl-/, ''));
    assert.equal(record?.status, 'interrupted');
    assert.ok(record.output_tokens > 0 && record.output_tokens < 40, 'billed for the delivered part only');
    assert.equal(balanceBefore - (await balance()), record.cost_micros);
  });

  test('a stream that stalls past its idle timeout ends with an in-stream error, billed for what was delivered', async () => {
    const stalling = await fixture.addRoute({
      model: 'o4-mini',
      priority: 1,
      base_url: fixture.openAiBase('stall-after=3'),
      idle_timeout_ms: 300,
    });
    await fixture.addRoute({ model: 'o4-mini', priority: 2, base_url: fixture.openAiBase() });
    const [balanceBefore, upstreamBefore] = [await balance(), await fixture.upstreamRequests()];
    const stream = await fixture.client.chat.completions.create({ model: 'o4-mini', messages: ask(), stream: true });
    let id = '';
    const failure = await (async () => {
      try {
        for await (const chunk of stream) id = chunk.id;
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    assert.ok(failure instanceof OpenAI.APIError, `an in-stream error, got ${String(failure)}`);
    assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 1);
    const record = await findUsageRecord(fixture.gateway.gateway.database.db, id.replace(/^chatcmpl-/, ''));
    assert.equal(record?.status, 'interrupted');
    assert.equal(record.route_id, stalling.id);
    assert.equal(balanceBefore - (await balance()), record.cost_micros);
    // The three events before the stall are the role chunk and two one-token deltas.
    assert.ok(record.output_tokens > 0 && record.output_tokens <= 2, `delivered tokens, got ${record.output_tokens}`);
    assert.ok(record.cost_micros > 0, 'what was delivered is paid for');

    // The same question answered in full (the stalling route switched off) costs more: only the part was billed.
    const disabled = await callApi(fixture.gateway.url, `/api/operator/routes/${stalling.id}`, {
      method: 'PATCH',
      body: { enabled: false },
      session: fixture.operator,
    });
    assert.equal(disabled.status, 200, disabled.text);
    const full = await fixture.client.chat.completions.create({ model: 'o4-mini', messages: ask(), stream: true });
    let fullId = '';
    for await (const chunk of full) fullId = chunk.id;
    const whole = await findUsageRecord(fixture.gateway.gateway.database.db, fullId.replace(/^chatcmpl-/, ''));
    assert.equal(whole?.status, 'completed');
    assert.equal(whole.input_tokens, record.input_tokens, 'the same question');
    assert.ok(whole.output_tokens > record.output_tokens);
    assert.ok(record.cost_micros < whole.cost_micros, 'the stalled answer cost less than the whole one');
  });
});
