import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import { createSearchEngine } from '../search/create-search-engine.ts';
import type { SearchEngine } from '../search/search-engine.ts';
import {
  startSearchSimulator,
  type RunningSearchSimulator,
} from '../../../simulators/search/start-search-simulator.ts';
import { runWebSearch } from './run-web-search.ts';
import { contextSizes, type WebSearchSettings } from './web-search-tool.ts';

const settings: WebSearchSettings = {
  ...contextSizes.medium,
  allowedDomains: undefined,
  isSourcesIncluded: false,
  maxSearches: 2,
  vendorTool: {},
};

describe('runWebSearch', () => {
  let simulator: RunningSearchSimulator;
  let engine: SearchEngine;
  const dispatcher = new Agent();

  before(async () => {
    simulator = await startSearchSimulator();
    engine = createSearchEngine({ id: 'brave', baseUrl: `${simulator.url}/brave`, apiKey: 'test', dispatcher });
  });
  after(async () => {
    await simulator.close();
    await dispatcher.close();
  });

  const search = (query: string, overrides: Partial<WebSearchSettings> = {}, firstNumber = 1) =>
    runWebSearch(
      { searchEngine: engine },
      { query, settings: { ...settings, ...overrides }, firstNumber, signal: new AbortController().signal },
    );

  it('numbers the results from firstNumber and tells the model how to cite them', async () => {
    const run = await search('glacier retreat', {}, 4);
    assert.equal(run.isCompleted, true);
    assert.equal(run.sources.length, contextSizes.medium.maxResults);
    assert.deepEqual(
      run.sources.map((source) => source.number),
      [4, 5, 6, 7, 8],
    );
    for (const source of run.sources) assert.ok(run.modelText.includes(`[${source.number}] `));
    assert.match(run.modelText, /Cite the sources you use by their numbers/);
  });

  it('keeps only results on the allowed domains and their subdomains', async () => {
    const all = await search('glacier retreat', { maxResults: 20 });
    const host = new URL(all.sources[0]?.url ?? '').hostname;
    const parent = host.split('.').slice(-2).join('.');
    const filtered = await search('glacier retreat', { allowedDomains: [parent] });
    assert.ok(filtered.sources.length >= 1 && filtered.sources.length < all.sources.length);
    for (const source of filtered.sources) assert.ok(new URL(source.url).hostname.endsWith(parent), source.url);
  });

  it('reports an engine failure as a failed search the model is told about, not as an error', async () => {
    const run = await search('glacier retreat [search:status=500]');
    assert.equal(run.isCompleted, false);
    assert.equal(run.failure?.kind, 'unavailable');
    assert.deepEqual(run.sources, []);
    assert.match(run.modelText, /failed/);
  });

  it('reports an empty result set as a completed search with nothing to cite', async () => {
    const run = await search('glacier retreat [search:empty]');
    assert.equal(run.isCompleted, true);
    assert.deepEqual(run.sources, []);
    assert.match(run.modelText, /found nothing/);
  });
});
