import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import {
  checkEventOrder,
  familyModels,
  responseSchema,
  schemas,
  startResponsesFixture,
  streamEventSchema,
  type ResponsesFixture,
} from '../support/responses-fixture.ts';

describe('POST /v1/responses through the official OpenAI SDK', () => {
  let fixture: ResponsesFixture;
  let client: OpenAI;
  before(async () => {
    fixture = await startResponsesFixture();
    client = fixture.client;
  });
  after(() => fixture.close());
  const checkCitations = (response: Response) => fixture.checkCitations(response);

  test('plain input with instructions, for every vendor family: a schema-valid Response billed at its usage.cost', async () => {
    for (const model of familyModels) {
      const { data: response, response: http } = await client.responses
        .create({ model, instructions: 'Answer in one paragraph.', input: 'Describe a river delta.' })
        .withResponse();
      assert.deepEqual(schemas.problemsOf(responseSchema, response), [], model);
      assert.match(response.id, /^resp_/);
      assert.equal(response.object, 'response');
      assert.equal(response.status, 'completed');
      assert.equal(response.model, model, 'model echoes the requested id');
      assert.equal(response.instructions, 'Answer in one paragraph.');
      assert.ok(response.output_text.length > 0, `${model} answered`);
      const usage = response.usage as Response['usage'] & { cost: number };
      assert.ok(usage && usage.input_tokens > 0 && usage.output_tokens > 0);
      assert.equal(usage.total_tokens, usage.input_tokens + usage.output_tokens);
      const record = await findUsageRecord(fixture.gateway.gateway.database.db, http.headers.get('x-request-id') ?? '');
      assert.ok(record, `${model} usage record`);
      assert.equal(record.endpoint, 'responses');
      assert.equal(record.input_tokens, usage.input_tokens);
      assert.equal(record.output_tokens, usage.output_tokens);
      assert.equal(usage.cost, microsToUsd(record.cost_micros));
    }
  });

  test('a function tool round trip: function_call item, then the answer after function_call_output', async () => {
    for (const model of familyModels) {
      const tools: OpenAI.Responses.Tool[] = [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Current weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          strict: false,
        },
      ];
      const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Weather in Paris?' }];
      const first = await client.responses.create({ model, input, tools, tool_choice: 'required' });
      assert.deepEqual(schemas.problemsOf(responseSchema, first), [], model);
      const call = first.output.find((item) => item.type === 'function_call');
      assert.ok(call && call.type === 'function_call', `${model} called the function`);
      assert.equal(call.name, 'get_weather');
      assert.equal(typeof (JSON.parse(call.arguments) as { city: unknown }).city, 'string');
      assert.ok(call.call_id.length > 0);
      const second = await client.responses.create({
        model,
        tools,
        input: [
          ...input,
          // The SDK's output item union is wider than its input item union; these items are valid input.
          ...(first.output as OpenAI.Responses.ResponseInputItem[]),
          { type: 'function_call_output', call_id: call.call_id, output: '18°C, clear' },
        ],
      });
      assert.equal(second.status, 'completed');
      assert.ok(second.output_text.length > 0, `${model} answered after the tool result`);
      assert.ok(!second.output.some((item) => item.type === 'function_call'));
    }
  });

  test('text.format json_schema gives JSON that follows the schema', async () => {
    const response = await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'Give me a city and its population.',
      text: {
        format: {
          type: 'json_schema',
          name: 'city',
          strict: true,
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, population: { type: 'integer', minimum: 0 } },
            required: ['name', 'population'],
            additionalProperties: false,
          },
        },
      },
    });
    const parsed = JSON.parse(response.output_text) as { name: unknown; population: unknown };
    assert.equal(typeof parsed.name, 'string');
    assert.ok(Number.isInteger(parsed.population) && (parsed.population as number) >= 0);
    assert.equal((response.text?.format as { type: string }).type, 'json_schema');
  });

  test('responses.stream: every event in SDK order, annotations announced, finalResponse() unchanged', async () => {
    for (const model of familyModels) {
      const stream = client.responses.stream({
        model,
        input: 'What causes ocean tides?',
        tools: [{ type: 'web_search' }],
      });
      const events: ResponseStreamEvent[] = [];
      for await (const event of stream) events.push(event);
      const final = await stream.finalResponse();
      checkEventOrder(events);
      for (const event of events) assert.deepEqual(schemas.problemsOf(streamEventSchema, event), [], event.type);
      assert.ok(
        events.some((event) => event.type === 'response.output_text.annotation.added'),
        model,
      );
      assert.equal(final.status, 'completed');
      assert.equal(final.model, model);
      assert.ok(final.output_text.length > 0);
      const completed = events.at(-1);
      assert.ok(completed?.type === 'response.completed');
      // The SDK adds `parsed: null` to the text parts of the response it assembles; everything else must match.
      const withoutParsed: unknown = JSON.parse(
        JSON.stringify(final.output, (key, value: unknown) => (key === 'parsed' ? undefined : value)),
      );
      assert.deepEqual(
        withoutParsed,
        completed.response.output,
        'the snapshot built from deltas equals the final output',
      );
      assert.ok((await checkCitations(final)) >= 1);
      assert.ok((final.usage as unknown as { cost: number }).cost > 0, 'the stream states its cost');
    }
  });

  test('a streamed function call: arguments deltas then done, and the raw stream names every event', async () => {
    const response = await fetch(`${fixture.gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'deepseek-chat',
        stream: true,
        input: 'Look up the weather in Oslo.',
        tools: [
          {
            type: 'function',
            name: 'get_weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        ],
        tool_choice: { type: 'function', name: 'get_weather' },
      }),
    });
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.doesNotMatch(text, /\[DONE\]/, 'the Responses stream ends with its terminal event, no [DONE]');
    const events = text
      .split('\n\n')
      .filter((block) => block.startsWith('event: '))
      .map((block) => {
        const [eventLine, dataLine] = block.split('\n');
        const event = JSON.parse(dataLine?.replace(/^data: /, '') ?? '') as ResponseStreamEvent;
        assert.equal(eventLine, `event: ${event.type}`);
        return event;
      });
    checkEventOrder(events);
    const types = events.map((event) => event.type);
    assert.ok(types.includes('response.function_call_arguments.delta'));
    const done = events.find((event) => event.type === 'response.function_call_arguments.done');
    assert.ok(done?.type === 'response.function_call_arguments.done');
    assert.equal(done.name, 'get_weather');
    const deltas = events.filter((event) => event.type === 'response.function_call_arguments.delta');
    assert.equal(deltas.map((event) => event.delta).join(''), done.arguments);
  });

  test('reasoning text from the vendor becomes a reasoning item, streamed and not', async () => {
    const response = await client.responses.create({ model: 'deepseek-reasoner', input: 'Is 91 prime?' });
    assert.deepEqual(schemas.problemsOf(responseSchema, response), []);
    const reasoning = response.output[0];
    assert.ok(reasoning?.type === 'reasoning' && (reasoning.content?.[0]?.text.length ?? 0) > 0);
    assert.ok((response.usage?.output_tokens_details.reasoning_tokens ?? 0) > 0);
    const stream = client.responses.stream({ model: 'deepseek-reasoner', input: 'Is 91 prime?' });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    checkEventOrder(events);
    for (const event of events) assert.deepEqual(schemas.problemsOf(streamEventSchema, event), [], event.type);
    assert.ok(events.some((event) => event.type === 'response.reasoning_text.delta'));
    const final = await stream.finalResponse();
    assert.equal(final.output[0]?.type, 'reasoning');
    assert.equal(final.output_text, response.output_text, 'streamed and non-streamed answers agree');
  });

  test("OpenAI routes use OpenAI's own Responses API: a reasoning summary asked for comes back", async () => {
    // OpenAI's Chat Completions never return reasoning text; its Responses API returns the summary asked for.
    for (const stream of [false, true]) {
      const request = {
        model: 'o4-mini',
        input: 'Is 91 prime?',
        reasoning: { effort: 'low' as const, summary: 'auto' as const },
      };
      const response = stream
        ? await client.responses.stream(request).finalResponse()
        : await client.responses.create(request);
      assert.deepEqual(schemas.problemsOf(responseSchema, response), []);
      const reasoning = response.output.find((item) => item.type === 'reasoning');
      assert.ok(reasoning?.type === 'reasoning' && (reasoning.content?.[0]?.text.length ?? 0) > 0, `stream: ${stream}`);
      assert.ok((response.usage?.output_tokens_details.reasoning_tokens ?? 0) > 0);
    }
  });

  test('a vendor refusal becomes a refusal part, streamed and not', async () => {
    const response = await client.responses.create({ model: 'gpt-4o', input: 'Do the forbidden thing [sim:refusal]' });
    assert.deepEqual(schemas.problemsOf(responseSchema, response), []);
    const message = response.output.find((item) => item.type === 'message');
    assert.ok(message?.type === 'message' && message.content[0]?.type === 'refusal');
    assert.ok(message.content[0].refusal.length > 0);
    const stream = client.responses.stream({ model: 'gpt-4o', input: 'Do the forbidden thing [sim:refusal]' });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    checkEventOrder(events);
    const done = events.find((event) => event.type === 'response.refusal.done');
    assert.ok(done?.type === 'response.refusal.done');
    assert.equal(done.refusal, message.content[0].refusal);
    const final = await stream.finalResponse();
    const finalMessage = final.output[0];
    assert.ok(finalMessage?.type === 'message' && finalMessage.content[0]?.type === 'refusal');
    assert.equal(finalMessage.content[0].refusal, message.content[0].refusal);
  });

  test('x-gateway-route names the route for an operator key only, streamed and not', async () => {
    const operator = await fixture.gateway.createUserWithKey({ role: 'admin' });
    for (const stream of [false, true]) {
      const routeOf = async (key: string) => {
        const response = await fetch(`${fixture.gateway.url}/v1/responses`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gemini-2.5-flash', input: 'Hello', stream }),
        });
        await response.text();
        assert.equal(response.status, 200);
        return response.headers.get('x-gateway-route');
      };
      assert.match((await routeOf(operator.key)) ?? '', /\S/, `stream: ${stream}`);
      assert.equal(await routeOf(fixture.apiKey), null, 'a customer key never sees the route');
    }
  });

  test('a model silent before its first event: headers and keep-alives flow, then the events', async () => {
    const text = await fixture.postRawStream({ model: 'gpt-4o', input: 'Think first. [sim:delay-first-byte=1500]' });
    const firstEventAt = text.indexOf('event: ');
    assert.ok(text.indexOf(': keep-alive') >= 0, 'keep-alive comments while the model is silent');
    assert.ok(text.indexOf(': keep-alive') < firstEventAt, 'before the first event');
    assert.match(text, /event: response\.completed\n/);
  });

  test('a failure after the headers went out during a silent wait is reported in-stream, and costs nothing', async () => {
    const before = await fixture.balance();
    const text = await fixture.postRawStream({
      model: 'gpt-4o',
      input: 'Fail. [sim:delay-first-byte=1500] [sim:status=400]',
    });
    const types = [...text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    assert.deepEqual(types, ['response.created', 'response.in_progress', 'error', 'response.failed']);
    assert.ok(text.indexOf(': keep-alive') < text.indexOf('event: '));
    assert.equal(await fixture.balance(), before, 'nothing was delivered, nothing is charged');
  });

  test('bad requests get OpenAI-shaped errors naming the field', async () => {
    const cases: Array<{ body: Record<string, unknown>; status: number; param: string | null }> = [
      { body: { model: 'no-such-model', input: 'hi' }, status: 404, param: 'model' },
      { body: { model: 'gpt-4o-mini', input: 'hi', temperature: 7 }, status: 400, param: 'temperature' },
      {
        body: { model: 'gpt-4o-mini', input: 'hi', tools: [{ type: 'file_search' }] },
        status: 400,
        param: 'tools[0].type',
      },
      {
        body: { model: 'gpt-4o-mini', input: [{ type: 'telepathy', text: 'hi' }] },
        status: 400,
        param: 'input[0].type',
      },
      { body: { model: 'gpt-4o-mini', input: [] }, status: 400, param: 'input' },
      { body: { model: 'gpt-4o-mini', input: '  ' }, status: 400, param: 'input' },
      { body: { model: 'gpt-4o-mini' }, status: 400, param: 'input' },
      {
        body: { model: 'gpt-4o-mini', input: 'hi', previous_response_id: 'resp_1' },
        status: 400,
        param: 'previous_response_id',
      },
      { body: { model: 'gpt-4o-mini', input: 'hi', store: true }, status: 400, param: 'store' },
      { body: { model: 'gpt-4o-mini', input: 'hi', include: ['bogus'] }, status: 400, param: 'include[0]' },
      { body: { model: 'gpt-4o-mini', input: 'hi', max_output_tokens: 3 }, status: 400, param: 'max_output_tokens' },
      {
        body: { model: 'gpt-4o-mini', input: 'hi', tool_choice: { type: 'function', name: 'nope' } },
        status: 400,
        param: 'tool_choice',
      },
      {
        body: { model: 'gpt-4o-mini', input: [{ type: 'item_reference', id: 'msg_1' }] },
        status: 400,
        param: 'input[0].type',
      },
      {
        body: { model: 'gpt-4o-mini', input: [{ role: 'user', content: [{ type: 'input_text', text: 7 }] }] },
        status: 400,
        param: 'input[0].content[0].text',
      },
      {
        body: { model: 'gpt-4o-mini', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] },
        status: 400,
        param: 'input[0].content[0].type',
      },
      {
        body: {
          model: 'gpt-4o-mini',
          input: [
            { role: 'user', content: 'hi' },
            { type: 'function_call_output', call_id: 'call_unknown', output: '1' },
          ],
        },
        status: 400,
        param: 'input[1].call_id',
      },
    ];
    for (const { body, status, param } of cases) {
      const response = await fetch(`${fixture.gateway.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fixture.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const error = (await response.json()) as unknown;
      assert.equal(response.status, status, JSON.stringify(body));
      assert.deepEqual(schemas.problemsOf('ErrorResponse', error), []);
      assert.equal((error as { error: { param: string | null } }).error.param, param, JSON.stringify(body));
    }
    await assert.rejects(client.responses.create({ model: 'no-such-model', input: 'hi' }), OpenAI.NotFoundError);
  });

  test('GET /v1/responses/{id} is a 404 in the same shape: nothing is stored', async () => {
    await assert.rejects(client.responses.retrieve('resp_123'), (error: unknown) => {
      assert.ok(error instanceof OpenAI.NotFoundError);
      assert.match(error.message, /stateless/);
      return true;
    });
  });
});
