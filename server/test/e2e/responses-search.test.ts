import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import type { Response } from 'openai/resources/responses/responses';
import { countCodePoints, sliceCodePoints } from '../../src/lib/code-point-offsets.ts';
import type { SearchEngineId } from '../../src/search/search-engine.ts';
import {
  startSearchSimulator,
  type RunningSearchSimulator,
} from '../../../simulators/search/start-search-simulator.ts';
import { loadOpenApiSchemaValidator, type OpenAiSchemaName } from '../support/openapi-schema-validator.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

const schemas = loadOpenApiSchemaValidator();
const responseSchema = 'Response' as OpenAiSchemaName;
const searchTool = [{ type: 'web_search' as const }];
const include: OpenAI.Responses.ResponseIncludable[] = ['web_search_call.action.sources'];

type SearchStats = { requestsByEngine: Record<SearchEngineId, number>; totalRequests: number };

async function readSearchStats(search: RunningSearchSimulator): Promise<SearchStats> {
  return (await (await fetch(`${search.url}/_search-sim/stats`)).json()) as SearchStats;
}

/** The URLs an engine's own API answers for a query, asked on the search simulator in that engine's dialect. */
async function engineResultUrls(search: RunningSearchSimulator, engine: SearchEngineId, query: string) {
  const base = `${search.url}/${engine}`;
  const json = { 'content-type': 'application/json' };
  const answer = await (async () => {
    switch (engine) {
      case 'searxng':
        return fetch(`${base}/search?format=json&q=${encodeURIComponent(query)}`);
      case 'brave':
        return fetch(`${base}/res/v1/web/search?count=20&q=${encodeURIComponent(query)}`, {
          headers: { 'x-subscription-token': 'test-key' },
        });
      case 'tavily':
        return fetch(`${base}/search`, {
          method: 'POST',
          headers: { ...json, authorization: 'Bearer test-key' },
          body: JSON.stringify({ query, max_results: 20 }),
        });
      case 'exa':
        return fetch(`${base}/search`, {
          method: 'POST',
          headers: { ...json, 'x-api-key': 'test-key' },
          body: JSON.stringify({ query, numResults: 20 }),
        });
    }
  })();
  const body = (await answer.json()) as { results?: Array<{ url: string }>; web?: { results: Array<{ url: string }> } };
  return new Set((body.results ?? body.web?.results ?? []).map((result) => result.url));
}

/** Every `url_citation` of the response's text parts, with the text it cites (code-point offsets). */
function citationsOf(response: Response): Array<{ url: string; title: string; cited: string }> {
  return response.output.flatMap((item) =>
    item.type !== 'message'
      ? []
      : item.content.flatMap((part) =>
          part.type !== 'output_text'
            ? []
            : part.annotations.flatMap((annotation) => {
                if (annotation.type !== 'url_citation') return [];
                assert.ok(annotation.start_index < annotation.end_index);
                assert.ok(annotation.end_index <= countCodePoints(part.text));
                const cited = sliceCodePoints(part.text, annotation.start_index, annotation.end_index);
                assert.equal(cited, cited.trim(), 'a citation covers words, not the spaces around them');
                return [{ url: annotation.url, title: annotation.title, cited }];
              }),
        ),
  );
}

function searchCallsOf(response: Response) {
  return response.output.flatMap((item) => (item.type === 'web_search_call' ? [item] : []));
}

describe('Brave, Tavily and Exa through the gateway', () => {
  let search: RunningSearchSimulator;
  before(async () => {
    search = await startSearchSimulator();
  });
  after(() => search.close());

  const cases: Array<{ engine: SearchEngineId; model: string }> = [
    { engine: 'brave', model: 'claude-haiku-4-5' },
    { engine: 'tavily', model: 'gemini-2.5-flash' },
    { engine: 'exa', model: 'deepseek-chat' },
  ];
  for (const { engine, model } of cases) {
    test(`${engine}: ${model} cites only pages ${engine} returned, streamed and not`, async () => {
      const gateway = await startTestGateway({
        environment: { SEARCH_ENGINE: engine, SEARCH_BASE_URL: `${search.url}/${engine}`, SEARCH_API_KEY: 'test-key' },
      });
      try {
        const user = await gateway.createUserWithKey();
        const client = new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
        const before = await readSearchStats(search);
        const request = { model, input: 'How do tides work? 🌊', tools: searchTool, include };
        const responses = [
          await client.responses.create(request),
          await client.responses.stream(request).finalResponse(),
        ];
        const afterStats = await readSearchStats(search);
        assert.equal(afterStats.requestsByEngine[engine] - before.requestsByEngine[engine], 2, `${engine} was asked`);
        assert.equal(afterStats.totalRequests - before.totalRequests, 2, 'no other engine was asked');
        for (const response of responses) {
          assert.deepEqual(schemas.problemsOf(responseSchema, response), []);
          const [searchCall] = searchCallsOf(response);
          assert.ok(searchCall?.status === 'completed' && searchCall.action.type === 'search');
          const urls = await engineResultUrls(search, engine, searchCall.action.query ?? '');
          const citations = citationsOf(response);
          assert.ok(citations.length > 0, 'the answer cites');
          for (const citation of citations) assert.ok(urls.has(citation.url), `${citation.url} came from ${engine}`);
        }
      } finally {
        await gateway.close();
      }
    });
  }
});

describe('vendor-native search (NATIVE_WEB_SEARCH)', () => {
  let search: RunningSearchSimulator;
  let gateway: TestGateway;
  let client: OpenAI;

  before(async () => {
    search = await startSearchSimulator();
    gateway = await startTestGateway({
      environment: {
        SEARCH_ENGINE: 'searxng',
        SEARCH_BASE_URL: `${search.url}/searxng`,
        NATIVE_WEB_SEARCH: 'openai, anthropic, gemini',
      },
    });
    const user = await gateway.createUserWithKey();
    client = new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  after(async () => {
    await gateway.close();
    await search.close();
  });

  for (const model of ['gpt-4o-mini', 'claude-haiku-4-5', 'gemini-2.5-flash']) {
    test(`${model}: the vendor searches; its citations become url_citation annotations on its sources`, async () => {
      const before = await readSearchStats(search);
      const request = { model, input: 'Почему бывают приливы? 🌊 Explain.', tools: searchTool, include };
      const whole = await client.responses.create(request);
      const streamed = await client.responses.stream(request).finalResponse();
      for (const response of [whole, streamed]) {
        assert.deepEqual(schemas.problemsOf(responseSchema, response), []);
        assert.equal(response.status, 'completed');
        const searchCalls = searchCallsOf(response);
        assert.ok(searchCalls.length >= 1, 'a web_search_call records the vendor search');
        const sources = searchCalls.flatMap((call) =>
          call.action.type === 'search' ? (call.action.sources ?? []).map((source) => source.url) : [],
        );
        assert.ok(sources.length > 0, 'include lists the pages the vendor found');
        const citations = citationsOf(response);
        assert.ok(citations.length > 0, `${model} cited its search`);
        for (const citation of citations) {
          // OpenAI tags its links (`?utm_source=openai`); the page is one its search found.
          assert.ok(
            sources.some((source) => citation.url.startsWith(source)),
            `${citation.url} is among the vendor's sources`,
          );
        }
      }
      assert.deepEqual(citationsOf(streamed), citationsOf(whole), 'streamed and whole answers cite the same spans');
      const afterStats = await readSearchStats(search);
      assert.equal(afterStats.totalRequests, before.totalRequests, "the gateway's own engine was not asked");
    });
  }

  test('routes of other vendors still search through the gateway', async () => {
    const before = await readSearchStats(search);
    const response = await client.responses.create({ model: 'grok-4-fast', input: 'Tides?', tools: searchTool });
    assert.ok(citationsOf(response).length > 0);
    assert.equal((await readSearchStats(search)).totalRequests, before.totalRequests + 1);
  });
});
