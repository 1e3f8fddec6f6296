import { attachSignature, deriveToolCallId } from '../shared/tool-call-id.ts';
import type { GeminiResponsePart } from './gemini-api.ts';

/** What one candidate's parts (a whole response, or one stream chunk) add to the answer. */
export type CandidateDelta = {
  text: string;
  reasoning: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
};

/**
 * Gemini parts → text, reasoning (`thought: true` parts) and tool calls. Gemini sends calls whole, usually without
 * an id: one is derived from our completion id, the choice and the call's position in the answer, so a response
 * always yields the same ids; the part's `thoughtSignature` rides on the id (`shared/tool-call-id.ts`). Signatures on
 * text parts are optional for Gemini and not kept.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export function readCandidateParts(input: {
  parts: readonly GeminiResponsePart[];
  completionId: string;
  choiceIndex: number;
  /** Tool calls this choice already produced (earlier stream chunks). */
  toolCallOffset: number;
}): CandidateDelta {
  const delta: CandidateDelta = { text: '', reasoning: '', toolCalls: [] };
  for (const part of input.parts) {
    const call = part.functionCall;
    if (call) {
      const position = input.toolCallOffset + delta.toolCalls.length;
      const id = call.id ?? deriveToolCallId([input.completionId, input.choiceIndex, position]);
      delta.toolCalls.push({
        id: attachSignature(id, part.thoughtSignature ?? undefined),
        name: call.name,
        arguments: JSON.stringify(call.args ?? {}),
      });
    } else if (typeof part.text === 'string') {
      if (part.thought === true) delta.reasoning += part.text;
      else delta.text += part.text;
    }
  }
  return delta;
}
