import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findVendorModelList } from './vendor-model-list.ts';

test('OpenAI-dialect vendors list with a bearer key at <root>/models, in one page', () => {
  const list = findVendorModelList('mistral');
  assert.ok(list);
  assert.deepEqual(
    list.buildPageRequest({ baseUrl: 'https://api.mistral.ai/v1/', credential: 'k', pageToken: undefined }),
    {
      url: 'https://api.mistral.ai/v1/models',
      headers: { accept: 'application/json', authorization: 'Bearer k' },
    },
  );
  const body = {
    object: 'list',
    data: [{ id: 'mistral-large-latest', object: 'model', created: 1, owned_by: 'mistralai' }],
  };
  assert.deepEqual(list.parsePage(body), { modelIds: ['mistral-large-latest'], nextPageToken: undefined });
  assert.equal(list.parsePage({ data: 'none' }), undefined);
  assert.ok(findVendorModelList('openai'));
});

test("Anthropic's list is paged by after_id while has_more", () => {
  const list = findVendorModelList('anthropic');
  assert.ok(list);
  const request = list.buildPageRequest({
    baseUrl: 'https://api.anthropic.com',
    credential: 'k',
    pageToken: 'claude-x',
  });
  assert.equal(request.url, 'https://api.anthropic.com/v1/models?limit=1000&after_id=claude-x');
  assert.equal(request.headers['x-api-key'], 'k');
  assert.equal(request.headers['anthropic-version'], '2023-06-01');
  const page = {
    data: [
      { type: 'model', id: 'claude-opus-4-5', display_name: 'Claude Opus 4.5', created_at: '2025-11-24T00:00:00Z' },
    ],
    has_more: true,
    first_id: 'claude-opus-4-5',
    last_id: 'claude-opus-4-5',
  };
  assert.deepEqual(list.parsePage(page), { modelIds: ['claude-opus-4-5'], nextPageToken: 'claude-opus-4-5' });
  assert.deepEqual(list.parsePage({ ...page, has_more: false }), {
    modelIds: ['claude-opus-4-5'],
    nextPageToken: undefined,
  });
});

test("Gemini's models.list names models/<id> and is paged by pageToken", () => {
  const list = findVendorModelList('gemini');
  assert.ok(list);
  const request = list.buildPageRequest({
    baseUrl: 'https://generativelanguage.googleapis.com',
    credential: 'k',
    pageToken: 'next',
  });
  assert.equal(request.url, 'https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000&pageToken=next');
  assert.equal(request.headers['x-goog-api-key'], 'k');
  const page = { models: [{ name: 'models/gemini-2.5-pro', displayName: 'Gemini 2.5 Pro' }], nextPageToken: 'abc' };
  assert.deepEqual(list.parsePage(page), { modelIds: ['gemini-2.5-pro'], nextPageToken: 'abc' });
  assert.deepEqual(list.parsePage({}), { modelIds: [], nextPageToken: undefined });
});

test('vendors without a model list the gateway reads have none', () => {
  assert.equal(findVendorModelList('bfl'), undefined);
  assert.equal(findVendorModelList('azure'), undefined);
  assert.equal(findVendorModelList('vertex'), undefined);
});
