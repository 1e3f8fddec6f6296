import type { AccountTerms } from '../accounts/account-terms.ts';
import { priceTokenUsage, zeroUsage } from '../billing/pricing.ts';
import type { PriceList } from '../catalog/price-list.ts';
import type { Route, RouteTable } from '../catalog/route-table.ts';
import { microsToUsd } from '../lib/money.ts';
import {
  embeddingsRequestSchema,
  type EmbeddingsRequest,
  type EmbeddingsResponse,
} from '../openai-api/embeddings-request.ts';
import { parseWireRequest } from '../openai-api/parse-request.ts';
import type { Admission } from '../pipeline/admit-call.ts';
import type { Caller } from '../pipeline/authenticate.ts';
import { describeFailedCall, openCallCharge, type CallChargeDeps } from '../pipeline/call-charge.ts';
import { chooseRoutes } from '../pipeline/choose-routes.ts';
import { reserveCredits, type ReserveCreditsDeps } from '../pipeline/reserve-credits.ts';
import { resolveModel } from '../pipeline/resolve-model.ts';
import { callEmbeddingProvider, type CallEmbeddingProviderDeps } from './call-embedding-provider.ts';
import { readEmbeddingInputs } from './read-embedding-inputs.ts';

export type EmbeddingsDeps = CallChargeDeps &
  ReserveCreditsDeps & {
    accountTerms: Pick<AccountTerms, 'priceModel' | 'tokensPerMinute'>;
    priceList: PriceList;
    routeTable: RouteTable;
    upstream: CallEmbeddingProviderDeps;
  };

/**
 * `POST /v1/embeddings` after authentication and the rate limit: checks the inputs against the model, holds the most
 * their input tokens can cost, asks the routes in turn (failing over like chat), and settles the input tokens the
 * vendor counted (our estimate where it counts none, Gemini) through the call charge, so `usage.cost` is what the
 * ledger debited. A failure releases the hold: nothing is charged. Vectors pass through; nothing is stored.
 */
export async function runEmbeddings(
  deps: EmbeddingsDeps,
  input: { caller: Caller; body: unknown; requestId: string; signal: AbortSignal; admission?: Admission },
): Promise<EmbeddingsResponse> {
  const startedAtMs = deps.clock.nowMs();
  const request = parseWireRequest(embeddingsRequestSchema, input.body);
  const model = resolveModel(deps, { caller: input.caller, modelId: request.model, kind: 'embedding' });
  const { inputs, estimatedTokens, textBytes } = readEmbeddingInputs(request, model);
  const routes = chooseRoutes(deps, { model, userId: input.caller.userId });
  const reservation = await reserveCredits(deps, {
    caller: input.caller,
    model,
    // Token ids count 4 bytes each, so the hold's bound of one token per byte covers them too.
    size: { textBytes, messageCount: 0, imageCount: 0, requestedMaxOutputTokens: 0 },
    holdId: input.requestId,
    admission: input.admission,
  });
  await using charge = openCallCharge(deps, {
    caller: input.caller,
    requestId: input.requestId,
    modelId: model.id,
    endpoint: 'embeddings',
    startedAtMs,
    reservation,
  });
  let lastRoute: Route | undefined;
  const call = await callEmbeddingProvider(deps.upstream, {
    routes,
    inputs,
    dimensions: request.dimensions,
    signal: input.signal,
    modelId: model.id,
    userId: input.caller.userId,
    onRouteTried: (route) => {
      lastRoute = route;
    },
  }).catch(async (error: unknown) => {
    await charge.fail({ errorCode: describeFailedCall(error), route: lastRoute });
    throw error;
  });
  const inputTokens = call.embedded.inputTokens ?? estimatedTokens.reduce((sum, tokens) => sum + tokens, 0);
  const usage = { ...zeroUsage, inputTokens };
  const settlement = await charge.settle({
    costMicros: priceTokenUsage(model, usage),
    usage,
    route: call.route,
    status: 'completed',
    errorCode: null,
    timeToFirstTokenMs: null,
    imageCount: 0,
  });
  return {
    object: 'list',
    data: call.embedded.vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: encodeVector(vector, request.encoding_format),
    })),
    model: request.model,
    usage: { prompt_tokens: inputTokens, total_tokens: inputTokens, cost: microsToUsd(settlement.costMicros) },
  };
}

/** `base64`: the little-endian float32 bytes of the vector, as OpenAI's SDKs decode them. */
function encodeVector(vector: readonly number[], format: EmbeddingsRequest['encoding_format']): number[] | string {
  if (format !== 'base64') return [...vector];
  return Buffer.from(new Float32Array(vector).buffer).toString('base64');
}
