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
let responsesUrl: string;
before(async () => {
  simulator = await startSimulator();
  responsesUrl = `${simulator.url}/openai/v1/responses`;
});
after(() => simulator.close());

type Item = Record<string, unknown> & { type: string };
type ResponseObject = {
  id: string;
  status: string;
  model: string;
  output: Item[];
  usage: Record<string, number> & Record<string, Record<string, number>>;
};

describe('OpenAI Responses simulator', () => {
  it('answers text without streaming', async () => {
    const response = await postJson(responsesUrl, {
      body: { model: 'gpt-4.1', input: 'Tell me about lanterns.' },
      headers: bearer,
    });
    assert.equal(response.status, 200);
    const body = (await response.json()) as ResponseObject;
    assert.equal(body.status, 'completed');
    assert.equal(body.model, 'gpt-4.1-2025-04-14');
    const message = body.output[0] as { type: string; content: { type: string; text: string }[] };
    assert.equal(message.type, 'message');
    assert.equal(message.content[0]?.type, 'output_text');
    assert.equal(body.usage['output_tokens'], message.content[0]?.text.split(' ').length);
    assert.equal(body.usage['total_tokens'], (body.usage['input_tokens'] ?? 0) + (body.usage['output_tokens'] ?? 0));
  });

  it('streams every event in order with sequence numbers and no [DONE]', async () => {
    const read = await readSse(
      await postJson(responsesUrl, {
        body: {
          model: 'o4-mini',
          input: 'Search it.',
          stream: true,
          reasoning: { effort: 'low', summary: 'auto' },
          tools: [{ type: 'web_search' }],
        },
        headers: bearer,
      }),
    );
    assert.ok(!read.raw.includes('[DONE]'));
    const events = jsonPayloads(read);
    events.forEach((event, index) => {
      assert.equal(event['sequence_number'], index);
      assert.equal(read.events[index]?.event, event['type']);
    });
    const types = events.map((event) => String(event['type']));
    assert.equal(types[0], 'response.created');
    assert.equal(types[1], 'response.in_progress');
    assert.equal(types.at(-1), 'response.completed');
    for (const expected of [
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.annotation.added',
      'response.output_text.done',
      'response.content_part.done',
    ]) {
      assert.ok(types.includes(expected), expected);
    }
    const added = events
      .filter((event) => event['type'] === 'response.output_item.added')
      .map((event) => event['output_index']);
    assert.deepEqual(added, [0, 1, 2]);
    const final = (events.at(-1) as { response: ResponseObject }).response;
    const deltas = events
      .filter((event) => event['type'] === 'response.output_text.delta')
      .map((event) => String(event['delta']));
    const reasoning = events.filter((event) => event['type'] === 'response.reasoning_summary_text.delta').length;
    assert.equal(final.usage['output_tokens'], deltas.length + reasoning);
    assert.equal(final.usage['output_tokens_details']?.['reasoning_tokens'], reasoning);
    const message = asShape<{
      content: { text: string; annotations: { start_index: number; end_index: number; url: string }[] }[];
    }>(final.output[2]);
    const part = message.content[0];
    assert.ok(part);
    assert.equal(part.text, deltas.join(''));
    assert.ok(part.annotations.length > 0);
    for (const annotation of part.annotations) {
      assert.ok(annotation.end_index > annotation.start_index && annotation.end_index <= part.text.length);
      assert.match(annotation.url, /^https:\/\//);
    }
  });

  it('streams a function call and accepts its output in the next request', async () => {
    const tools = [{ type: 'function', ...weatherTool }];
    const read = await readSse(
      await postJson(responsesUrl, {
        body: { model: 'gpt-4.1', input: 'Weather?', tools, stream: true },
        headers: bearer,
      }),
    );
    const events = jsonPayloads(read);
    const types = events.map((event) => event['type']);
    assert.deepEqual(types.slice(2, 4), ['response.output_item.added', 'response.function_call_arguments.delta']);
    const done = events.find((event) => event['type'] === 'response.function_call_arguments.done') as {
      arguments: string;
    };
    assert.ok(isValidWeatherArguments(JSON.parse(done.arguments)));
    const item = asShape<{ call_id: string; name: string; arguments: string }>(
      (events.at(-1) as { response: ResponseObject }).response.output[0],
    );
    const input = [
      { role: 'user', content: 'Weather?' },
      { type: 'function_call', call_id: item.call_id, name: item.name, arguments: item.arguments },
      { type: 'function_call_output', call_id: item.call_id, output: '{"temp":21}' },
    ];
    const next = (await (
      await postJson(responsesUrl, { body: { model: 'gpt-4.1', input, tools }, headers: bearer })
    ).json()) as ResponseObject;
    assert.equal(next.output[0]?.type, 'message');
  });

  it('rejects orphan tool outputs and unknown previous responses, accepts known ones', async () => {
    const orphan = await postJson(responsesUrl, {
      body: { model: 'gpt-4.1', input: [{ type: 'function_call_output', call_id: 'call_none', output: 'x' }] },
      headers: bearer,
    });
    assert.equal(orphan.status, 400);
    const unknown = await postJson(responsesUrl, {
      body: { model: 'gpt-4.1', input: 'Hi', previous_response_id: 'resp_nope' },
      headers: bearer,
    });
    assert.equal(unknown.status, 400);
    const first = (await (
      await postJson(responsesUrl, { body: { model: 'gpt-4.1', input: 'Hi' }, headers: bearer })
    ).json()) as ResponseObject;
    const known = await postJson(responsesUrl, {
      body: { model: 'gpt-4.1', input: 'Again', previous_response_id: first.id },
      headers: bearer,
    });
    assert.equal(known.status, 200);
  });

  it('ends incomplete at max_output_tokens', async () => {
    const read = await readSse(
      await postJson(responsesUrl, {
        body: { model: 'gpt-4.1', input: 'Hi', max_output_tokens: 16, stream: true },
        headers: bearer,
      }),
    );
    const last = jsonPayloads(read).at(-1) as {
      type: string;
      response: ResponseObject & { incomplete_details: { reason: string } };
    };
    assert.equal(last.type, 'response.incomplete');
    assert.equal(last.response.incomplete_details.reason, 'max_output_tokens');
    assert.equal(last.response.usage['output_tokens'], 16);
  });

  it('streams refusals as refusal events', async () => {
    const read = await readSse(
      await postJson(responsesUrl, {
        body: { model: 'gpt-4.1', input: 'No [sim:refusal]', stream: true },
        headers: bearer,
      }),
    );
    const types = jsonPayloads(read).map((event) => event['type']);
    assert.ok(types.includes('response.refusal.delta') && types.includes('response.refusal.done'));
  });

  it('sends a mid-stream error event with the next sequence number', async () => {
    const read = await readSse(
      await postJson(responsesUrl, {
        body: { model: 'gpt-4.1', input: 'Hi [sim:mid-stream-error]', stream: true },
        headers: bearer,
      }),
    );
    const events = jsonPayloads(read);
    const last = events.at(-1) as { type: string; sequence_number: number };
    assert.equal(last.type, 'error');
    assert.equal(read.events.at(-1)?.event, 'error');
    assert.equal(last.sequence_number, events.length - 1);
    assert.ok(!events.some((event) => event['type'] === 'response.completed'));
  });
});
