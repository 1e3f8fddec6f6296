import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import { createSearchEngine, type SearchEngineConfig } from './create-search-engine.ts';
import { SearchEngineError, type SearchEngineErrorKind } from './search-engine-error.ts';
import { searchEngineIds, type SearchEngineId } from './search-engine.ts';
import {
  startSearchSimulator,
  type RunningSearchSimulator,
} from '../../../simulators/search/start-search-simulator.ts';

let simulator: RunningSearchSimulator;
const dispatcher = new Agent({ keepAliveTimeout: 1000 });
before(async () => {
  simulator = await startSearchSimulator();
});
after(async () => {
  await simulator.close();
  await dispatcher.close();
});

const engineFor = (id: SearchEngineId, overrides: Partial<SearchEngineConfig> = {}) =>
  createSearchEngine({
    id,
    baseUrl: `${simulator.url}/${id}`,
    apiKey: 'test-key',
    timeoutMs: 2000,
    dispatcher,
    ...overrides,
  });

const search = (id: SearchEngineId, query: string, overrides: Partial<SearchEngineConfig> = {}) =>
  engineFor(id, overrides).search({ query, maxResults: 10, signal: new AbortController().signal });

async function rejectsWith(promise: Promise<unknown>, kind: SearchEngineErrorKind): Promise<SearchEngineError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SearchEngineError, String(error));
    assert.equal(error.kind, kind, error.message);
    return error;
  }
  assert.fail(`expected a ${kind} SearchEngineError`);
}

for (const id of searchEngineIds) {
  describe(`${id} client against the simulator`, () => {
    it('returns 5–10 cleaned https results built from the query', async () => {
      const outcome = await search(id, 'quantum error correction');
      assert.equal(outcome.engine, id);
      assert.ok(outcome.tookMs >= 0);
      assert.ok(outcome.results.length >= 5 && outcome.results.length <= 10, String(outcome.results.length));
      assert.equal(new Set(outcome.results.map((result) => result.url)).size, outcome.results.length);
      for (const result of outcome.results) {
        assert.match(result.url, /^https:\/\/[a-z.]+\//);
        assert.ok(result.title.length > 0 && result.snippet.length > 0);
        assert.doesNotMatch(result.snippet, /<\/?strong>/);
      }
      assert.ok(outcome.results.some((result) => /quantum/i.test(result.title)));
    });

    it('gives the same results for the same query and different ones for another', async () => {
      const first = await search(id, 'sourdough starter hydration');
      const again = await search(id, 'sourdough starter hydration');
      const other = await search(id, 'volcanic soil minerals');
      assert.deepEqual(again.results, first.results);
      assert.notDeepEqual(
        other.results.map((result) => result.url),
        first.results.map((result) => result.url),
      );
    });

    it('returns no more than maxResults', async () => {
      const outcome = await engineFor(id).search({
        query: 'tidal energy',
        maxResults: 3,
        signal: new AbortController().signal,
      });
      assert.equal(outcome.results.length, 3);
    });

    it('returns an empty list when the engine finds nothing', async () => {
      assert.deepEqual((await search(id, 'nothing here [search:empty]')).results, []);
    });

    it('reports a rejected key as rejected, without the key in the message', async () => {
      const error = await rejectsWith(search(id, 'tidal energy', { apiKey: 'invalid-key-123' }), 'rejected');
      assert.doesNotMatch(error.message, /invalid-key-123/);
      assert.ok(error.status !== undefined && error.status >= 400 && error.status < 500);
    });

    it('reports a 500 as unavailable', async () => {
      const error = await rejectsWith(search(id, 'tidal energy [search:status=500]'), 'unavailable');
      assert.equal(error.status, 500);
    });

    it('reports a 429 as unavailable', async () => {
      const error = await rejectsWith(search(id, 'tidal energy [search:status=429]'), 'unavailable');
      assert.equal(error.status, 429);
      if (id !== 'searxng') assert.equal(error.retryAfterMs, 1000);
    });

    it('gives up on a slow engine at the timeout', async () => {
      const startedMs = Date.now();
      const error = await rejectsWith(search(id, 'tidal energy [search:slow=3000]', { timeoutMs: 300 }), 'timeout');
      assert.ok(Date.now() - startedMs < 2000);
      assert.match(error.message, /300 ms/);
    });

    it("ends with a timeout when the caller's signal aborts", async () => {
      const controller = new AbortController();
      const pending = engineFor(id).search({
        query: 'tidal energy [search:slow=3000]',
        maxResults: 5,
        signal: controller.signal,
      });
      setTimeout(() => controller.abort(new Error('client left')), 50);
      const error = await rejectsWith(pending, 'timeout');
      assert.equal(error.engineCode, 'cancelled');
    });
  });
}

describe('createSearchEngine', () => {
  it('refuses to create a keyed engine without a key', () => {
    for (const id of ['brave', 'tavily', 'exa'] as const) {
      assert.throws(() => createSearchEngine({ id, apiKey: ' ', dispatcher }), /needs an API key/);
    }
    assert.equal(createSearchEngine({ id: 'searxng', dispatcher }).id, 'searxng');
  });

  it('reports an unreachable engine as unavailable', async () => {
    const closedServer = createServer();
    await new Promise<void>((resolve) => closedServer.listen(0, '127.0.0.1', resolve));
    const { port } = closedServer.address() as AddressInfo;
    await new Promise<void>((resolve) => closedServer.close(() => resolve()));
    const error = await rejectsWith(
      search('searxng', 'tidal energy', { baseUrl: `http://127.0.0.1:${port}` }),
      'unavailable',
    );
    assert.equal(error.message, 'SearXNG could not be reached.');
  });

  it('reports a response over the size cap as unavailable', async () => {
    const error = await rejectsWith(search('exa', 'tidal energy', { maxResponseBytes: 512 }), 'unavailable');
    assert.equal(error.engineCode, 'response_too_large');
  });

  it('reports a wrong base URL (404) as rejected', async () => {
    await rejectsWith(search('tavily', 'tidal energy', { baseUrl: `${simulator.url}/nowhere` }), 'rejected');
  });

  it('refuses an empty query without calling the engine', async () => {
    await rejectsWith(search('brave', '   '), 'rejected');
  });

  it('measures tookMs with the clock it is given', async () => {
    let nowMs = 1000;
    const clock = { nowMs: () => (nowMs += 25) };
    assert.equal((await search('tavily', 'tidal energy', { clock })).tookMs, 25);
  });
});
