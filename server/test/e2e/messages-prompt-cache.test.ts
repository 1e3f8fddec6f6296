import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** About 2 000 tokens of instructions: above the 1 024-token minimum Anthropic caches. */
const longInstructions = `You answer questions about rivers. ${'Keep every answer short and factual. '.repeat(220)}`;

/** Prompt caching (issue 3): `cache_control` breakpoints reach Anthropic from /v1/messages and from chat. */
describe('prompt-cache breakpoints through the gateway', () => {
  let gateway: TestGateway;
  let anthropic: Anthropic;
  let openai: OpenAI;

  before(async () => {
    gateway = await startTestGateway();
    const { key } = await gateway.createUserWithKey({ balanceMicros: 50_000_000 });
    anthropic = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0, logLevel: 'off' });
    openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  after(() => gateway.close());
  afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

  const askWithBreakpoint = (model: string, question: string) =>
    anthropic.messages.create({
      model,
      max_tokens: 256,
      system: [{ type: 'text', text: longInstructions, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: question }],
    });

  test('/v1/messages on a Claude model: the breakpoint reaches Anthropic, so the next call reads the cache', async () => {
    const first = await askWithBreakpoint('claude-haiku-4-5', 'Name a long river.');
    assert.equal(first.usage.cache_read_input_tokens ?? 0, 0, JSON.stringify(first.usage));
    const second = await askWithBreakpoint('claude-haiku-4-5', 'Name a short river.');
    assert.ok((second.usage.cache_read_input_tokens ?? 0) > 1024, JSON.stringify(second.usage));
    // Anthropic counts cache writes and reads apart from `input_tokens` (and bills writes at 1.25× input).
    assert.ok((first.usage.cache_creation_input_tokens ?? 0) > 1024, JSON.stringify(first.usage));
    assert.ok(second.usage.input_tokens < 1024, 'cache reads are counted apart from input_tokens');
  });

  test('/v1/messages with breakpoints on a model served by OpenAI or Gemini still answers (they cache on their own)', async () => {
    for (const model of ['gpt-4o', 'gemini-2.5-flash', 'deepseek-chat']) {
      const message = await askWithBreakpoint(model, 'Name a long river.');
      assert.equal(message.model, model);
      assert.ok(
        message.content.some((block) => block.type === 'text' && block.text.length > 0),
        model,
      );
    }
  });

  test('chat completions: cache_control on a system part reaches Claude, and the next call reports cached tokens', async () => {
    const ask = (question: string) =>
      openai.chat.completions.create({
        model: 'claude-sonnet-4-5',
        messages: [
          {
            role: 'system',
            content: [{ type: 'text', text: longInstructions, cache_control: { type: 'ephemeral' } } as never],
          },
          { role: 'user', content: question },
        ],
      });
    const first = await ask('Name a long river.');
    assert.equal(first.usage?.prompt_tokens_details?.cached_tokens, 0);
    const second = await ask('Name a short river.');
    assert.ok((second.usage?.prompt_tokens_details?.cached_tokens ?? 0) > 1024, JSON.stringify(second.usage));
  });
});
