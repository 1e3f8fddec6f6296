import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatRequest } from '../../openai-api/chat-request.ts';
import { getProviderAdapter } from '../registry.ts';

const ephemeral = { type: 'ephemeral' } as const;
const request: ChatRequest = {
  model: 'm',
  cache_control: ephemeral,
  messages: [
    { role: 'system', content: [{ type: 'text', text: 'Long instructions.', cache_control: ephemeral }] },
    { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: ephemeral, extra: 1 }] },
  ],
  tools: [{ type: 'function', function: { name: 'f' }, cache_control: ephemeral }],
};
const target = { baseUrl: 'https://vendor.example/v1', credential: 'key', upstreamModel: 'm' };
const bodyFor = (provider: 'openai' | 'azure' | 'deepseek' | 'openrouter') =>
  JSON.parse(getProviderAdapter(provider).buildRequest({ request, target, isStreaming: false }).body) as Record<
    string,
    unknown
  >;

describe('cache_control breakpoints on OpenAI-dialect routes', () => {
  for (const provider of ['openai', 'azure', 'deepseek'] as const) {
    it(`${provider}: removed everywhere (the vendor caches on its own and rejects the field), other fields kept`, () => {
      const body = bodyFor(provider);
      assert.ok(!JSON.stringify(body).includes('cache_control'), JSON.stringify(body));
      assert.deepEqual(body['messages'], [
        { role: 'system', content: [{ type: 'text', text: 'Long instructions.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Hi', extra: 1 }] },
      ]);
      assert.deepEqual(body['tools'], [{ type: 'function', function: { name: 'f' } }]);
    });
  }

  it('openrouter: passed through, for the models behind it that use them', () => {
    const body = bodyFor('openrouter');
    assert.deepEqual(body['cache_control'], ephemeral);
    assert.deepEqual(body['tools'], request.tools);
    assert.deepEqual(body['messages'], request.messages);
  });
});
