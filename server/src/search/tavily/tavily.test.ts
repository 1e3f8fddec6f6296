import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBodyText } from '../../providers/shared/parse-error-body.ts';
import { readJsonFixture } from '../../providers/test-support/replay-fixture.ts';
import { convertTavilyResponse } from './convert-tavily-response.ts';
import { tavilySearchResponseSchema } from './tavily-api.ts';
import { tavilyAdapter } from './tavily-adapter.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Tavily converter', () => {
  it('reads results in relevance order; raw content stands in for an empty snippet; non-ISO dates are dropped', () => {
    const results = convertTavilyResponse(tavilySearchResponseSchema.parse(fixture('search.json')), {
      maxResults: 10,
    });
    assert.equal(results.length, 4);
    assert.deepEqual(results[1], {
      url: 'https://en.wikipedia.org/wiki/Lionel_Messi',
      title: 'Lionel Messi - Wikipedia',
      snippet:
        'Lionel Andrés "Leo" Messi (Spanish pronunciation: [ljoˈnel anˈdɾes ˈmesi]; born 24 June 1987) is an Argentine professional footballer who plays as a forward for and captains both Major League Soccer club Inter Miami and the Argentina national team.',
    });
    assert.equal(results[2]?.publishedAt, undefined);
    assert.deepEqual(results[3], {
      url: 'https://www.espn.com/soccer/player/_/id/45843/lionel-messi',
      title: 'www.espn.com',
      snippet: 'Lionel Messi. Inter Miami CF. Forward. Career stats, news and highlights.',
    });
  });

  it('accepts response_time as a string, as the reference example sends it', () => {
    assert.equal(tavilyAdapter.parseResponse({ body: fixture('search.json'), maxResults: 2 }).length, 2);
  });
});

describe('Tavily errors and request', () => {
  it('reads 432 and 433 as a used-up quota and leaves 401 to the status', () => {
    assert.deepEqual(tavilyAdapter.readError({ status: 432, body: fixture('plan-limit-error.json') }), {
      engineCode: 'plan_limit_exceeded',
      refusal: 'quota',
    });
    assert.equal(tavilyAdapter.readError({ status: 433, body: {} }).refusal, 'quota');
    assert.deepEqual(tavilyAdapter.readError({ status: 401, body: fixture('unauthorized-error.json') }), {});
  });

  it('posts a basic search with a Bearer key and no answer or raw content', () => {
    const request = tavilyAdapter.buildRequest({
      query: 'who is Leo Messi?',
      maxResults: 5,
      baseUrl: 'https://api.tavily.com/',
      apiKey: 'tvly-key',
    });
    assert.equal(request.url, 'https://api.tavily.com/search');
    assert.equal(request.headers.authorization, 'Bearer tvly-key');
    assert.deepEqual(parseBodyText(request.body ?? ''), {
      query: 'who is Leo Messi?',
      max_results: 5,
      search_depth: 'basic',
      topic: 'general',
      include_answer: false,
      include_raw_content: false,
      include_images: false,
    });
  });
});
