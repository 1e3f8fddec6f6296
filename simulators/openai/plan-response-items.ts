import { createOpaqueToken } from '../shared/create-opaque-token.ts';
import { locateCitations } from '../shared/locate-citations.ts';
import type { AnswerPlan } from '../shared/plan-answer.ts';
import type { SearchSource } from '../shared/plan-web-search.ts';
import { alphanumeric, lowerHex, type Random } from '../shared/random.ts';

/** One output item of a Responses answer, before rendering as a final item or as stream events (docs/reference/openai.md §Responses). */
export type ResponseItem =
  | {
      type: 'reasoning';
      id: string;
      tokens: readonly string[];
      hasSummary: boolean;
      encryptedContent: string | undefined;
    }
  | { type: 'web_search_call'; id: string; query: string; sources: readonly SearchSource[] | undefined }
  | {
      type: 'message';
      id: string;
      contentKind: 'text' | 'refusal';
      tokens: readonly string[];
      annotations: readonly PlacedAnnotation[];
      isComplete: boolean;
    }
  | {
      type: 'function_call';
      id: string;
      callId: string;
      name: string;
      fragments: readonly string[];
      argumentsJson: string;
    };

/** A flat `url_citation` and the number of text tokens after which it can be announced in a stream. */
export type PlacedAnnotation = { afterTokenCount: number; annotation: Record<string, unknown> };

export function planResponseItems(
  plan: AnswerPlan,
  input: { ids: Random; hasReasoningSummary: boolean; include: readonly string[] },
): ResponseItem[] {
  const { ids } = input;
  const items: ResponseItem[] = [];
  if (plan.reasoningTokens.length > 0) {
    items.push({
      type: 'reasoning',
      id: `rs_${ids.nextString(lowerHex, 48)}`,
      tokens: plan.reasoningTokens,
      hasSummary: input.hasReasoningSummary,
      encryptedContent: input.include.includes('reasoning.encrypted_content')
        ? createOpaqueToken(plan.random, 96)
        : undefined,
    });
  }
  if (plan.search) {
    items.push({
      type: 'web_search_call',
      id: `ws_${ids.nextString(lowerHex, 48)}`,
      query: plan.search.query,
      sources: input.include.includes('web_search_call.action.sources') ? plan.search.sources : undefined,
    });
  }
  if (plan.contentTokens.length > 0 || (plan.toolCalls.length === 0 && plan.finishReason !== 'length')) {
    const text = plan.contentTokens.join('');
    items.push({
      type: 'message',
      id: `msg_${ids.nextString(lowerHex, 48)}`,
      contentKind: plan.contentKind,
      tokens: plan.contentTokens,
      annotations: locateCitations(plan).map((citation) => ({
        afterTokenCount: citation.endToken,
        // OpenAI counts "characters" as Python does: code points, not JavaScript's UTF-16 units.
        annotation: {
          type: 'url_citation',
          start_index: countCodePoints(text.slice(0, citation.startIndex)),
          end_index: countCodePoints(text.slice(0, citation.endIndex)),
          url: `${citation.source.url}?utm_source=openai`,
          title: citation.source.title,
        },
      })),
      isComplete: plan.finishReason !== 'length',
    });
  }
  for (const call of plan.toolCalls) {
    items.push({
      type: 'function_call',
      id: `fc_${ids.nextString(lowerHex, 48)}`,
      callId: `call_${ids.nextString(alphanumeric, 24)}`,
      name: call.name,
      fragments: call.argumentFragments,
      argumentsJson: call.argumentsJson,
    });
  }
  return items;
}

export function renderFinalItem(item: ResponseItem): Record<string, unknown> {
  switch (item.type) {
    case 'reasoning': {
      const rendered: Record<string, unknown> = {
        id: item.id,
        type: 'reasoning',
        summary: item.hasSummary ? [{ type: 'summary_text', text: item.tokens.join('') }] : [],
      };
      if (item.encryptedContent !== undefined) rendered['encrypted_content'] = item.encryptedContent;
      return rendered;
    }
    case 'web_search_call': {
      const action: Record<string, unknown> = { type: 'search', query: item.query };
      if (item.sources) action['sources'] = item.sources.map((source) => ({ type: 'url', url: source.url }));
      return { id: item.id, type: 'web_search_call', status: 'completed', action };
    }
    case 'message':
      return {
        id: item.id,
        type: 'message',
        status: item.isComplete ? 'completed' : 'incomplete',
        role: 'assistant',
        content: [renderFinalPart(item)],
      };
    case 'function_call':
      return {
        id: item.id,
        type: 'function_call',
        status: 'completed',
        arguments: item.argumentsJson,
        call_id: item.callId,
        name: item.name,
      };
    default:
      return assertNever(item);
  }
}

export function renderFinalPart(item: Extract<ResponseItem, { type: 'message' }>): Record<string, unknown> {
  const text = item.tokens.join('');
  if (item.contentKind === 'refusal') return { type: 'refusal', refusal: text };
  return { type: 'output_text', text, annotations: item.annotations.map((placed) => placed.annotation), logprobs: [] };
}

function assertNever(value: never): never {
  throw new Error(`unexpected item ${JSON.stringify(value)}`);
}

/**
 * Written here rather than taken from the gateway's lib/: the simulator is an independent witness of the offsets the
 * gateway computes, so it counts code points its own way (the string iterator walks code points).
 */
function countCodePoints(text: string): number {
  return Array.from(text).length;
}
