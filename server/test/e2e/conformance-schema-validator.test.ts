import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { checkExchanges } from '../support/conformance/check-exchanges.ts';
import { loadOpenApiSchemaValidator, type OpenApiSchemaValidator } from '../support/openapi-schema-validator.ts';

/** The conformance suite trusts these checks, so they must reject what the spec forbids and accept what it allows. */
describe('the OpenAPI schema validator and exchange checks of the conformance suite', () => {
  let validator: OpenApiSchemaValidator;
  before(() => {
    validator = loadOpenApiSchemaValidator();
  });

  const completion = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'gpt-4o',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: null,
        message: { role: 'assistant', content: 'Hi', refusal: null },
      },
    ],
    usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4, cost: 0.000012 },
  };
  const chunk = {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'gpt-4o',
    choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }],
    usage: null,
  };

  test('accepts a completion and a chunk with our extensions (usage.cost) and a null usage (OpenAPI 3.0 nullable)', () => {
    assert.deepEqual(validator.problemsOf('CreateChatCompletionResponse', completion), []);
    assert.deepEqual(validator.problemsOf('CreateChatCompletionStreamResponse', chunk), []);
  });

  test('rejects a completion without choices, with a wrong object type, or with an unknown finish_reason', () => {
    const { choices: _choices, ...withoutChoices } = completion;
    assert.notDeepEqual(validator.problemsOf('CreateChatCompletionResponse', withoutChoices), []);
    assert.notDeepEqual(validator.problemsOf('CreateChatCompletionResponse', { ...completion, object: 'chat' }), []);
    const unknownReason = { ...chunk, choices: [{ ...chunk.choices[0], finish_reason: 'done' }] };
    assert.notDeepEqual(validator.problemsOf('CreateChatCompletionStreamResponse', unknownReason), []);
  });

  test('requires all four keys of an error, nullable param and code', () => {
    const error = { message: 'Bad', type: 'invalid_request_error', param: null, code: null };
    assert.deepEqual(validator.problemsOf('ErrorResponse', { error }), []);
    const { code: _code, ...withoutCode } = error;
    assert.notDeepEqual(validator.problemsOf('ErrorResponse', { error: withoutCode }), []);
  });

  test('accepts a model list with extra fields on each model, and rejects a model without owned_by', () => {
    const model = { id: 'gpt-4o', object: 'model', created: 0, owned_by: 'sandbox', pricing: { input: 2.5 } };
    assert.deepEqual(validator.problemsOf('ListModelsResponse', { object: 'list', data: [model] }), []);
    const { owned_by: _ownedBy, ...withoutOwner } = model;
    assert.notDeepEqual(validator.problemsOf('Model', withoutOwner), []);
  });

  test('a recorded stream is checked chunk by chunk, for its end, and for the model that was asked for', () => {
    const exchange = {
      method: 'POST',
      path: '/v1/chat/completions',
      requestBody: '{"model": "gpt-4o", "stream": true}',
      status: 200,
      contentType: 'text/event-stream',
    };
    const events = (...data: unknown[]) => data.map((value) => `data: ${JSON.stringify(value)}\n\n`).join('');
    const good = checkExchanges(validator, [{ ...exchange, body: `: keep-alive\n\n${events(chunk)}data: [DONE]\n\n` }]);
    assert.deepEqual(good.problems, []);
    assert.equal(good.checked.CreateChatCompletionStreamResponse, 1);
    const bad = checkExchanges(validator, [
      { ...exchange, body: events(chunk, { ...chunk, model: 'gpt-4o-2024-08-06' }, { ...chunk, choices: 'none' }) },
    ]);
    assert.equal(bad.problems.length, 3, bad.problems.join('\n'));
    assert.match(bad.problems.join('\n'), /neither \[DONE\]/);
    assert.match(bad.problems.join('\n'), /model gpt-4o-2024-08-06/);
    assert.match(bad.problems.join('\n'), /choices must be array/);
  });

  const response = {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    model: 'gpt-4o',
    output: [
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Hi', annotations: [], logprobs: [] }],
      },
    ],
    parallel_tool_calls: true,
    metadata: {},
    tool_choice: 'auto',
    tools: [],
    temperature: null,
    top_p: null,
  };

  test('accepts a Response and rejects one without output or with an unknown status', () => {
    assert.deepEqual(validator.problemsOf('Response', response), []);
    const { output: _output, ...withoutOutput } = response;
    assert.notDeepEqual(validator.problemsOf('Response', withoutOutput), []);
    assert.notDeepEqual(validator.problemsOf('Response', { ...response, status: 'done' }), []);
  });

  test('a recorded Responses stream is checked event by event, for its order, names, numbering and end', () => {
    const exchange = {
      method: 'POST',
      path: '/v1/responses',
      requestBody: '{"model": "gpt-4o", "stream": true}',
      status: 200,
      contentType: 'text/event-stream',
    };
    const inProgress = { ...response, status: 'in_progress', output: [] };
    const item = response.output[0];
    const events = (...data: Array<Record<string, unknown>>) =>
      data
        .map(
          (value, index) =>
            `event: ${String(value['type'])}\ndata: ${JSON.stringify({ ...value, sequence_number: index })}\n\n`,
        )
        .join('');
    const good = checkExchanges(validator, [
      {
        ...exchange,
        body: events(
          { type: 'response.created', response: inProgress },
          { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } },
          { type: 'response.output_item.done', output_index: 0, item },
          { type: 'response.completed', response },
        ),
      },
    ]);
    assert.deepEqual(good.problems, []);
    assert.equal(good.checked.ResponseStreamEvent, 4);
    const bad = checkExchanges(validator, [
      {
        ...exchange,
        body: `${events(
          { type: 'response.created', response: { ...inProgress, output: [item] } },
          { type: 'response.output_item.added', output_index: 0, item: { ...item, content: [] } },
        )}event: response.done\ndata: {"type":"response.output_item.done","sequence_number":5}\n\n`,
      },
    ]);
    const problems = bad.problems.join('\n');
    assert.match(problems, /response.created carries output/);
    assert.match(problems, /event response.done with type response.output_item.done/);
    assert.match(problems, /sequence_number 5/);
    assert.match(problems, /ends with response.done/);
    assert.match(problems, /ResponseStreamEvent/, 'the unfinished item event fails the schema');
  });

  test('a partial stream (the client left) is checked for its whole events only, with no end required', () => {
    const exchange = {
      method: 'POST',
      path: '/v1/chat/completions',
      requestBody: '{"model": "gpt-4o", "stream": true}',
      status: 200,
      contentType: 'text/event-stream',
      isPartial: true,
    };
    const whole = `data: ${JSON.stringify(chunk)}\n\n`;
    const cut = `data: ${JSON.stringify(chunk).slice(0, 20)}`;
    const report = checkExchanges(validator, [{ ...exchange, body: whole + cut }]);
    assert.deepEqual(report.problems, []);
    assert.equal(report.checked.CreateChatCompletionStreamResponse, 1, 'the cut event is not checked');
    const bad = checkExchanges(validator, [
      { ...exchange, body: `data: ${JSON.stringify({ ...chunk, choices: 1 })}\n\n` },
    ]);
    assert.match(bad.problems.join('\n'), /choices must be array/, 'its whole events are');
    const partialJson = checkExchanges(validator, [
      { ...exchange, contentType: 'application/json', body: '{"id": "chatcmpl-1", "obj' },
    ]);
    assert.deepEqual(partialJson.problems, [], 'a JSON body cut short cannot be checked');
  });

  test('image answers are checked against ImagesResponse; HEAD answers and the key endpoints are not', () => {
    const exchange = {
      method: 'POST',
      path: '/v1/images/generations',
      requestBody: '{"model": "gpt-image-1", "prompt": "a fox"}',
      status: 200,
      contentType: 'application/json',
    };
    const image = { created: 1_700_000_000, data: [{ b64_json: 'aGk=' }], usage: undefined };
    const good = checkExchanges(validator, [{ ...exchange, body: JSON.stringify({ ...image, size: '1024x1024' }) }]);
    assert.deepEqual(good.problems, []);
    assert.equal(good.checked.ImagesResponse, 1);
    const bad = checkExchanges(validator, [{ ...exchange, body: JSON.stringify({ data: 'none' }) }]);
    assert.match(bad.problems.join('\n'), /ImagesResponse/);
    const others = checkExchanges(validator, [
      { ...exchange, method: 'HEAD', path: '/v1/models', body: '' },
      { ...exchange, method: 'GET', path: '/v1/credits', body: '{"data": {"total_credits": 1}}' },
      { ...exchange, method: 'GET', path: '/v1/key', status: 401, body: '{"error": "nope"}' },
    ]);
    assert.equal(others.extensions, 1);
    assert.equal(others.problems.length, 1, 'the error of an extension endpoint is still an OpenAI error');
    assert.match(others.problems[0] ?? '', /GET \/v1\/key → 401/);
  });
});
