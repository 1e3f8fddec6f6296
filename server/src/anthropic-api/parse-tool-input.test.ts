import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UpstreamError } from '../errors/upstream-error.ts';
import { parseToolInput } from './parse-tool-input.ts';

test('tool arguments become the input object; empty arguments are an empty object', () => {
  assert.deepEqual(parseToolInput('{"city":"Paris","days":[1,2]}'), { city: 'Paris', days: [1, 2] });
  assert.deepEqual(parseToolInput('  '), {});
});

test('arguments that are not a JSON object are the upstream model’s fault', () => {
  for (const text of ['{"city":', 'not json', '[1,2]', '"a string"', '42', 'null']) {
    assert.throws(
      () => parseToolInput(text),
      (error: unknown) => error instanceof UpstreamError && error.code === 'invalid_tool_input',
      text,
    );
  }
});
