import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../start-simulator.ts';
import {
  geminiHeaders,
  isValidWeatherArguments,
  jsonPayloads,
  postJson,
  readSse,
  weatherTool,
} from '../test-support/read-sse.ts';

let simulator: RunningSimulator;
let modelUrl: string;
before(async () => {
  simulator = await startSimulator();
  modelUrl = `${simulator.url}/gemini/v1beta/models/gemini-2.5-flash`;
});
after(() => simulator.close());

const userTurn = { role: 'user', parts: [{ text: 'Describe a meadow.' }] };
const tools = [
  {
    functionDeclarations: [
      { name: weatherTool.name, description: weatherTool.description, parametersJsonSchema: weatherTool.parameters },
    ],
  },
];
type Part = Record<string, unknown>;
type GeminiResponse = {
  candidates: { content?: { parts: Part[]; role: string }; finishReason?: string }[];
  usageMetadata: Record<string, number>;
  modelVersion: string;
  responseId: string;
};

function generate(body: Record<string, unknown>, headers: Record<string, string> = geminiHeaders): Promise<Response> {
  return postJson(`${modelUrl}:generateContent`, { body, headers });
}

describe('Gemini simulator', () => {
  it('answers generateContent in camelCase with thoughts counted for a thinking model', async () => {
    const response = await generate({ contents: [userTurn] });
    assert.equal(response.status, 200);
    const body = (await response.json()) as GeminiResponse;
    const candidate = body.candidates[0];
    assert.equal(candidate?.finishReason, 'STOP');
    assert.equal(candidate?.content?.role, 'model');
    const text = String(candidate?.content?.parts[0]?.['text']);
    const usage = body.usageMetadata;
    assert.equal(usage['candidatesTokenCount'], text.split(' ').length);
    assert.ok((usage['thoughtsTokenCount'] ?? 0) > 0);
    assert.equal(
      usage['totalTokenCount'],
      (usage['promptTokenCount'] ?? 0) + (usage['candidatesTokenCount'] ?? 0) + (usage['thoughtsTokenCount'] ?? 0),
    );
    assert.equal(body.modelVersion, 'gemini-2.5-flash');
    assert.equal(typeof body.responseId, 'string');
  });

  it('streams SSE chunks with usageMetadata on every chunk and the finish reason last', async () => {
    const response = await postJson(`${modelUrl}:streamGenerateContent?alt=sse`, {
      body: { contents: [userTurn], generationConfig: { thinkingConfig: { thinkingBudget: 0 } } },
      headers: geminiHeaders,
    });
    const read = await readSse(response);
    assert.ok(read.events.every((event) => event.event === undefined));
    assert.ok(!read.raw.includes('[DONE]'));
    const chunks = jsonPayloads(read) as GeminiResponse[];
    assert.ok(chunks.length > 1);
    assert.ok(chunks.every((chunk) => typeof chunk.usageMetadata['promptTokenCount'] === 'number'));
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk.candidates[0]?.finishReason === undefined));
    assert.equal(chunks.at(-1)?.candidates[0]?.finishReason, 'STOP');
    const text = chunks
      .map((chunk) => chunk.candidates[0]?.content?.parts.map((part) => part['text']).join(''))
      .join('');
    assert.equal(chunks.at(-1)?.usageMetadata['candidatesTokenCount'], text.split(' ').length);
    assert.equal(chunks.at(-1)?.usageMetadata['thoughtsTokenCount'], undefined);
  });

  it('calls a function with a thoughtSignature and checks it is echoed back', async () => {
    const first = (await (await generate({ contents: [userTurn], tools })).json()) as GeminiResponse;
    const modelContent = first.candidates[0]?.content;
    const callPart = modelContent?.parts[0] as {
      functionCall: { name: string; args: unknown };
      thoughtSignature: string;
    };
    assert.equal(first.candidates[0]?.finishReason, 'STOP');
    assert.ok(isValidWeatherArguments(callPart.functionCall.args));
    assert.ok(callPart.thoughtSignature.length > 20);
    const functionResponse = {
      role: 'user',
      parts: [{ functionResponse: { name: 'get_weather', response: { output: { temp: 21 } } } }],
    };
    const withSignature = await generate({ contents: [userTurn, modelContent, functionResponse], tools });
    assert.equal(withSignature.status, 200);
    const answer = (await withSignature.json()) as GeminiResponse;
    assert.equal(typeof answer.candidates[0]?.content?.parts[0]?.['text'], 'string');
    const stripped = { role: 'model', parts: [{ functionCall: callPart.functionCall }] };
    const withoutSignature = await generate({ contents: [userTurn, stripped, functionResponse], tools });
    assert.equal(withoutSignature.status, 400);
    const error = ((await withoutSignature.json()) as { error: { code: number; status: string; message: string } })
      .error;
    assert.equal(error.code, 400);
    assert.equal(error.status, 'INVALID_ARGUMENT');
    assert.match(error.message, /thought_signature/);
  });

  it('[sim:tool-rounds=N] calls functions in N rounds of a turn; with 0 only when the mode forces a call', async () => {
    const ask = { role: 'user', parts: [{ text: 'Weather in Oslo? [sim:tool-rounds=2]' }] };
    const result = {
      role: 'user',
      parts: [{ functionResponse: { name: 'get_weather', response: { output: { temp: 21 } } } }],
    };
    const answer = async (contents: unknown[], toolConfig?: unknown) => {
      const response = await generate({ contents, tools, ...(toolConfig ? { toolConfig } : {}) });
      assert.equal(response.status, 200);
      return (await response.json()) as GeminiResponse;
    };
    const hasCall = (body: GeminiResponse) =>
      (body.candidates[0]?.content?.parts ?? []).some((part) => part['functionCall'] !== undefined);
    const first = await answer([ask]);
    assert.ok(hasCall(first), 'round 1 calls');
    const firstTurn = first.candidates[0]?.content;
    const second = await answer([ask, firstTurn, result]);
    assert.ok(hasCall(second), 'after the first result, round 2 calls again');
    const third = await answer([ask, firstTurn, result, second.candidates[0]?.content, result]);
    assert.ok(!hasCall(third), 'after two rounds, text');
    assert.equal(typeof third.candidates[0]?.content?.parts[0]?.['text'], 'string');
    const quiet = { role: 'user', parts: [{ text: 'Weather in Oslo? [sim:tool-rounds=0]' }] };
    assert.ok(!hasCall(await answer([quiet])), 'AUTO: no call');
    assert.ok(hasCall(await answer([quiet], { functionCallingConfig: { mode: 'ANY' } })), 'ANY forces one');
  });

  it('refuses Google Search beside function declarations: Gemini 2.x always, Gemini 3 without tool combination', async () => {
    const combined = [...tools, { googleSearch: {} }];
    const readError = async (response: Response) => {
      assert.equal(response.status, 400);
      const { error } = (await response.json()) as { error: { status: string; message: string } };
      assert.equal(error.status, 'INVALID_ARGUMENT');
      return error.message;
    };
    assert.equal(
      await readError(await generate({ contents: [userTurn], tools: combined })),
      'Tool use with function calling is unsupported by the model.',
    );
    const gemini3 = (body: Record<string, unknown>) =>
      postJson(`${simulator.url}/gemini/v1beta/models/gemini-3-pro-preview:generateContent`, {
        body,
        headers: geminiHeaders,
      });
    assert.match(
      await readError(await gemini3({ contents: [userTurn], tools: combined })),
      /enable tool_config\.include_server_side_tool_invocations/,
    );
    const withFlag = { contents: [userTurn], tools: combined, toolConfig: { includeServerSideToolInvocations: true } };
    assert.match(await readError(await gemini3(withFlag)), /Unknown name "includeServerSideToolInvocations"/);
    assert.equal((await gemini3({ contents: [userTurn], tools })).status, 200, 'functions alone');
    assert.equal((await gemini3({ contents: [userTurn], tools: [{ googleSearch: {} }] })).status, 200, 'search alone');
  });

  it('streams a function call whole, then an empty text part with STOP', async () => {
    const read = await readSse(
      await postJson(`${modelUrl}:streamGenerateContent?alt=sse`, {
        body: { contents: [userTurn], tools },
        headers: geminiHeaders,
      }),
    );
    const chunks = jsonPayloads(read) as GeminiResponse[];
    const callChunk = chunks.find((chunk) => chunk.candidates[0]?.content?.parts.some((part) => part['functionCall']));
    assert.ok(callChunk);
    assert.deepEqual(chunks.at(-1)?.candidates[0]?.content?.parts, [{ text: '' }]);
    assert.equal(chunks.at(-1)?.candidates[0]?.finishReason, 'STOP');
  });

  it('answers JSON valid against responseSchema', async () => {
    const generationConfig = {
      responseMimeType: 'application/json',
      responseSchema: {
        type: 'OBJECT',
        properties: { city: { type: 'STRING' }, unit: { type: 'STRING', enum: ['celsius', 'fahrenheit'] } },
        required: ['city', 'unit'],
      },
    };
    const body = (await (await generate({ contents: [userTurn], generationConfig })).json()) as GeminiResponse;
    const value = JSON.parse(String(body.candidates[0]?.content?.parts[0]?.['text'])) as Record<string, unknown>;
    assert.equal(typeof value['city'], 'string');
    assert.ok(['celsius', 'fahrenheit'].includes(String(value['unit'])));
  });

  it('cites search results with UTF-8 byte offsets', async () => {
    const body = (await (
      await generate({ contents: [userTurn], tools: [{ googleSearch: {} }] })
    ).json()) as GeminiResponse & {
      candidates: {
        groundingMetadata: {
          groundingSupports: { segment: { startIndex?: number; endIndex: number; text: string } }[];
        };
      }[];
    };
    const text = String(body.candidates[0]?.content?.parts[0]?.['text']);
    const bytes = Buffer.from(text, 'utf8');
    const supports = body.candidates[0]?.groundingMetadata.groundingSupports ?? [];
    assert.ok(supports.length > 0);
    for (const { segment } of supports) {
      assert.equal(bytes.subarray(segment.startIndex ?? 0, segment.endIndex).toString('utf8'), segment.text);
    }
    assert.ok((body.usageMetadata['toolUsePromptTokenCount'] ?? 0) > 0);
  });

  it('authenticates like Google: ?key= works, no key is 403, a bad key is 400 API_KEY_INVALID', async () => {
    assert.equal((await generate({ contents: [userTurn] }, {})).status, 403);
    const withQueryKey = await postJson(`${modelUrl}:generateContent?key=query-key`, {
      body: { contents: [userTurn] },
    });
    assert.equal(withQueryKey.status, 200);
    const invalid = await generate({ contents: [userTurn] }, { 'x-goog-api-key': 'invalid-key' });
    assert.equal(invalid.status, 400);
    const error = ((await invalid.json()) as { error: { details: { reason?: string }[] } }).error;
    assert.ok(error.details.some((detail) => detail.reason === 'API_KEY_INVALID'));
  });

  it('rejects unknown fields and missing contents with INVALID_ARGUMENT', async () => {
    const unknown = await generate({ contents: [userTurn], generationConfig: { max_tokens: 10 } });
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /Unknown name "max_tokens"/);
    const snakeCase = await generate({
      contents: [userTurn],
      generation_config: { max_output_tokens: 3, thinking_config: { thinking_budget: 0 } },
    });
    assert.equal(snakeCase.status, 200);
    assert.equal(((await snakeCase.json()) as GeminiResponse).candidates[0]?.finishReason, 'MAX_TOKENS');
    assert.equal((await generate({})).status, 400);
  });

  it('answers 429 with RetryInfo in the body', async () => {
    const response = await generate({
      contents: [{ role: 'user', parts: [{ text: 'Hi [sim:status=429 retry-after=7]' }] }],
    });
    assert.equal(response.status, 429);
    const error = ((await response.json()) as { error: { status: string; details: Record<string, string>[] } }).error;
    assert.equal(error.status, 'RESOURCE_EXHAUSTED');
    assert.ok(error.details.some((detail) => detail['@type']?.endsWith('RetryInfo') && detail['retryDelay'] === '7s'));
  });
});
