import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromWireUsage } from './convert-usage.ts';

test('vendor counts that are not whole token counts never under-bill and never credit', () => {
  assert.deepEqual(
    fromWireUsage({
      prompt_tokens: 12.2,
      completion_tokens: -40,
      total_tokens: 0,
      prompt_tokens_details: { cached_tokens: Number.NaN, cache_write_tokens: 3 },
      completion_tokens_details: { reasoning_tokens: Number.POSITIVE_INFINITY },
    }),
    { inputTokens: 13, cachedInputTokens: 0, cacheWriteInputTokens: 3, outputTokens: 0, reasoningTokens: 0 },
  );
});

test('whole counts pass unchanged and missing details are 0', () => {
  assert.deepEqual(fromWireUsage({ prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 }), {
    inputTokens: 100,
    cachedInputTokens: 0,
    cacheWriteInputTokens: 0,
    outputTokens: 20,
    reasoningTokens: 0,
  });
});
