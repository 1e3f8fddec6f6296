import type { DialectQuirks } from '../openai-compatible/dialect-quirks.ts';
import { openAiQuirks } from '../openai/openai-quirks.ts';
import type { SimError } from '../shared/sim-error.ts';

const safe = { filtered: false, severity: 'safe' };
const contentFilterResults = { hate: safe, self_harm: safe, sexual: safe, violence: safe };
/** Prompts are also screened for jailbreak attempts (Prompt Shields). */
const promptFilterResults = [
  {
    prompt_index: 0,
    content_filter_results: { ...contentFilterResults, jailbreak: { filtered: false, detected: false } },
  },
];

/**
 * Azure OpenAI serves OpenAI's models with OpenAI's bodies, plus content-filter annotations (`prompt_filter_results`
 * on a completion; in a stream, an opening chunk without choices that carries them, then `content_filter_results`
 * on each choice), an `apim-request-id` header, and gateway-level errors (key, quota, unknown deployment) in its
 * API-management shape `{"error": {"code": "<status or name>", "message"}}`; the model's own errors keep OpenAI's
 * four-key shape. `model` in answers is the deployment's underlying model, as a dated snapshot.
 */
export const azureQuirks: DialectQuirks = {
  ...openAiQuirks,
  requestIdHeaders: (requestId) => ({ 'apim-request-id': requestId, 'x-request-id': requestId }),
  renderErrorBody: (error: SimError) =>
    [401, 403, 404, 429].includes(error.status)
      ? { error: { code: error.code ?? String(error.status), message: error.message } }
      : openAiQuirks.renderErrorBody(error),
  openingChunk: () => ({
    choices: [],
    created: 0,
    id: '',
    model: '',
    object: '',
    prompt_filter_results: promptFilterResults,
  }),
  decorateCompletion: (completion, context) => {
    openAiQuirks.decorateCompletion(completion, context);
    completion['prompt_filter_results'] = promptFilterResults;
  },
  decorateChunk: (chunk, position, context) => {
    openAiQuirks.decorateChunk(chunk, position, context);
    const choices = chunk['choices'];
    if (Array.isArray(choices)) {
      // The role chunk and the finish chunk carry no text, so nothing was filtered in them.
      const results = position === 'middle' ? contentFilterResults : {};
      for (const choice of choices as Record<string, unknown>[]) choice['content_filter_results'] = results;
    }
  },
};
