import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexJsonFields, spliceJsonFields } from './json-field-index.ts';

function splice(text: string, values: Record<string, string | undefined>): string | undefined {
  const index = indexJsonFields(text);
  return index === undefined ? undefined : spliceJsonFields(index, values);
}

describe('indexJsonFields and spliceJsonFields', () => {
  it('replaces top-level values and copies every other byte, whitespace and nested look-alikes included', () => {
    const text =
      '{ "id" : "x", "nested": {"model": "keep", "list": [1, {"a": "}"}]},\n "model":"gpt-4o-2024", "n": 12 }';
    assert.equal(
      splice(text, { model: '"client-model"', id: '"ours"' }),
      '{ "id" : "ours", "nested": {"model": "keep", "list": [1, {"a": "}"}]},\n "model":"client-model", "n": 12 }',
    );
  });

  it('adds a field the text lacks before the closing brace', () => {
    assert.equal(splice('{"a":1}', { usage: '{"cost":0}' }), '{"a":1,"usage":{"cost":0}}');
    assert.equal(splice('{}', { a: '1', b: '2' }), '{"a":1,"b":2}');
  });

  it('removes a field given as undefined with one comma, wherever it sits', () => {
    assert.equal(splice('{"a":1,"usage":null,"b":2}', { usage: undefined }), '{"a":1,"b":2}');
    assert.equal(splice('{"a":1, "usage" : null }', { usage: undefined }), '{"a":1 }');
    assert.equal(splice('{ "usage":null, "a":1}', { usage: undefined }), '{ "a":1}');
    assert.equal(splice('{"usage":null}', { usage: undefined }), '{}');
    assert.equal(splice('{"a":1}', { usage: undefined, a: '2' }), '{"a":2}');
    assert.equal(
      splice('{"id":"x","usage":null,"model":"m"}', { id: '"y"', usage: undefined, model: '"n"' }),
      '{"id":"y","model":"n"}',
    );
  });

  it('replaces strings with escapes, literals and the last field whole', () => {
    const text = '{"a":"q\\"}","b":true,"c":null,"d":-1.5e3}';
    assert.equal(splice(text, { a: '0', b: '1', c: '2', d: '3' }), '{"a":0,"b":1,"c":2,"d":3}');
    assert.equal(splice('{"a":"ends in \\\\","b":[]}', { b: '1' }), '{"a":"ends in \\\\","b":1}');
  });

  it('refuses what is not an object with plain, distinct keys', () => {
    assert.equal(indexJsonFields('[1]'), undefined);
    assert.equal(indexJsonFields('"text"'), undefined);
    assert.equal(indexJsonFields('{"a":1,"a":2}'), undefined);
    assert.equal(indexJsonFields('{"\\u0061":1}'), undefined);
  });
});
