import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonTextCursor } from './json-text-cursor.ts';

/** Whether the cursor reads `text` as one whole JSON value. */
function readsWhole(text: string): boolean {
  const cursor = new JsonTextCursor(text);
  cursor.peek();
  return cursor.skipValue() && cursor.isAtEnd();
}

function readString(text: string): JsonTextCursor | undefined {
  const cursor = new JsonTextCursor(text);
  return cursor.readString() ? cursor : undefined;
}

describe('JsonTextCursor', () => {
  it('accepts exactly the texts JSON.parse accepts', () => {
    const texts = [
      '{"a":[1,-2.5e+3,0,-0,1E2,true,false,null,"x",{}],"b":{"c":[]}}',
      ' \t\n\r{ "a" : 1 , "b" : [ ] } \n',
      '"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"',
      `"${'long text, '.repeat(20)}\\n${'more'.repeat(30)}"`,
      '{"\\u0061":1,"a":2}',
      '[[[[[]]]]]',
      '{"a":1,}',
      '{"a" 1}',
      '[1 2]',
      '01',
      '1.',
      '.5',
      '-',
      '1e',
      '+1',
      '"\\x"',
      '"\\u12"',
      '"\\u12g4"',
      '"tab\there"',
      `"${'long'.repeat(30)}\u0001"`,
      `"${'long'.repeat(30)}`,
      '"unterminated',
      'nul',
      'truex',
      '{"a":1}}',
      '{"a":1} x',
      '',
      '{',
      '[',
      "{'a':1}",
      'NaN',
    ];
    for (const text of texts) {
      let isJson = true;
      try {
        JSON.parse(text);
      } catch {
        isJson = false;
      }
      assert.equal(readsWhole(text), isJson, text);
    }
  });

  it('measures a string in UTF-8 bytes once decoded, short or long, with escapes and pairs', () => {
    for (const value of ['', 'plain', 'héllo 😀', 'a\nb"c\\d/e\u0001', '\u00e9'.repeat(50) + '😀'.repeat(30)]) {
      for (const written of [JSON.stringify(value), JSON.stringify(value).replaceAll('é', '\\u00e9')]) {
        const cursor = readString(written);
        assert.ok(cursor, written);
        assert.equal(cursor.stringBytes(), Buffer.byteLength(value), written);
        assert.equal(cursor.at, written.length);
        assert.equal(cursor.hasEscapes, written.includes('\\'), written);
        assert.equal(cursor.hasLoneSurrogate, false);
      }
    }
  });

  it('flags half a surrogate pair, escaped or not, and counts it as a replacement character', () => {
    for (const written of ['"a\\ud83d"', '"\\ude00b"', '"a\ud83d"', `"${'x'.repeat(80)}\\ud83d"`]) {
      const cursor = readString(written);
      assert.ok(cursor, written);
      assert.equal(cursor.hasLoneSurrogate, true, written);
      assert.equal(cursor.stringBytes(), Buffer.byteLength(JSON.parse(written) as string), written);
    }
  });

  it('walks an object field by field and refuses a key written with escapes', () => {
    const cursor = new JsonTextCursor('{"id": "x", "n": [1, 2]}');
    const keys: boolean[] = [];
    for (let isFirst = true; cursor.nextField(isFirst); isFirst = false) {
      keys.push(cursor.isKey('id'));
      assert.ok(cursor.skipValue());
    }
    assert.deepEqual(keys, [true, false]);
    assert.equal(cursor.failed, false);
    const escaped = new JsonTextCursor('{"\\u0069d": 1}');
    assert.equal(escaped.nextField(true), false);
    assert.equal(escaped.failed, true);
  });

  it('declines nesting deeper than it reads, which JSON.parse then handles', () => {
    const deep = '['.repeat(300) + ']'.repeat(300);
    assert.doesNotThrow(() => JSON.parse(deep));
    assert.equal(readsWhole(deep), false);
    assert.equal(readsWhole('['.repeat(200) + ']'.repeat(200)), true);
  });
});
