import type { Dispatcher } from 'undici';
import { z } from 'zod';
import type { AccountTerms } from '../accounts/account-terms.ts';
import { estimateDeliveredUsage } from '../billing/estimate-delivered-usage.ts';
import type { PriceList } from '../catalog/price-list.ts';
import type { Route, RouteTable } from '../catalog/route-table.ts';
import type { ChatRequest } from '../openai-api/chat-request.ts';
import { getProviderAdapter } from '../providers/registry.ts';
import { parseBodyText } from '../providers/shared/parse-error-body.ts';
import { postJsonWhole } from '../providers/shared/post-json.ts';
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
/** The fields of a generateContent body that Gemini's count takes inside `generateContentRequest`. */
const geminiCountFields = ['contents', 'systemInstruction', 'tools', 'toolConfig'] as const;
const geminiCountSchema = z.object({ totalTokens: z.number().int().min(0) });

/** The vendors with a count endpoint, and how each is asked. */
const vendorCounts = {
  anthropic: countAtAnthropic,
  gemini: countAtGemini,
} as const;
type CountingProvider = keyof typeof vendorCounts;

/**
 * The input tokens of a chat request, free of charge (`/v1/messages/count_tokens`): the vendor's own count where a
 * route of the model reaches a vendor with a count endpoint (Anthropic's `/v1/messages/count_tokens`, Gemini's
 * `:countTokens`), else, or when that call fails, the estimate the credit hold uses (docs/messages.md).
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 * @see https://ai.google.dev/api/tokens#method:-models.counttokens
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
  const route = chooseRoutes(deps, { model, userId: input.caller.userId }).find((candidate) =>
    isCountingProvider(candidate.provider),
  );
  if (!route || !isCountingProvider(route.provider)) return estimate;
  try {
    const count = vendorCounts[route.provider];
    return {
      inputTokens: await count(deps, { ...input, route, maxOutputTokens: model.maxOutputTokens }),
      source: 'vendor',
    };
  } catch {
    // A count is advice: a vendor that cannot give one leaves the estimate, never an error.
    return estimate;
  }
}

type CountInput = { request: ChatRequest; route: Route; maxOutputTokens: number; signal: AbortSignal };

function isCountingProvider(provider: string): provider is CountingProvider {
  return Object.hasOwn(vendorCounts, provider);
}

async function countAtAnthropic(deps: CountInputTokensDeps, input: CountInput): Promise<number> {
  const messagesCall = buildVendorCall('anthropic', input);
  const body = pickFields(parseBodyText(messagesCall.body), anthropicCountFields);
  const answer = await postCount(deps, input, { ...messagesCall, url: `${messagesCall.url}/count_tokens`, body });
  return anthropicCountSchema.parse(answer).input_tokens;
}

/** Gemini counts a whole generateContent request (`generateContentRequest`), system instruction and tools included. */
async function countAtGemini(deps: CountInputTokensDeps, input: CountInput): Promise<number> {
  const generateCall = buildVendorCall('gemini', input);
  const url = generateCall.url.replace(/:generateContent$/, ':countTokens');
  if (url === generateCall.url) throw new Error('Unexpected Gemini generateContent URL.');
  const generateContentRequest = {
    model: `models/${input.route.upstreamModel}`,
    ...pickFields(parseBodyText(generateCall.body), geminiCountFields),
  };
  const answer = await postCount(deps, input, { ...generateCall, url, body: { generateContentRequest } });
  return geminiCountSchema.parse(answer).totalTokens;
}

function buildVendorCall(provider: CountingProvider, input: CountInput) {
  const { route } = input;
  return getProviderAdapter(provider).buildRequest({
    request: { ...input.request, stream: false },
    target: {
      baseUrl: route.baseUrl,
      credential: route.credential,
      upstreamModel: route.upstreamModel,
      defaultMaxOutputTokens: input.maxOutputTokens,
    },
    isStreaming: false,
  });
}

function pickFields(body: unknown, fields: readonly string[]): Record<string, unknown> {
  const record = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  return Object.fromEntries(
    fields.filter((field) => record[field] !== undefined).map((field) => [field, record[field]]),
  );
}

async function postCount(
  deps: CountInputTokensDeps,
  input: CountInput,
  call: { url: string; headers: Record<string, string>; body: unknown },
): Promise<unknown> {
  const response = await postJsonWhole({
    request: { url: call.url, headers: call.headers, body: JSON.stringify(call.body) },
    dispatcher: deps.upstream.dispatcher,
    signal: input.signal,
    timeouts: defaultUpstreamTimeouts({ isStreaming: false }),
  });
  const answer = await readUpstreamBody(response.body);
  if (response.status !== 200) throw new Error(`The count endpoint answered ${response.status}`);
  return answer;
}
