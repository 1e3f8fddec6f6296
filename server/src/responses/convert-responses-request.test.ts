import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { buildRoundRequest, measureResponseRequest } from './build-round-request.ts';
import { parseResponsesRequest } from './parse-responses-request.ts';
import { webSearchFunctionName } from './web-search-tool.ts';

function rejects(body: unknown, param: string) {
  assert.throws(
    () => parseResponsesRequest(body),
    (error: unknown) => error instanceof InvalidRequestError && error.param === param,
    `expected a 400 naming ${param}`,
  );
}

describe('convertResponsesRequest', () => {
  it('turns instructions and a string input into a system and a user message', () => {
    const plan = parseResponsesRequest({ model: 'm', instructions: 'Be brief.', input: 'Hi', temperature: 0.2 });
    assert.deepEqual(plan.chatRequest.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
    assert.equal(plan.chatRequest.temperature, 0.2);
    assert.equal(plan.webSearch, undefined);
    assert.equal(plan.settings.instructions, 'Be brief.');
    assert.deepEqual(plan.settings.text, { format: { type: 'text' } });
  });

  it('joins function calls to one assistant message and maps their outputs to tool messages', () => {
    const plan = parseResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
        { type: 'function_call', call_id: 'call_a', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call', call_id: 'call_b', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_a', output: '3°C' },
        { type: 'function_call_output', call_id: 'call_b', output: [{ type: 'input_text', text: '21°C' }] },
      ],
    });
    assert.deepEqual(plan.chatRequest.messages, [
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
          { id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: '3°C' },
      { role: 'tool', tool_call_id: 'call_b', content: '21°C' },
    ]);
  });

  it('maps flat function tools, tool_choice, reasoning effort and a flat json_schema format', () => {
    const plan = parseResponsesRequest({
      model: 'm',
      input: 'x',
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: true }],
      tool_choice: { type: 'function', name: 'f' },
      reasoning: { effort: 'low' },
      max_output_tokens: 500,
      text: { format: { type: 'json_schema', name: 'out', schema: { type: 'object' }, strict: true } },
    });
    assert.deepEqual(plan.chatRequest.tools, [
      { type: 'function', function: { name: 'f', parameters: { type: 'object' }, strict: true } },
    ]);
    assert.deepEqual(plan.chatRequest.tool_choice, { type: 'function', function: { name: 'f' } });
    assert.equal(plan.chatRequest.reasoning_effort, 'low');
    assert.deepEqual(plan.chatRequest.response_format, {
      type: 'json_schema',
      json_schema: { name: 'out', schema: { type: 'object' }, strict: true },
    });
    assert.equal(plan.maxOutputTokens, 500);
  });

  it('reads web search settings from the tool and offers the search function first in each round', () => {
    const plan = parseResponsesRequest({
      model: 'm',
      input: 'news',
      tools: [
        { type: 'web_search_preview', search_context_size: 'low', filters: { allowed_domains: ['Example.org'] } },
        { type: 'function', name: 'f' },
      ],
      tool_choice: { type: 'web_search_preview' },
      include: ['web_search_call.action.sources'],
    });
    assert.deepEqual(plan.webSearch, {
      maxResults: 3,
      maxResultBytes: 4_000,
      allowedDomains: ['example.org'],
      isSourcesIncluded: true,
      maxSearches: 2,
      vendorTool: { search_context_size: 'low', filters: { allowed_domains: ['example.org'] } },
    });
    const first = buildRoundRequest(plan, {
      messages: plan.chatRequest.messages,
      isSearchOffered: true,
      searchCount: 0,
      maxOutputTokens: 100,
    });
    assert.deepEqual(
      first.tools?.map((tool) => tool.function.name),
      [webSearchFunctionName, 'f'],
    );
    assert.deepEqual(first.tool_choice, { type: 'function', function: { name: webSearchFunctionName } });
    assert.equal(first.max_completion_tokens, 100);
    const second = buildRoundRequest(plan, {
      messages: plan.chatRequest.messages,
      isSearchOffered: false,
      searchCount: 1,
      maxOutputTokens: undefined,
    });
    assert.deepEqual(
      second.tools?.map((tool) => tool.function.name),
      ['f'],
    );
    assert.equal(second.tool_choice, 'auto');
  });

  it('forces the first search for tool_choice required when web search is the only tool', () => {
    const only = parseResponsesRequest({
      model: 'm',
      input: 'x',
      tools: [{ type: 'web_search' }],
      tool_choice: 'required',
    });
    assert.equal(only.isSearchForced, true);
    const first = buildRoundRequest(only, {
      messages: only.chatRequest.messages,
      isSearchOffered: true,
      searchCount: 0,
      maxOutputTokens: undefined,
    });
    assert.deepEqual(first.tool_choice, { type: 'function', function: { name: webSearchFunctionName } });
    const withFunction = parseResponsesRequest({
      model: 'm',
      input: 'x',
      tools: [{ type: 'web_search' }, { type: 'function', name: 'f' }],
      tool_choice: 'required',
    });
    assert.equal(withFunction.isSearchForced, false, 'a function may satisfy required');
  });

  it('honours max_tool_calls as the number of searches, up to the limit the hold can cover', () => {
    const plan = parseResponsesRequest({ model: 'm', input: 'x', tools: [{ type: 'web_search' }], max_tool_calls: 4 });
    assert.equal(plan.webSearch?.maxSearches, 4);
    const fewer = parseResponsesRequest({ model: 'm', input: 'x', tools: [{ type: 'web_search' }], max_tool_calls: 1 });
    const tool = measureResponseRequest(plan, { searchMode: 'tool', isVendorSearchPossible: false });
    const oneSearch = measureResponseRequest(fewer, { searchMode: 'tool', isVendorSearchPossible: false });
    assert.ok(tool.textBytes > oneSearch.textBytes, 'more searches, a larger hold');
    rejects({ model: 'm', input: 'x', tools: [{ type: 'web_search' }], max_tool_calls: 6 }, 'max_tool_calls');
  });

  it('turns web search off with tool_choice none', () => {
    const plan = parseResponsesRequest({
      model: 'm',
      input: 'x',
      tools: [{ type: 'web_search' }],
      tool_choice: 'none',
    });
    assert.equal(plan.webSearch, undefined);
  });

  it('holds for every round when searching through a tool, and for one results block when the query is derived', () => {
    const plan = parseResponsesRequest({ model: 'm', input: 'x', tools: [{ type: 'web_search' }] });
    const none = measureResponseRequest(plan, { searchMode: undefined, isVendorSearchPossible: false });
    const derived = measureResponseRequest(plan, { searchMode: 'derived', isVendorSearchPossible: false });
    const tool = measureResponseRequest(plan, { searchMode: 'tool', isVendorSearchPossible: false });
    assert.ok(derived.textBytes > none.textBytes + 8_000);
    assert.ok(tool.textBytes > 3 * none.textBytes + 3 * 8_000);
    const vendor = measureResponseRequest(plan, { searchMode: 'tool', isVendorSearchPossible: true });
    assert.ok(vendor.textBytes >= tool.textBytes + 3 * 16_000, 'a vendor search is held at its larger result budget');
  });

  it('rejects what a stateless gateway cannot honour, naming the field', () => {
    rejects({ model: 'm', input: 'x', previous_response_id: 'resp_1' }, 'previous_response_id');
    rejects({ model: 'm', input: 'x', store: true }, 'store');
    rejects({ model: 'm', input: 'x', background: true }, 'background');
    rejects({ model: 'm', input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0].type');
  });

  it('rejects unknown tools and items, empty input and a reserved function name', () => {
    rejects({ model: 'm', input: 'x', tools: [{ type: 'code_interpreter' }] }, 'tools[0].type');
    rejects({ model: 'm', input: [{ role: 'user', content: 'x' }, { type: 'mystery' }] }, 'input[1].type');
    rejects({ model: 'm', input: [] }, 'input');
    rejects({ model: 'm', instructions: 'only this', input: [{ type: 'reasoning', summary: [] }] }, 'input');
    rejects(
      { model: 'm', input: 'x', tools: [{ type: 'web_search' }, { type: 'function', name: webSearchFunctionName }] },
      'tools[1].name',
    );
    rejects({ model: 'm', input: 'x', tool_choice: { type: 'web_search' } }, 'tool_choice');
    rejects(
      { model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] },
      'input[0].content[0].type',
    );
  });

  it('takes the include values it supports and refuses others as OpenAI does, listing the supported ones', () => {
    const include = ['reasoning.encrypted_content', 'web_search_call.action.sources'];
    const plan = parseResponsesRequest({ model: 'm', input: 'x', tools: [{ type: 'web_search' }], include });
    assert.equal(plan.webSearch?.isSourcesIncluded, true);
    for (const [value, index] of [
      ['bogus', 1],
      ['message.output_text.logprobs', 1],
      ['file_search_call.results', 1],
    ] as const) {
      assert.throws(
        () => parseResponsesRequest({ model: 'm', input: 'x', include: ['web_search_call.action.sources', value] }),
        (error: unknown) =>
          error instanceof InvalidRequestError &&
          error.param === `include[${index}]` &&
          error.code === 'invalid_value' &&
          error.message ===
            `Invalid value: '${value}'. Supported values are: 'web_search_call.action.sources', 'reasoning.encrypted_content'.`,
      );
    }
  });

  it('names the exact content part or call id at fault', () => {
    const user = (content: unknown) => ({
      model: 'm',
      input: [
        { role: 'user', content: 'hi' },
        { role: 'user', content },
      ],
    });
    rejects(
      user([
        { type: 'input_text', text: 'a' },
        { type: 'input_text', text: 5 },
      ]),
      'input[1].content[1].text',
    );
    rejects(user([{ type: 'input_text' }]), 'input[1].content[0].text');
    rejects(user([{ type: 'telepathy' }]), 'input[1].content[0].type');
    rejects(user(5), 'input[1].content');
    rejects({ model: 'm', input: [{ role: 'robot', content: 'x' }] }, 'input[0].role');
    const call = { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' };
    rejects(
      {
        model: 'm',
        input: [
          { role: 'user', content: 'x' },
          { type: 'function_call_output', call_id: 'call_1', output: '1' },
        ],
      },
      'input[1].call_id',
    );
    rejects(
      {
        model: 'm',
        input: [call, { role: 'user', content: 'x' }, { type: 'function_call_output', call_id: 'call_1', output: '1' }],
      },
      'input[2].call_id',
    );
    const answered = parseResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'x' },
        call,
        { ...call, call_id: 'call_2' },
        { type: 'function_call_output', call_id: 'call_2', output: '2' },
        { type: 'function_call_output', call_id: 'call_1', output: '1' },
      ],
    });
    assert.equal(answered.chatRequest.messages.length, 4);
  });

  it('issue #18: flattens namespace groups and custom tools into functions, and maps their calls back', () => {
    const parameters = { type: 'object', properties: { path: { type: 'string' } } };
    const plan = parseResponsesRequest({
      model: 'm',
      input: [
        { role: 'user', content: 'Go' },
        { type: 'function_call', call_id: 'c1', namespace: 'mcp__files', name: 'read', arguments: '{"path":"a"}' },
        { type: 'function_call_output', call_id: 'c1', output: 'text' },
        { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'c2', output: 'Done' },
      ],
      tools: [
        { type: 'function', name: 'shell', parameters },
        {
          type: 'namespace',
          name: 'mcp__files',
          description: 'File tools',
          tools: [{ type: 'function', name: 'read', description: 'Read a file', parameters }],
        },
        {
          type: 'custom',
          name: 'apply_patch',
          description: 'Edit files',
          format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' },
        },
      ],
    });
    const tools = plan.chatRequest.tools ?? [];
    assert.deepEqual(
      tools.map((tool) => tool.function.name),
      ['shell', 'mcp__files__read', 'apply_patch'],
    );
    assert.equal(tools[1]?.function.description, 'Read a file');
    assert.match(JSON.stringify(tools[2]?.function.parameters), /lark grammar.*start: \\"x\\"/);
    assert.deepEqual(plan.toolOrigins.get('mcp__files__read'), {
      name: 'read',
      namespace: 'mcp__files',
      kind: 'function',
    });
    assert.deepEqual(plan.toolOrigins.get('apply_patch'), {
      name: 'apply_patch',
      namespace: undefined,
      kind: 'custom',
    });
    assert.equal(plan.toolOrigins.has('shell'), false);
    const calls = plan.chatRequest.messages.flatMap((message) =>
      message.role === 'assistant' ? (message.tool_calls ?? []) : [],
    );
    assert.deepEqual(
      calls.map((call) => [call.function.name, call.function.arguments]),
      [
        ['mcp__files__read', '{"path":"a"}'],
        ['apply_patch', '{"input":"*** Begin Patch"}'],
      ],
    );
    assert.equal(plan.settings.tools.length, 3, 'the Response echoes the tools as sent');
  });

  it('issue #18: a namespace inside a namespace, an unknown tool inside one and a name clash are 400s naming them', () => {
    const fn = { type: 'function', name: 'f', parameters: { type: 'object' } };
    rejects(
      {
        model: 'm',
        input: 'x',
        tools: [{ type: 'namespace', name: 'a', tools: [{ type: 'namespace', name: 'b', tools: [fn] }] }],
      },
      'tools[0].tools[0].type',
    );
    rejects(
      { model: 'm', input: 'x', tools: [{ type: 'namespace', name: 'a', tools: [{ type: 'web_search' }] }] },
      'tools[0].tools[0].type',
    );
    rejects(
      {
        model: 'm',
        input: 'x',
        tools: [
          { ...fn, name: 'a__f' },
          { type: 'namespace', name: 'a', tools: [fn] },
        ],
      },
      'tools[1].tools[0].name',
    );
    rejects({ model: 'm', input: 'x', tools: [{ type: 'computer_use_preview' }] }, 'tools[0].type');
    rejects({ model: 'm', input: [{ type: 'local_shell_call', call_id: 'x' }] }, 'input[0].type');
  });
});
