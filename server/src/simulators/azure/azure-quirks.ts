import type { DialectQuirks } from '../openai-compatible/dialect-quirks.ts';
import { openAiQuirks } from '../openai/openai-quirks.ts';
import type { SimError } from '../shared/sim-error.ts';

const safe = { filtered: false, severity: 'safe' };
const contentFilterResults = { hate: safe, self_harm: safe, sexual: safe, violence: safe };

/**
 * Azure OpenAI serves OpenAI's models with OpenAI's bodies, plus content-filter annotations, an `apim-request-id`
 * header, and gateway-level errors (key, quota, unknown deployment) in its API-management shape
 * `{"error": {"code": "<status>", "message"}}`; the model's own errors keep OpenAI's four-key shape.
 */
export const azureQuirks: DialectQuirks = {
  ...openAiQuirks,
  requestIdHeaders: (requestId) => ({ 'apim-request-id': requestId, 'x-request-id': requestId }),
  renderErrorBody: (error: SimError) =>
    [401, 403, 404, 429].includes(error.status)
      ? { error: { code: String(error.status), message: error.message } }
      : openAiQuirks.renderErrorBody(error),
  decorateCompletion: (completion, context) => {
    openAiQuirks.decorateCompletion(completion, context);
    completion['prompt_filter_results'] = [{ prompt_index: 0, content_filter_results: contentFilterResults }];
  },
  decorateChunk: (chunk, position, context) => {
    openAiQuirks.decorateChunk(chunk, position, context);
    const choices = chunk['choices'];
    if (Array.isArray(choices)) {
      for (const choice of choices as Record<string, unknown>[])
        choice['content_filter_results'] = contentFilterResults;
    }
  },
};
