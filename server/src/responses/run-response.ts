import type { AccountTerms } from '../accounts/account-terms.ts';
import { priceTokenUsage, type TokenUsage } from '../billing/pricing.ts';
import type { CatalogModel, PriceList } from '../catalog/price-list.ts';
import type { NativeSearchProviderId } from '../config/config.ts';
import type { RouteTable } from '../catalog/route-table.ts';
import type { UsageRecordRow } from '../db/schema.ts';
import { recordFailedCall } from '../db/usage-records.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { UpstreamError } from '../errors/upstream-error.ts';
import type { RateLimiter } from '../limits/rate-limiter.ts';
import type { SpendCapHolds } from '../limits/spend-cap-holds.ts';
import { toUnixSeconds, type Clock } from '../lib/clock.ts';
import { microsToUsd } from '../lib/money.ts';
import type { Caller } from '../pipeline/authenticate.ts';
import type { CallProviderDeps } from '../pipeline/call-provider.ts';
import { chooseRoutes } from '../pipeline/choose-routes.ts';
import { finishReservation, reserveCredits, type Reservation } from '../pipeline/reserve-credits.ts';
import { resolveModel } from '../pipeline/resolve-model.ts';
import { settleCharge, type SettleChargeDeps } from '../pipeline/settle-charge.ts';
import { UpstreamFailureError } from '../providers/provider-adapter.ts';
import type { SearchEngine } from '../search/search-engine.ts';
import { measureResponseRequest, type SearchMode } from './build-round-request.ts';
import { parseResponsesRequest } from './parse-responses-request.ts';
import { ResponseBuilder } from './response-builder.ts';
import type { ResponseUsage } from './response-object.ts';
import type { ResponseSink } from './response-sink.ts';
import type { SequencedEvent } from './response-stream-event.ts';
import { RoundInterruptedError, runResponseRounds, type ResponseTally } from './run-response-rounds.ts';

export type ResponseDeps = SettleChargeDeps & {
  accountTerms: AccountTerms;
  priceList: PriceList;
  routeTable: RouteTable;
  clock: Clock;
  upstream: CallProviderDeps;
  searchEngine: SearchEngine;
  /** Vendors whose routes search with their own tool (NATIVE_WEB_SEARCH, docs/responses.md). */
  nativeSearchProviders: readonly NativeSearchProviderId[];
  rateLimiter: RateLimiter;
  spendCapHolds: SpendCapHolds;
};

type CallContext = {
  caller: Caller;
  requestId: string;
  model: CatalogModel;
  reservation: Reservation;
  startedAtMs: number;
};

/**
 * `POST /v1/responses` after authentication and the rate limit: the same stages as chat (resolve the model, hold the
 * worst case once for every round and search, choose routes, call the provider), then one settlement of the summed
 * usage before the client sees the end, so `usage.cost` is what the ledger debited.
 */
export async function runResponse(
  deps: ResponseDeps,
  input: { caller: Caller; body: unknown; requestId: string; sink: ResponseSink },
): Promise<void> {
  const startedAtMs = deps.clock.nowMs();
  const plan = parseResponsesRequest(input.body);
  const model = resolveModel(deps, { caller: input.caller, modelId: plan.chatRequest.model, kind: 'text' });
  const routes = chooseRoutes(deps, { model, userId: input.caller.userId });
  const searchMode: SearchMode | undefined = plan.webSearch ? (model.supportsTools ? 'tool' : 'derived') : undefined;
  const reservation = await reserveCredits(deps, {
    caller: input.caller,
    model,
    size: measureResponseRequest(plan, {
      searchMode,
      isVendorSearchPossible: routes.some((route) =>
        deps.nativeSearchProviders.some((provider) => provider === route.provider),
      ),
    }),
    holdId: input.requestId,
  });
  input.sink.setHeaders(reservation.rateLimitHeaders);
  const context: CallContext = { caller: input.caller, requestId: input.requestId, model, reservation, startedAtMs };
  const tally: ResponseTally = {
    usage: { inputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 0, reasoningTokens: 0 },
    route: undefined,
    searchCount: 0,
    firstTokenAtMs: undefined,
    hasStarted: false,
  };
  const events = plan.isStreaming ? streamEvents(input.sink, tally) : undefined;
  const builder = new ResponseBuilder({
    identity: {
      id: deps.ids.newId('resp_'),
      createdAtUnixSeconds: toUnixSeconds(startedAtMs),
      model: plan.chatRequest.model,
      settings: plan.settings,
    },
    newId: (prefix) => deps.ids.newId(prefix),
    ...(events ? { emit: events.emit } : {}),
    holdsTextBeforeSearch: searchMode === 'tool' && isJsonFormat(plan.chatRequest.response_format?.type),
  });
  let incompleteReason: 'max_output_tokens' | 'content_filter' | undefined;
  try {
    ({ incompleteReason } = await runResponseRounds(deps, {
      plan,
      model,
      routes,
      reservation,
      searchMode,
      builder,
      tally,
      requestId: input.requestId,
      createdUnixSeconds: toUnixSeconds(startedAtMs),
      signal: input.sink.signal,
      userId: input.caller.userId,
      drain: events?.drain ?? (() => undefined),
    }));
  } catch (error) {
    events?.stopWaiting();
    await handleFailure(deps, { context, tally, builder, sink: input.sink, error });
    return;
  }
  const settlement = await settle(deps, context, { tally, status: 'completed', errorCode: null });
  const response = builder.complete({
    incompleteReason,
    usage: toResponseUsage(tally.usage, microsToUsd(settlement.costMicros)),
    completedAtUnixSeconds: toUnixSeconds(deps.clock.nowMs()),
  });
  if (plan.isStreaming) input.sink.endStream();
  else input.sink.sendResponse(response, { routeId: tally.route?.id });
}

/**
 * The stream side of the sink: keep-alives while the first event is awaited, each event sent with the route that
 * served it, and the client's full buffer noted, so the rounds wait for it to drain before reading on.
 */
function streamEvents(sink: ResponseSink, tally: ResponseTally) {
  const stopWaiting = sink.awaitStream();
  let isBufferFull = false;
  return {
    stopWaiting,
    emit: (event: SequencedEvent) => {
      stopWaiting();
      if (!sink.sendEvent(event, { routeId: tally.route?.id })) isBufferFull = true;
    },
    drain: (): Promise<void> | undefined => {
      if (!isBufferFull) return undefined;
      isBufferFull = false;
      return sink.waitForDrain();
    },
  };
}

/**
 * Every failure after the hold. What reached the client is billed (a stream that broke off, a client that left);
 * anything else releases the hold, records the failed call and rethrows, so the client gets an error and no charge.
 */
async function handleFailure(
  deps: ResponseDeps,
  input: { context: CallContext; tally: ResponseTally; builder: ResponseBuilder; sink: ResponseSink; error: unknown },
): Promise<void> {
  const { context, tally, builder, sink } = input;
  const cause = input.error instanceof RoundInterruptedError ? input.error.reason : input.error;
  if (!builder.isStarted || !tally.hasStarted) {
    await deps.creditHolds.release(context.reservation.hold);
    await finishReservation(deps, { reservation: context.reservation, usage: undefined });
    await recordFailure(deps, context, cause, sink.signal);
    // A stream whose headers went out during a silent wait can only report the failure in-stream.
    if (!sink.isStreamOpen || sink.signal.aborted) throw cause;
  } else {
    const errorCode = sink.signal.aborted ? 'client_disconnected' : describeError(cause);
    await settle(deps, context, { tally, status: 'interrupted', errorCode });
    if (sink.signal.aborted) return;
  }
  const gatewayError = toStreamError(cause);
  builder.fail({
    code: gatewayError.code,
    message: gatewayError.message,
    param: gatewayError.param,
    status: gatewayError.status,
  });
  sink.endStream();
}

async function settle(
  deps: ResponseDeps,
  context: CallContext,
  outcome: { tally: ResponseTally; status: UsageRecordRow['status']; errorCode: string | null },
) {
  const { usage, route, firstTokenAtMs } = outcome.tally;
  // The reservation ends after the charge is counted in the key's spending, so its spend cap share covers it until then.
  return settleCharge(deps, {
    caller: context.caller,
    hold: context.reservation.hold,
    costMicros: priceTokenUsage(context.model, usage),
    usage: {
      ...usageRecordBase(deps, context),
      route_id: route?.id ?? null,
      provider: route?.provider ?? null,
      status: outcome.status,
      error_code: outcome.errorCode,
      input_tokens: usage.inputTokens,
      cached_tokens: usage.cachedInputTokens,
      output_tokens: usage.outputTokens,
      reasoning_tokens: usage.reasoningTokens,
      time_to_first_token_ms: firstTokenAtMs === undefined ? null : firstTokenAtMs - context.startedAtMs,
    },
  }).finally(() => finishReservation(deps, { reservation: context.reservation, usage }));
}

async function recordFailure(deps: ResponseDeps, context: CallContext, error: unknown, signal: AbortSignal) {
  await recordFailedCall(deps.db, {
    ...usageRecordBase(deps, context),
    route_id: null,
    provider: null,
    status: 'failed',
    error_code: signal.aborted ? 'client_disconnected' : describeError(error),
    input_tokens: 0,
    cached_tokens: 0,
    output_tokens: 0,
    reasoning_tokens: 0,
    time_to_first_token_ms: null,
    cost_micros: 0,
  });
}

function usageRecordBase(deps: ResponseDeps, context: CallContext) {
  const nowMs = deps.clock.nowMs();
  return {
    request_id: context.requestId,
    user_id: context.caller.userId,
    api_key_id: context.caller.key.id,
    model_id: context.model.id,
    endpoint: 'responses' as const,
    image_count: 0,
    latency_ms: nowMs - context.startedAtMs,
    created_at: nowMs,
  };
}

/** The Responses usage object: every detail the schema requires, plus what the ledger debited. */
export function toResponseUsage(usage: TokenUsage, costUsd: number): ResponseUsage {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens, cache_write_tokens: usage.cacheWriteInputTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
    cost: costUsd,
  };
}

function describeError(error: unknown): string {
  if (error instanceof GatewayError) return error.code ?? error.type;
  if (error instanceof UpstreamFailureError) return error.failure.vendorCode ?? 'upstream_stream_error';
  return 'stream_error';
}

function toStreamError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const message =
    error instanceof UpstreamFailureError
      ? `The upstream provider failed mid-stream: ${error.failure.message}`
      : 'The upstream stream broke off.';
  return new UpstreamError(message, { code: 'upstream_stream_error' });
}

/** JSON output: text before a search would break the client's parse of the answer (`ResponseBuilder`). */
function isJsonFormat(type: string | undefined): boolean {
  return type === 'json_object' || type === 'json_schema';
}
