import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { familyModels, startResponsesFixture, type ResponsesFixture } from '../support/responses-fixture.ts';

const webSearchTool = { type: 'web_search_20250305' as const, name: 'web_search' as const };
const question = 'What causes ocean tides?';

type SearchBlocks = { query: string; urls: string[]; citedUrls: string[]; searchCount: number };

/** The search blocks of a message in Anthropic's shape: each server_tool_use answered by its result block. */
function readSearchBlocks(message: Message): SearchBlocks {
  const uses = message.content.flatMap((block) => (block.type === 'server_tool_use' ? [block] : []));
  const results = message.content.flatMap((block) => (block.type === 'web_search_tool_result' ? [block] : []));
  assert.ok(uses.length >= 1, `${message.model} searched`);
  assert.deepEqual(
    results.map((block) => block.tool_use_id),
    uses.map((block) => block.id),
    'each search is followed by its result block',
  );
  const urls: string[] = [];
  for (const block of results) {
    assert.ok(Array.isArray(block.content), 'the search found results');
    for (const result of block.content) {
      assert.equal(result.type, 'web_search_result');
      assert.ok(result.title.length > 0 && result.encrypted_content.length > 0);
      urls.push(result.url);
    }
  }
  const citedUrls = message.content.flatMap((block) =>
    block.type === 'text'
      ? (block.citations ?? []).map((citation) => {
          assert.equal(citation.type, 'web_search_result_location');
          assert.ok(citation.type === 'web_search_result_location' && citation.cited_text.length > 0);
          return citation.type === 'web_search_result_location' ? citation.url : '';
        })
      : [],
  );
  const firstUse = uses[0];
  assert.ok(firstUse && typeof (firstUse.input as { query?: unknown }).query === 'string');
  return {
    query: (firstUse.input as { query: string }).query,
    urls,
    citedUrls,
    searchCount: message.usage.server_tool_use?.web_search_requests ?? 0,
  };
}

describe('POST /v1/messages with the web_search server tool', () => {
  let fixture: ResponsesFixture;
  let client: Anthropic;
  before(async () => {
    fixture = await startResponsesFixture();
    client = new Anthropic({ apiKey: fixture.apiKey, baseURL: fixture.gateway.url, maxRetries: 0, logLevel: 'off' });
  });
  after(() => fixture.close());
  const create = (params: Partial<MessageCreateParamsNonStreaming>) =>
    client.messages.create({
      model: 'gpt-4o-mini',
      max_tokens: 1024,
      messages: [{ role: 'user', content: question }],
      tools: [webSearchTool],
      ...params,
    });

  test('every family answers with search blocks, citations of the engine results and the ledger debit', async () => {
    for (const model of familyModels) {
      const balance = await fixture.balance();
      const message = await create({ model });
      const blocks = readSearchBlocks(message);
      const engineUrls = await fixture.searchResultUrls(blocks.query);
      for (const url of blocks.urls) assert.ok(engineUrls.has(url), `${url} is an engine result`);
      assert.ok(blocks.citedUrls.length >= 1, `${model} cited a source`);
      for (const url of blocks.citedUrls) assert.ok(blocks.urls.includes(url), `${url} was in a result block`);
      assert.equal(blocks.searchCount, message.content.filter((block) => block.type === 'server_tool_use').length);
      assert.equal(message.stop_reason, 'end_turn');
      const record = await findUsageRecord(fixture.gateway.gateway.database.db, message.id.replace(/^msg_/, 'req_'));
      assert.ok(record && record.cost_micros > 0);
      assert.equal(record.endpoint, 'messages');
      assert.equal((message.usage as unknown as { cost: number }).cost, microsToUsd(record.cost_micros));
      assert.equal(balance - (await fixture.balance()), record.cost_micros, `${model} charged once`);
    }
  });

  test('the search results are billed as input tokens', async () => {
    const plain = await create({ tools: [] });
    const searched = await create({});
    assert.ok(
      searched.usage.input_tokens > plain.usage.input_tokens * 2,
      `${searched.usage.input_tokens} input tokens with results, ${plain.usage.input_tokens} without`,
    );
  });

  test('streamed: Anthropic events that the SDK assembles into the same blocks', async () => {
    const stream = client.messages.stream({
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [{ role: 'user', content: question }],
      tools: [webSearchTool],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) => types.push(event.type));
    const message = await stream.finalMessage();
    const blocks = readSearchBlocks(message);
    assert.ok(blocks.citedUrls.length >= 1);
    assert.equal(types[0], 'message_start');
    assert.deepEqual(types.slice(-2), ['message_delta', 'message_stop']);
    assert.ok(types.includes('content_block_start') && types.includes('content_block_delta'));
    assert.ok(message.usage.output_tokens > 0 && (message.usage.server_tool_use?.web_search_requests ?? 0) >= 1);
  });

  test('blocked_domains drops a host from the results; allowed_domains keeps only that host', async () => {
    const first = readSearchBlocks(await create({}));
    const host = new URL(first.urls[0] ?? '').hostname;
    const blocked = readSearchBlocks(await create({ tools: [{ ...webSearchTool, blocked_domains: [host] }] }));
    assert.ok(blocked.urls.length > 0);
    assert.ok(
      blocked.urls.every((url) => new URL(url).hostname !== host),
      `${host} is blocked`,
    );
    const allowed = await create({ tools: [{ ...webSearchTool, allowed_domains: [host] }] });
    const allowedUrls = readSearchBlocks(allowed).urls;
    assert.ok(allowedUrls.length > 0 && allowedUrls.every((url) => new URL(url).hostname === host));
  });

  test('the next turn may carry the search blocks back; a failing engine gives an error result block', async () => {
    const first = await create({});
    const next = await create({
      messages: [
        { role: 'user', content: question },
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'And why are there two a day? [search:status=500]' },
      ],
      tool_choice: { type: 'tool', name: 'web_search' },
    });
    const result = next.content.find((block) => block.type === 'web_search_tool_result');
    assert.ok(result?.type === 'web_search_tool_result');
    assert.deepEqual(result.content, { type: 'web_search_tool_result_error', error_code: 'unavailable' });
    assert.ok(next.content.some((block) => block.type === 'text' && block.text.length > 0));
  });

  test("a client tool next to web_search: the model's call comes back as tool_use, stop_reason tool_use", async () => {
    const lookup = { name: 'lookup', description: 'Look a fact up.', input_schema: { type: 'object' as const } };
    const message = await create({
      model: 'claude-haiku-4-5',
      tools: [webSearchTool, lookup],
      tool_choice: { type: 'tool', name: 'lookup' },
    });
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    assert.ok(toolUse?.type === 'tool_use' && toolUse.name === 'lookup');
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.usage.server_tool_use?.web_search_requests, 0);
  });

  test('bad tool settings: an Anthropic 400 naming the field, nothing charged', async () => {
    const balance = await fixture.balance();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...webSearchTool, max_uses: 50 }, 'tools[0].max_uses'],
      [{ ...webSearchTool, allowed_domains: ['a.com'], blocked_domains: ['b.com'] }, 'blocked_domains'],
      [{ ...webSearchTool, name: 'search' }, 'tools[0].name'],
      [{ type: 'web_fetch_20250910', name: 'web_fetch' }, 'web_fetch_20250910'],
    ];
    for (const [tool, named] of cases) {
      const error = await create({ tools: [tool as unknown as typeof webSearchTool] }).then(
        () => assert.fail('accepted'),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof Anthropic.BadRequestError, named);
      assert.equal((error.error as { type: string }).type, 'error');
      assert.match(error.message, new RegExp(named.replace(/[[\]]/g, '\\$&')));
    }
    assert.equal(await fixture.balance(), balance);
  });
});
