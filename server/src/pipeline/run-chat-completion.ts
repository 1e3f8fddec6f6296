import type { AccountTerms } from '../accounts/account-terms.ts';
import { estimateDeliveredUsage } from '../billing/estimate-delivered-usage.ts';
import { priceTokenUsage, type TokenUsage } from '../billing/pricing.ts';
import type { CatalogModel, PriceList } from '../catalog/price-list.ts';
import type { Route, RouteTable } from '../catalog/route-table.ts';
import type { UsageRecordRow } from '../db/schema.ts';
import { checkpointErrorCode } from '../db/supersede-checkpoint-charge.ts';
import { InternalError } from '../errors/internal-error.ts';
import { toUnixSeconds } from '../lib/clock.ts';
import { microsToUsd } from '../lib/money.ts';
import type { ChatCompletion } from '../openai-api/chat-completion.ts';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import { parseChatRequest } from '../openai-api/parse-chat-request.ts';
import { UpstreamFailureError, type ProviderAdapter, type RelayedCompletion } from '../providers/provider-adapter.ts';
import type { Admission } from './admit-call.ts';
import type { Caller } from './authenticate.ts';
import {
  describeFailedCall,
  openCallCharge,
  type CallCharge,
  type CallChargeDeps,
  type CallOutcome,
} from './call-charge.ts';
import {
  callProvider,
  callProviderRelaying,
  type CallProviderDeps,
  type ProviderCall,
  type RelayedCall,
} from './call-provider.ts';
import type { ChatSink } from './chat-sink.ts';
import { chooseFimRoutes } from './choose-fim-routes.ts';
import { chooseRoutes } from './choose-routes.ts';
import { fromWireUsage, toWireUsage } from './convert-usage.ts';
import { measureChatRequest } from './measure-chat-request.ts';
import { relayStream, type RelayResult } from './relay-stream.ts';
import { reserveCredits, type Reservation, type RequestSize } from './reserve-credits.ts';
import { resolveModel } from './resolve-model.ts';
import { toStreamError } from './to-stream-error.ts';

export type ChatCompletionDeps = CallChargeDeps & {
  accountTerms: AccountTerms;
  priceList: PriceList;
  routeTable: RouteTable;
  upstream: CallProviderDeps;
};

type CallContext = {
  caller: Caller;
  requestId: string;
  model: CatalogModel;
  size: RequestSize;
  reservation: Reservation;
  startedAtMs: number;
  /** Settles or releases the hold; `runChatCompletion` disposes of it on every exit. */
  charge: CallCharge;
};

/**
 * `POST /v1/chat/completions` after authentication and the rate limit: checks the request, holds the worst-case
 * cost, calls the best route (failing over before the first byte), and settles the exact cost before the client
 * sees the end of the answer, so `usage.cost` is what the ledger debited.
 */
export async function runChatCompletion(
  deps: ChatCompletionDeps,
  input: {
    caller: Caller;
    body: unknown;
    requestId: string;
    sink: ChatSink;
    /** See `CallProviderInput.isReasoningAdvisory`. */
    isReasoningAdvisory?: boolean;
    /** The API the call came through, as usage and reports show it: `/v1/messages` and `/v1/completions` run here too. */
    endpoint?: Extract<UsageRecordRow['endpoint'], 'chat.completions' | 'completions' | 'messages'>;
    /** `/v1/completions` fill-in-the-middle: only routes whose vendor has a FIM API serve it, through that API. */
    suffix?: string;
    /** The request budgets and slot, asked for with the hold (`admit-call.ts`). */
    admission?: Admission;
  },
): Promise<void> {
  const startedAtMs = deps.clock.nowMs();
  const request = parseChatRequest(input.body);
  const model = resolveModel(deps, { caller: input.caller, modelId: request.model, kind: 'text' });
  const chosen = chooseRoutes(deps, { model, userId: input.caller.userId });
  const fim =
    input.suffix === undefined ? undefined : chooseFimRoutes(chosen, { suffix: input.suffix, modelId: model.id });
  const routes = fim?.routes ?? chosen;
  const size = measureChatRequest(request);
  const { caller, requestId } = input;
  const reservation = await reserveCredits(deps, {
    caller,
    model,
    size,
    holdId: requestId,
    admission: input.admission,
  });
  await using charge = openCallCharge(deps, {
    caller,
    requestId,
    modelId: model.id,
    endpoint: input.endpoint ?? 'chat.completions',
    startedAtMs,
    reservation,
  });
  input.sink.setHeaders(reservation.rateLimitHeaders);
  const context: CallContext = { caller, requestId, model, size, reservation, startedAtMs, charge };
  const isReasoningAdvisory = input.isReasoningAdvisory === true;
  const call = await callRoutes(deps, {
    context,
    request,
    routes,
    sink: input.sink,
    isReasoningAdvisory,
    adapterFor: fim?.adapterFor,
  });
  if (call.kind === 'completion') {
    await finishCompletion(deps, context, call.completion, call.route, input.sink);
    return;
  }
  if (call.kind === 'relayed') {
    await finishRelayedCompletion(context, call.relayed, call.route, input.sink);
    return;
  }
  await finishStream(deps, { context, request, call, sink: input.sink });
}

/**
 * Calls the routes; when no answer comes, settles what the failure costs before the error goes on: the input of a
 * call the client left while an upstream worked on it, nothing otherwise (the hold is released and the failure
 * recorded).
 */
async function callRoutes(
  deps: ChatCompletionDeps,
  input: {
    context: CallContext;
    request: ChatRequest;
    routes: readonly Route[];
    sink: ChatSink;
    isReasoningAdvisory: boolean;
    adapterFor: ((route: Route) => ProviderAdapter | undefined) | undefined;
  },
): Promise<ProviderCall | RelayedCall> {
  const { context, sink } = input;
  const isStreaming = input.request.stream === true;
  const isClientGoneBeforeCall = sink.signal.aborted;
  const stopAwaitingStream = isStreaming ? sink.awaitStream() : () => undefined;
  try {
    const call = sink.sendCompletionJson === undefined ? callProvider : callProviderRelaying;
    return await call(deps.upstream, {
      routes: input.routes,
      request: withOutputLimit(input.request, context.reservation),
      model: context.model,
      isStreaming,
      signal: sink.signal,
      requestId: context.requestId,
      createdUnixSeconds: toUnixSeconds(context.startedAtMs),
      userId: context.caller.userId,
      isReasoningAdvisory: input.isReasoningAdvisory,
      ...(input.adapterFor ? { adapterFor: input.adapterFor } : {}),
    });
  } catch (error) {
    if (sink.signal.aborted && !isClientGoneBeforeCall) {
      await settleAbandonedCall(context);
      throw error;
    }
    await context.charge.fail({ errorCode: describeFailedCall(error) });
    throw error;
  } finally {
    stopAwaitingStream();
  }
}

/**
 * Relays a streamed answer, settles what was delivered, then ends the stream: with the usage chunk (and its cost)
 * when the client asked for it and `[DONE]`, or with an in-stream error when the upstream broke off.
 */
async function finishStream(
  deps: ChatCompletionDeps,
  input: {
    context: CallContext;
    request: ChatRequest;
    call: Extract<ProviderCall, { kind: 'stream' }>;
    sink: ChatSink;
  },
): Promise<void> {
  const { context, call, sink } = input;
  try {
    sink.startStream({ routeId: call.route.id });
  } catch (error) {
    // Nothing reached the client: the upstream stream is closed, and the call charge releases the hold.
    await call.chunks.return?.().catch(() => undefined);
    throw error;
  }
  const identity = {
    id: `chatcmpl-${context.requestId}`,
    created: toUnixSeconds(context.startedAtMs),
    model: input.request.model,
  };
  const relay = await relayStream({
    chunks: call.chunks,
    firstChunk: call.firstChunk,
    sink,
    identity,
    startedAtMs: context.startedAtMs,
    nowMs: deps.clock.nowMs,
    onDelivered: (soFar) => context.charge.checkpoint(() => deliveredSoFar(context, soFar, call.route)),
  });
  if (relay.error !== undefined) await call.chunks.return?.().catch(() => undefined);
  const usage =
    relay.vendorUsage ?? estimateDeliveredUsage({ ...context.size, deliveredTextBytes: relay.deliveredTextBytes });
  const isInterrupted = relay.error !== undefined;
  const settlement = await settle(context, {
    usage,
    route: call.route,
    status: isInterrupted ? 'interrupted' : 'completed',
    errorCode: isInterrupted ? describeInterruption(relay.error, sink.signal) : null,
    timeToFirstTokenMs: relay.timeToFirstTokenMs ?? null,
  });
  if (sink.signal.aborted) return;
  if (isInterrupted) {
    sink.sendStreamError(toStreamError(relay.error));
    return;
  }
  if (input.request.stream_options?.include_usage === true) {
    sink.sendChunk({
      ...identity,
      object: 'chat.completion.chunk',
      choices: [],
      usage: toWireUsage(usage, microsToUsd(settlement.costMicros)),
    });
  }
  sink.endStream();
}

async function finishCompletion(
  deps: ChatCompletionDeps,
  context: CallContext,
  completion: ChatCompletion,
  route: Route,
  sink: ChatSink,
): Promise<void> {
  const usage = completion.usage
    ? fromWireUsage(completion.usage)
    : estimateDeliveredUsage({ ...context.size, deliveredTextBytes: completionTextBytes(completion) });
  const settlement = await settle(context, {
    usage,
    route,
    status: 'completed',
    errorCode: null,
    timeToFirstTokenMs: null,
  });
  sink.sendCompletion(
    { ...completion, usage: toWireUsage(usage, microsToUsd(settlement.costMicros)) },
    { routeId: route.id },
  );
}

/** The same as `finishCompletion` for an answer forwarded as the vendor sent it: billed on the same usage. */
async function finishRelayedCompletion(
  context: CallContext,
  relayed: RelayedCompletion,
  route: Route,
  sink: ChatSink,
): Promise<void> {
  const usage = relayed.usage
    ? fromWireUsage(relayed.usage)
    : estimateDeliveredUsage({ ...context.size, deliveredTextBytes: relayed.textBytes });
  const settlement = await settle(context, {
    usage,
    route,
    status: 'completed',
    errorCode: null,
    timeToFirstTokenMs: null,
  });
  if (sink.sendCompletionJson === undefined) {
    throw new InternalError('An answer was relayed to a sink that cannot send it as it is.');
  }
  sink.sendCompletionJson(relayed.render(toWireUsage(usage, microsToUsd(settlement.costMicros))), {
    routeId: route.id,
  });
}

/**
 * The client left while an upstream was working on the request, before any answer arrived (docs/billing.md): the
 * vendor has read the prompt and bills it, so the call is billed its input (estimated from the request, as for an
 * interrupted stream) and no output, since none was delivered and the upstream call was aborted.
 */
async function settleAbandonedCall(context: CallContext): Promise<void> {
  await settle(context, {
    usage: estimateDeliveredUsage({ ...context.size, deliveredTextBytes: 0 }),
    route: undefined,
    status: 'interrupted',
    errorCode: 'client_disconnected',
    timeToFirstTokenMs: null,
  });
}

function settle(
  context: CallContext,
  outcome: {
    usage: TokenUsage;
    /** Undefined when the client left before a route answered. */
    route: Route | undefined;
    status: Exclude<UsageRecordRow['status'], 'failed'>;
    errorCode: string | null;
    timeToFirstTokenMs: number | null;
  },
) {
  return context.charge.settle({
    ...outcome,
    costMicros: priceTokenUsage(context.model, outcome.usage),
    imageCount: 0,
  });
}

/** What a stream cut now would be billed: the delivery so far, as an interrupted call (docs/billing.md). */
function deliveredSoFar(context: CallContext, soFar: RelayResult, route: Route): CallOutcome {
  const usage =
    soFar.vendorUsage ?? estimateDeliveredUsage({ ...context.size, deliveredTextBytes: soFar.deliveredTextBytes });
  return {
    usage,
    costMicros: priceTokenUsage(context.model, usage),
    route,
    status: 'interrupted',
    errorCode: checkpointErrorCode,
    timeToFirstTokenMs: soFar.timeToFirstTokenMs ?? null,
    imageCount: 0,
  };
}

/** The output limit sent upstream: lowered when the balance affords less, in the field the client used. */
function withOutputLimit(request: ChatRequest, reservation: Reservation): ChatRequest {
  if (!reservation.isOutputLimitLowered) return request;
  const usesLegacyField = request.max_tokens !== undefined && request.max_completion_tokens === undefined;
  return usesLegacyField
    ? { ...request, max_tokens: reservation.maxOutputTokens }
    : { ...request, max_completion_tokens: reservation.maxOutputTokens };
}

function completionTextBytes(completion: ChatCompletion): number {
  let text = '';
  for (const choice of completion.choices) {
    text += choice.message.content ?? '';
    for (const call of choice.message.tool_calls ?? []) text += call.function.name + call.function.arguments;
  }
  return Buffer.byteLength(text);
}

function describeInterruption(error: unknown, signal: AbortSignal): string {
  if (signal.aborted) return 'client_disconnected';
  if (error instanceof UpstreamFailureError) return error.failure.vendorCode ?? 'upstream_stream_error';
  return 'stream_error';
}
