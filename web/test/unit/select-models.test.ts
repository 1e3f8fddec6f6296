import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PublicModel } from '../../../contract/models.ts';
import {
  defaultModelQuery,
  formatModelQuery,
  listFamilies,
  parseModelQuery,
  selectModels,
} from '../../src/features/models/select-models.ts';

function model(overrides: Partial<PublicModel> & Pick<PublicModel, 'id' | 'family'>): PublicModel {
  return {
    display_name: overrides.id.toUpperCase(),
    kind: 'text',
    context_length: 128_000,
    max_output_tokens: 16_000,
    input_usd_per_million: 1,
    output_usd_per_million: 2,
    cached_input_usd_per_million: null,
    usd_per_request: null,
    list_input_usd_per_million: 1.25,
    list_output_usd_per_million: 2.5,
    list_usd_per_request: null,
    flat_usd_per_request: null,
    discount_percent: 20,
    savings_usd_at_10_to_1: 3,
    price_effective_at: '2025-01-01T00:00:00.000Z',
    is_simulated: true,
    supports_tools: true,
    supports_vision: false,
    ...overrides,
  };
}

const models = [
  model({ id: 'gpt-a', display_name: 'GPT A', family: 'OpenAI', input_usd_per_million: 3 }),
  model({ id: 'claude-b', display_name: 'Claude B', family: 'Anthropic', input_usd_per_million: 1 }),
  model({ id: 'gpt-image', display_name: 'GPT Image', family: 'OpenAI', kind: 'image', usd_per_request: 0.04 }),
  model({ id: 'imagen', display_name: 'Imagen', family: 'Google', kind: 'image', usd_per_request: 0.03 }),
  model({ id: 'gemini', display_name: 'Gemini', family: 'Google', input_usd_per_million: 2 }),
];

const ids = (query: Partial<typeof defaultModelQuery>) =>
  selectModels(models, { ...defaultModelQuery, ...query }).flatMap((group) => group.models.map((item) => item.id));

test('groups by family in price-list order when sorted by vendor', () => {
  const groups = selectModels(models, defaultModelQuery);
  assert.deepEqual(
    groups.map((group) => [group.family, group.models.map((item) => item.id)]),
    [
      ['OpenAI', ['gpt-a', 'gpt-image']],
      ['Anthropic', ['claude-b']],
      ['Google', ['imagen', 'gemini']],
    ],
  );
  assert.deepEqual(listFamilies(models), ['OpenAI', 'Anthropic', 'Google']);
});

test('filters by family, kind and search text in name or id', () => {
  assert.deepEqual(ids({ family: 'Google' }), ['imagen', 'gemini']);
  assert.deepEqual(ids({ kind: 'image' }), ['gpt-image', 'imagen']);
  assert.deepEqual(ids({ search: '  gpt ' }), ['gpt-a', 'gpt-image']);
  assert.deepEqual(ids({ search: 'CLAUDE-B' }), ['claude-b']);
  assert.deepEqual(ids({ family: 'Google', kind: 'text' }), ['gemini']);
});

test('sorts by price, putting models without that price last in both directions', () => {
  assert.deepEqual(ids({ sort: 'input-asc', kind: 'text' }), ['claude-b', 'gemini', 'gpt-a']);
  const withPerImageOnly = [
    ...models,
    model({ id: 'dall-e', family: 'OpenAI', kind: 'image', input_usd_per_million: 0 }),
  ];
  const inputOrder = selectModels(withPerImageOnly, { ...defaultModelQuery, sort: 'input-asc' })[0]?.models;
  assert.equal(inputOrder?.at(-1)?.id, 'dall-e', 'an image model without token rates sorts last');
  assert.deepEqual(ids({ sort: 'input-desc', kind: 'text' }), ['gpt-a', 'gemini', 'claude-b']);
  assert.deepEqual(ids({ sort: 'per-request-asc' }).slice(0, 2), ['imagen', 'gpt-image']);
  assert.deepEqual(ids({ sort: 'per-request-desc' }).slice(0, 2), ['gpt-image', 'imagen']);
  assert.deepEqual(ids({ sort: 'name' }), ['claude-b', 'gemini', 'gpt-a', 'gpt-image', 'imagen']);
});

test('round-trips the query through the page address and drops defaults', () => {
  const query = { search: 'gpt 5', family: 'OpenAI', kind: 'image', sort: 'per-request-desc' } as const;
  assert.deepEqual(parseModelQuery(formatModelQuery(query)), query);
  assert.equal(formatModelQuery(defaultModelQuery), '');
  assert.deepEqual(parseModelQuery('?kind=video&sort=cheapest'), defaultModelQuery);
});
