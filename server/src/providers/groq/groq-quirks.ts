import type { DialectQuirks } from '../openai/dialect-quirks.ts';
import type { OpenAiChunk } from '../openai/openai-api.ts';
import type { Usage } from '../../openai-api/chat-completion.ts';
import { compatibleBaseQuirks } from '../openai-compatible/base-quirks.ts';
import { groqChunkExtrasSchema } from '../openai-compatible/openai-compatible-api.ts';

/**
 * Groq: the last chunk carries usage under `x_groq.usage` (with timing fields), the older location; with
 * `include_usage` a standard usage chunk follows, which wins. Reasoning text, when parsed, is in `reasoning`.
 * Groq documents `max_completion_tokens` and deprecates `max_tokens`, and serves one choice per request: "only n=1
 * is supported. Other values will result in a 400 response", so `n > 1` is refused before the call.
 * @see https://console.groq.com/docs/api-reference#chat-create
 */
export const groqQuirks: DialectQuirks = {
  ...compatibleBaseQuirks,
  vendorName: 'Groq',
  maxTokensField: 'max_completion_tokens',
  unsupportedParameters: [
    {
      param: 'n',
      isUsed: (request) => typeof request.n === 'number' && request.n > 1,
      message: "Groq serves one answer per request: 'n' must be 1 on this model.",
    },
  ],
  reasoningFields: ['reasoning', 'reasoning_content'],
  findExtraUsage: findGroqUsage,
};

function findGroqUsage(chunk: OpenAiChunk): Usage | undefined {
  const usage = groqChunkExtrasSchema.safeParse(chunk).data?.x_groq?.usage;
  return usage ? compatibleBaseQuirks.convertUsage(usage) : undefined;
}
