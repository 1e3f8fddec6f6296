import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatRequest } from '../../openai-api/chat-request.ts';

/** A chat parameter a vendor cannot honour, and when a request counts as using it (its default is no use). */
export type UnsupportedParameter = {
  param: string;
  isUsed: (request: ChatRequest) => boolean;
  /** Defaults to "'<param>' is not supported by <vendor> models." */
  message?: string;
};

export const isPresent = (value: unknown): boolean => value !== undefined && value !== null;
const isNonZero = (value: unknown): boolean => typeof value === 'number' && value !== 0;

/**
 * OpenAI-only parameters that change what the answer contains; Anthropic and Gemini routes refuse them rather than
 * drop them (docs/STYLE.md §15). Fields that do not change the answer (`store`, `prompt_cache_key`, `metadata`) and fields
 * the gateway does not know at all are ignored on those routes (docs/chat-parameters.md).
 */
export const openAiOnlyParameters: readonly UnsupportedParameter[] = [
  { param: 'logprobs', isUsed: (request) => request['logprobs'] === true },
  { param: 'top_logprobs', isUsed: (request) => isPresent(request['top_logprobs']) },
  {
    param: 'logit_bias',
    isUsed: (request) => {
      const bias = request['logit_bias'];
      return typeof bias === 'object' && bias !== null && Object.keys(bias).length > 0;
    },
  },
  { param: 'audio', isUsed: (request) => isPresent(request['audio']) },
  {
    param: 'modalities',
    isUsed: (request) => {
      const modalities = request['modalities'];
      return Array.isArray(modalities) && modalities.some((modality) => modality !== 'text');
    },
  },
  { param: 'prediction', isUsed: (request) => isPresent(request['prediction']) },
  { param: 'web_search_options', isUsed: (request) => isPresent(request['web_search_options']) },
  { param: 'functions', isUsed: (request) => isPresent(request['functions']) },
  { param: 'function_call', isUsed: (request) => isPresent(request['function_call']) },
  { param: 'n', isUsed: (request) => typeof request.n === 'number' && request.n > 1 },
  // GPT-5's answer-length control: no other vendor has one, and dropping it would change the answer.
  { param: 'verbosity', isUsed: (request) => isPresent(request['verbosity']) },
];

/**
 * `service_tier` values other than the standard tier (`auto`, `default`): flex, scale and priority processing are
 * OpenAI's; Anthropic translates the standard values, Gemini has only its standard tier.
 */
export const nonStandardServiceTier: UnsupportedParameter = {
  param: 'service_tier',
  isUsed: (request) => {
    const tier = request['service_tier'];
    return isPresent(tier) && tier !== 'auto' && tier !== 'default';
  },
  message: "This model's vendor offers only the service tiers 'auto' and 'default'.",
};

export const penaltyParameters: readonly UnsupportedParameter[] = [
  { param: 'presence_penalty', isUsed: (request) => isNonZero(request.presence_penalty) },
  { param: 'frequency_penalty', isUsed: (request) => isNonZero(request.frequency_penalty) },
];

export function refuseUnsupportedParameters(input: {
  request: ChatRequest;
  vendorName: string;
  parameters: readonly UnsupportedParameter[];
}): void {
  const used = input.parameters.find((parameter) => parameter.isUsed(input.request));
  if (used === undefined) return;
  const message = used.message ?? `'${used.param}' is not supported by ${input.vendorName} models.`;
  throw new InvalidRequestError(message, { param: used.param, code: 'unsupported_parameter' });
}
