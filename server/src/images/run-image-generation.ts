import type { CreditHold } from '../billing/credit-holds.ts';
import type { CatalogModel, PriceList } from '../catalog/price-list.ts';
import type { SpendCapHolds } from '../limits/spend-cap-holds.ts';
import type { Route, RouteTable } from '../catalog/route-table.ts';
import type { UsageRecordRow } from '../db/schema.ts';
import { recordFailedCall } from '../db/usage-records.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { ModelNotFoundError } from '../errors/model-not-found-error.ts';
import { toUnixSeconds, type Clock } from '../lib/clock.ts';
import { microsToUsd } from '../lib/money.ts';
import { parseWireRequest } from '../openai-api/parse-request.ts';
import type { AccountTerms } from '../accounts/account-terms.ts';
import type { Caller } from '../pipeline/authenticate.ts';
import type { AnswerOrigin } from '../pipeline/chat-sink.ts';
import { chooseRoutes } from '../pipeline/choose-routes.ts';
import { resolveModel } from '../pipeline/resolve-model.ts';
import { settleCharge, type SettleChargeDeps, type Settlement } from '../pipeline/settle-charge.ts';
import { callImageProvider, type CallImageProviderDeps, type ImageProviderCall } from './call-image-provider.ts';
import { checkImageRequest } from './check-image-request.ts';
import type { ImageJob } from './image-job.ts';
import type { ImagePriceTiers } from './image-price-tiers.ts';
import { findRoutedImageProfile } from './image-profiles.ts';
import { imageRequestSchema, type ImageRequest, type ImagesResponse } from './image-request.ts';
import { findJobPriceKey, priceImageMicros, type ImagePriceKey } from './price-images.ts';
import { reserveImageCredits } from './reserve-image-credits.ts';

export type ImageGenerationDeps = SettleChargeDeps & {
  spendCapHolds: SpendCapHolds;
  accountTerms: Pick<AccountTerms, 'priceModel'>;
  priceList: PriceList;
  imagePriceTiers: Pick<ImagePriceTiers, 'tiersFor'>;
  routeTable: RouteTable;
  clock: Clock;
  upstream: CallImageProviderDeps;
  /** How long one route may take to deliver every image (polls and downloads included). */
  imageTimeoutMs: number;
};

type CallContext = { caller: Caller; requestId: string; model: CatalogModel; job: ImageJob; startedAtMs: number };

/**
 * `POST /v1/images/generations` after authentication and the rate limit: checks the request against the model, holds
 * n × the per-image price (of the dearest tier the request may fall in), asks the routes in turn, and on success
 * captures the price of the images delivered, at the quality and size drawn, with a usage record in one commit. Any
 * failure releases the hold: nothing is charged. The images pass through; the gateway never stores them.
 */
export async function runImageGeneration(
  deps: ImageGenerationDeps,
  input: {
    caller: Caller;
    body: unknown;
    requestId: string;
    signal: AbortSignal;
    /** Told which route served the images (`http/` shows it to operator keys). */
    onServed?: (origin: AnswerOrigin) => void;
  },
): Promise<ImagesResponse> {
  const startedAtMs = deps.clock.nowMs();
  const request = parseWireRequest(imageRequestSchema, input.body);
  const model = resolveModel(deps, { caller: input.caller, modelId: request.model, kind: 'image' });
  const routes = chooseRoutes(deps, { model, userId: input.caller.userId });
  const profile = findRoutedImageProfile(model.id, routes);
  if (!profile) {
    throw new ModelNotFoundError(`The gateway cannot draw images with the model \`${model.id}\`.`, { param: 'model' });
  }
  const job = checkImageRequest(request, profile);
  const { hold, spendCapShare } = await reserveImageCredits(deps, {
    caller: input.caller,
    imageCount: job.count,
    perImageMicros: priceImage(deps, model, findJobPriceKey(job)),
    holdId: input.requestId,
  });
  let chargedMicros = 0;
  try {
    const generated = await generate(deps, { ...input, request, model, routes, job, hold, startedAtMs });
    chargedMicros = generated.costMicros;
    return generated.response;
  } finally {
    if (spendCapShare) {
      deps.spendCapHolds.finish({ keyId: spendCapShare.keyId, shareMicros: spendCapShare.micros, chargedMicros });
    }
  }
}

/** The call itself, once the credit (and any spend cap share) is held: every failure releases the hold. */
async function generate(
  deps: ImageGenerationDeps,
  input: {
    caller: Caller;
    requestId: string;
    signal: AbortSignal;
    onServed?: (origin: AnswerOrigin) => void;
    request: ImageRequest;
    model: CatalogModel;
    routes: readonly Route[];
    job: ImageJob;
    hold: CreditHold;
    startedAtMs: number;
  },
): Promise<{ response: ImagesResponse; costMicros: number }> {
  const { model, routes, job, hold, startedAtMs, request } = input;
  const context: CallContext = { caller: input.caller, requestId: input.requestId, model, job, startedAtMs };
  let call: ImageProviderCall;
  let lastRoute: Route | undefined;
  try {
    call = await callImageProvider(deps.upstream, {
      routes,
      job,
      signal: input.signal,
      timeoutMs: deps.imageTimeoutMs,
      modelId: model.id,
      userId: input.caller.userId,
      onRouteTried: (route) => {
        lastRoute = route;
      },
    });
  } catch (error) {
    await deps.creditHolds.release(hold);
    await recordFailure(deps, context, { error, route: lastRoute });
    throw error;
  }
  input.onServed?.({ routeId: call.route.id });
  const images = call.generated.images.slice(0, job.count);
  const settlement = await settle(deps, context, { hold, call, imageCount: images.length });
  const response: ImagesResponse = {
    created: toUnixSeconds(startedAtMs),
    data: images,
    model: request.model,
    cost: microsToUsd(settlement.costMicros),
    ...call.generated.details,
  };
  if (call.generated.usage) response.usage = call.generated.usage;
  return { response, costMicros: settlement.costMicros };
}

/**
 * Captures the price of the images delivered, at the quality and size the vendor says it drew (else the ones
 * asked for); vendor-filtered images (fewer than asked) are not billed.
 */
function settle(
  deps: ImageGenerationDeps,
  context: CallContext,
  outcome: { hold: CreditHold; call: ImageProviderCall; imageCount: number },
): Promise<Settlement> {
  const { usage, details } = outcome.call.generated;
  const requested = findJobPriceKey(context.job);
  const drawn = { quality: details?.quality ?? requested.quality, size: details?.size ?? requested.size };
  return settleCharge(deps, {
    caller: context.caller,
    hold: outcome.hold,
    costMicros: outcome.imageCount * priceImage(deps, context.model, drawn),
    usage: {
      ...usageRecordBase(deps, context),
      route_id: outcome.call.route.id,
      provider: outcome.call.route.provider,
      status: 'completed',
      error_code: null,
      input_tokens: usage?.input_tokens ?? 0,
      output_tokens: usage?.output_tokens ?? 0,
      image_count: outcome.imageCount,
    },
  });
}

function priceImage(deps: ImageGenerationDeps, model: CatalogModel, key: ImagePriceKey): number {
  return priceImageMicros(model, { tiers: deps.imagePriceTiers.tiersFor(model.id), key });
}

/** A failed call costs nothing; its record names the last route tried (null when none was), for the operator. */
async function recordFailure(
  deps: ImageGenerationDeps,
  context: CallContext,
  outcome: { error: unknown; route: Route | undefined },
): Promise<void> {
  const { error, route } = outcome;
  await recordFailedCall(deps.db, {
    ...usageRecordBase(deps, context),
    route_id: route?.id ?? null,
    provider: route?.provider ?? null,
    status: 'failed',
    error_code: error instanceof GatewayError ? (error.code ?? error.type) : 'client_disconnected',
    input_tokens: 0,
    output_tokens: 0,
    image_count: 0,
    cost_micros: 0,
  });
}

function usageRecordBase(deps: ImageGenerationDeps, context: CallContext) {
  const nowMs = deps.clock.nowMs();
  return {
    request_id: context.requestId,
    user_id: context.caller.userId,
    api_key_id: context.caller.key.id,
    model_id: context.model.id,
    endpoint: 'images.generations',
    cached_tokens: 0,
    reasoning_tokens: 0,
    time_to_first_token_ms: null,
    latency_ms: nowMs - context.startedAtMs,
    created_at: nowMs,
  } satisfies Partial<UsageRecordRow>;
}
