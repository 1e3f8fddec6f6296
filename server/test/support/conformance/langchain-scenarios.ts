import assert from 'node:assert/strict';
import {
  type AIMessageChunk,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
  type UsageMetadata,
} from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import {
  citySchema,
  pixelPngDataUrl,
  shortAnswer,
  weatherToolParameters,
  type ConformanceModel,
} from './conformance-models.ts';
import type { ErrorCaseKeys } from './openai-node-scenarios.ts';

/** LangChain's ChatOpenAI pointed at the gateway, as its docs say to use an OpenAI-compatible server. */
export function createGatewayChatModel(options: { baseURL: string; apiKey: string; model: string }): ChatOpenAI {
  return new ChatOpenAI({
    model: options.model,
    apiKey: options.apiKey,
    configuration: { baseURL: options.baseURL },
    maxRetries: 0,
    streamUsage: true,
  });
}

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather for a city', parameters: { ...weatherToolParameters } },
};
const question = new HumanMessage('Weather in Paris?');

async function collect(stream: AsyncIterable<AIMessageChunk>): Promise<AIMessageChunk> {
  let merged: AIMessageChunk | undefined;
  for await (const chunk of stream) merged = merged ? merged.concat(chunk) : chunk;
  assert.ok(merged, 'the stream had chunks');
  return merged;
}

/** Text, stream, tool calls with a second turn (streamed and not), structured output and an image. */
export async function runLangChainModelScenarios(llm: ChatOpenAI, model: ConformanceModel): Promise<void> {
  const text = await llm.invoke([new SystemMessage('Be brief.'), new HumanMessage(`Name a river. ${shortAnswer}`)]);
  assert.ok(((text.usage_metadata as UsageMetadata | undefined)?.input_tokens ?? 0) > 0);
  assert.equal(text.response_metadata.model_name, model.id);
  assert.ok(typeof text.content === 'string' && text.content.length > 0, 'text answer');

  const streamed = await collect(await llm.stream([new HumanMessage(`Name a sea. ${shortAnswer}`)]));
  assert.ok(
    ((streamed.usage_metadata as UsageMetadata | undefined)?.output_tokens ?? 0) > 0,
    'usage from the final chunk',
  );
  assert.ok(streamed.content.length > 0, 'streamed text');

  const forced = llm.bindTools([weatherTool], { tool_choice: 'required' });
  const call = await forced.invoke([question]);
  const toolCall = call.tool_calls?.[0];
  assert.equal(toolCall?.name, 'get_weather');
  assert.equal(typeof toolCall.args.city, 'string');
  const followUp: BaseMessage[] = [
    question,
    call,
    new ToolMessage({ tool_call_id: toolCall.id ?? '', content: '{"c": 21}' }),
  ];
  const answer = await llm.bindTools([weatherTool]).invoke(followUp);
  assert.ok(answer.content, 'answer after the tool result');

  const streamedCall = await collect(await forced.stream([question]));
  const streamedToolCall = streamedCall.tool_calls?.[0];
  assert.equal(streamedToolCall?.name, 'get_weather');
  assert.equal(typeof streamedToolCall.args.city, 'string');
  const streamedAnswer = await collect(
    await llm
      .bindTools([weatherTool])
      .stream([
        question,
        streamedCall,
        new ToolMessage({ tool_call_id: streamedToolCall.id ?? '', content: '{"c": 21}' }),
      ]),
  );
  assert.ok(streamedAnswer.content, 'streamed answer after the tool result');

  const city = await llm
    .withStructuredOutput<{ name: string; population: number }>(
      { ...citySchema },
      { name: 'city', method: 'jsonSchema', strict: true },
    )
    .invoke('Give me a city.');
  assert.ok(typeof city.name === 'string' && Number.isInteger(city.population), 'JSON matching the schema');

  if (model.vision) {
    const seen = await llm.invoke([
      new HumanMessage({
        content: [
          { type: 'text', text: `What is this? ${shortAnswer}` },
          { type: 'image_url', image_url: { url: pixelPngDataUrl } },
        ],
      }),
    ]);
    assert.ok(seen.content, 'answer about the image');
  }
}

/** LangChain passes the OpenAI SDK's errors on, status included. */
export async function runLangChainErrorScenarios(keys: ErrorCaseKeys): Promise<void> {
  const expectStatus = async (apiKey: string, model: string, status: number) => {
    const llm = createGatewayChatModel({ baseURL: keys.baseURL, apiKey, model });
    await assert.rejects(
      llm.invoke('Hello'),
      (error: unknown) => (error as { status?: number }).status === status,
      `status ${status}`,
    );
  };
  await expectStatus('sk-not-a-real-key', 'gpt-4o', 401);
  await expectStatus(keys.key, 'no-such-model', 404);
  await expectStatus(keys.emptyKey, 'gpt-4o', 402);
  const invalid = new ChatOpenAI({
    model: 'gpt-4o',
    apiKey: keys.key,
    configuration: { baseURL: keys.baseURL },
    maxRetries: 0,
    temperature: 5,
  });
  await assert.rejects(invalid.invoke('Hello'), (error: unknown) => (error as { status?: number }).status === 400);
  const limited = createGatewayChatModel({ baseURL: keys.baseURL, apiKey: keys.limitedKey, model: 'gpt-4o' });
  const outcomes = await Promise.allSettled([1, 2, 3].map(() => limited.invoke('Hello')));
  assert.ok(
    outcomes.some((outcome) => outcome.status === 'rejected' && (outcome.reason as { status?: number }).status === 429),
    'a 429',
  );
}
