import { locateCitations } from '../shared/locate-citations.ts';
import type { AnswerPlan } from '../shared/plan-answer.ts';
import type { Random } from '../shared/random.ts';
import { alphanumeric } from '../shared/random.ts';
import { createOpaqueToken } from '../shared/create-opaque-token.ts';

/** The content blocks of one answer, in order, before rendering as a Message or as stream events (docs/reference/anthropic.md). */
export type MessageBlock =
  | { type: 'thinking'; tokens: readonly string[]; signature: string }
  | { type: 'server_tool_use'; id: string; query: string }
  | { type: 'web_search_tool_result'; toolUseId: string; results: readonly Record<string, unknown>[] }
  | { type: 'text'; tokens: readonly string[]; citations: readonly Record<string, unknown>[] | undefined }
  | { type: 'tool_use'; id: string; name: string; fragments: readonly string[]; argumentsJson: string };

export function planMessageBlocks(plan: AnswerPlan, ids: Random): MessageBlock[] {
  const blocks: MessageBlock[] = [];
  if (plan.reasoningTokens.length > 0) {
    blocks.push({ type: 'thinking', tokens: plan.reasoningTokens, signature: createOpaqueToken(plan.random, 96) });
  }
  if (plan.search) {
    const id = `srvtoolu_01${ids.nextString(alphanumeric, 22)}`;
    blocks.push({ type: 'server_tool_use', id, query: plan.search.query });
    blocks.push({
      type: 'web_search_tool_result',
      toolUseId: id,
      results: plan.search.sources.map((source) => ({
        type: 'web_search_result',
        title: source.title,
        url: source.url,
        encrypted_content: createOpaqueToken(plan.random, 64),
        page_age: null,
      })),
    });
  }
  blocks.push(...planTextBlocks(plan));
  plan.toolCalls.forEach((call) => {
    blocks.push({
      type: 'tool_use',
      id: `toolu_01${ids.nextString(alphanumeric, 22)}`,
      name: call.name,
      fragments: call.argumentFragments,
      argumentsJson: call.argumentsJson,
    });
  });
  return blocks;
}

/** Cited answers come as several text blocks, each cited block carrying its citations (§5.3: the span is the block). */
function planTextBlocks(plan: AnswerPlan): MessageBlock[] {
  if (plan.contentTokens.length === 0) return [];
  const citations = locateCitations(plan);
  if (citations.length === 0) return [{ type: 'text', tokens: plan.contentTokens, citations: undefined }];
  const blocks: MessageBlock[] = [];
  let nextToken = 0;
  for (const citation of citations) {
    if (citation.startToken > nextToken) {
      blocks.push({
        type: 'text',
        tokens: plan.contentTokens.slice(nextToken, citation.startToken),
        citations: undefined,
      });
    }
    blocks.push({
      type: 'text',
      tokens: plan.contentTokens.slice(citation.startToken, citation.endToken),
      citations: [
        {
          type: 'web_search_result_location',
          cited_text: citation.citedText,
          url: citation.source.url,
          title: citation.source.title,
          encrypted_index: createOpaqueToken(plan.random, 24),
        },
      ],
    });
    nextToken = citation.endToken;
  }
  if (nextToken < plan.contentTokens.length) {
    blocks.push({ type: 'text', tokens: plan.contentTokens.slice(nextToken), citations: undefined });
  }
  return blocks;
}
