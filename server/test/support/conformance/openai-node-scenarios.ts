import assert from 'node:assert/strict';
import OpenAI from 'openai';
import {
  citySchema,
  pixelPngDataUrl,
  shortAnswer,
  weatherToolParameters,
  type ConformanceModel,
} from './conformance-models.ts';

const tools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'get_weather', description: 'Weather for a city', parameters: { ...weatherToolParameters } },
  },
];
const question: OpenAI.ChatCompletionMessageParam = { role: 'user', content: 'Weather in Paris?' };

/** Every model scenario of the suite through the official OpenAI SDK for Node. */
export async function runOpenAiNodeModelScenarios(client: OpenAI, model: ConformanceModel): Promise<void> {
  const text = await client.chat.completions.create({
    model: model.id,
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: `Name a river. ${shortAnswer}` },
    ],
  });
  assert.equal(text.model, model.id);
  assert.ok(text.choices[0]?.message.content, 'text answer');
  assert.equal(text.choices[0]?.finish_reason, 'stop');
  assert.ok((text.usage as { cost?: number } | undefined)?.cost !== undefined, 'usage.cost is present');

  const stream = await client.chat.completions.create({
    model: model.id,
    stream: true,
    stream_options: { include_usage: true },
    messages: [{ role: 'user', content: `Name a sea. ${shortAnswer}` }],
  });
  const chunks: OpenAI.ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  assert.ok(chunks.every((chunk) => chunk.model === model.id));
  assert.ok(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'streamed text');
  assert.ok(chunks.at(-1)?.usage && chunks.at(-1)?.choices.length === 0, 'final usage chunk');

  const call = await client.chat.completions.create({
    model: model.id,
    tools,
    tool_choice: 'required',
    messages: [question],
  });
  assert.equal(call.choices[0]?.finish_reason, 'tool_calls');
  const toolCall = call.choices[0]?.message.tool_calls?.[0];
  assert.ok(toolCall?.type === 'function' && toolCall.function.name === 'get_weather');
  assert.equal(typeof JSON.parse(toolCall.function.arguments).city, 'string');
  const answer = await client.chat.completions.create({
    model: model.id,
    tools,
    messages: [question, call.choices[0]!.message, { role: 'tool', tool_call_id: toolCall.id, content: '{"c": 21}' }],
  });
  assert.ok(answer.choices[0]?.message.content, 'answer after the tool result');

  await streamedToolRoundTrip(client, model.id);

  const json = await client.chat.completions.create({
    model: model.id,
    messages: [{ role: 'user', content: 'Give me a city.' }],
    response_format: { type: 'json_schema', json_schema: { name: 'city', strict: true, schema: { ...citySchema } } },
  });
  const city = JSON.parse(json.choices[0]?.message.content ?? '');
  assert.ok(typeof city.name === 'string' && Number.isInteger(city.population), 'JSON matching the schema');

  if (model.vision) {
    const seen = await client.chat.completions.create({
      model: model.id,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: `What is this? ${shortAnswer}` },
            { type: 'image_url', image_url: { url: pixelPngDataUrl } },
          ],
        },
      ],
    });
    assert.ok(seen.choices[0]?.message.content, 'answer about the image');
  }
}

async function streamedToolRoundTrip(client: OpenAI, model: string): Promise<void> {
  const stream = await client.chat.completions.create({
    model,
    tools,
    tool_choice: 'required',
    stream: true,
    messages: [question],
  });
  const deltas: OpenAI.ChatCompletionChunk.Choice.Delta.ToolCall[] = [];
  for await (const chunk of stream) deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
  const first = deltas[0];
  assert.ok(first?.id && first.function?.name === 'get_weather', 'id and name in the first delta');
  assert.ok(deltas.slice(1).every((delta) => delta.id === undefined && delta.function?.name === undefined));
  const args = deltas.map((delta) => delta.function?.arguments ?? '').join('');
  assert.equal(typeof JSON.parse(args).city, 'string');
  const answer = await client.chat.completions.create({
    model,
    tools,
    stream: true,
    messages: [
      question,
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: first.id, type: 'function', function: { name: 'get_weather', arguments: args } }],
      },
      { role: 'tool', tool_call_id: first.id, content: '{"c": 21}' },
    ],
  });
  let text = '';
  for await (const chunk of answer) text += chunk.choices[0]?.delta.content ?? '';
  assert.ok(text, 'streamed answer after the tool result');
}

/** The error cases, each through the SDK's own error classes, also a 502 and an error in the middle of a stream. */
export type ErrorCaseKeys = { baseURL: string; key: string; emptyKey: string; limitedKey: string };

export async function runOpenAiNodeErrorScenarios(keys: ErrorCaseKeys): Promise<void> {
  const clientWith = (apiKey: string) => new OpenAI({ apiKey, baseURL: keys.baseURL, maxRetries: 0 });
  const hello: OpenAI.ChatCompletionCreateParamsNonStreaming = {
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'Hello' }],
  };
  await assert.rejects(clientWith('sk-not-a-real-key').chat.completions.create(hello), OpenAI.AuthenticationError);
  await assert.rejects(
    clientWith(keys.key).chat.completions.create({ ...hello, model: 'no-such-model' }),
    (error: unknown) => error instanceof OpenAI.NotFoundError && error.code === 'model_not_found',
  );
  await assert.rejects(
    clientWith(keys.key).chat.completions.create({ ...hello, temperature: 5 }),
    (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === 'temperature',
  );
  await assert.rejects(
    clientWith(keys.emptyKey).chat.completions.create(hello),
    (error: unknown) => error instanceof OpenAI.APIError && error.status === 402,
  );
  const limited = clientWith(keys.limitedKey);
  const outcomes = await Promise.allSettled([1, 2, 3].map(() => limited.chat.completions.create(hello)));
  const rejected = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => outcome.reason);
  assert.ok(
    rejected.some((error) => error instanceof OpenAI.RateLimitError && error.headers.get('retry-after')),
    'a RateLimitError with Retry-After',
  );
  await assert.rejects(
    clientWith(keys.key).chat.completions.create({
      ...hello,
      messages: [{ role: 'user', content: 'x [sim:status=503]' }],
    }),
    (error: unknown) => error instanceof OpenAI.InternalServerError && error.status === 502,
  );
  const broken = await clientWith(keys.key).chat.completions.create({
    ...hello,
    stream: true,
    messages: [{ role: 'user', content: 'Go on [sim:mid-stream-error] [sim:words=20]' }],
  });
  await assert.rejects(async () => {
    for await (const chunk of broken) assert.equal(chunk.model, hello.model);
  }, OpenAI.APIError);
  const models = [];
  for await (const model of clientWith(keys.key).models.list()) models.push(model.id);
  assert.ok(models.includes('gpt-4o'));
  assert.equal((await clientWith(keys.key).models.retrieve('gpt-4o')).id, 'gpt-4o');
}
