import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseSearchDirectives } from './parse-search-directives.ts';
import { planSearchPages } from './plan-search-pages.ts';
import { startSearchSimulator, type RunningSearchSimulator } from './start-search-simulator.ts';

let simulator: RunningSearchSimulator;
before(async () => {
  simulator = await startSearchSimulator();
});
after(() => simulator.close());

type Json = Record<string, unknown>;
const getJson = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${simulator.url}${path}`, { headers });
  return { status: response.status, body: (await response.json()) as Json };
};
const postJson = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Json };
};
const list = (value: unknown) => value as Json[];

describe('search simulator wire formats', () => {
  it('answers SearXNG JSON with 5–10 results and no key needed', async () => {
    const { status, body } = await getJson('/searxng/search?q=coral+reef+bleaching&format=json');
    assert.equal(status, 200);
    const results = list(body.results);
    assert.ok(results.length >= 5 && results.length <= 10);
    assert.deepEqual(Object.keys(results[0] ?? {}).slice(0, 4), ['url', 'title', 'content', 'publishedDate']);
    assert.deepEqual(body.unresponsive_engines, []);
  });

  it('refuses SearXNG formats other than JSON with a 403, as an instance without them does', async () => {
    const response = await fetch(`${simulator.url}/searxng/search?q=coral&format=csv`);
    assert.equal(response.status, 403);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
  });

  it('answers Brave with decorated descriptions unless text_decorations=false, and 422 for a bad token', async () => {
    const decorated = await getJson('/brave/res/v1/web/search?q=coral+reef&count=4', { 'x-subscription-token': 'k' });
    const results = list((decorated.body.web as Json).results);
    assert.equal(results.length, 4);
    assert.match(String(results[0]?.description), /<strong>/i);
    const plain = await getJson('/brave/res/v1/web/search?q=coral+reef&text_decorations=false', {
      'x-subscription-token': 'k',
    });
    assert.doesNotMatch(JSON.stringify(plain.body), /<strong>/);
    const rejected = await getJson('/brave/res/v1/web/search?q=coral', { 'x-subscription-token': 'invalid-1' });
    assert.equal(rejected.status, 422);
    assert.equal((rejected.body.error as Json).code, 'SUBSCRIPTION_TOKEN_INVALID');
    const missing = await getJson('/brave/res/v1/web/search?q=coral');
    assert.equal((missing.body.error as Json).code, 'VALIDATION');
    const empty = await getJson('/brave/res/v1/web/search?q=coral+[search:empty]', { 'x-subscription-token': 'k' });
    assert.equal(empty.body.web, undefined);
  });

  it('answers Tavily with scores and raw content on request, and its 401 shape for a bad key', async () => {
    const { body } = await postJson(
      '/tavily/search',
      { query: 'coral reef', max_results: 3, include_raw_content: true },
      { authorization: 'Bearer tvly-k' },
    );
    const results = list(body.results);
    assert.equal(results.length, 3);
    assert.equal(typeof results[0]?.score, 'number');
    assert.equal(typeof results[0]?.raw_content, 'string');
    const rejected = await postJson('/tavily/search', { query: 'coral' }, { authorization: 'Bearer invalid-k' });
    assert.equal(rejected.status, 401);
    assert.deepEqual(rejected.body, { detail: { error: 'Unauthorized: missing or invalid API key.' } });
  });

  it('answers Exa with the contents asked for (highlights by default) and its error tags', async () => {
    const highlights = await postJson('/exa/search', { query: 'coral reef', numResults: 2 }, { 'x-api-key': 'k' });
    const [first] = list(highlights.body.results);
    assert.ok(Array.isArray(first?.highlights) && first.text === undefined);
    const text = await postJson(
      '/exa/search',
      { query: 'coral reef', contents: { text: { maxCharacters: 40 } } },
      { 'x-api-key': 'k' },
    );
    const [withText] = list(text.body.results);
    assert.ok(typeof withText?.text === 'string' && withText.text.length <= 40 && withText.highlights === undefined);
    const rejected = await postJson('/exa/search', { query: 'coral' }, { 'x-api-key': 'invalid' });
    assert.equal(rejected.status, 401);
    assert.equal(rejected.body.tag, 'INVALID_API_KEY');
  });

  it('answers a status directive in the engine shape, with Retry-After on a 429', async () => {
    const limited = await postJson('/exa/search', { query: 'coral [search:status=429]' }, { 'x-api-key': 'k' });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '1');
    const failed = await postJson(
      '/tavily/search',
      { query: 'coral [search:status=503]' },
      { authorization: 'Bearer k' },
    );
    assert.deepEqual(failed.body, { detail: { error: 'Internal Server Error' } });
  });

  it('counts requests per engine, and answers unknown paths with 404', async () => {
    await fetch(`${simulator.url}/_search-sim/reset`, { method: 'POST' });
    await getJson('/searxng/search?q=a&format=json');
    await getJson('/searxng/search?q=b&format=json');
    await postJson('/exa/search', { query: 'c' }, { 'x-api-key': 'k' });
    assert.equal((await getJson('/brave/search?q=a')).status, 404);
    const { body } = await getJson('/_search-sim/stats');
    assert.deepEqual(body, { requestsByEngine: { searxng: 2, brave: 0, tavily: 0, exa: 1 }, totalRequests: 3 });
  });
});

describe('planSearchPages', () => {
  it('builds 5–10 distinct, realistic https pages from the query words, the same for the same query', () => {
    for (const query of [
      'coral reef bleaching',
      'What is the best sourdough starter?',
      'x',
      '量子 コンピュータ',
      '???',
    ]) {
      const pages = planSearchPages(query);
      assert.ok(pages.length >= 5 && pages.length <= 10, query);
      assert.equal(new Set(pages.map((page) => page.domain)).size, pages.length);
      for (const page of pages) {
        assert.ok(URL.canParse(page.url) && page.url.startsWith(`https://${page.domain}/`), page.url);
        assert.ok(page.title.length > 0 && page.snippet.length > 20);
      }
      assert.deepEqual(planSearchPages(`  ${query.toUpperCase()} `), planSearchPages(query));
    }
    assert.ok(planSearchPages('coral reef bleaching').some((page) => page.url.includes('coral-reef-bleaching')));
    assert.ok(planSearchPages('What is the best sourdough starter?')[0]?.title.match(/sourdough/i));
  });
});

describe('parseSearchDirectives', () => {
  it('reads empty, slow and status directives and removes them from the query', () => {
    assert.deepEqual(parseSearchDirectives('tides [search:slow=3000] now [search:status=429] [search:empty]'), {
      isEmpty: true,
      delayMs: 3000,
      status: 429,
      query: 'tides now',
    });
    assert.deepEqual(parseSearchDirectives('tides [search:status=200] [search:slow=abc]'), {
      isEmpty: false,
      delayMs: 0,
      status: undefined,
      query: 'tides',
    });
  });
});
