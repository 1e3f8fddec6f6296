import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readJsonFixture } from '../../providers/test-support/replay-fixture.ts';
import { braveWebSearchResponseSchema } from './brave-api.ts';
import { braveAdapter, readBraveError } from './brave-adapter.ts';
import { convertBraveResponse } from './convert-brave-response.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Brave converter', () => {
  it('reads web results: plain descriptions, extra snippets as content, page_age as the date, one per page', () => {
    const results = convertBraveResponse(braveWebSearchResponseSchema.parse(fixture('web-search.json')), {
      maxResults: 10,
    });
    assert.deepEqual(results, [
      {
        url: 'https://brave.com/search/api/',
        title: 'Brave Search API – Real-Time Web Search for AI',
        snippet:
          "Power your agents with the world's largest independent index of the Web. Brave Search API returns real-time results.",
        content:
          'Access over 30 billion indexed pages with 100 million daily updates. … Supports web, image, video, news, suggestions, and spellcheck endpoints.',
        publishedAt: '2025-01-15T00:00:00',
      },
      {
        url: 'https://api-dashboard.search.brave.com/app/documentation/web-search/get-started',
        title: 'Get Started – Brave Search API Documentation',
        snippet: 'Complete documentation for integrating the Brave Search API into your application.',
      },
      {
        url: 'http://brave.com/search/api/pricing/',
        title: 'Brave Search API pricing',
        snippet: 'Free, Base and Pro plans compared.',
        publishedAt: '2024-11-02T08:30:00',
      },
    ]);
  });

  it('reads an answer without `web` as no results', () => {
    assert.deepEqual(braveAdapter.parseResponse({ body: fixture('no-results.json'), maxResults: 5 }), []);
  });
});

describe('Brave errors', () => {
  it('reads a 422 SUBSCRIPTION_TOKEN_INVALID as a credential refusal', () => {
    assert.deepEqual(readBraveError(fixture('invalid-token-error.json')), {
      engineCode: 'SUBSCRIPTION_TOKEN_INVALID',
      refusal: 'credential',
    });
  });

  it('reads a 422 VALIDATION naming the key header as a credential refusal', () => {
    assert.deepEqual(readBraveError(fixture('missing-token-error.json')), {
      engineCode: 'VALIDATION',
      refusal: 'credential',
    });
  });

  it('tells a used-up quota (QUOTA_LIMITED, in the documented `errors` list) from a passing rate limit', () => {
    assert.deepEqual(readBraveError(fixture('quota-limited-error.json')), {
      engineCode: 'QUOTA_LIMITED',
      refusal: 'quota',
    });
    assert.deepEqual(readBraveError(fixture('rate-limited-error.json')), { engineCode: 'RATE_LIMITED' });
  });

  it('reads a body it does not know as nothing more than the status', () => {
    assert.deepEqual(readBraveError('<html>502 Bad Gateway</html>'), {});
  });
});

describe('Brave request', () => {
  it('sends the key header, a count, plain snippets and web results only', () => {
    const request = braveAdapter.buildRequest({
      query: 'brave search api',
      maxResults: 7,
      baseUrl: 'https://api.search.brave.com',
      apiKey: 'BSA-key',
    });
    const url = new URL(request.url);
    assert.equal(request.method, 'GET');
    assert.equal(url.pathname, '/res/v1/web/search');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      q: 'brave search api',
      count: '7',
      text_decorations: 'false',
      result_filter: 'web',
    });
    assert.equal(request.headers['x-subscription-token'], 'BSA-key');
  });

  it('clips the query to 50 words and 400 characters', () => {
    const query = Array.from({ length: 80 }, (_, index) => `word${index}`).join(' ');
    const sent = new URL(
      braveAdapter.buildRequest({ query, maxResults: 5, baseUrl: 'https://b', apiKey: 'k' }).url,
    ).searchParams.get('q');
    assert.equal(sent?.split(' ').length, 50);
    const long = new URL(
      braveAdapter.buildRequest({
        query: 'x'.repeat(30) + ' y'.repeat(200),
        maxResults: 5,
        baseUrl: 'https://b',
        apiKey: 'k',
      }).url,
    ).searchParams.get('q');
    assert.ok((long?.length ?? 0) <= 400);
  });
});
