import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Response } from 'openai/resources/responses/responses';
import { sliceCodePoints } from '../../src/lib/code-point-offsets.ts';
import {
  familyModels,
  responseSchema,
  schemas,
  startResponsesFixture,
  type ResponsesFixture,
} from '../support/responses-fixture.ts';

describe('POST /v1/responses with web search: citations, limits and failures', () => {
  let fixture: ResponsesFixture;
  let client: OpenAI;
  before(async () => {
    fixture = await startResponsesFixture();
    client = fixture.client;
  });
  after(() => fixture.close());
  const checkCitations = (response: Response) => fixture.checkCitations(response);

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
    // `[sim:tool-rounds=0]`: the simulated model calls a tool only when the request forces one.
    const ask = (toolChoice: 'auto' | 'required') =>
      client.responses.create({
        model: 'mistral-large-latest',
        input: 'Tell me about tides. [sim:tool-rounds=0]',
        tools: [{ type: 'web_search' }],
        tool_choice: toolChoice,
      });
    const unforced = await ask('auto');
    assert.ok(
      !unforced.output.some((item) => item.type === 'web_search_call'),
      'precondition: left to choose, the model does not search',
    );
    const response = await ask('required');
    assert.equal(response.output[0]?.type, 'web_search_call');
    assert.equal(response.status, 'completed');
    assert.ok((await checkCitations(response)) >= 1, 'the answer cites the forced search');
  });

  test('max_tool_calls caps the searches; more than the hold can cover is a 400', async () => {
    // `[sim:tool-rounds=5]`: the simulated model searches again after each result, as long as search is offered.
    const input = 'What causes ocean tides? [sim:tool-rounds=5]';
    // The Node SDK's types lack `max_tool_calls` (a field of the OpenAPI spec); it sends it as given.
    const withMaxToolCalls = (maxToolCalls: number | undefined) =>
      ({
        model: 'gpt-4o-mini',
        input,
        tools: [{ type: 'web_search' }],
        ...(maxToolCalls === undefined ? {} : { max_tool_calls: maxToolCalls }),
      }) as OpenAI.Responses.ResponseCreateParamsNonStreaming;
    for (const [maxToolCalls, searches] of [
      [1, 1],
      [3, 3],
      [undefined, 2],
    ] as const) {
      const response = await client.responses.create(withMaxToolCalls(maxToolCalls));
      const searchCalls = response.output.filter((item) => item.type === 'web_search_call');
      assert.equal(searchCalls.length, searches, `max_tool_calls ${maxToolCalls}`);
      assert.equal(response.output.at(-1)?.type, 'message', 'the model answers once the searches are spent');
      assert.ok((await checkCitations(response)) >= 1);
    }
    await assert.rejects(
      client.responses.create(withMaxToolCalls(6)),
      (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === 'max_tool_calls',
    );
  });

  test('a JSON text.format with web search: the words before a search are dropped, the text is the JSON alone', async () => {
    const ask = {
      model: 'claude-haiku-4-5',
      input: 'What causes ocean tides?',
      tools: [{ type: 'web_search' as const }],
    };
    const plain = await client.responses.create(ask);
    assert.equal(plain.output[0]?.type, 'message', 'precondition: this model says a few words before it searches');
    const format = {
      type: 'json_schema' as const,
      name: 'tides',
      schema: {
        type: 'object',
        properties: { cause: { type: 'string' } },
        required: ['cause'],
        additionalProperties: false,
      },
      strict: true,
    };
    for (const stream of [false, true]) {
      const request = { ...ask, text: { format } };
      const eventTypes: string[] = [];
      const response = stream
        ? await (async () => {
            const events = client.responses.stream(request);
            events.on('event', (event) => eventTypes.push(event.type));
            return events.finalResponse();
          })()
        : await client.responses.create(request);
      assert.deepEqual(
        response.output.map((item) => item.type),
        ['web_search_call', 'message'],
        `stream: ${stream}`,
      );
      const answer = JSON.parse(response.output_text) as { cause?: unknown };
      assert.equal(typeof answer.cause, 'string', 'the text is the JSON the schema asks for');
      if (stream) {
        const firstText = eventTypes.indexOf('response.output_text.delta');
        assert.ok(firstText > eventTypes.indexOf('response.web_search_call.completed'), 'no text went out before');
      }
    }
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
});
