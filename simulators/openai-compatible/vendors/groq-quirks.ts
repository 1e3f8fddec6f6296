import { createSimError } from '../../shared/sim-error.ts';
import { baseQuirks } from '../base-quirks.ts';
import type { DialectQuirks } from '../dialect-quirks.ts';

/**
 * Groq (docs/reference/openai-compatible-vendors.md): an `x_groq` object on the first and last chunks, the last one carrying usage with timing
 * fields (the older usage location), and a standard usage chunk when `include_usage` is set. One choice per request:
 * "only n=1 is supported. Other values will result in a 400 response".
 * @see https://console.groq.com/docs/api-reference#chat-create
 */
export const groqQuirks: DialectQuirks = {
  ...baseQuirks,
  vendor: 'groq',
  modelIds: ['llama-3.3-70b-versatile', 'meta-llama/llama-4-maverick-17b-128e-instruct', 'moonshotai/kimi-k2-instruct'],
  createRequestId: (ids) => `req_${ids.nextString('0123456789abcdefghjkmnpqrstvwxyz', 26)}`,
  createToolCallId: (ids) => ids.nextString('0123456789abcdefghjkmnpqrstvwxyz', 8),
  findRequestError: (request) =>
    typeof request.n === 'number' && request.n > 1
      ? createSimError(400, "'n' : number must be at most 1", { param: 'n' })
      : undefined,
  decorateChunk: (chunk, position, context) => {
    if (position === 'first') chunk['x_groq'] = { id: context.requestId };
    if (position !== 'finish') return;
    const { usage } = context.plan;
    chunk['x_groq'] = {
      id: context.requestId,
      usage: {
        queue_time: 0.012,
        prompt_tokens: usage.inputTokens,
        prompt_time: 0.004,
        completion_tokens: usage.outputTokens,
        completion_time: 0.05,
        total_tokens: usage.inputTokens + usage.outputTokens,
        total_time: 0.054,
      },
    };
  },
};
