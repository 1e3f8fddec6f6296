import { baseQuirks } from '../openai-compatible/base-quirks.ts';
import type { DialectQuirks } from '../openai-compatible/dialect-quirks.ts';
import { hashText } from '../shared/random.ts';
import { findOpenAiRequestError } from './find-openai-request-error.ts';
import { openAiReasoningFor, snapshotOpenAiModel } from './openai-reasoning.ts';

export const openAiModelIds = [
  'gpt-5.1',
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4o',
  'gpt-4o-mini',
  'o3',
  'o4-mini',
  'gpt-image-1',
  'dall-e-3',
] as const;

/** OpenAI itself: the reference dialect plus its extras (refusal field, fingerprint, obfuscation, dated snapshots). */
export const openAiQuirks: DialectQuirks = {
  ...baseQuirks,
  vendor: 'openai',
  knownModels: { priceDataProviderId: 'openai', pattern: /^(gpt-|o\d|chatgpt-|text-embedding-)[^:]*[^-]$/ },
  modelIds: openAiModelIds,
  snapshotModel: snapshotOpenAiModel,
  // Automatic caching from 1024 tokens, in 128-token steps.
  cachePolicy: { kind: 'automatic', minimumTokens: 1024, granularityTokens: 128 },
  reasoningFor: (request) => openAiReasoningFor(request.model, request.reasoning_effort),
  hasRefusalField: true,
  findRequestError: findOpenAiRequestError,
  decorateChunk: (chunk, _position, context) => {
    chunk['service_tier'] = 'default';
    chunk['system_fingerprint'] = systemFingerprint(context.model);
    // Random-length padding against length side channels, on by default (docs/reference/openai.md §Streaming).
    if (context.request.stream_options?.include_obfuscation !== false) {
      const padding = hashText(JSON.stringify(chunk));
      chunk['obfuscation'] = padding.slice(0, 2 + (padding.charCodeAt(0) % 14));
    }
  },
  decorateCompletion: (completion, context) => {
    completion['service_tier'] = 'default';
    completion['system_fingerprint'] = systemFingerprint(context.model);
  },
};

function systemFingerprint(model: string): string {
  return `fp_${hashText(model).slice(0, 10)}`;
}
