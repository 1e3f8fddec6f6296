import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareVersions, readModelLine } from './model-line.ts';

test('reads an id as its line and version, dropping dates and release markers', () => {
  assert.deepEqual(readModelLine('claude-opus-4-5'), { stem: 'claude-opus', version: [4, 5] });
  assert.deepEqual(readModelLine('claude-opus-4-5-20251101'), { stem: 'claude-opus', version: [4, 5] });
  assert.deepEqual(readModelLine('gpt-5.4-mini'), { stem: 'gpt-mini', version: [5, 4] });
  assert.deepEqual(readModelLine('gemini-3-pro-preview'), { stem: 'gemini-pro', version: [3] });
  assert.deepEqual(readModelLine('mistral-large-latest'), { stem: 'mistral-large', version: [] });
  assert.deepEqual(readModelLine('grok-4-0709'), { stem: 'grok', version: [4] });
  assert.deepEqual(readModelLine('gpt-4o-2024-05-13'), { stem: 'gpt-4o', version: [] });
  assert.deepEqual(readModelLine('meta-llama/llama-4-maverick'), { stem: 'llama-maverick', version: [4] });
  assert.equal(readModelLine('gpt-4o').stem, 'gpt-4o');
  assert.equal(readModelLine('o3').stem, 'o3');
});

test('orders versions part by part, a missing part counting as zero', () => {
  assert.ok(compareVersions([5], [4, 5]) > 0);
  assert.ok(compareVersions([4, 6], [4, 5]) > 0);
  assert.ok(compareVersions([3], [4]) < 0);
  assert.equal(compareVersions([4, 0], [4]), 0);
});
