import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { ExchangeReport } from '../support/conformance/check-exchanges.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/**
 * Every test gateway stands behind a recording proxy, so every `/v1` answer any test receives is checked against the
 * OpenAI spec (Anthropic's envelope for `/v1/messages`), streams and errors included (issue 2).
 */
describe('the answers of the shared test gateway are checked against the spec', () => {
  let gateway: TestGateway;
  let client: OpenAI;
  let key: string;

  before(async () => {
    gateway = await startTestGateway();
    key = (await gateway.createUserWithKey({ balanceMicros: 50_000_000 })).key;
    client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  after(() => gateway.close());

  test('chat, streams, a stream the client left, errors, models, images and messages all pass the checks', async () => {
    assert.notEqual(gateway.url, gateway.gateway.url, 'tests reach the gateway through the proxy');
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello [sim:words=8]' }];
    await client.chat.completions.create({ model: 'gpt-4o', messages });
    const stream = await client.chat.completions.create({ model: 'gpt-4o', messages, stream: true });
    for await (const _chunk of stream) {
      // drained
    }
    const left = await client.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'A long one [sim:words=400]' }],
    });
    for await (const _chunk of left) break;
    await assert.rejects(client.chat.completions.create({ model: 'gpt-4o', messages: [] }));
    await client.models.list();
    await client.images.generate({ model: 'gpt-image-1', prompt: 'a fox', size: '1024x1024' });
    const anthropic = await fetch(`${gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    assert.equal(anthropic.status, 200, await anthropic.text());

    const reports: ExchangeReport[] = [];
    const count = () => reports.reduce((sum, report) => sum + report.statuses.length, 0);
    // The stream the client left is recorded once the proxy sees its connection close.
    for (const startedAtMs = Date.now(); count() < 7 && Date.now() - startedAtMs < 10_000; await sleep(50)) {
      reports.push(gateway.checkAnswers());
    }
    assert.equal(count(), 7, 'every /v1 exchange was recorded');
    const checked = (name: keyof ExchangeReport['checked']) =>
      reports.reduce((sum, report) => sum + (report.checked[name] ?? 0), 0);
    assert.deepEqual(
      reports.flatMap((report) => report.problems),
      [],
    );
    assert.equal(checked('CreateChatCompletionResponse'), 1);
    assert.ok(checked('CreateChatCompletionStreamResponse') > 2, 'the chunks of both streams');
    assert.equal(checked('ErrorResponse'), 1);
    assert.equal(checked('ListModelsResponse'), 1);
    assert.equal(checked('ImagesResponse'), 1);
    assert.equal(
      reports.reduce((sum, report) => sum + report.anthropicMessages, 0),
      1,
    );
  });
});
