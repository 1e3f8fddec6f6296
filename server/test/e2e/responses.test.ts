import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { countCodePoints, sliceCodePoints } from '../../src/lib/code-point-offsets.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import {
  startSearchSimulator,
  type RunningSearchSimulator,
} from '../../src/search/simulator/start-search-simulator.ts';
import { conformanceModels } from '../support/conformance/conformance-models.ts';
import { loadOpenApiSchemaValidator, type OpenAiSchemaName } from '../support/openapi-schema-validator.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** One model of every vendor family of the conformance suite (OpenAI, Anthropic, Gemini and five OpenAI dialects). */
const familyModels = conformanceModels.map((model) => model.id);
const schemas = loadOpenApiSchemaValidator();
// The shared validator's name list predates the Responses API; these are schemas of the same OpenAPI file.
const responseSchema = 'Response' as OpenAiSchemaName;
const streamEventSchema = 'ResponseStreamEvent' as OpenAiSchemaName;

describe('POST /v1/responses through the official OpenAI SDK', () => {
  let gateway: TestGateway;
  let search: RunningSearchSimulator;
  let client: OpenAI;
  let userId: string;

  before(async () => {
    search = await startSearchSimulator();
    gateway = await startTestGateway({
      environment: {
        SEARCH_ENGINE: 'searxng',
        SEARCH_BASE_URL: `${search.url}/searxng`,
        SEARCH_TIMEOUT_MS: '1000',
        KEEPALIVE_INTERVAL_MS: '300',
      },
    });
    const user = await gateway.createUserWithKey();
    userId = user.userId;
    client = new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gateway.close();
    await search.close();
  });

  /** The URLs the search simulator returns for a query, asked over its own SearXNG API. */
  async function searchResultUrls(query: string): Promise<Set<string>> {
    const response = await fetch(`${search.url}/searxng/search?format=json&q=${encodeURIComponent(query)}`);
    const body = (await response.json()) as { results: Array<{ url: string }> };
    return new Set(body.results.map((result) => result.url));
  }

  /** A streamed request over raw HTTP, to see the bytes as they come (comments included). */
  async function postRawStream(body: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true }),
    });
    assert.equal(response.status, 200);
    return response.text();
  }

  const balance = () => sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));

  async function checkCitations(response: Response): Promise<number> {
    const searches = response.output.filter((item) => item.type === 'web_search_call');
    assert.ok(searches.length >= 1, `${response.model} searched`);
    const urls = new Set<string>();
    for (const item of searches) {
      assert.equal(item.status, 'completed');
      assert.ok(item.action.type === 'search' && item.action.query, 'the search records its query');
      if (item.action.type === 'search') for (const url of await searchResultUrls(item.action.query)) urls.add(url);
    }
    let annotationCount = 0;
    for (const item of response.output) {
      if (item.type !== 'message') continue;
      for (const part of item.content) {
        if (part.type !== 'output_text') continue;
        assert.doesNotMatch(part.text, /\[\d+\]/, 'the [n] markers are removed from the text');
        for (const annotation of part.annotations) {
          assert.equal(annotation.type, 'url_citation');
          if (annotation.type !== 'url_citation') continue;
          assert.ok(urls.has(annotation.url), `${annotation.url} is one of the engine's results`);
          assert.ok(annotation.title.length > 0);
          assert.ok(0 <= annotation.start_index && annotation.start_index < annotation.end_index);
          assert.ok(annotation.end_index <= countCodePoints(part.text));
          // Offsets count code points (docs/responses.md): Python's `text[start:end]`, JavaScript's Array.from.
          const cited = sliceCodePoints(part.text, annotation.start_index, annotation.end_index);
          assert.equal(cited, cited.trim(), 'a citation covers words, not the spaces around them');
          annotationCount += 1;
        }
      }
    }
    return annotationCount;
  }

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
      const record = await findUsageRecord(gateway.gateway.database.db, http.headers.get('x-request-id') ?? '');
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

  test('web_search for every vendor family: url_citation annotations on URLs the engine returned', async () => {
    for (const model of familyModels) {
      const response = await client.responses.create({
        model,
        input: 'What causes ocean tides?',
        tools: [{ type: 'web_search' }],
        include: ['web_search_call.action.sources'],
      });
      assert.deepEqual(schemas.problemsOf(responseSchema, response), [], model);
      assert.ok((await checkCitations(response)) >= 1, `${model} cited a source`);
      const searchCall = response.output.find((item) => item.type === 'web_search_call');
      assert.ok(searchCall?.type === 'web_search_call' && searchCall.action.type === 'search');
      assert.ok((searchCall.action.sources ?? []).length > 0, 'include lists the sources');
    }
  });

  test('citation offsets count code points: emoji and astral letters before a citation slice as in Python', async () => {
    for (const stream of [false, true]) {
      const request = {
        model: 'gpt-4o-mini',
        input: 'Почему бывают приливы 🌊 и отливы 𠀋? Explain.',
        tools: [{ type: 'web_search_preview' as const }],
      };
      const response = stream
        ? await client.responses.stream(request).finalResponse()
        : await client.responses.create(request);
      assert.ok((await checkCitations(response)) >= 2);
      const message = response.output.find((item) => item.type === 'message');
      const part = message?.type === 'message' ? message.content[0] : undefined;
      assert.ok(part?.type === 'output_text');
      const annotations = part.annotations.flatMap((annotation) =>
        annotation.type === 'url_citation' ? [annotation] : [],
      );
      const last = annotations.at(-1);
      assert.ok(last);
      const before = part.text.slice(
        0,
        part.text.indexOf(sliceCodePoints(part.text, last.start_index, last.end_index)),
      );
      assert.match(before, /🌊/u, 'precondition: an emoji comes before the last citation');
      assert.match(before, /𠀋/u, 'precondition: a non-BMP letter comes before the last citation');
      assert.notEqual(
        part.text.slice(last.start_index, last.end_index),
        sliceCodePoints(part.text, last.start_index, last.end_index),
        'UTF-16 indices would cut elsewhere',
      );
      let previousEnd = 0;
      for (const { start_index: start, end_index: end } of annotations) {
        const preceding = sliceCodePoints(part.text, 0, start);
        const isSentenceStart = start === 0 || /[.!?]\s+$/.test(preceding);
        const followsCitation = start >= previousEnd && sliceCodePoints(part.text, previousEnd, start).trim() === '';
        assert.ok(
          isSentenceStart || followsCitation,
          `"${sliceCodePoints(part.text, start, end)}" starts a sentence or follows a citation`,
        );
        previousEnd = end;
      }
    }
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
    const response = await fetch(`${gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
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

  test('max_output_tokens caps the output of every round together: an incomplete response', async () => {
    const response = await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'What causes ocean tides? [sim:words=200]',
      tools: [{ type: 'web_search' }],
      max_output_tokens: 40,
    });
    assert.deepEqual(schemas.problemsOf(responseSchema, response), []);
    assert.equal(response.status, 'incomplete');
    assert.deepEqual(response.incomplete_details, { reason: 'max_output_tokens' });
    assert.ok(
      response.output.some((item) => item.type === 'web_search_call'),
      'the search round ran',
    );
    assert.ok((response.usage?.output_tokens ?? 0) <= 40, `${response.usage?.output_tokens} output tokens`);
    assert.equal((response.output.at(-1) as { status?: string } | undefined)?.status, 'incomplete');
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

  test('a failing search engine degrades: web_search_call failed, an answer without citations, no error', async () => {
    const response = await client.responses.create({
      model: 'gpt-4o-mini',
      input: 'What causes ocean tides? [search:status=500]',
      tools: [{ type: 'web_search' }],
    });
    assert.equal(response.status, 'completed');
    const searchCall = response.output.find((item) => item.type === 'web_search_call');
    assert.ok(searchCall?.type === 'web_search_call');
    assert.equal(searchCall.status, 'failed');
    assert.ok(response.output_text.length > 0);
    for (const item of response.output) {
      if (item.type === 'message')
        for (const part of item.content) assert.deepEqual((part as { annotations: unknown[] }).annotations, []);
    }
  });

  test('a search engine that times out degrades the same way: web_search_call failed, the answer completes', async () => {
    for (const stream of [false, true]) {
      const request = {
        model: 'claude-haiku-4-5',
        input: 'What causes ocean tides? [search:slow=5000]',
        tools: [{ type: 'web_search' as const }],
      };
      const response = stream
        ? await client.responses.stream(request).finalResponse()
        : await client.responses.create(request);
      assert.equal(response.status, 'completed');
      const searchCall = response.output.find((item) => item.type === 'web_search_call');
      assert.ok(searchCall?.type === 'web_search_call');
      assert.equal(searchCall.status, 'failed', `stream: ${stream}`);
      assert.ok(response.output_text.length > 0);
    }
  });

  test('tool_choice required with web search the only tool makes the model search first', async () => {
    const response = await client.responses.create({
      model: 'mistral-large-latest',
      input: 'Tell me about tides.',
      tools: [{ type: 'web_search' }],
      tool_choice: 'required',
    });
    assert.equal(response.output[0]?.type, 'web_search_call');
    assert.equal(response.status, 'completed');
  });

  test('max_tool_calls caps the searches; more than the hold can cover is a 400', async () => {
    // The Node SDK's types lack `max_tool_calls` (a field of the OpenAPI spec); it sends it as given.
    const withMaxToolCalls = (maxToolCalls: number, input: string) =>
      ({
        model: 'gpt-4o-mini',
        input,
        tools: [{ type: 'web_search' }],
        max_tool_calls: maxToolCalls,
      }) as OpenAI.Responses.ResponseCreateParamsNonStreaming;
    const response = await client.responses.create(withMaxToolCalls(1, 'What causes ocean tides?'));
    assert.equal(response.output.filter((item) => item.type === 'web_search_call').length, 1);
    await assert.rejects(
      client.responses.create(withMaxToolCalls(6, 'x')),
      (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === 'max_tool_calls',
    );
  });

  test('x-gateway-route names the route for an operator key only, streamed and not', async () => {
    const operator = await gateway.createUserWithKey({ role: 'admin' });
    for (const stream of [false, true]) {
      const routeOf = async (key: string) => {
        const response = await fetch(`${gateway.url}/v1/responses`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gemini-2.5-flash', input: 'Hello', stream }),
        });
        await response.text();
        assert.equal(response.status, 200);
        return response.headers.get('x-gateway-route');
      };
      assert.match((await routeOf(operator.key)) ?? '', /\S/, `stream: ${stream}`);
      assert.equal(await routeOf(client.apiKey ?? ''), null, 'a customer key never sees the route');
    }
  });

  test('a model silent before its first event: headers and keep-alives flow, then the events', async () => {
    const text = await postRawStream({ model: 'gpt-4o', input: 'Think first. [sim:delay-first-byte=1500]' });
    const firstEventAt = text.indexOf('event: ');
    assert.ok(text.indexOf(': keep-alive') >= 0, 'keep-alive comments while the model is silent');
    assert.ok(text.indexOf(': keep-alive') < firstEventAt, 'before the first event');
    assert.match(text, /event: response\.completed\n/);
  });

  test('a failure after the headers went out during a silent wait is reported in-stream, and costs nothing', async () => {
    const before = await balance();
    const text = await postRawStream({ model: 'gpt-4o', input: 'Fail. [sim:delay-first-byte=1500] [sim:status=400]' });
    const types = [...text.matchAll(/^event: (.+)$/gm)].map((match) => match[1]);
    assert.deepEqual(types, ['response.created', 'response.in_progress', 'error', 'response.failed']);
    assert.ok(text.indexOf(': keep-alive') < text.indexOf('event: '));
    assert.equal(await balance(), before, 'nothing was delivered, nothing is charged');
  });

  test('an empty search result set: the search completed, nothing to cite', async () => {
    const response = await client.responses.create({
      model: 'claude-haiku-4-5',
      input: 'Anything new? [search:empty]',
      tools: [{ type: 'web_search' }],
    });
    const searchCall = response.output.find((item) => item.type === 'web_search_call');
    assert.equal(searchCall?.status, 'completed');
    assert.ok(
      !response.output.some(
        (item) =>
          item.type === 'message' && item.content.some((part) => 'annotations' in part && part.annotations.length > 0),
      ),
    );
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
      const response = await fetch(`${gateway.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
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

/**
 * The ordering rules the SDKs enforce (wire-formats.md §2.4): created first with sequence 0, numbers without gaps,
 * items added densely before their deltas, parts added before text, annotations after the text they cite, every
 * open item done before the end, the terminal event last.
 */
function checkEventOrder(events: readonly ResponseStreamEvent[]): void {
  assert.equal(events[0]?.type, 'response.created');
  assert.equal(events[1]?.type, 'response.in_progress');
  for (const opening of events.slice(0, 2)) {
    // The Python SDK's stream helper rebuilds the output from the item events: an opening output must be empty.
    assert.ok(opening.type === 'response.created' || opening.type === 'response.in_progress');
    assert.deepEqual(opening.response.output, [], `${opening.type} carries no output yet`);
  }
  events.forEach((event, index) => assert.equal(event.sequence_number, index, `sequence of ${event.type}`));
  const items = new Map<number, { isDone: boolean; parts: Map<number, string> }>();
  const itemAt = (outputIndex: number) => {
    const item = items.get(outputIndex);
    assert.ok(item && !item.isDone, `output ${outputIndex} is open`);
    return item;
  };
  for (const event of events.slice(2, -1)) {
    switch (event.type) {
      case 'response.output_item.added':
        assert.equal(event.output_index, items.size, 'output indices are dense');
        items.set(event.output_index, { isDone: false, parts: new Map() });
        break;
      case 'response.output_item.done':
        itemAt(event.output_index).isDone = true;
        break;
      case 'response.content_part.added':
        itemAt(event.output_index).parts.set(event.content_index, '');
        break;
      case 'response.output_text.delta': {
        const parts = itemAt(event.output_index).parts;
        assert.ok(parts.has(event.content_index), 'a part is added before its text');
        parts.set(event.content_index, (parts.get(event.content_index) ?? '') + event.delta);
        break;
      }
      case 'response.output_text.annotation.added': {
        const text = itemAt(event.output_index).parts.get(event.content_index) ?? '';
        const annotation = event.annotation as { end_index: number };
        assert.ok(annotation.end_index <= text.length, 'an annotation follows the text it cites');
        break;
      }
      case 'response.output_text.done':
        assert.equal(event.text, itemAt(event.output_index).parts.get(event.content_index), 'done repeats the deltas');
        break;
      case 'response.function_call_arguments.delta':
      case 'response.web_search_call.searching':
        itemAt(event.output_index);
        break;
      default:
        break;
    }
  }
  assert.ok(
    [...items.values()].every((item) => item.isDone),
    'every item is done before the end',
  );
  assert.ok(['response.completed', 'response.incomplete'].includes(events.at(-1)?.type ?? ''));
}
