import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent, type Dispatcher } from 'undici';
import type { TokenUsage } from '../billing/pricing.ts';
import type { CatalogModel } from '../catalog/price-list.ts';
import type { Route } from '../catalog/route-table.ts';
import type { ChatMessage, ChatRequest } from '../openai-api/chat-request.ts';
import { cryptoIds } from '../lib/ids.ts';
import { systemClock } from '../lib/clock.ts';
import { createRouting } from '../routing/create-routing.ts';
import { defaultRoutingSettings } from '../config/routing-settings.ts';
import { createSearchEngine } from '../search/create-search-engine.ts';
import {
  startSearchSimulator,
  type RunningSearchSimulator,
} from '../../../simulators/search/start-search-simulator.ts';
import { startSimulator, type RunningSimulator } from '../../../simulators/start-simulator.ts';
import type { SearchMode } from './build-round-request.ts';
import { parseResponsesRequest } from './parse-responses-request.ts';
import { ResponseBuilder } from './response-builder.ts';
import type { ResponseObject } from './response-object.ts';
import { toResponseUsage } from './run-response.ts';
import { runResponseRounds, type ResponseTally } from './run-response-rounds.ts';

const baseModel = {
  family: 'Test',
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
  supportsVision: false,
  priceEffectiveAtMs: 0,
  createdAtMs: 0,
} as const;

/** A model whose routes cannot call tools: the gateway derives the query from the input and searches once. */
const toollessModel: CatalogModel = { ...baseModel, id: 'local-llm', displayName: 'Local LLM', supportsTools: false };
/** A model that calls the gateway's search function (Mistral's chat dialect). */
const toolModel: CatalogModel = {
  ...baseModel,
  id: 'mistral-large-latest',
  displayName: 'Mistral Large',
  supportsTools: true,
};

describe('runResponseRounds', () => {
  let vendors: RunningSimulator;
  let search: RunningSearchSimulator;
  const agent = new Agent();
  /** The body of every upstream call, as sent: what each round offered the model and told it. */
  let upstreamBodies: ChatRequest[] = [];
  const dispatcher: Dispatcher = agent.compose((dispatch) => (options, handler) => {
    if (typeof options.body === 'string') upstreamBodies.push(JSON.parse(options.body) as ChatRequest);
    return dispatch(options, handler);
  });

  before(async () => {
    vendors = await startSimulator({ chunkDelayMs: 0 });
    search = await startSearchSimulator();
  });
  after(async () => {
    await vendors.close();
    await search.close();
    await agent.close();
  });

  const routeOf = (model: CatalogModel, provider: 'vllm' | 'mistral'): Route => ({
    id: `route-${provider}`,
    modelId: model.id,
    provider,
    baseUrl: `${vendors.url}/${provider}/v1`,
    // vLLM serves without a key; Mistral wants one (any key but the simulator's rejected ones).
    credential: provider === 'mistral' ? 'test-key' : undefined,
    upstreamModel: model.id,
    priority: 0,
    weight: 1,
    origin: 'sandbox',
  });

  /** Runs the rounds of one request body; the Response is what the client would get. */
  async function runRounds(input: {
    model: CatalogModel;
    route: Route;
    body: unknown;
    searchMode: SearchMode;
    checkpoint?: (delivered: () => TokenUsage) => void;
  }) {
    upstreamBodies = [];
    const plan = parseResponsesRequest(input.body);
    const builder = new ResponseBuilder({
      identity: { id: 'resp_test', createdAtUnixSeconds: 0, model: input.model.id, settings: plan.settings },
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
          routing: createRouting({ clock: systemClock, random: () => 0.5, settings: defaultRoutingSettings }),
        },
        // The engine's calls go around the recorder: only model rounds are recorded.
        searchEngine: createSearchEngine({
          id: 'exa',
          baseUrl: `${search.url}/exa`,
          apiKey: 'test',
          dispatcher: agent,
        }),
        clock: systemClock,
        nativeSearchProviders: [],
      },
      {
        plan,
        model: input.model,
        routes: [input.route],
        reservation: {
          hold: { holdId: 'h', userId: 'u', heldMicros: 1_000_000 },
          maxOutputTokens: 4_096,
          isOutputLimitLowered: false,
          takenTokens: undefined,
          budgetShare: undefined,
          spendCapShare: undefined,
          rateLimitHeaders: {},
        },
        searchMode: input.searchMode,
        builder,
        tally,
        requestId: 'req_test',
        createdUnixSeconds: 0,
        signal: new AbortController().signal,
        userId: 'u',
        drain: () => undefined,
        ...(input.checkpoint ? { checkpoint: input.checkpoint } : {}),
      },
    );
    const response = builder.complete({
      incompleteReason: outcome.incompleteReason,
      usage: toResponseUsage(tally.usage, 0),
      completedAtUnixSeconds: 0,
    });
    return { outcome, tally, response };
  }

  const offersSearch = (body: ChatRequest | undefined) =>
    (body?.tools ?? []).some((tool) => tool.function.name === 'web_search');
  const toolMessages = (body: ChatRequest | undefined): ChatMessage[] =>
    (body?.messages ?? []).filter((message) => message.role === 'tool');
  const typesOf = (response: ResponseObject) => response.output.map((item) => item.type);

  it('searches once with a query derived from the input when the model cannot call tools, and cites the results', async () => {
    const { outcome, tally, response } = await runRounds({
      model: toollessModel,
      route: routeOf(toollessModel, 'vllm'),
      body: { model: toollessModel.id, input: 'Best hiking trails in Norway', tools: [{ type: 'web_search' }] },
      searchMode: 'derived',
    });
    assert.equal(outcome.incompleteReason, undefined);
    assert.equal(tally.searchCount, 1);
    assert.ok(tally.usage.inputTokens > 0 && tally.usage.outputTokens > 0);
    const [searchCall, message] = response.output;
    assert.ok(searchCall?.type === 'web_search_call');
    assert.equal(searchCall.status, 'completed');
    assert.equal(searchCall.action.query, 'Best hiking trails in Norway');
    assert.ok(message?.type === 'message');
    const part = message.content[0];
    assert.ok(part?.type === 'output_text');
    assert.ok(part.annotations.length > 0, 'the answer cites the derived search');
    // The engine searched is Exa: the cited URLs must be among what Exa's API answers for the query.
    const exaResponse = await fetch(`${search.url}/exa/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'test' },
      body: JSON.stringify({ query: 'Best hiking trails in Norway', numResults: 10 }),
    });
    const urls = new Set(
      ((await exaResponse.json()) as { results: Array<{ url: string }> }).results.map((result) => result.url),
    );
    assert.ok(urls.size > 0, 'Exa found pages');
    for (const annotation of part.annotations) assert.ok(urls.has(annotation.url), annotation.url);
  });

  it('max_tool_calls 2: offers the search function until two searches ran, then asks for the answer without it', async () => {
    const { tally, response } = await runRounds({
      model: toolModel,
      route: routeOf(toolModel, 'mistral'),
      // `[sim:tool-rounds=5]`: the simulated model searches again after each result while it is offered search.
      body: {
        model: toolModel.id,
        input: 'What causes ocean tides? [sim:tool-rounds=5]',
        tools: [{ type: 'web_search' }],
        max_tool_calls: 2,
      },
      searchMode: 'tool',
    });
    assert.equal(tally.searchCount, 2);
    assert.deepEqual(typesOf(response), ['web_search_call', 'web_search_call', 'message']);
    assert.deepEqual(
      upstreamBodies.map(offersSearch),
      [true, true, false],
      'the third round goes out without the search function',
    );
    assert.equal(toolMessages(upstreamBodies[2]).length, 2, 'the last round reads both searches');
  });

  it('max_tool_calls 1: a second call made in parallel gets "limit reached" as its result, and no search', async () => {
    const { tally, response } = await runRounds({
      model: toolModel,
      route: routeOf(toolModel, 'mistral'),
      // `parallel`: the simulated model calls web_search twice at once.
      body: {
        model: toolModel.id,
        input: 'What causes ocean tides? [sim:tool-rounds=5 parallel]',
        tools: [{ type: 'web_search' }],
        max_tool_calls: 1,
      },
      searchMode: 'tool',
    });
    assert.equal(tally.searchCount, 1);
    assert.deepEqual(typesOf(response), ['web_search_call', 'message']);
    assert.deepEqual(upstreamBodies.map(offersSearch), [true, false]);
    const calls = upstreamBodies[1]?.messages.find((message) => message.role === 'assistant')?.tool_calls ?? [];
    assert.equal(calls.length, 2, 'precondition: the model called web_search twice in one round');
    const [searched, refused] = toolMessages(upstreamBodies[1]);
    assert.match(String(searched?.content), /^\[1\] /m, 'the first call got numbered results');
    assert.equal(refused?.tool_call_id, calls[1]?.id);
    assert.match(String(refused?.content), /search limit of this answer is reached/);
  });

  it('a streamed answer with searches checkpoints what every round delivered so far, each round counted once', async () => {
    let latest: (() => TokenUsage) | undefined;
    const seen: TokenUsage[] = [];
    const { tally } = await runRounds({
      model: toolModel,
      route: routeOf(toolModel, 'mistral'),
      body: {
        model: toolModel.id,
        input: 'What causes ocean tides? [sim:tool-rounds=2]',
        tools: [{ type: 'web_search' }],
        stream: true,
      },
      searchMode: 'tool',
      // As the node's checkpoint writer does: it keeps the latest delivery of the call and reads it when it writes.
      checkpoint: (delivered) => {
        latest = delivered;
        seen.push(delivered());
      },
    });
    assert.equal(tally.searchCount, 2);
    assert.ok(latest, 'the stream was checkpointed');
    assert.deepEqual(latest(), tally.usage, 'read after the rounds ended, the checkpoint is the whole usage, once');
    const outputs = seen.map((usage) => usage.outputTokens);
    assert.deepEqual(
      outputs,
      [...outputs].sort((a, b) => a - b),
      'what was delivered only grows',
    );
    const inputs = [...new Set(seen.map((usage) => usage.inputTokens))];
    assert.ok(inputs.length >= 3, 'each round adds its input (the search results it read) as it starts delivering');
    assert.ok(outputs.every((tokens) => tokens <= tally.usage.outputTokens));
  });
});
