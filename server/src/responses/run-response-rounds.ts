import { affordableOutputTokensPerChoice, estimateInputTokens } from '../billing/estimate-max-cost.ts';
import { estimateDeliveredUsage } from '../billing/estimate-delivered-usage.ts';
import { priceTokenUsage, type TokenUsage } from '../billing/pricing.ts';
import type { CatalogModel } from '../catalog/price-list.ts';
import type { NativeSearchProviderId } from '../config/config.ts';
import type { Route } from '../catalog/route-table.ts';
import { InternalError } from '../errors/internal-error.ts';
import type { Clock } from '../lib/clock.ts';
import type { ChatMessage, ChatToolCall } from '../openai-api/chat-request.ts';
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
import { chooseRoundAdapter } from './choose-round-adapter.ts';
import { consumeModelRound, type RoundOutcome } from './consume-model-round.ts';
import type { ResponsePlan } from './convert-responses-request.ts';
import type { ResponseBuilder } from './response-builder.ts';
import { runWebSearch } from './run-web-search.ts';
import { readSearchQuery, webSearchFunctionName } from './web-search-tool.ts';

export type RoundsDeps = {
  upstream: CallProviderDeps;
  searchEngine: SearchEngine;
  clock: Clock;
  /** Vendors whose routes search with their own tool (NATIVE_WEB_SEARCH). */
  nativeSearchProviders: readonly NativeSearchProviderId[];
};

/**
 * No round starts with fewer output tokens than this: OpenAI's Responses API refuses a smaller `max_output_tokens`,
 * and a round that could write only a few words would waste its input. The response ends as incomplete instead.
 */
const minimumRoundOutputTokens = 16;

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

type RoundsInput = {
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
  /** The calling account (reserved routes, conversation affinity). */
  userId: string;
  /** A promise when the client's buffer is full (streaming): the round reads no more until it resolves. */
  drain: () => Promise<void> | undefined;
  /**
   * Streaming: what the response delivered so far (the rounds before, searches included, plus this round's part),
   * read lazily when the node writes its delivery checkpoints (docs/billing.md).
   */
  checkpoint?: (delivered: () => TokenUsage) => void;
};

type IncompleteReason = 'max_output_tokens' | 'content_filter' | undefined;

/**
 * The model rounds of one response. Each round offers the gateway's web search function while searches are left;
 * when the model calls it, the gateway searches, hands the numbered results back as the tool's result and asks again.
 * A round that ends otherwise (text, the client's function calls, a length cut) is the last. Every round's output
 * limit keeps the whole response within `max_output_tokens` and within the one credit hold.
 */
export async function runResponseRounds(
  deps: RoundsDeps,
  input: RoundsInput,
): Promise<{ incompleteReason: IncompleteReason }> {
  let messages: ChatMessage[] = [...input.plan.chatRequest.messages];
  if (input.searchMode === 'derived') {
    const query = deriveSearchQuery(messages);
    if (query !== undefined)
      messages = [createSearchResultsMessage(await searchAndRecord(deps, input, query)), ...messages];
  }
  for (;;) {
    const isSearchOffered = input.searchMode === 'tool' && input.tally.searchCount < maxSearchesOf(input.plan);
    const round = await runModelRound(deps, input, { messages, isSearchOffered });
    if (round.kind === 'final') return { incompleteReason: round.incompleteReason };
    messages = [
      ...messages,
      { role: 'assistant', content: round.outcome.assistantText || null, tool_calls: round.outcome.searchCalls },
      ...(await answerSearchCalls(deps, input, round.outcome.searchCalls)),
    ];
  }
}

/** One model call: `searching` when the model called only the gateway's search function, else the last round. */
async function runModelRound(
  deps: RoundsDeps,
  input: RoundsInput,
  round: { messages: ChatMessage[]; isSearchOffered: boolean },
): Promise<{ kind: 'final'; incompleteReason: IncompleteReason } | { kind: 'searching'; outcome: RoundOutcome }> {
  const { plan, model, tally } = input;
  const draft = buildRoundRequest(plan, { ...round, searchCount: tally.searchCount, maxOutputTokens: undefined });
  const size = measureChatRequest(draft);
  const maxOutputTokens = roundOutputLimit(input, size);
  if (maxOutputTokens < minimumRoundOutputTokens) return { kind: 'final', incompleteReason: 'max_output_tokens' };
  const isLimitSent = maxOutputTokens < model.maxOutputTokens || plan.maxOutputTokens !== undefined;
  const call = await callProvider(deps.upstream, {
    routes: input.routes,
    request: isLimitSent ? { ...draft, max_completion_tokens: maxOutputTokens } : draft,
    model,
    isStreaming: plan.isStreaming,
    signal: input.signal,
    requestId: input.requestId,
    createdUnixSeconds: input.createdUnixSeconds,
    userId: input.userId,
    adapterFor: chooseRoundAdapter({
      plan,
      nativeSearchProviders: deps.nativeSearchProviders,
      isSearchOffered: round.isSearchOffered,
      searchesLeft: maxSearchesOf(plan) - tally.searchCount,
    }),
  });
  tally.hasStarted = true;
  tally.route = call.route;
  const outcome = await consumeModelRound({
    answer: call,
    builder: input.builder,
    searchFunctionName: round.isSearchOffered ? webSearchFunctionName : undefined,
    isSourcesIncluded: plan.webSearch?.isSourcesIncluded === true,
    drain: input.drain,
    signal: input.signal,
    nowMs: deps.clock.nowMs,
    ...(input.checkpoint ? { onDelivered: checkpointRound(input.checkpoint, tally, size) } : {}),
  });
  tally.firstTokenAtMs ??= outcome.firstTokenAtMs;
  addUsage(
    tally.usage,
    outcome.vendorUsage ?? estimateDeliveredUsage({ ...size, deliveredTextBytes: outcome.deliveredTextBytes }),
  );
  // In the same turn as the sum, so no checkpoint counts this round twice (in the tally and as the round so far).
  input.checkpoint?.(() => ({ ...tally.usage }));
  if (outcome.error !== undefined) {
    if (call.kind === 'stream') await call.chunks.return?.().catch(() => undefined);
    throw new RoundInterruptedError(outcome.error);
  }
  if (outcome.searchCalls.length > 0 && outcome.clientCallCount === 0) return { kind: 'searching', outcome };
  if (outcome.finishReason === 'length') return { kind: 'final', incompleteReason: 'max_output_tokens' };
  if (outcome.finishReason === 'content_filter') return { kind: 'final', incompleteReason: 'content_filter' };
  return { kind: 'final', incompleteReason: undefined };
}

/** Runs the model's search calls (within the limit) and gives back the tool messages that answer them. */
async function answerSearchCalls(
  deps: RoundsDeps,
  input: RoundsInput,
  searchCalls: readonly ChatToolCall[],
): Promise<ChatMessage[]> {
  const answers: ChatMessage[] = [];
  for (const searchCall of searchCalls) {
    const query = readSearchQuery(searchCall.function.arguments);
    const toolText =
      query === undefined
        ? 'No search was run: the call had no `query` text. Call web_search again with {"query": "…"} or answer without searching.'
        : input.tally.searchCount >= maxSearchesOf(input.plan)
          ? 'No search was run: the search limit of this answer is reached. Answer with the sources you have.'
          : await searchAndRecord(deps, input, query);
    answers.push({ role: 'tool', tool_call_id: searchCall.id, content: toolText });
  }
  return answers;
}

/** One search, announced and recorded as a `web_search_call` item; returns what the model reads. */
async function searchAndRecord(deps: RoundsDeps, input: RoundsInput, query: string): Promise<string> {
  const { builder, tally } = input;
  const settings = input.plan.webSearch;
  if (!settings) throw new InternalError('A search ran without web search settings.');
  tally.hasStarted = true;
  const item = builder.startWebSearch(query);
  const run = await runWebSearch(
    { searchEngine: deps.searchEngine },
    { query, settings, firstNumber: builder.sourceCount + 1, signal: input.signal },
  );
  tally.searchCount += 1;
  builder.addSources(run.sources);
  builder.finishWebSearch(item, {
    isCompleted: run.isCompleted,
    sourceUrls: settings.isSourcesIncluded ? run.sources.map((source) => source.url) : undefined,
  });
  return run.modelText;
}

/**
 * The output limit of the next round: what is left of `max_output_tokens` (or the hold's output limit), and no more
 * than the hold still pays for after the rounds so far and the worst case of this round's input.
 */
function roundOutputLimit(input: RoundsInput, size: ReturnType<typeof measureChatRequest>): number {
  const { model, tally } = input;
  const outputCap = Math.min(input.plan.maxOutputTokens ?? model.maxOutputTokens, input.reservation.maxOutputTokens);
  const remaining = outputCap - tally.usage.outputTokens;
  const spentMicros = priceTokenUsage(model, tally.usage);
  const affordable = affordableOutputTokensPerChoice(model, {
    heldMicros: input.reservation.hold.heldMicros - spentMicros,
    input: estimateInputTokens(size),
    choiceCount: 1,
  });
  return Math.max(0, Math.min(remaining, affordable));
}

/** Each chunk: the rounds before (the tally, which gains this round only when it ends) plus this round so far. */
function checkpointRound(
  checkpoint: NonNullable<RoundsInput['checkpoint']>,
  tally: ResponseTally,
  size: ReturnType<typeof measureChatRequest>,
): (soFar: Readonly<RoundOutcome>) => void {
  return (soFar) =>
    checkpoint(() => {
      const usage = { ...tally.usage };
      addUsage(
        usage,
        soFar.vendorUsage ?? estimateDeliveredUsage({ ...size, deliveredTextBytes: soFar.deliveredTextBytes }),
      );
      return usage;
    });
}

function addUsage(total: TokenUsage, round: TokenUsage): void {
  total.inputTokens += round.inputTokens;
  total.cachedInputTokens += round.cachedInputTokens;
  total.cacheWriteInputTokens += round.cacheWriteInputTokens;
  total.outputTokens += round.outputTokens;
  total.reasoningTokens += round.reasoningTokens;
}

function maxSearchesOf(plan: ResponsePlan): number {
  return plan.webSearch?.maxSearches ?? 0;
}
