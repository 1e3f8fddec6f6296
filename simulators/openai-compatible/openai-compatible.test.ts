import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startSimulator, type RunningSimulator } from '../start-simulator.ts';
import {
  asShape,
  bearer,
  isValidWeatherArguments,
  jsonPayloads,
  postJson,
  readSse,
  weatherTool,
} from '../test-support/read-sse.ts';

let simulator: RunningSimulator;
before(async () => {
  simulator = await startSimulator();
});
after(() => simulator.close());

const vendorBases = {
  deepseek: '/deepseek/v1',
  mistral: '/mistral/v1',
  xai: '/xai/v1',
  groq: '/groq/v1',
  together: '/together/v1',
  openrouter: '/openrouter/api/v1',
  vllm: '/vllm/v1',
  ollama: '/ollama/v1',
  llamacpp: '/llamacpp/v1',
} as const;

const hello = [{ role: 'user', content: 'Tell me about compasses.' }];
const tools = [{ type: 'function', function: weatherTool }];
type Chunk = {
  choices: { delta: Record<string, unknown>; finish_reason: string | null }[];
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    completion_tokens_details?: { reasoning_tokens: number };
  } | null;
} & Record<string, unknown>;

function chat(
  base: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = bearer,
): Promise<Response> {
  return postJson(`${simulator.url}${base}/chat/completions`, {
    body: { model: 'test-model', messages: hello, ...body },
    headers,
  });
}

async function streamChunks(
  base: string,
  body: Record<string, unknown>,
): Promise<{ chunks: Chunk[]; comments: string[] }> {
  const read = await readSse(await chat(base, { ...body, stream: true, stream_options: { include_usage: true } }));
  assert.equal(read.events.at(-1)?.data, '[DONE]');
  return { chunks: jsonPayloads(read) as Chunk[], comments: read.comments };
}

/** Tokens the deltas carry: content, reasoning and tool-argument fragments, one token each. */
function countStreamedTokens(chunks: readonly Chunk[]): number {
  let count = 0;
  for (const delta of chunks.flatMap((chunk) => chunk.choices.map((choice) => choice.delta))) {
    for (const field of ['content', 'reasoning_content', 'reasoning']) {
      if (typeof delta[field] === 'string' && delta[field] !== '') count += 1;
    }
    for (const call of (delta['tool_calls'] as { function: { arguments: string } }[] | undefined) ?? []) {
      if (call.function.arguments !== '') count += 1;
    }
  }
  return count;
}

describe('OpenAI-compatible vendor simulators', () => {
  for (const [vendor, base] of Object.entries(vendorBases)) {
    it(`${vendor}: text and tool calls, streamed and not, with usage equal to the streamed tokens`, async () => {
      const plain = (await (await chat(base, {})).json()) as {
        choices: { message: { content: string } }[];
        usage: { completion_tokens: number };
      };
      assert.equal(typeof plain.choices[0]?.message.content, 'string');
      const text = await streamChunks(base, {});
      const usage = text.chunks.find((chunk) => chunk.usage)?.usage;
      assert.ok(usage);
      assert.equal(usage.completion_tokens, countStreamedTokens(text.chunks));
      assert.equal(usage.completion_tokens, plain.usage.completion_tokens);
      const streamedText = text.chunks
        .map((chunk) => chunk.choices.map((choice) => choice.delta['content'] ?? '').join(''))
        .join('');
      assert.equal(streamedText, plain.choices[0]?.message.content);

      const toolStream = await streamChunks(base, { tools });
      const calls = toolStream.chunks.flatMap((chunk) =>
        chunk.choices.flatMap(
          (choice) =>
            (choice.delta['tool_calls'] as { function: { name?: string; arguments: string } }[] | undefined) ?? [],
        ),
      );
      assert.equal(calls[0]?.function.name, 'get_weather');
      assert.ok(isValidWeatherArguments(JSON.parse(calls.map((call) => call.function.arguments).join(''))));
      assert.ok(toolStream.chunks.some((chunk) => chunk.choices[0]?.finish_reason === 'tool_calls'));
      assert.equal(
        toolStream.chunks.find((chunk) => chunk.usage)?.usage?.completion_tokens,
        countStreamedTokens(toolStream.chunks),
      );
    });
  }

  it('deepseek: reasoning_content, cache hit/miss fields, keep-alive comments and the bare root', async () => {
    const { chunks, comments } = await streamChunks('/deepseek', { model: 'deepseek-reasoner' });
    assert.ok(comments.includes('keep-alive'));
    assert.ok(chunks.some((chunk) => typeof chunk.choices[0]?.delta['reasoning_content'] === 'string'));
    const usage = asShape<Record<string, number> & { completion_tokens_details: { reasoning_tokens: number } }>(
      chunks.at(-1)?.usage,
    );
    assert.ok(usage.completion_tokens_details.reasoning_tokens > 0);
    assert.equal(
      (usage['prompt_cache_hit_tokens'] ?? 0) + (usage['prompt_cache_miss_tokens'] ?? 0),
      usage['prompt_tokens'],
    );
  });

  it('mistral: nine-character tool ids, 400 for other ids in history, errors without the wrapper', async () => {
    const first = (await (await chat('/mistral/v1', { tools })).json()) as {
      choices: { message: { tool_calls: { id: string }[] } }[];
    };
    const id = first.choices[0]?.message.tool_calls[0]?.id ?? '';
    assert.match(id, /^[a-zA-Z0-9]{9}$/);
    const history = [
      ...hello,
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_abc123xyz', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_abc123xyz', content: 'sunny' },
    ];
    const rejected = await chat('/mistral/v1', { messages: history, tools });
    assert.equal(rejected.status, 400);
    const body = (await rejected.json()) as Record<string, unknown>;
    assert.equal(body['object'], 'error');
    assert.ok(!('error' in body));
    assert.match(String(body['message']), /must be a-z, A-Z, 0-9, with a length of 9/);
  });

  it('xai: usage on the second-to-last chunk, then an empty-choices chunk, and a dated model', async () => {
    const { chunks } = await streamChunks('/xai/v1', { model: 'grok-4' });
    assert.deepEqual(chunks.at(-1)?.choices, []);
    assert.equal(chunks.at(-1)?.usage, undefined);
    assert.ok(chunks.at(-2)?.usage);
    assert.equal(chunks.at(-2)?.choices[0]?.finish_reason, 'stop');
    assert.equal(chunks[0]?.['model'], 'grok-4-0709');
  });

  it('together: usage on the finish chunk even without include_usage', async () => {
    const read = await readSse(await chat('/together/v1', { stream: true }));
    const chunks = jsonPayloads(read) as Chunk[];
    assert.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'stop');
    assert.ok(chunks.at(-1)?.usage);
  });

  it('groq: x_groq on the first and last chunks', async () => {
    const { chunks } = await streamChunks('/groq/v1', {});
    assert.ok(chunks[0]?.['x_groq']);
    const finish = asShape<{ x_groq: { usage: { total_tokens: number } } }>(
      chunks.find((chunk) => chunk.choices[0]?.finish_reason),
    );
    assert.ok(finish.x_groq.usage.total_tokens > 0);
  });

  it('groq: n > 1 is a 400 naming n, as Groq documents ("only n=1 is supported")', async () => {
    const refused = await chat('/groq/v1', { n: 2 });
    assert.equal(refused.status, 400);
    const body = (await refused.json()) as { error: { param: string | null; type: string } };
    assert.equal(body.error.param, 'n');
    assert.equal(body.error.type, 'invalid_request_error');
    assert.equal((await chat('/groq/v1', { n: 1 })).status, 200);
  });

  it('openrouter: generation id header, cost in usage, keep-alive comment, int-coded errors', async () => {
    const response = await chat('/openrouter/api/v1', { model: 'qwen/qwen3-coder' });
    const body = (await response.json()) as { id: string; provider: string; usage: { cost: number } };
    assert.equal(response.headers.get('x-generation-id'), body.id);
    assert.match(body.id, /^gen-/);
    assert.ok(body.usage.cost > 0);
    const read = await readSse(await chat('/openrouter/api/v1', { stream: true }));
    assert.ok(read.comments.includes('OPENROUTER PROCESSING'));
    assert.ok((jsonPayloads(read).at(-1) as Chunk).usage);
    const failed = await chat('/openrouter/api/v1', {}, { authorization: 'Bearer invalid-x' });
    assert.equal(failed.status, 401);
    assert.equal(((await failed.json()) as { error: { code: number } }).error.code, 401);
    const midStream = await readSse(
      await chat('/openrouter/api/v1', {
        stream: true,
        messages: [{ role: 'user', content: 'x [sim:mid-stream-error]' }],
      }),
    );
    const last = jsonPayloads(midStream).at(-1) as Chunk & { error: { code: number } };
    assert.equal(last.choices[0]?.finish_reason, 'error');
    assert.equal(typeof last.error.code, 'number');
  });

  it('n asks for several different answers; the usage counts the prompt once and sums their output', async () => {
    const single = (await (
      await chat('/openai/v1', { messages: [{ role: 'user', content: 'n test [sim:words=6]' }] })
    ).json()) as {
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    const body = { n: 3, messages: [{ role: 'user', content: 'n test [sim:words=6]' }] };
    const plain = (await (await chat('/openai/v1', body)).json()) as {
      choices: { index: number; message: { content: string }; finish_reason: string }[];
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
    assert.deepEqual(
      plain.choices.map((choice) => choice.index),
      [0, 1, 2],
    );
    assert.equal(new Set(plain.choices.map((choice) => choice.message.content)).size, 3, 'three different answers');
    assert.ok(plain.choices.every((choice) => choice.finish_reason === 'stop'));
    assert.equal(plain.usage.prompt_tokens, single.usage.prompt_tokens, 'the prompt is counted once');
    assert.equal(single.usage.completion_tokens, 6, 'one token per word');
    assert.equal(plain.usage.completion_tokens, 3 * 6, 'six tokens in each of three answers');
    assert.equal(plain.usage.total_tokens, plain.usage.prompt_tokens + plain.usage.completion_tokens);

    const { chunks } = await streamChunks('/openai/v1', body);
    const texts = ['', '', ''];
    const finishes: (string | null)[] = [null, null, null];
    for (const chunk of chunks) {
      assert.ok(chunk.choices.length <= 1, 'one choice per chunk');
      for (const choice of chunk.choices as {
        index: number;
        delta: { content?: string };
        finish_reason: string | null;
      }[]) {
        texts[choice.index] += choice.delta.content ?? '';
        if (choice.finish_reason) finishes[choice.index] = choice.finish_reason;
      }
    }
    assert.deepEqual(
      texts,
      plain.choices.map((choice) => choice.message.content),
      'the same answers, streamed',
    );
    assert.deepEqual(finishes, ['stop', 'stop', 'stop']);
    const usage = chunks.at(-1)?.usage;
    assert.equal(usage?.completion_tokens, plain.usage.completion_tokens);
    assert.equal(usage?.completion_tokens, countStreamedTokens(chunks));
  });

  it('local servers need no key; llama.cpp errors carry an int code, vLLM the object:error shape', async () => {
    for (const base of ['/vllm/v1', '/ollama/v1', '/llamacpp/v1']) assert.equal((await chat(base, {}, {})).status, 200);
    const llama = await chat('/llamacpp/v1', { messages: [{ role: 'user', content: 'x [sim:status=503]' }] });
    assert.equal(llama.status, 503);
    assert.deepEqual(((await llama.json()) as { error: Record<string, unknown> }).error, {
      code: 503,
      message: 'The service is temporarily overloaded (simulated fault). Please try again later.',
      type: 'unavailable_error',
    });
    const vllm = (await (await chat('/vllm/v1', { messages: [] })).json()) as Record<string, unknown>;
    assert.equal(vllm['object'], 'error');
    assert.equal(vllm['code'], 400);
  });
});
