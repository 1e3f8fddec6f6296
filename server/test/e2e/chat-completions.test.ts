import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { checkExchanges } from '../support/conformance/check-exchanges.ts';
import { startRecordingProxy, type RecordingProxy } from '../support/conformance/recording-proxy.ts';
import { loadOpenApiSchemaValidator } from '../support/openapi-schema-validator.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** A 1×1 PNG, as a data URL, for vision requests. */
const pixelPng =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('chat completions through the official OpenAI SDK, every text model', () => {
  let gateway: TestGateway;
  /** Every exchange goes through it, so that the last test can check each body and chunk against the schemas. */
  let proxy: RecordingProxy;
  let client: OpenAI;
  let userId: string;
  let textModels: string[];

  before(async () => {
    gateway = await startTestGateway();
    proxy = await startRecordingProxy(gateway.url);
    const user = await gateway.createUserWithKey({ balanceMicros: 100_000_000 });
    userId = user.userId;
    client = new OpenAI({ apiKey: user.key, baseURL: `${proxy.url}/v1`, maxRetries: 0 });
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    textModels = models.filter((model) => (model as unknown as { kind: string }).kind === 'text').map((m) => m.id);
  });
  after(async () => {
    await proxy.close();
    await gateway.close();
  });

  test('each model answers non-streamed with its own id, usage details and a cost equal to the ledger debit', async () => {
    assert.ok(textModels.length >= 30, `only ${textModels.length} text models`);
    for (const model of textModels) {
      const balanceBefore = await sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));
      const response = await client.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Name three rivers.' },
        ],
      });
      const requestId = response.id.replace(/^chatcmpl-/, '');
      assert.equal(response.model, model, 'model echoes the requested id');
      assert.equal(response.object, 'chat.completion');
      assert.ok(response.choices[0]?.message.content, `${model} returned text`);
      assert.equal(response.choices[0]?.finish_reason, 'stop');
      const usage = response.usage as OpenAI.CompletionUsage & { cost: number };
      assert.ok(usage.prompt_tokens > 0 && usage.completion_tokens > 0, `${model} usage`);
      assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
      assert.equal(typeof usage.prompt_tokens_details?.cached_tokens, 'number');
      assert.equal(typeof usage.completion_tokens_details?.reasoning_tokens, 'number');
      const record = await findUsageRecord(gateway.gateway.database.db, requestId);
      assert.ok(record, `${model} usage record`);
      assert.equal(record.status, 'completed');
      assert.equal(record.input_tokens, usage.prompt_tokens);
      assert.equal(record.output_tokens, usage.completion_tokens);
      assert.ok(record.cost_micros > 0, `${model} costs something`);
      assert.equal(usage.cost, microsToUsd(record.cost_micros));
      const balanceAfter = await sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));
      assert.equal(balanceBefore - balanceAfter, record.cost_micros, `${model} ledger debit equals usage.cost`);
    }
  });

  test('each model streams: role first, the requested model on every chunk, a final usage chunk with empty choices and the cost', async () => {
    for (const model of textModels) {
      const stream = await client.chat.completions.create({
        model,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Tell me about the sea. [sim:words=6]' }],
      });
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      assert.ok(chunks.length >= 3, `${model}: ${chunks.length} chunks`);
      assert.ok(chunks.every((chunk) => chunk.model === model && chunk.id === chunks[0]?.id));
      assert.equal(chunks[0]?.choices[0]?.delta.role, 'assistant', `${model}: role in the first delta`);
      const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
      assert.ok(text.length > 0, `${model} streamed text`);
      const finish = chunks.find((chunk) => chunk.choices[0]?.finish_reason);
      assert.equal(finish?.choices[0]?.finish_reason, 'stop');
      const last = chunks.at(-1);
      assert.deepEqual(last?.choices, []);
      const usage = last?.usage as (OpenAI.CompletionUsage & { cost: number }) | undefined;
      assert.ok(usage && usage.completion_tokens > 0 && usage.cost > 0, `${model} final usage`);
      const record = await findUsageRecord(gateway.gateway.database.db, (last?.id ?? '').replace(/^chatcmpl-/, ''));
      assert.equal(usage.cost, microsToUsd(record?.cost_micros ?? -1));
      assert.ok(record?.time_to_first_token_ms !== null);
    }
  });

  test('without include_usage the stream has no usage chunk and still ends with [DONE]', async () => {
    const response = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const text = await response.text();
    const events = text.split('\n\n').filter((event) => event.startsWith('data: '));
    assert.equal(events.at(-1), 'data: [DONE]');
    assert.ok(!text.includes('"usage"'), 'no usage sent when not asked for');
  });

  test('tool calls round-trip on OpenAI, Anthropic, Gemini and Mistral, streamed and not', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: {
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
            additionalProperties: false,
          },
        },
      },
    ];
    for (const model of ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'mistral-large-latest']) {
      const first = await client.chat.completions.create({
        model,
        tools,
        tool_choice: 'required',
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      const call = first.choices[0]?.message.tool_calls?.[0];
      assert.equal(first.choices[0]?.finish_reason, 'tool_calls', model);
      assert.ok(call && call.type === 'function' && call.function.name === 'get_weather', model);
      assert.equal(typeof JSON.parse(call.function.arguments).city, 'string');
      const second = await client.chat.completions.create({
        model,
        tools,
        messages: [
          { role: 'user', content: 'Weather in Paris?' },
          first.choices[0]!.message,
          { role: 'tool', tool_call_id: call.id, content: '{"temperature": 21}' },
        ],
      });
      assert.ok(second.choices[0]?.message.content, `${model} answers after the tool result`);

      const stream = await client.chat.completions.create({
        model,
        tools,
        tool_choice: 'required',
        stream: true,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      });
      const deltas: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
      for await (const chunk of stream) deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
      const withId = deltas.filter((delta) => delta.id !== undefined);
      assert.equal(withId.length, 1, `${model}: id and name only in the first delta of the call`);
      assert.equal(withId[0]?.function?.name, 'get_weather');
      assert.ok(deltas.slice(1).every((delta) => delta.function?.name === undefined));
      const args = deltas.map((delta) => delta.function?.arguments ?? '').join('');
      assert.equal(typeof JSON.parse(args).city, 'string', `${model} streamed arguments form JSON`);
    }
  });

  test('json_schema with strict gives JSON that matches the schema', async () => {
    for (const model of ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash']) {
      const response = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'Give me a city.' }],
        response_format: {
          type: 'json_schema',
          json_schema: {
            name: 'city',
            strict: true,
            schema: {
              type: 'object',
              properties: { name: { type: 'string' }, population: { type: 'integer' } },
              required: ['name', 'population'],
              additionalProperties: false,
            },
          },
        },
      });
      const value = JSON.parse(response.choices[0]?.message.content ?? '');
      assert.equal(typeof value.name, 'string', model);
      assert.ok(Number.isInteger(value.population), model);
    }
  });

  test('an image part (data URL) reaches vision models and is billed as input', async () => {
    for (const model of ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash']) {
      const plain = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }] }],
      });
      const withImage = await client.chat.completions.create({
        model,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: pixelPng } },
            ],
          },
        ],
      });
      assert.ok(withImage.usage!.prompt_tokens > plain.usage!.prompt_tokens, `${model} counts the image`);
    }
  });

  test('every response body and stream chunk of this suite matches the OpenAI OpenAPI schemas', () => {
    const report = checkExchanges(loadOpenApiSchemaValidator(), proxy.takeExchanges());
    assert.deepEqual(report.problems, []);
    assert.ok((report.checked.CreateChatCompletionResponse ?? 0) >= textModels.length, 'completions checked');
    assert.ok((report.checked.CreateChatCompletionStreamResponse ?? 0) > textModels.length * 3, 'chunks checked');
    assert.equal(report.checked.ListModelsResponse, 1, 'the model list checked');
    assert.ok(report.statuses.every((status) => status === 200));
  });
});
