import type { ChatCompletion } from '../../openai-api/chat-completion.ts';
import { createCompletion, type CompletionChoice } from '../shared/create-completion.ts';
import { parseVendorBody } from '../shared/parse-vendor-body.ts';
import { geminiResponseSchema, type GeminiCandidate } from './gemini-api.ts';
import { convertGeminiUsage } from './convert-usage.ts';
import { mapFinishReason } from './map-finish-reason.ts';
import { readCandidateParts } from './read-candidate-parts.ts';

/**
 * A Gemini GenerateContentResponse → ChatCompletion. A prompt blocked before any candidate (`promptFeedback`)
 * becomes one empty choice finished by `content_filter`.
 * @see https://ai.google.dev/api/generate-content#generatecontentresponse
 */
export function convertResponse(input: {
  body: unknown;
  requestedModel: string;
  createdUnixSeconds: number;
  id: string;
}): ChatCompletion {
  const response = parseVendorBody(geminiResponseSchema, input.body, 'Gemini');
  const candidates = response.candidates ?? [];
  const choices =
    candidates.length > 0
      ? candidates.map((candidate, position) => convertCandidate(candidate, position, input.id))
      : [{ index: 0, text: '', toolCalls: [], finishReason: 'content_filter' as const }];
  return createCompletion({
    id: input.id,
    created: input.createdUnixSeconds,
    model: input.requestedModel,
    choices,
    usage: response.usageMetadata ? convertGeminiUsage(response.usageMetadata) : undefined,
  });
}

function convertCandidate(candidate: GeminiCandidate, position: number, completionId: string): CompletionChoice {
  const index = candidate.index ?? position;
  const parts = readCandidateParts({
    parts: candidate.content?.parts ?? [],
    completionId,
    choiceIndex: index,
    toolCallOffset: 0,
  });
  return {
    index,
    text: parts.text,
    reasoning: parts.reasoning,
    toolCalls: parts.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    })),
    finishReason: mapFinishReason(candidate.finishReason, parts.toolCalls.length > 0),
  };
}
