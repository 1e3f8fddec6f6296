import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Registry } from 'prom-client';
import { Agent } from 'undici';
import { SearchEngineError } from './search-engine-error.ts';
import type { SearchEngine } from './search-engine.ts';
import { startWebSearch } from './start-web-search.ts';
import { failuresBeforeDegraded, watchSearchEngine } from './watch-search-engine.ts';

const secretQuery = 'query-marker-7f3a9c';

/** An engine whose next answers the test sets: results, or a failure of the given kind. */
function scriptedEngine(outcomes: Array<'ok' | 'empty' | 'unavailable'>): SearchEngine {
  return {
    id: 'searxng',
    search: async () => {
      const next = outcomes.shift() ?? 'ok';
      if (next === 'unavailable') {
        throw new SearchEngineError({
          kind: 'unavailable',
          engine: 'searxng',
          message: 'SearXNG answered 502.',
          status: 502,
        });
      }
      const results = next === 'ok' ? [{ url: 'https://example.com/', title: 'Example', snippet: 'x' }] : [];
      return { results, engine: 'searxng', tookMs: 1 };
    },
  };
}

function watch(engine: SearchEngine, isConfigured = true) {
  const logged: unknown[] = [];
  const registry = new Registry();
  const clock = { atMs: 42, nowMs: () => clock.atMs };
  const watched = watchSearchEngine(engine, {
    logger: { warn: (...args: unknown[]) => void logged.push(args) },
    registry,
    clock,
    setup: { isConfigured, address: isConfigured ? 'http://127.0.0.1:8888' : undefined, isSimulator: false },
  });
  const search = () =>
    watched.engine.search({ query: secretQuery, maxResults: 3, signal: new AbortController().signal }).then(
      () => 'answered',
      (error: unknown) => (error instanceof SearchEngineError ? error.kind : error),
    );
  return { ...watched, logged, registry, search, clock };
}

describe('watching the search engine (issue 19)', () => {
  test('failures are logged without the query, counted, and turn the status to failing; a success resets it', async () => {
    const outcomes: Array<'ok' | 'empty' | 'unavailable'> = ['ok', 'empty'];
    for (let index = 0; index < failuresBeforeDegraded; index += 1) outcomes.push('unavailable');
    outcomes.push('ok');
    const watched = watch(scriptedEngine(outcomes));
    assert.equal(await watched.search(), 'answered');
    assert.equal(await watched.search(), 'answered');
    for (let index = 0; index < failuresBeforeDegraded; index += 1) {
      assert.equal(watched.health.status(), 'ok', 'not failing before the threshold');
      assert.equal(await watched.search(), 'unavailable');
    }
    assert.equal(watched.health.status(), 'failing');
    assert.deepEqual(watched.health.lastFailure(), { kind: 'unavailable', status: 502, atMs: 42 });
    assert.equal(watched.logged.length, failuresBeforeDegraded);
    assert.ok(!JSON.stringify(watched.logged).includes(secretQuery), 'the query is never logged');
    assert.match(JSON.stringify(watched.logged[0]), /web search failed/);
    const metrics = await watched.registry.metrics();
    assert.match(metrics, /gateway_web_search_total\{engine="searxng",outcome="ok"\} 1/);
    assert.match(metrics, /gateway_web_search_total\{engine="searxng",outcome="empty"\} 1/);
    assert.match(
      metrics,
      new RegExp(`gateway_web_search_total\\{engine="searxng",outcome="unavailable"\\} ${failuresBeforeDegraded}`),
    );
    assert.equal(await watched.search(), 'answered');
    assert.equal(watched.health.status(), 'ok');
  });

  test('outside sandbox mode, no SEARCH_ENGINE means web search is off: every search fails at once, saying so', async () => {
    let simulatorStarts = 0;
    const dispatcher = new Agent();
    const webSearch = await startWebSearch({
      engine: undefined,
      baseUrl: undefined,
      apiKey: undefined,
      timeoutMs: 1000,
      isSandbox: false,
      dispatcher,
      startSimulator: async () => {
        simulatorStarts += 1;
        return { url: 'http://127.0.0.1:1', close: async () => undefined };
      },
    });
    assert.equal(webSearch.engine.id, 'none');
    assert.equal(simulatorStarts, 0);
    const watched = watch(webSearch.engine, false);
    assert.equal(watched.health.status(), 'not_configured');
    assert.equal(await watched.search(), 'rejected');
    const report = watched.health.report();
    assert.deepEqual(
      { ...report, last_failure: null },
      {
        engine: 'none',
        engine_name: null,
        address: null,
        is_simulator: false,
        status: 'not_configured',
        failing_since: null,
        failures_in_a_row: 1,
        failures_before_failing: failuresBeforeDegraded,
        failure_count: 1,
        last_failure: null,
        last_success_at: null,
        setup_doc: 'docs/web-search-engines.md#running-searxng-for-production',
      },
    );
    assert.deepEqual(report.last_failure, { at: new Date(42).toISOString(), kind: 'rejected', http_status: null });
    assert.match(JSON.stringify(watched.logged), /not configured/);
    assert.match(await watched.registry.metrics(), /gateway_web_search_total\{engine="none",outcome="rejected"\} 1/);
    await webSearch.close();
    await dispatcher.close();
  });

  test('the report says since when search is failing, how often it failed and when it last worked', async () => {
    const outcomes: Array<'ok' | 'empty' | 'unavailable'> = ['ok'];
    for (let index = 0; index < failuresBeforeDegraded + 1; index += 1) outcomes.push('unavailable');
    outcomes.push('ok');
    const watched = watch(scriptedEngine(outcomes));
    const iso = (atMs: number) => new Date(atMs).toISOString();
    assert.deepEqual(watched.health.report(), {
      engine: 'searxng',
      engine_name: 'SearXNG',
      address: 'http://127.0.0.1:8888',
      is_simulator: false,
      status: 'ok',
      failing_since: null,
      failures_in_a_row: 0,
      failures_before_failing: failuresBeforeDegraded,
      failure_count: 0,
      last_failure: null,
      last_success_at: null,
      setup_doc: 'docs/web-search-engines.md#running-searxng-for-production',
    });
    watched.clock.atMs = 1_000;
    await watched.search();
    for (let index = 0; index < failuresBeforeDegraded + 1; index += 1) {
      watched.clock.atMs = 2_000 + index;
      await watched.search();
    }
    const failing = watched.health.report();
    assert.equal(failing.status, 'failing');
    assert.equal(
      failing.failing_since,
      iso(2_000 + failuresBeforeDegraded - 1),
      'since the failure that crossed the line',
    );
    assert.equal(failing.failures_in_a_row, failuresBeforeDegraded + 1);
    assert.deepEqual(failing.last_failure, {
      at: iso(2_000 + failuresBeforeDegraded),
      kind: 'unavailable',
      http_status: 502,
    });
    assert.equal(failing.last_success_at, iso(1_000));
    watched.clock.atMs = 9_000;
    assert.equal(await watched.search(), 'answered');
    const recovered = watched.health.report();
    assert.equal(recovered.status, 'ok');
    assert.equal(recovered.failing_since, null);
    assert.equal(recovered.failures_in_a_row, 0);
    assert.equal(recovered.failure_count, failuresBeforeDegraded + 1, 'the failures stay counted');
    assert.equal(recovered.last_success_at, iso(9_000));
  });
});
