import { reasoningForEffort } from '../../shared/conversation.ts';
import { baseQuirks } from '../base-quirks.ts';
import type { DialectQuirks } from '../dialect-quirks.ts';

/**
 * xAI (docs/reference/openai-compatible-vendors.md): `reasoning_content` on reasoning models, usage on the second-to-last chunk followed by a
 * chunk with empty `choices`, and dated model names in responses.
 */
export const xaiQuirks: DialectQuirks = {
  ...baseQuirks,
  vendor: 'xai',
  knownModels: { priceDataProviderId: 'x-ai', pattern: /^grok-/ },
  modelIds: ['grok-4', 'grok-4-fast-reasoning', 'grok-4-fast-non-reasoning', 'grok-code-fast-1', 'grok-3-mini'],
  snapshotModel: (model) => (/-\d{4}$/.test(model) ? model : `${model}-0709`),
  cachePolicy: { kind: 'automatic', minimumTokens: 1024, granularityTokens: 1 },
  reasoningFor: (request) => {
    const isReasoningModel =
      !request.model.includes('non-reasoning') && /^(grok-4|grok-3-mini|grok-code)/.test(request.model);
    return isReasoningModel || request.reasoning_effort
      ? reasoningForEffort(request.reasoning_effort ?? 'medium')
      : undefined;
  },
  reasoningField: 'reasoning_content',
  streamUsagePlacement: 'finish-chunk-then-empty-chunk',
};
