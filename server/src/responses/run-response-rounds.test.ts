import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import type { CatalogModel } from '../catalog/price-list.ts';
import type { Route } from '../catalog/route-table.ts';
import { cryptoIds } from '../lib/ids.ts';
import { createRouting } from '../routing/create-routing.ts';
import { defaultRoutingSettings } from '../routing/routing-settings.ts';
import { systemClock } from '../lib/clock.ts';
import { createSearchEngine } from '../search/create-search-engine.ts';
import { startSearchSimulator, type RunningSearchSimulator } from '../search/simulator/start-search-simulator.ts';
import { startSimulator, type RunningSimulator } from '../simulators/start-simulator.ts';
import { parseResponsesRequest } from './parse-responses-request.ts';
import { ResponseBuilder } from './response-builder.ts';
import { runResponseRounds, type ResponseTally } from './run-response-rounds.ts';

/** A model whose routes cannot call tools: the gateway derives the query from the input and searches once. */
const toollessModel: CatalogModel = {
  id: 'local-llm',
  displayName: 'Local LLM',
  family: 'Local',
  kind: 'text',
  contextLength: 32_000,
  maxOutputTokens: 4_096,
  inputRateMicros: 100_000,
  outputRateMicros: 200_000,
  cachedInputRateMicros: null,
  perRequestMicros: null,
  listInputRateMicros: 100_000,
  listOutputRateMicros: 200_000,
  listCachedInputRateMicros: null,
  listPerRequestMicros: null,
  supportsTools: false,
  supportsVision: false,
  priceEffectiveAtMs: 0,
  createdAtMs: 0,
};

describe('runResponseRounds', () => {
  let vendors: RunningSimulator;
  let search: RunningSearchSimulator;
  const dispatcher = new Agent();

  before(async () => {
    vendors = await startSimulator({ chunkDelayMs: 0 });
    search = await startSearchSimulator();
  });
  after(async () => {
    await vendors.close();
    await search.close();
    await dispatcher.close();
  });

  it('searches once with a query derived from the input when the model cannot call tools, and cites the results', async () => {
    const route: Route = {
      id: 'route-vllm',
      modelId: toollessModel.id,
      provider: 'vllm',
      baseUrl: `${vendors.url}/vllm/v1`,
      credential: undefined,
      upstreamModel: 'local-llm',
      priority: 0,
      weight: 1,
      origin: 'sandbox',
    };
    const plan = parseResponsesRequest({
      model: toollessModel.id,
      input: 'Best hiking trails in Norway',
      tools: [{ type: 'web_search' }],
    });
    const builder = new ResponseBuilder({
      identity: { id: 'resp_test', createdAtUnixSeconds: 0, model: toollessModel.id, settings: plan.settings },
      newId: (prefix) => cryptoIds.newId(prefix),
    });
    const tally: ResponseTally = {
      usage: { inputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 0, reasoningTokens: 0 },
      route: undefined,
      searchCount: 0,
      firstTokenAtMs: undefined,
      hasStarted: false,
    };
    const outcome = await runResponseRounds(
      {
        upstream: {
          dispatcher,
          routing: createRouting({ clock: systemClock, random: Math.random, settings: defaultRoutingSettings }),
        },
        searchEngine: createSearchEngine({ id: 'exa', baseUrl: `${search.url}/exa`, apiKey: 'test', dispatcher }),
        clock: systemClock,
        nativeSearchProviders: [],
      },
      {
        plan,
        model: toollessModel,
        routes: [route],
        reservation: {
          hold: { holdId: 'h', userId: 'u', heldMicros: 1_000_000 },
          maxOutputTokens: 4_096,
          isOutputLimitLowered: false,
          takenTokens: undefined,
          spendCapShare: undefined,
          rateLimitHeaders: {},
        },
        searchMode: 'derived',
        builder,
        tally,
        requestId: 'req_test',
        createdUnixSeconds: 0,
        signal: new AbortController().signal,
        userId: 'u',
        drain: () => undefined,
      },
    );
    assert.equal(outcome.incompleteReason, undefined);
    assert.equal(tally.searchCount, 1);
    assert.ok(tally.usage.inputTokens > 0 && tally.usage.outputTokens > 0);
    const [searchCall, message] = builder.output;
    assert.ok(searchCall?.type === 'web_search_call');
    assert.equal(searchCall.status, 'completed');
    assert.equal(searchCall.action.query, 'Best hiking trails in Norway');
    assert.ok(message?.type === 'message');
    const part = message.content[0];
    assert.ok(part?.type === 'output_text');
    assert.ok(part.annotations.length > 0, 'the answer cites the derived search');
    // The engine searched is Exa: the cited URLs must be among what Exa's API answers for the query.
    const response = await fetch(`${search.url}/exa/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'test' },
      body: JSON.stringify({ query: 'Best hiking trails in Norway', numResults: 10 }),
    });
    const urls = new Set(
      ((await response.json()) as { results: Array<{ url: string }> }).results.map((result) => result.url),
    );
    assert.ok(urls.size > 0, 'Exa found pages');
    for (const annotation of part.annotations) assert.ok(urls.has(annotation.url), annotation.url);
  });
});
