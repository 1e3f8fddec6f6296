import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** A 1×1 PNG, base64, for image blocks. */
const pixelPngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const weatherTool: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
};

type CostedUsage = { cost: number };
/** Sampling fields the wire still takes but this SDK version no longer types. */
const legacySampling: object = { temperature: 0.5, top_p: 0.9 };
const requestIdOf = (messageId: string) => messageId.replace(/^msg_/, 'req_');
const textOf = (message: Anthropic.Message) =>
  message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

describe('POST /v1/messages through the official Anthropic SDK', () => {
  let gateway: TestGateway;
  let client: Anthropic;
  let userId: string;
  let textModels: string[];

  before(async () => {
    gateway = await startTestGateway();
    const user = await gateway.createUserWithKey({ balanceMicros: 100_000_000 });
    userId = user.userId;
    client = new Anthropic({ apiKey: user.key, baseURL: gateway.url, maxRetries: 0, logLevel: 'off' });
    const response = await fetch(`${gateway.url}/v1/models`, { headers: { 'x-api-key': user.key } });
    const list = (await response.json()) as { data: Array<{ id: string; kind: string }> };
    textModels = list.data.filter((model) => model.kind === 'text').map((model) => model.id);
  });
  after(() => gateway.close());

  const db = () => gateway.gateway.database.db;

  test('every text model answers messages.create with its own id, Anthropic usage and a cost equal to the ledger debit', async () => {
    assert.ok(textModels.length >= 30, `only ${textModels.length} text models`);
    for (const model of textModels) {
      const balanceBefore = await sumLedgerAccount(db(), userLedgerAccount(userId));
      const message = await client.messages.create({
        model,
        max_tokens: 1024,
        system: 'You are terse.',
        messages: [{ role: 'user', content: 'Name three rivers.' }],
      });
      assert.equal(message.type, 'message');
      assert.equal(message.role, 'assistant');
      assert.equal(message.model, model, 'model echoes the requested id');
      assert.match(message.id, /^msg_/);
      assert.ok(textOf(message).length > 0, `${model} returned text`);
      assert.equal(message.stop_reason, 'end_turn', model);
      assert.equal(message.stop_sequence, null);
      const record = await findUsageRecord(db(), requestIdOf(message.id));
      assert.ok(record, `${model} usage record`);
      assert.equal(record.status, 'completed');
      const usage = message.usage;
      assert.ok(usage.input_tokens > 0 && usage.output_tokens > 0, `${model} usage`);
      assert.equal(
        usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
        record.input_tokens,
        `${model}: Anthropic input tokens plus cache tokens are the billed input`,
      );
      assert.equal(usage.cache_read_input_tokens, record.cached_tokens);
      assert.equal(usage.output_tokens, record.output_tokens);
      assert.ok(record.cost_micros > 0, `${model} costs something`);
      assert.equal((usage as unknown as CostedUsage).cost, microsToUsd(record.cost_micros));
      const balanceAfter = await sumLedgerAccount(db(), userLedgerAccount(userId));
      assert.equal(balanceBefore - balanceAfter, record.cost_micros, `${model}: ledger debit equals usage.cost`);
    }
  });

  test('every text model streams: finalMessage() works unchanged and its text is the concatenated text deltas', async () => {
    for (const model of textModels) {
      const stream = client.messages.stream({
        model,
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Tell me about the sea. [sim:words=12]' }],
      });
      const events: Anthropic.MessageStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      const final = await stream.finalMessage();
      assert.equal(events[0]?.type, 'message_start', model);
      assert.equal(events.at(-1)?.type, 'message_stop', model);
      const start = events[0]?.type === 'message_start' ? events[0].message : undefined;
      assert.equal(start?.model, model);
      assert.equal(start?.id, final.id);
      assert.equal(typeof start?.usage.input_tokens, 'number');
      const deltas = events.flatMap((event) =>
        event.type === 'content_block_delta' && event.delta.type === 'text_delta' ? [event.delta.text] : [],
      );
      assert.ok(deltas.length >= 2, `${model}: ${deltas.length} text deltas`);
      assert.equal(textOf(final), deltas.join(''), `${model}: final text is the deltas`);
      assert.equal(final.model, model);
      assert.equal(final.stop_reason, 'end_turn', model);
      assertBlocksAreWellFormed(events, model);
      const messageDelta = events.findLast((event) => event.type === 'message_delta');
      assert.ok(messageDelta?.type === 'message_delta');
      const record = await findUsageRecord(db(), requestIdOf(final.id));
      assert.equal(record?.status, 'completed');
      assert.equal(messageDelta.usage.output_tokens, record.output_tokens, model);
      assert.equal(final.usage.output_tokens, record.output_tokens);
      assert.equal(
        (final.usage.input_tokens ?? 0) + (final.usage.cache_read_input_tokens ?? 0),
        record.input_tokens,
        `${model}: the exact input count reaches the final message`,
      );
      assert.equal((messageDelta.usage as unknown as CostedUsage).cost, microsToUsd(record.cost_micros));
    }
  });

  test('tool use round trip on OpenAI, Anthropic, Gemini, DeepSeek and Mistral, streamed and not', async () => {
    for (const model of ['gpt-4o', 'claude-opus-4-5', 'gemini-2.5-flash', 'deepseek-chat', 'mistral-large-latest']) {
      const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
      const first = await client.messages.create({
        model,
        max_tokens: 1024,
        tools: [weatherTool],
        tool_choice: { type: 'any' },
        messages: [question],
      });
      assert.equal(first.stop_reason, 'tool_use', model);
      const toolUse = first.content.find((block) => block.type === 'tool_use');
      assert.ok(toolUse?.type === 'tool_use', `${model} called a tool`);
      assert.match(toolUse.id, /^toolu_/);
      assert.equal(toolUse.name, 'get_weather');
      assert.equal(typeof (toolUse.input as { city: unknown }).city, 'string', model);

      const second = await client.messages.create({
        model,
        max_tokens: 1024,
        tools: [weatherTool],
        messages: [
          question,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '{"temperature": 21}' }],
          },
        ],
      });
      assert.equal(second.stop_reason, 'end_turn', model);
      assert.ok(textOf(second).length > 0, `${model} answers after the tool result`);

      const stream = client.messages.stream({
        model,
        max_tokens: 1024,
        tools: [weatherTool],
        tool_choice: { type: 'tool', name: 'get_weather' },
        messages: [question],
      });
      const events: Anthropic.MessageStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      const final = await stream.finalMessage();
      assertBlocksAreWellFormed(events, model);
      const toolStart = events.find(
        (event) => event.type === 'content_block_start' && event.content_block.type === 'tool_use',
      );
      assert.ok(toolStart?.type === 'content_block_start' && toolStart.content_block.type === 'tool_use', model);
      assert.equal(toolStart.content_block.name, 'get_weather');
      assert.deepEqual(toolStart.content_block.input, {});
      const partialJson = events
        .flatMap((event) =>
          event.type === 'content_block_delta' &&
          event.index === toolStart.index &&
          event.delta.type === 'input_json_delta'
            ? [event.delta.partial_json]
            : [],
        )
        .join('');
      const streamedInput = JSON.parse(partialJson) as { city: unknown };
      assert.equal(typeof streamedInput.city, 'string', `${model}: input_json_delta fragments form the input`);
      const finalToolUse = final.content.find((block) => block.type === 'tool_use');
      assert.deepEqual(finalToolUse?.type === 'tool_use' ? finalToolUse.input : undefined, streamedInput);
      assert.equal(final.stop_reason, 'tool_use');
    }
  });

  test('system blocks, base64 and url images, stop sequences and metadata reach the model; images are billed', async () => {
    for (const model of ['gpt-4o', 'claude-opus-4-5', 'gemini-2.5-flash']) {
      const plain = await client.messages.create({
        model,
        max_tokens: 512,
        system: [{ type: 'text', text: 'You describe pictures.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }] }],
      });
      const withImages = await client.messages.create({
        model,
        max_tokens: 512,
        system: [{ type: 'text', text: 'You describe pictures.' }],
        metadata: { user_id: 'user-42' },
        stop_sequences: ['END'],
        ...legacySampling,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: pixelPngBase64 } },
              { type: 'image', source: { type: 'url', url: 'https://example.org/cat.png' } },
            ],
          },
        ],
      });
      assert.ok(textOf(withImages).length > 0, model);
      assert.ok(withImages.usage.input_tokens > plain.usage.input_tokens, `${model} counts the images`);
    }
  });

  test('output_config.format gives JSON that matches the schema', async () => {
    for (const model of ['gpt-4o', 'claude-opus-4-5', 'gemini-2.5-flash']) {
      const message = await client.messages.create({
        model,
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'Give me a city.' }],
        output_config: {
          format: {
            type: 'json_schema',
            schema: {
              type: 'object',
              properties: { name: { type: 'string' }, population: { type: 'integer' } },
              required: ['name', 'population'],
              additionalProperties: false,
            },
          },
        },
      });
      const value = JSON.parse(textOf(message)) as { name: unknown; population: unknown };
      assert.equal(typeof value.name, 'string', model);
      assert.ok(Number.isInteger(value.population), model);
    }
  });

  test('thinking comes back as a thinking block, streamed as thinking_delta', async () => {
    const thinking: Anthropic.ThinkingConfigParam = { type: 'enabled', budget_tokens: 2048 };
    const message = await client.messages.create({
      model: 'claude-opus-4-5',
      max_tokens: 4096,
      thinking,
      messages: [{ role: 'user', content: 'Think, then answer.' }],
    });
    assert.equal(message.content[0]?.type, 'thinking');
    assert.ok(message.content[0]?.type === 'thinking' && message.content[0].thinking.length > 0);
    assert.equal(message.content.at(-1)?.type, 'text');
    const stream = client.messages.stream({
      model: 'deepseek-reasoner',
      max_tokens: 4096,
      messages: [{ role: 'user', content: 'Think, then answer.' }],
    });
    const events: Anthropic.MessageStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    assertBlocksAreWellFormed(events, 'deepseek-reasoner');
    const thoughts = events.flatMap((event) =>
      event.type === 'content_block_delta' && event.delta.type === 'thinking_delta' ? [event.delta.thinking] : [],
    );
    const final = await stream.finalMessage();
    assert.ok(thoughts.length > 0, 'reasoning streamed');
    assert.equal(final.content[0]?.type === 'thinking' ? final.content[0].thinking : undefined, thoughts.join(''));
  });

  test('with thinking on, a Claude tool loop continues when the client echoes the turn unchanged', async () => {
    const request = {
      model: 'claude-opus-4-5',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 } satisfies Anthropic.ThinkingConfigParam,
      tools: [weatherTool],
    };
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
    const first = await client.messages.create({ ...request, messages: [question] });
    assert.equal(first.stop_reason, 'tool_use');
    assert.equal(first.content[0]?.type, 'thinking');
    const toolUse = first.content.find((block) => block.type === 'tool_use');
    assert.ok(toolUse?.type === 'tool_use');
    assert.match(toolUse.id, /__sig_/, 'the thinking signature travels in the tool-use id');
    const second = await client.messages.create({
      ...request,
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'Sunny, 21 °C' }] },
      ],
    });
    assert.equal(second.stop_reason, 'end_turn');
    assert.ok(textOf(second).length > 0);
  });

  test('stop reasons: max_tokens when the limit cuts the answer, refusal when the model refuses', async () => {
    const cut = await client.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'Write at length [sim:words=50]' }],
    });
    assert.equal(cut.stop_reason, 'max_tokens');
    assert.equal(cut.usage.output_tokens, 5);
    for (const model of ['gpt-4o', 'claude-opus-4-5']) {
      const refused = await client.messages.create({
        model,
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Something forbidden [sim:refusal]' }],
      });
      assert.equal(refused.stop_reason, 'refusal', model);
    }
  });

  test('fields with no equivalent on every vendor are refused with a 400 in Anthropic shape', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ top_k: 5 }, /top_k/],
      [{ tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] }, /Server tools/],
      [{ thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 1024 }, /budget_tokens/],
    ];
    for (const [extra, message] of cases) {
      await assert.rejects(
        client.messages.create({
          model: 'gpt-4o',
          max_tokens: 256,
          messages: [{ role: 'user', content: 'x' }],
          ...extra,
        }),
        (error: unknown) =>
          error instanceof Anthropic.BadRequestError &&
          error.type === 'invalid_request_error' &&
          message.test(error.apiMessage ?? ''),
      );
    }
  });
});

/** Every block is started, then only deltas of the open block, then stopped, with indexes counting up from 0. */
function assertBlocksAreWellFormed(events: readonly Anthropic.MessageStreamEvent[], label: string): void {
  let open: number | undefined;
  let next = 0;
  for (const event of events) {
    if (event.type === 'content_block_start') {
      assert.equal(open, undefined, `${label}: a block starts while another is open`);
      assert.equal(event.index, next, `${label}: block indexes count up`);
      open = event.index;
      next += 1;
    } else if (event.type === 'content_block_delta') {
      assert.equal(event.index, open, `${label}: a delta belongs to the open block`);
    } else if (event.type === 'content_block_stop') {
      assert.equal(event.index, open, `${label}: the open block stops`);
      open = undefined;
    }
  }
  assert.equal(open, undefined, `${label}: every block is stopped`);
  assert.ok(next > 0, `${label}: at least one block`);
}
