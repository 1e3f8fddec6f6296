import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunk } from './chunk.ts';

test('chunk splits into consecutive parts of at most the given size', () => {
  assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
  assert.deepEqual(chunk([], 3), []);
});
