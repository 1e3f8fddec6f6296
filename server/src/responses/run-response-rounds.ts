import { affordableOutputTokens, estimateInputTokensUpperBound, planHold } from '../billing/estimate-max-cost.ts';
import { estimateDeliveredUsage } from '../billing/estimate-delivered-usage.ts';
import { priceTokenUsage, type TokenUsage } from '../billing/pricing.ts';
import type { CatalogModel } from '../catalog/price-list.ts';
import type { Route } from '../catalog/route-table.ts';
import type { Clock } from '../lib/clock.ts';
import type { ChatMessage } from '../openai-api/chat-request.ts';
import { callProvider, type CallProviderDeps } from '../pipeline/call-provider.ts';
import { measureChatRequest } from '../pipeline/measure-chat-request.ts';
import type { Reservation } from '../pipeline/reserve-credits.ts';
import type { SearchEngine } from '../search/search-engine.ts';
import {
  buildRoundRequest,
  createSearchResultsMessage,
  deriveSearchQuery,
  type SearchMode,
} from './build-round-request.ts';
import { consumeModelRound } from './consume-model-round.ts';
import type { ResponsePlan } from './convert-responses-request.ts';
import type { ResponseBuilder } from './response-builder.ts';
import { runWebSearch } from './run-web-search.ts';
import { maxSearchesPerResponse, readSearchQuery, webSearchFunctionName } from './web-search-tool.ts';

export type RoundsDeps = { upstream: CallProviderDeps; searchEngine: SearchEngine; clock: Clock };

/** What the rounds used so far, shared with the caller so every exit path settles the same sum. */
export type ResponseTally = {
  usage: TokenUsage;
  route: Route | undefined;
  searchCount: number;
  firstTokenAtMs: number | undefined;
  /** Whether a model round or a search has run: from then on a failure may still owe a charge. */
  hasStarted: boolean;
};

/** Thrown when a stream broke off or the client left mid-round; the round's usage is already in the tally. */
export class RoundInterruptedError extends Error {
  readonly reason: unknown;
  constructor(reason: unknown) {
    super('The model round was interrupted.');
    this.name = 'RoundInterruptedError';
    this.reason = reason;
  }
}

/**
 * The model rounds of one response. Each round offers the gateway's web search function while searches are left;
 * when the model calls it, the gateway searches, hands the numbered results back as the tool's result and asks again.
 * A round that ends otherwise (text, the client's function calls, a length cut) is the last. Every round's output
 * limit keeps the whole response within `max_output_tokens` and within the one credit hold.
 */
export async function runResponseRounds(
  deps: RoundsDeps,
  input: {
    plan: ResponsePlan;
    model: CatalogModel;
    routes: readonly Route[];
    reservation: Reservation;
    searchMode: SearchMode | undefined;
    builder: ResponseBuilder;
    tally: ResponseTally;
    requestId: string;
    createdUnixSeconds: number;
    signal: AbortSignal;
  },
): Promise<{ incompleteReason: 'max_output_tokens' | 'content_filter' | undefined }> {
  const { plan, model, builder, tally } = input;
  const searchSettings = plan.webSearch;
  const dateText = new Date(deps.clock.nowMs()).toISOString().slice(0, 10);
  let messages: ChatMessage[] = [...plan.chatRequest.messages];
  const search = async (query: string) => {
    if (!searchSettings) return '';
    tally.hasStarted = true;
    const item = builder.startWebSearch(query);
    const run = await runWebSearch(
      { searchEngine: deps.searchEngine },
      { query, settings: searchSettings, firstNumber: builder.sourceCount + 1, dateText, signal: input.signal },
    );
    tally.searchCount += 1;
    builder.addSources(run.sources);
    builder.finishWebSearch(item, {
      isCompleted: run.isCompleted,
      sourceUrls: searchSettings.isSourcesIncluded ? run.sources.map((source) => source.url) : undefined,
    });
    return run.modelText;
  };
  if (input.searchMode === 'derived' && searchSettings) {
    const query = deriveSearchQuery(messages);
    if (query !== undefined) messages = [createSearchResultsMessage(await search(query)), ...messages];
  }
  for (;;) {
    const isSearchOffered = input.searchMode === 'tool' && tally.searchCount < maxSearchesPerResponse;
    const draft = buildRoundRequest(plan, {
      messages,
      isSearchOffered,
      searchCount: tally.searchCount,
      maxOutputTokens: undefined,
    });
    const size = measureChatRequest(draft);
    const maxOutputTokens = roundOutputLimit(input, size);
    if (maxOutputTokens < 1) return { incompleteReason: 'max_output_tokens' };
    const request =
      maxOutputTokens < model.maxOutputTokens || plan.maxOutputTokens !== undefined
        ? { ...draft, max_completion_tokens: maxOutputTokens }
        : draft;
    const call = await callProvider(deps.upstream, {
      routes: input.routes,
      request,
      model,
      isStreaming: plan.isStreaming,
      signal: input.signal,
      requestId: input.requestId,
      createdUnixSeconds: input.createdUnixSeconds,
    });
    tally.hasStarted = true;
    tally.route = call.route;
    const outcome = await consumeModelRound({
      answer: call,
      builder,
      searchFunctionName: isSearchOffered ? webSearchFunctionName : undefined,
      signal: input.signal,
      nowMs: deps.clock.nowMs,
    });
    tally.firstTokenAtMs ??= outcome.firstTokenAtMs;
    addUsage(
      tally.usage,
      outcome.vendorUsage ?? estimateDeliveredUsage({ ...size, deliveredTextBytes: outcome.deliveredTextBytes }),
    );
    if (outcome.error !== undefined) {
      if (call.kind === 'stream') await call.chunks.return?.().catch(() => undefined);
      throw new RoundInterruptedError(outcome.error);
    }
    if (outcome.searchCalls.length === 0 || outcome.clientCallCount > 0) {
      if (outcome.finishReason === 'length') return { incompleteReason: 'max_output_tokens' };
      if (outcome.finishReason === 'content_filter') return { incompleteReason: 'content_filter' };
      return { incompleteReason: undefined };
    }
    messages = [
      ...messages,
      { role: 'assistant', content: outcome.assistantText || null, tool_calls: outcome.searchCalls },
    ];
    for (const searchCall of outcome.searchCalls) {
      const query = readSearchQuery(searchCall.function.arguments);
      const toolText =
        query === undefined
          ? 'No search was run: the call had no `query` text. Call web_search again with {"query": "…"} or answer without searching.'
          : tally.searchCount >= maxSearchesPerResponse
            ? 'No search was run: the search limit of this answer is reached. Answer with the sources you have.'
            : await search(query);
      messages.push({ role: 'tool', tool_call_id: searchCall.id, content: toolText });
    }
  }
}

/**
 * The output limit of the next round: what is left of `max_output_tokens` (or the hold's output limit), and no more
 * than the hold still pays for after the rounds so far and the worst case of this round's input.
 */
function roundOutputLimit(
  input: { plan: ResponsePlan; model: CatalogModel; reservation: Reservation; tally: ResponseTally },
  size: ReturnType<typeof measureChatRequest>,
): number {
  const { model, tally } = input;
  const outputCap = Math.min(input.plan.maxOutputTokens ?? model.maxOutputTokens, input.reservation.maxOutputTokens);
  const remaining = outputCap - tally.usage.outputTokens;
  const spentMicros = priceTokenUsage(model, tally.usage);
  const { inputCostMicros } = planHold(model, { inputTokens: estimateInputTokensUpperBound(size), maxOutputTokens: 0 });
  const affordable = affordableOutputTokens(model, {
    heldMicros: input.reservation.hold.heldMicros - spentMicros,
    inputCostMicros,
  });
  return Math.max(0, Math.min(remaining, affordable));
}

function addUsage(total: TokenUsage, round: TokenUsage): void {
  total.inputTokens += round.inputTokens;
  total.cachedInputTokens += round.cachedInputTokens;
  total.outputTokens += round.outputTokens;
  total.reasoningTokens += round.reasoningTokens;
}
