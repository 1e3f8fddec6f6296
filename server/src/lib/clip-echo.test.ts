import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clipEcho } from './clip-echo.ts';

test('short text is kept as it is', () => {
  assert.equal(clipEcho('gpt-4o'), 'gpt-4o');
  assert.equal(clipEcho('x'.repeat(200)), 'x'.repeat(200));
});

test('long text is cut to its first characters and says how many were left out', () => {
  assert.equal(clipEcho('y'.repeat(5_000_000), 10), `${'y'.repeat(10)}… (4999990 more characters)`);
});

test('the cut never leaves half of a surrogate pair', () => {
  const clipped = clipEcho(`${'a'.repeat(9)}😀tail`, 10);
  assert.equal(clipped, `${'a'.repeat(9)}… (6 more characters)`);
  assert.ok(clipped.isWellFormed());
});
