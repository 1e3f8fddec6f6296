import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import {
  citySchema,
  pixelPngDataUrl,
  shortAnswer,
  weatherToolParameters,
  type ConformanceModel,
} from './conformance-models.ts';
import type { ErrorCaseKeys } from './openai-node-scenarios.ts';

const tools: Anthropic.Tool[] = [
  {
    name: 'get_weather',
    description: 'Weather for a city',
    input_schema: { ...weatherToolParameters, required: [...weatherToolParameters.required] },
  },
];
const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
const maxTokens = 512;

/** Text, stream, tool use with a tool_result turn (streamed and not), JSON output and an image via `/v1/messages`. */
export async function runAnthropicModelScenarios(client: Anthropic, model: ConformanceModel): Promise<void> {
  const text = await client.messages.create({
    model: model.id,
    max_tokens: maxTokens,
    system: 'Be brief.',
    messages: [{ role: 'user', content: `Name a river. ${shortAnswer}` }],
  });
  assert.equal(text.model, model.id);
  assert.equal(text.stop_reason, 'end_turn');
  assert.ok(
    text.content.some((block) => block.type === 'text' && block.text),
    'text answer',
  );
  assert.ok(text.usage.input_tokens > 0 && text.usage.output_tokens > 0);

  const stream = client.messages.stream({
    model: model.id,
    max_tokens: maxTokens,
    messages: [{ role: 'user', content: `Name a sea. ${shortAnswer}` }],
  });
  let streamed = '';
  stream.on('text', (delta) => (streamed += delta));
  const final = await stream.finalMessage();
  assert.ok(streamed, 'streamed text');
  assert.equal(final.model, model.id);
  assert.ok(final.usage.output_tokens > 0);

  const call = await client.messages.create({
    model: model.id,
    max_tokens: maxTokens,
    tools,
    tool_choice: { type: 'any' },
    messages: [question],
  });
  await answerToolUse(client, model.id, call);

  const streamedCall = await client.messages
    .stream({ model: model.id, max_tokens: maxTokens, tools, tool_choice: { type: 'any' }, messages: [question] })
    .finalMessage();
  await answerToolUse(client, model.id, streamedCall);

  const json = await client.messages.create({
    model: model.id,
    max_tokens: maxTokens,
    output_config: { format: { type: 'json_schema', schema: { ...citySchema } } },
    messages: [{ role: 'user', content: 'Give me a city.' }],
  });
  const jsonText = json.content.find((block) => block.type === 'text');
  const city = JSON.parse(jsonText?.type === 'text' ? jsonText.text : '');
  assert.ok(typeof city.name === 'string' && Number.isInteger(city.population), 'JSON matching the schema');

  if (model.vision) {
    const [, data = ''] = pixelPngDataUrl.split(',');
    const seen = await client.messages.create({
      model: model.id,
      max_tokens: maxTokens,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: `What is this? ${shortAnswer}` },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
          ],
        },
      ],
    });
    assert.ok(
      seen.content.some((block) => block.type === 'text' && block.text),
      'answer about the image',
    );
  }
}

async function answerToolUse(client: Anthropic, model: string, call: Anthropic.Message): Promise<void> {
  assert.equal(call.stop_reason, 'tool_use');
  const toolUse = call.content.find((block) => block.type === 'tool_use');
  assert.ok(toolUse?.type === 'tool_use' && toolUse.name === 'get_weather', 'a tool_use block');
  assert.equal(typeof (toolUse.input as { city?: unknown }).city, 'string');
  const answer = await client.messages.create({
    model,
    max_tokens: maxTokens,
    tools,
    messages: [
      question,
      { role: 'assistant', content: call.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '{"c": 21}' }] },
    ],
  });
  assert.ok(
    answer.content.some((block) => block.type === 'text' && block.text),
    'answer after the tool result',
  );
}

/** The same statuses as for chat completions, raised as the Anthropic SDK's own error classes. */
export async function runAnthropicErrorScenarios(keys: ErrorCaseKeys): Promise<void> {
  const clientWith = (apiKey: string) =>
    new Anthropic({ apiKey, baseURL: keys.baseURL, maxRetries: 0, logLevel: 'off' });
  const hello: Anthropic.MessageCreateParamsNonStreaming = {
    model: 'gpt-4o',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'Hello' }],
  };
  await assert.rejects(clientWith('sk-not-a-real-key').messages.create(hello), Anthropic.AuthenticationError);
  await assert.rejects(
    clientWith(keys.key).messages.create({ ...hello, model: 'no-such-model' }),
    Anthropic.NotFoundError,
  );
  await assert.rejects(clientWith(keys.key).messages.create({ ...hello, messages: [] }), Anthropic.BadRequestError);
  await assert.rejects(
    clientWith(keys.emptyKey).messages.create(hello),
    (error: unknown) => error instanceof Anthropic.APIError && error.status === 402,
  );
  const limited = clientWith(keys.limitedKey);
  const outcomes = await Promise.allSettled([1, 2, 3].map(() => limited.messages.create(hello)));
  assert.ok(
    outcomes.some((outcome) => outcome.status === 'rejected' && outcome.reason instanceof Anthropic.RateLimitError),
    'a RateLimitError',
  );
}
