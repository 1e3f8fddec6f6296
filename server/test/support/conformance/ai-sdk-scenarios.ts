import assert from 'node:assert/strict';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError, generateText, jsonSchema, Output, stepCountIs, streamText, tool } from 'ai';
import {
  citySchema,
  pixelPngDataUrl,
  shortAnswer,
  weatherToolParameters,
  type ConformanceModel,
} from './conformance-models.ts';
import type { ErrorCaseKeys } from './openai-node-scenarios.ts';

type Provider = ReturnType<typeof createOpenAICompatible>;

/** The Vercel AI SDK's OpenAI-compatible provider, as an app would configure it for the gateway. */
export function createGatewayProvider(baseURL: string, apiKey: string): Provider {
  return createOpenAICompatible({
    name: 'gateway',
    baseURL,
    apiKey,
    includeUsage: true,
    supportsStructuredOutputs: true,
  });
}

const weatherTools = {
  get_weather: tool({
    description: 'Weather for a city',
    inputSchema: jsonSchema<{ city: string }>({
      ...weatherToolParameters,
      required: [...weatherToolParameters.required],
    }),
    execute: async ({ city }) => ({ city, celsius: 21 }),
  }),
};

/** Text, stream, a tool loop (call, result, answer) streamed and not, structured output and an image. */
export async function runAiSdkModelScenarios(provider: Provider, model: ConformanceModel): Promise<void> {
  const chatModel = provider.chatModel(model.id);
  const text = await generateText({ model: chatModel, maxRetries: 0, prompt: `Name a river. ${shortAnswer}` });
  assert.ok(text.text, 'text answer');
  assert.equal(text.finishReason, 'stop');
  assert.equal(text.response.modelId, model.id);
  assert.ok((text.usage.inputTokens ?? 0) > 0);

  const stream = streamText({ model: chatModel, maxRetries: 0, prompt: `Name a sea. ${shortAnswer}` });
  let streamed = '';
  for await (const delta of stream.textStream) streamed += delta;
  assert.ok(streamed, 'streamed text');
  assert.ok(((await stream.usage).outputTokens ?? 0) > 0, 'usage from the final chunk');

  const loop = await generateText({
    model: chatModel,
    maxRetries: 0,
    tools: weatherTools,
    toolChoice: 'required',
    prepareStep: ({ stepNumber }) => (stepNumber > 0 ? { toolChoice: 'none' } : {}),
    stopWhen: stepCountIs(2),
    prompt: 'Weather in Paris?',
  });
  assert.equal(loop.steps[0]?.toolCalls[0]?.toolName, 'get_weather');
  assert.equal(typeof (loop.steps[0]?.toolCalls[0]?.input as { city?: unknown }).city, 'string');
  assert.ok(loop.text, 'answer after the tool result');

  const streamedLoop = streamText({
    model: chatModel,
    maxRetries: 0,
    tools: weatherTools,
    toolChoice: 'required',
    prepareStep: ({ stepNumber }) => (stepNumber > 0 ? { toolChoice: 'none' } : {}),
    stopWhen: stepCountIs(2),
    prompt: 'Weather in Paris?',
  });
  let streamedAnswer = '';
  for await (const delta of streamedLoop.textStream) streamedAnswer += delta;
  assert.equal((await streamedLoop.steps)[0]?.toolCalls[0]?.toolName, 'get_weather');
  assert.ok(streamedAnswer, 'streamed answer after the tool result');

  const structured = await generateText({
    model: chatModel,
    maxRetries: 0,
    output: Output.object({
      name: 'city',
      schema: jsonSchema<{ name: string; population: number }>({ ...citySchema, required: [...citySchema.required] }),
    }),
    prompt: 'Give me a city.',
  });
  assert.equal(typeof structured.output.name, 'string');
  assert.ok(Number.isInteger(structured.output.population));

  if (model.vision) {
    const seen = await generateText({
      model: chatModel,
      maxRetries: 0,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: `What is this? ${shortAnswer}` },
            { type: 'image', image: new URL(pixelPngDataUrl) },
          ],
        },
      ],
    });
    assert.ok(seen.text, 'answer about the image');
  }
}

/** Each error status reaches the app as an APICallError with that status. */
export async function runAiSdkErrorScenarios(keys: ErrorCaseKeys): Promise<void> {
  const expectStatus = async (apiKey: string, options: { model?: string; temperature?: number }, status: number) => {
    const provider = createGatewayProvider(keys.baseURL, apiKey);
    await assert.rejects(
      generateText({
        model: provider.chatModel(options.model ?? 'gpt-4o'),
        maxRetries: 0,
        prompt: 'Hello',
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      }),
      (error: unknown) => APICallError.isInstance(error) && error.statusCode === status,
      `status ${status}`,
    );
  };
  await expectStatus('sk-not-a-real-key', {}, 401);
  await expectStatus(keys.key, { model: 'no-such-model' }, 404);
  await expectStatus(keys.key, { temperature: 5 }, 400);
  await expectStatus(keys.emptyKey, {}, 402);
  const limited = createGatewayProvider(keys.baseURL, keys.limitedKey).chatModel('gpt-4o');
  const outcomes = await Promise.allSettled(
    [1, 2, 3].map(() => generateText({ model: limited, maxRetries: 0, prompt: 'Hello' })),
  );
  assert.ok(
    outcomes.some(
      (outcome) =>
        outcome.status === 'rejected' && APICallError.isInstance(outcome.reason) && outcome.reason.statusCode === 429,
    ),
    'a 429 APICallError',
  );
}
