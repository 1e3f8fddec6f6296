import { zeroUsage } from '../billing/pricing.ts';
import type { CatalogModel, PriceList } from '../catalog/price-list.ts';
import type { Route, RouteTable } from '../catalog/route-table.ts';
import { ModelNotFoundError } from '../errors/model-not-found-error.ts';
import { toUnixSeconds } from '../lib/clock.ts';
import { microsToUsd } from '../lib/money.ts';
import { parseWireRequest } from '../openai-api/parse-request.ts';
import type { AccountTerms } from '../accounts/account-terms.ts';
import type { Caller } from '../pipeline/authenticate.ts';
import { describeFailedCall, openCallCharge, type CallCharge, type CallChargeDeps } from '../pipeline/call-charge.ts';
import type { AnswerOrigin } from '../pipeline/chat-sink.ts';
import { chooseRoutes } from '../pipeline/choose-routes.ts';
import { resolveModel } from '../pipeline/resolve-model.ts';
import type { Admission } from '../pipeline/admit-call.ts';
import type { Settlement } from '../pipeline/settle-charge.ts';
import { callImageProvider, type CallImageProviderDeps, type ImageProviderCall } from './call-image-provider.ts';
import { checkImageRequest } from './check-image-request.ts';
import type { ImageJob } from './image-job.ts';
import type { ImagePriceTiers } from './image-price-tiers.ts';
import { findRoutedImageProfile } from './image-profiles.ts';
import { imageRequestSchema, type ImageRequest, type ImagesResponse } from './image-request.ts';
import { findJobPriceKey, priceImageMicros, type ImagePriceKey } from './price-images.ts';
import { reserveImageCredits } from './reserve-image-credits.ts';

export type ImageGenerationDeps = CallChargeDeps & {
  accountTerms: Pick<AccountTerms, 'priceModel'>;
  priceList: PriceList;
  imagePriceTiers: Pick<ImagePriceTiers, 'tiersFor'>;
  routeTable: RouteTable;
  upstream: CallImageProviderDeps;
  /** How long one route may take to deliver every image (polls and downloads included). */
  imageTimeoutMs: number;
};

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
    /** The request budgets and slot, asked for with the hold (`admit-call.ts`). */
    admission?: Admission;
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
  const reservation = await reserveImageCredits(deps, {
    caller: input.caller,
    imageCount: job.count,
    perImageMicros: priceImage(deps, model, findJobPriceKey(job)),
    holdId: input.requestId,
    admission: input.admission,
  });
  await using charge = openCallCharge(deps, {
    caller: input.caller,
    requestId: input.requestId,
    modelId: model.id,
    endpoint: 'images.generations',
    startedAtMs,
    reservation: { ...reservation, takenTokens: undefined },
  });
  // Awaited here, so the charge is disposed of only once the call has ended.
  return await generate(deps, { ...input, request, model, routes, job, charge, startedAtMs });
}

/** The call itself, once the credit (and any spend cap share) is held: every failure releases the hold. */
async function generate(
  deps: ImageGenerationDeps,
  input: {
    caller: Caller;
    signal: AbortSignal;
    onServed?: (origin: AnswerOrigin) => void;
    request: ImageRequest;
    model: CatalogModel;
    routes: readonly Route[];
    job: ImageJob;
    charge: CallCharge;
    startedAtMs: number;
  },
): Promise<ImagesResponse> {
  const { model, routes, job, charge, startedAtMs, request } = input;
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
    await charge.fail({ errorCode: describeFailedCall(error), route: lastRoute });
    throw error;
  }
  input.onServed?.({ routeId: call.route.id });
  const images = call.generated.images.slice(0, job.count);
  const settlement = await settle(deps, { model, job, charge }, { call, imageCount: images.length });
  const response: ImagesResponse = {
    created: toUnixSeconds(startedAtMs),
    data: images,
    model: request.model,
    cost: microsToUsd(settlement.costMicros),
    ...call.generated.details,
  };
  if (call.generated.usage) response.usage = call.generated.usage;
  return response;
}

/**
 * Captures the price of the images delivered, at the quality and size the vendor says it drew (else the ones
 * asked for); vendor-filtered images (fewer than asked) are not billed.
 */
function settle(
  deps: ImageGenerationDeps,
  context: { model: CatalogModel; job: ImageJob; charge: CallCharge },
  outcome: { call: ImageProviderCall; imageCount: number },
): Promise<Settlement> {
  const { usage, details } = outcome.call.generated;
  const requested = findJobPriceKey(context.job);
  const drawn = { quality: details?.quality ?? requested.quality, size: details?.size ?? requested.size };
  return context.charge.settle({
    costMicros: outcome.imageCount * priceImage(deps, context.model, drawn),
    usage: {
      ...zeroUsage,
      inputTokens: usage?.input_tokens ?? 0,
      outputTokens: usage?.output_tokens ?? 0,
    },
    route: outcome.call.route,
    status: 'completed',
    errorCode: null,
    timeToFirstTokenMs: null,
    imageCount: outcome.imageCount,
  });
}

function priceImage(deps: ImageGenerationDeps, model: CatalogModel, key: ImagePriceKey): number {
  return priceImageMicros(model, { tiers: deps.imagePriceTiers.tiersFor(model.id), key });
}
