import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateFromSchema } from './generate-from-schema.ts';
import { createRandom } from './random.ts';

describe('generateFromSchema', () => {
  it('honours types, enums, bounds, required keys, arrays, refs and unions', () => {
    const schema = {
      type: 'object',
      $defs: {
        point: { type: 'object', properties: { x: { type: 'number', minimum: -1, maximum: 1 } }, required: ['x'] },
      },
      properties: {
        name: { type: 'string', minLength: 3, maxLength: 5 },
        count: { type: 'integer', minimum: 10, maximum: 12 },
        step: { type: 'integer', minimum: 1, maximum: 20, multipleOf: 5 },
        mode: { enum: ['a', 'b'] },
        fixed: { const: 42 },
        when: { type: 'string', format: 'date-time' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
        origin: { $ref: '#/$defs/point' },
        either: { anyOf: [{ type: 'boolean' }, { type: 'string' }] },
        maybe: { type: ['null', 'integer'] },
      },
      required: ['name', 'count'],
    };
    for (let seed = 0; seed < 20; seed += 1) {
      const value = generateFromSchema(schema, createRandom(String(seed))) as Record<string, unknown>;
      const name = String(value['name']);
      assert.ok(Array.from(name).length >= 3 && Array.from(name).length <= 5, name);
      assert.ok([10, 11, 12].includes(value['count'] as number));
      assert.ok([5, 10, 15, 20].includes(value['step'] as number), String(value['step']));
      assert.ok(['a', 'b'].includes(value['mode'] as string));
      assert.equal(value['fixed'], 42);
      assert.ok(!Number.isNaN(Date.parse(String(value['when']))));
      assert.equal((value['tags'] as unknown[]).length, 2);
      const x = (value['origin'] as { x: number }).x;
      assert.ok(x >= -1 && x <= 1);
      assert.equal(typeof value['either'], 'boolean');
      assert.ok(Number.isInteger(value['maybe']));
    }
  });

  it('accepts Gemini OpenAPI-style upper-case types and is deterministic', () => {
    const schema = {
      type: 'OBJECT',
      properties: { ok: { type: 'BOOLEAN' }, items: { type: 'ARRAY', items: { type: 'STRING' } } },
    };
    const first = generateFromSchema(schema, createRandom('same'));
    assert.deepEqual(first, generateFromSchema(schema, createRandom('same')));
    const value = first as { ok: unknown; items: unknown[] };
    assert.equal(typeof value.ok, 'boolean');
    assert.ok(value.items.every((item) => typeof item === 'string'));
  });
});
