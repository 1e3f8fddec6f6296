import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { AccountTerms } from '../accounts/account-terms.ts';
import { estimateDeliveredUsage } from '../billing/estimate-delivered-usage.ts';
import type { PriceList } from '../catalog/price-list.ts';
import type { Route, RouteTable } from '../catalog/route-table.ts';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import { getProviderAdapter } from '../providers/registry.ts';
import { parseBodyText } from '../providers/shared/parse-error-body.ts';
import { postJson } from '../providers/shared/post-json.ts';
import { readUpstreamBody } from '../providers/shared/read-upstream-body.ts';
import { defaultUpstreamTimeouts } from '../providers/shared/upstream-timeouts.ts';
import type { Caller } from './authenticate.ts';
import { chooseRoutes } from './choose-routes.ts';
import { measureChatRequest } from './measure-chat-request.ts';
import { resolveModel } from './resolve-model.ts';

export type CountInputTokensDeps = {
  priceList: PriceList;
  routeTable: RouteTable;
  accountTerms: Pick<AccountTerms, 'priceModel'>;
  upstream: { dispatcher: Dispatcher };
};

/** What a token count is based on: the vendor's own count, or the gateway's estimate. */
export type InputTokenCount = { inputTokens: number; source: 'vendor' | 'estimate' };

/** The fields of Anthropic's count request: what makes up the input, nothing of the output. */
const anthropicCountFields = ['model', 'messages', 'system', 'tools', 'tool_choice', 'thinking'] as const;
const anthropicCountSchema = z.object({ input_tokens: z.number().int().min(0) });

/**
 * The input tokens of a chat request, free of charge (`/v1/messages/count_tokens`): the vendor's own count where a
 * route of the model reaches a vendor with a count endpoint (Anthropic's `/v1/messages/count_tokens`), else, or when
 * that call fails, the estimate the credit hold uses (docs/messages.md).
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */
export async function countInputTokens(
  deps: CountInputTokensDeps,
  input: { caller: Caller; request: ChatRequest; signal: AbortSignal },
): Promise<InputTokenCount> {
  const model = resolveModel(deps, { caller: input.caller, modelId: input.request.model, kind: 'text' });
  const estimate: InputTokenCount = {
    inputTokens: estimateDeliveredUsage({ ...measureChatRequest(input.request), deliveredTextBytes: 0 }).inputTokens,
    source: 'estimate',
  };
  const route = chooseRoutes(deps, { model, userId: input.caller.userId }).find(
    (candidate) => candidate.provider === 'anthropic',
  );
  if (!route) return estimate;
  try {
    return {
      inputTokens: await countAtAnthropic(deps, { ...input, route, maxOutputTokens: model.maxOutputTokens }),
      source: 'vendor',
    };
  } catch {
    // A count is advice: a vendor that cannot give one leaves the estimate, never an error.
    return estimate;
  }
}

async function countAtAnthropic(
  deps: CountInputTokensDeps,
  input: { request: ChatRequest; route: Route; maxOutputTokens: number; signal: AbortSignal },
): Promise<number> {
  const { route } = input;
  const messagesCall = getProviderAdapter('anthropic').buildRequest({
    request: { ...input.request, stream: false },
    target: {
      baseUrl: route.baseUrl,
      credential: route.credential,
      upstreamModel: route.upstreamModel,
      defaultMaxOutputTokens: input.maxOutputTokens,
    },
    isStreaming: false,
  });
  const messagesBody = parseBodyText(messagesCall.body) as Record<string, unknown>;
  const body = Object.fromEntries(
    anthropicCountFields
      .filter((field) => messagesBody[field] !== undefined)
      .map((field) => [field, messagesBody[field]]),
  );
  const response = await postJson({
    request: { url: `${messagesCall.url}/count_tokens`, headers: messagesCall.headers, body: JSON.stringify(body) },
    dispatcher: deps.upstream.dispatcher,
    signal: input.signal,
    timeouts: defaultUpstreamTimeouts({ isStreaming: false }),
  });
  const answer = await readUpstreamBody(response.body);
  if (response.status !== 200) throw new Error(`count_tokens answered ${response.status}`);
  return anthropicCountSchema.parse(answer).input_tokens;
}
