import type { AccountTerms } from '../accounts/account-terms.ts';
import { priceTokenUsage, type TokenUsage } from '../billing/pricing.ts';
import type { CatalogModel, PriceList } from '../catalog/price-list.ts';
import type { NativeSearchProviderId } from '../config/config.ts';
import type { RouteTable } from '../catalog/route-table.ts';
import type { UsageRecordRow } from '../db/schema.ts';
import { checkpointErrorCode } from '../db/supersede-checkpoint-charge.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { toUnixSeconds } from '../lib/clock.ts';
import { microsToUsd } from '../lib/money.ts';
import type { Caller } from '../pipeline/authenticate.ts';
import { openCallCharge, type CallCharge, type CallChargeDeps } from '../pipeline/call-charge.ts';
import type { CallProviderDeps } from '../pipeline/call-provider.ts';
import { chooseRoutes } from '../pipeline/choose-routes.ts';
import { reserveCredits } from '../pipeline/reserve-credits.ts';
import type { Admission } from '../pipeline/admit-call.ts';
import { resolveModel } from '../pipeline/resolve-model.ts';
import { toStreamError } from '../pipeline/to-stream-error.ts';
import { UpstreamFailureError } from '../providers/provider-adapter.ts';
import type { SearchEngine } from '../search/search-engine.ts';
import { measureResponseRequest, type SearchMode } from './build-round-request.ts';
import type { ResponsePlan } from './convert-responses-request.ts';
import { parseResponsesRequest } from './parse-responses-request.ts';
import { ResponseBuilder } from './response-builder.ts';
import type { ResponseUsage } from './response-object.ts';
import type { ResponseSink } from './response-sink.ts';
import type { SequencedEvent } from './response-stream-event.ts';
import { RoundInterruptedError, runResponseRounds, type ResponseTally } from './run-response-rounds.ts';

export type ResponseDeps = CallChargeDeps & {
  accountTerms: AccountTerms;
  priceList: PriceList;
  routeTable: RouteTable;
  upstream: CallProviderDeps;
  searchEngine: SearchEngine;
  /** Vendors whose routes search with their own tool (NATIVE_WEB_SEARCH, docs/responses.md). */
  nativeSearchProviders: readonly NativeSearchProviderId[];
};

type CallContext = {
  model: CatalogModel;
  startedAtMs: number;
  /** Settles or releases the hold; `runResponse` disposes of it on every exit. */
  charge: CallCharge;
};

/**
 * `POST /v1/responses` after authentication and the rate limit: the same stages as chat (resolve the model, hold the
 * worst case once for every round and search, choose routes, call the provider), then one settlement of the summed
 * usage before the client sees the end, so `usage.cost` is what the ledger debited.
 */
export async function runResponse(
  deps: ResponseDeps,
  input: { caller: Caller; body: unknown; requestId: string; sink: ResponseSink; admission?: Admission },
): Promise<void> {
  const { body, ...rest } = input;
  await runResponsePlan(deps, { ...rest, plan: parseResponsesRequest(body), endpoint: 'responses' });
}

/**
 * A parsed plan through the Responses orchestrator; `/v1/messages` with Anthropic's web search tool comes here too,
 * recorded under its own endpoint.
 */
export async function runResponsePlan(
  deps: ResponseDeps,
  input: {
    caller: Caller;
    plan: ResponsePlan;
    requestId: string;
    sink: ResponseSink;
    endpoint: UsageRecordRow['endpoint'];
    /** The request budgets and slot, asked for with the hold (`admit-call.ts`). */
    admission?: Admission | undefined;
  },
): Promise<void> {
  const startedAtMs = deps.clock.nowMs();
  const { plan } = input;
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
    admission: input.admission,
  });
  await using charge = openCallCharge(deps, {
    caller: input.caller,
    requestId: input.requestId,
    modelId: model.id,
    endpoint: input.endpoint,
    startedAtMs,
    reservation,
  });
  input.sink.setHeaders(reservation.rateLimitHeaders);
  const context: CallContext = { model, startedAtMs, charge };
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
    toolOrigins: plan.toolOrigins,
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
      ...(plan.isStreaming ? { checkpoint: (delivered) => checkpoint(context, tally, delivered) } : {}),
    }));
  } catch (error) {
    events?.stopWaiting();
    await handleFailure({ context, tally, builder, sink: input.sink, error });
    return;
  }
  const settlement = await settle(context, { tally, status: 'completed', errorCode: null });
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
async function handleFailure(input: {
  context: CallContext;
  tally: ResponseTally;
  builder: ResponseBuilder;
  sink: ResponseSink;
  error: unknown;
}): Promise<void> {
  const { context, tally, builder, sink } = input;
  const cause = input.error instanceof RoundInterruptedError ? input.error.reason : input.error;
  if (!builder.isStarted || !tally.hasStarted) {
    await context.charge.fail({ errorCode: sink.signal.aborted ? 'client_disconnected' : describeError(cause) });
    // A stream whose headers went out during a silent wait can only report the failure in-stream.
    if (!sink.isStreamOpen || sink.signal.aborted) throw cause;
  } else {
    const errorCode = sink.signal.aborted ? 'client_disconnected' : describeError(cause);
    await settle(context, { tally, status: 'interrupted', errorCode });
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

function settle(
  context: CallContext,
  outcome: { tally: ResponseTally; status: Exclude<UsageRecordRow['status'], 'failed'>; errorCode: string | null },
) {
  const { usage, route, firstTokenAtMs } = outcome.tally;
  return context.charge.settle({
    costMicros: priceTokenUsage(context.model, usage),
    usage,
    route,
    status: outcome.status,
    errorCode: outcome.errorCode,
    timeToFirstTokenMs: firstTokenAtMs === undefined ? null : firstTokenAtMs - context.startedAtMs,
    imageCount: 0,
  });
}

/**
 * What a stream cut now would be billed (the node died): the delivery so far of every round, as an interrupted call,
 * written with the node's other checkpoints every 250 ms (docs/billing.md, "Delivered usage across a crash").
 */
function checkpoint(context: CallContext, tally: ResponseTally, delivered: () => TokenUsage): void {
  context.charge.checkpoint(() => {
    const usage = delivered();
    return {
      costMicros: priceTokenUsage(context.model, usage),
      usage,
      route: tally.route,
      status: 'interrupted',
      errorCode: checkpointErrorCode,
      timeToFirstTokenMs: tally.firstTokenAtMs === undefined ? null : tally.firstTokenAtMs - context.startedAtMs,
      imageCount: 0,
    };
  });
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

/** JSON output: text before a search would break the client's parse of the answer (`ResponseBuilder`). */
function isJsonFormat(type: string | undefined): boolean {
  return type === 'json_object' || type === 'json_schema';
}
