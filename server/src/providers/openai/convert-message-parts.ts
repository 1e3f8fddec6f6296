import type { ChoiceLogprobs } from '../../openai-api/chat-completion.ts';
import type { DialectQuirks, ReasoningField } from './dialect-quirks.ts';
import type { OpenAiLogprobs } from './openai-api.ts';

/** The reasoning text of a message or delta, from the first field the vendor uses. */
export function readReasoning(
  message: Partial<Record<ReasoningField, string | null | undefined>>,
  quirks: Pick<DialectQuirks, 'reasoningFields'>,
): string {
  for (const field of quirks.reasoningFields) {
    const text = message[field];
    if (typeof text === 'string' && text !== '') return text;
  }
  return '';
}

export function convertLogprobs(logprobs: OpenAiLogprobs | null | undefined): ChoiceLogprobs | null {
  if (logprobs === null || logprobs === undefined) return null;
  const convertTokens = (tokens: OpenAiLogprobs['content']) =>
    tokens?.map((token) => ({
      token: token.token,
      logprob: token.logprob,
      bytes: token.bytes ?? null,
      top_logprobs: (token.top_logprobs ?? []).map((top) => ({
        token: top.token,
        logprob: top.logprob,
        bytes: top.bytes ?? null,
      })),
    })) ?? null;
  return { content: convertTokens(logprobs.content), refusal: convertTokens(logprobs.refusal) };
}
