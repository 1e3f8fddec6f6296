import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findSchemaInPrompt } from './find-schema-in-prompt.ts';

const unit = (text: string) => ({ text, imageCount: 0, isMessage: true });

describe('findSchemaInPrompt', () => {
  test('finds the last JSON Schema object in the prompt, skipping braces inside strings and other JSON', () => {
    const schema = { type: 'object', properties: { title: { type: 'string', description: 'a {brace} here' } } };
    const found = findSchemaInPrompt([
      unit('Example data: {"title": "x"}'),
      unit(`Answer in JSON following this schema:\n${JSON.stringify(schema, null, 2)}\nNothing else.`),
    ]);
    assert.deepEqual(found, schema);
  });

  test('is undefined without a schema, or with broken JSON', () => {
    assert.equal(findSchemaInPrompt([unit('Reply in JSON please.')]), undefined);
    assert.equal(findSchemaInPrompt([unit('{"properties": {"a": }')]), undefined);
  });
});
