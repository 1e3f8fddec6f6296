import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startSimulator, type RunningSimulator } from './start-simulator.ts';
import type { SimulatorStats } from './shared/simulator-state.ts';
import {
  anthropicHeaders,
  bearer,
  geminiHeaders,
  jsonPayloads,
  postJson,
  readSse,
  weatherTool,
} from './test-support/read-sse.ts';

let simulator: RunningSimulator;
before(async () => {
  simulator = await startSimulator();
});
after(() => simulator.close());

function chat(text: string, extra: Record<string, unknown> = {}, signal?: AbortSignal): Promise<Response> {
  return postJson(
    `${simulator.url}/openai/v1/chat/completions`,
    { body: { model: 'gpt-4o', messages: [{ role: 'user', content: text }], ...extra }, headers: bearer },
    signal,
  );
}

async function stats(): Promise<SimulatorStats> {
  return (await (await fetch(`${simulator.url}/_sim/stats`)).json()) as SimulatorStats;
}

/** Reads SSE data events as they arrive, until `count` have arrived or `timeoutMs` passes. */
async function readEvents(response: Response, input: { count: number; timeoutMs: number }): Promise<string[]> {
  const reader = response.body?.getReader();
  assert.ok(reader);
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + input.timeoutMs;
  const countEvents = () => text.split('\n\n').filter((block) => block.startsWith('data: ')).length;
  while (countEvents() < input.count && Date.now() < deadline) {
    const next = await Promise.race([reader.read(), sleep(Math.max(1, deadline - Date.now())).then(() => undefined)]);
    if (!next || next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  return text.split('\n\n').filter((block) => block.startsWith('data: '));
}

describe('simulator faults and test API', () => {
  it('answers a status directive in the vendor error shape, with Retry-After', async () => {
    const rateLimited = await chat('Hi [sim:status=429 retry-after=2]');
    assert.equal(rateLimited.status, 429);
    assert.equal(rateLimited.headers.get('retry-after'), '2');
    assert.ok(rateLimited.headers.get('x-request-id'));
    const body = (await rateLimited.json()) as { error: { type: string; code: string } };
    assert.deepEqual([body.error.type, body.error.code], ['requests', 'rate_limit_exceeded']);
    assert.equal((await chat('Hi [sim:status=500]')).status, 500);
    const unavailable = await chat('Hi [sim:status=503]', { stream: true });
    assert.equal(unavailable.status, 503);
    assert.equal(((await unavailable.json()) as { error: { type: string } }).error.type, 'server_error');
  });

  it('makes a whole base URL misbehave through a /_fault/ path prefix', async () => {
    const openAiBase = `${simulator.url}/_fault/${encodeURIComponent('status=503')}/openai/v1`;
    assert.equal((await fetch(`${openAiBase}/models`, { headers: bearer })).status, 503);
    const anthropic = await postJson(
      `${simulator.url}/_fault/${encodeURIComponent('[sim:status=429 retry-after=4]')}/anthropic/v1/messages`,
      {
        body: { model: 'claude-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] },
        headers: anthropicHeaders,
      },
    );
    assert.equal(anthropic.status, 429);
    assert.equal(anthropic.headers.get('retry-after'), '4');
    assert.equal(((await anthropic.json()) as { error: { type: string } }).error.type, 'rate_limit_error');
    const gemini = await postJson(
      `${simulator.url}/_fault/mid-stream-error/gemini/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
      {
        body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] },
        headers: geminiHeaders,
      },
    );
    assert.equal(gemini.status, 200);
    const last = jsonPayloads(await readSse(gemini)).at(-1) as { error: { status: string } };
    assert.equal(last.error.status, 'UNAVAILABLE');
  });

  it('delays the first byte', async () => {
    const started = Date.now();
    const response = await chat('Hi [sim:delay-first-byte=300]');
    assert.equal(response.status, 200);
    assert.ok(Date.now() - started >= 280);
  });

  it('stalls after N chunks with the socket open, and counts the client abort', async () => {
    const before = await stats();
    const controller = new AbortController();
    const response = await chat('Hi [sim:stall-after=3]', { stream: true }, controller.signal);
    const events = await readEvents(response, { count: 4, timeoutMs: 300 });
    assert.equal(events.length, 3);
    assert.equal((await stats()).openStreams, before.openStreams + 1);
    controller.abort();
    await sleep(50);
    const after = await stats();
    assert.equal(after.openStreams, before.openStreams);
    assert.equal(after.abortedStreams, before.abortedStreams + 1);
  });

  it('resets the connection before or during the answer', async () => {
    await assert.rejects(chat('Hi [sim:reset]'));
    const response = await chat('Hi [sim:reset-after=3]', { stream: true });
    assert.equal(response.status, 200);
    await assert.rejects(response.text());
  });

  it('sends invalid JSON when asked', async () => {
    await assert.rejects((await chat('Hi [sim:invalid-json]')).json());
    const read = await readSse(await chat('Hi [sim:invalid-json]', { stream: true }));
    assert.throws(() => JSON.parse(read.events[1]?.data ?? ''));
    assert.doesNotThrow(() => JSON.parse(read.events[2]?.data ?? ''));
  });

  it('sends OpenAI mid-stream errors as a data event with an error key', async () => {
    const read = await readSse(await chat('Hi [sim:mid-stream-error]', { stream: true }));
    const last = jsonPayloads(read).at(-1) as { error: { type: string } };
    assert.equal(last.error.type, 'server_error');
    assert.ok(!read.raw.includes('[DONE]'));
  });

  it('sets the answer length with [sim:words=N]', async () => {
    const body = (await (await chat('Hi [sim:words=500]')).json()) as { usage: { completion_tokens: number } };
    assert.equal(body.usage.completion_tokens, 500);
  });

  it('[sim:tool-rounds=N] counts the rounds of calls of the turn in each wire format', async () => {
    const ask = 'Weather in Oslo? [sim:tool-rounds=2 parallel]';
    // Responses: parallel calls are separate function_call items, one round.
    const responses = async (input: unknown[]) => {
      const response = await postJson(`${simulator.url}/openai/v1/responses`, {
        body: { model: 'gpt-4o', input, tools: [{ type: 'function', ...weatherTool }] },
        headers: bearer,
      });
      assert.equal(response.status, 200);
      const body = (await response.json()) as { output: Array<{ type: string; call_id?: string }> };
      return body.output.filter((item) => item.type === 'function_call');
    };
    const firstCalls = await responses([{ role: 'user', content: ask }]);
    assert.equal(firstCalls.length, 2);
    const roundOne = [
      ...firstCalls,
      ...firstCalls.map((call) => ({ type: 'function_call_output', call_id: call.call_id, output: '21 °C' })),
    ];
    const secondCalls = await responses([{ role: 'user', content: ask }, ...roundOne]);
    assert.equal(secondCalls.length, 2, 'one round so far: the model calls again');
    const roundTwo = [
      ...secondCalls,
      ...secondCalls.map((call) => ({ type: 'function_call_output', call_id: call.call_id, output: '21 °C' })),
    ];
    assert.deepEqual(await responses([{ role: 'user', content: ask }, ...roundOne, ...roundTwo]), []);
    // Anthropic: a tool_use turn answered by a tool_result turn.
    const tool = { name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters };
    const messages = async (history: unknown[]) => {
      const response = await postJson(`${simulator.url}/anthropic/v1/messages`, {
        body: { model: 'claude-sonnet-4-5', max_tokens: 200, messages: history, tools: [tool] },
        headers: anthropicHeaders,
      });
      assert.equal(response.status, 200);
      return (await response.json()) as { content: Array<{ type: string; id?: string }> };
    };
    const asked = { role: 'user', content: 'Weather in Oslo? [sim:tool-rounds=2]' };
    const answerOf = (turn: { content: Array<{ type: string; id?: string }> }) => [
      { role: 'assistant', content: turn.content },
      {
        role: 'user',
        content: turn.content.flatMap((block) =>
          block.type === 'tool_use' ? [{ type: 'tool_result', tool_use_id: block.id, content: '21 °C' }] : [],
        ),
      },
    ];
    const first = await messages([asked]);
    assert.ok(
      first.content.some((block) => block.type === 'tool_use'),
      'round one calls',
    );
    const second = await messages([asked, ...answerOf(first)]);
    assert.ok(
      second.content.some((block) => block.type === 'tool_use'),
      'round two calls',
    );
    const third = await messages([asked, ...answerOf(first), ...answerOf(second)]);
    assert.ok(!third.content.some((block) => block.type === 'tool_use'), 'after two rounds, text');
  });

  it('counts requests per vendor and resets counters', async () => {
    await chat('Hi');
    assert.ok((await stats()).requestsByVendor.openai > 0);
    assert.equal((await fetch(`${simulator.url}/_sim/reset`, { method: 'POST' })).status, 200);
    const cleared = await stats();
    assert.equal(cleared.requestsByVendor.openai, 0);
    assert.equal(cleared.totalRequests, 0);
  });

  it('paces chunks and closes promptly with a stalled stream open', async () => {
    const paced = await startSimulator({ chunkDelayMs: 20 });
    const started = Date.now();
    const response = await postJson(`${paced.url}/openai/v1/chat/completions`, {
      body: { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Hi [sim:words=10]' }] },
      headers: bearer,
    });
    await response.text();
    assert.ok(Date.now() - started >= 200);
    const stalled = await postJson(`${paced.url}/openai/v1/chat/completions`, {
      body: { model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'Hi [sim:stall-after=1]' }] },
      headers: bearer,
    });
    const reading = stalled.text().catch(() => 'ended');
    const closing = Date.now();
    await paced.close();
    await reading;
    assert.ok(Date.now() - closing < 1000);
  });
});
