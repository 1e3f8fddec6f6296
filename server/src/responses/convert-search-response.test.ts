import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ResponseObject } from './response-object.ts';
import { convertSearchResponse } from './convert-search-response.ts';

const base = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  completed_at: 2,
  error: null,
  incomplete_details: null,
  model: 'm',
  previous_response_id: null,
  store: false,
  truncation: 'disabled',
  service_tier: 'default',
  instructions: null,
  tools: [],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  temperature: null,
  top_p: null,
  max_output_tokens: null,
  metadata: {},
  reasoning: null,
  text: { format: { type: 'text' } },
} as const satisfies Omit<ResponseObject, 'output' | 'usage'>;

test('splits the text at citation spans counted in code points, one block per span with every source it names', () => {
  const text = 'Waves 🌊 rise. The Moon pulls the sea. Done.';
  const start = Array.from(text).indexOf('T');
  const end = start + Array.from('The Moon pulls the sea.').length;
  const response: ResponseObject = {
    ...base,
    output: [
      {
        id: 'ws_abc',
        type: 'web_search_call',
        status: 'completed',
        action: { type: 'search', query: 'tides', sources: [{ type: 'url', url: 'https://a.example/x' }] },
      },
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        status: 'completed',
        content: [
          {
            type: 'output_text',
            text,
            logprobs: [],
            annotations: [
              { type: 'url_citation', url: 'https://a.example/x', title: 'A', start_index: start, end_index: end },
              { type: 'url_citation', url: 'https://b.example/y', title: 'B', start_index: start, end_index: end },
            ],
          },
        ],
      },
    ],
    usage: {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 10, cache_write_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 120,
      cost: 0.5,
    },
  };
  const results = new Map([
    ['https://a.example/x', { url: 'https://a.example/x', title: 'Page A', snippet: 'The Moon  pulls\nwater.' }],
  ]);
  const message = convertSearchResponse(response, { id: 'msg_x', model: 'm', results });
  assert.deepEqual(
    message.content.map((block) => block.type),
    ['server_tool_use', 'web_search_tool_result', 'text', 'text', 'text'],
  );
  assert.deepEqual(message.content[0], {
    type: 'server_tool_use',
    id: 'srvtoolu_abc',
    name: 'web_search',
    input: { query: 'tides' },
  });
  const result = message.content[1];
  assert.ok(result?.type === 'web_search_tool_result' && Array.isArray(result.content));
  assert.equal(result.tool_use_id, 'srvtoolu_abc');
  assert.deepEqual(result.content[0] && { ...result.content[0], encrypted_content: '' }, {
    type: 'web_search_result',
    url: 'https://a.example/x',
    title: 'Page A',
    encrypted_content: '',
    page_age: null,
  });
  const texts = message.content.flatMap((block) => (block.type === 'text' ? [block] : []));
  assert.deepEqual(
    texts.map((block) => block.text),
    ['Waves 🌊 rise. ', 'The Moon pulls the sea.', ' Done.'],
  );
  assert.equal(texts[0]?.citations, undefined);
  assert.deepEqual(
    texts[1]?.citations?.map((citation) => [citation.url, citation.title, citation.cited_text]),
    [
      ['https://a.example/x', 'A', 'The Moon pulls water.'],
      ['https://b.example/y', 'B', 'B'],
    ],
  );
  assert.deepEqual(message.usage, {
    input_tokens: 90,
    output_tokens: 20,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 10,
    server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 },
    cost: 0.5,
  });
  assert.equal(message.stop_reason, 'end_turn');
});
