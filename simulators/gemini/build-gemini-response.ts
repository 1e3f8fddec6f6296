import type { Conversation } from '../shared/conversation.ts';
import { locateCitations } from '../shared/locate-citations.ts';
import type { AnswerPlan, FinishReason } from '../shared/plan-answer.ts';
import { createOpaqueToken } from '../shared/create-opaque-token.ts';
import { formatUsageMetadata } from './format-usage-metadata.ts';

export type GeminiContext = {
  plan: AnswerPlan;
  conversation: Conversation;
  isIncludingThoughts: boolean;
  model: string;
  responseId: string;
};

type Part = Record<string, unknown>;

const tokensPerStreamChunk = 8;

/** The non-streamed `GenerateContentResponse` (docs/reference/gemini.md §Response). */
export function buildGeminiResponse(context: GeminiContext): Record<string, unknown> {
  const parts = [...thoughtParts(context, context.plan.reasoningTokens.length), ...answerParts(context)];
  return envelope(context, { parts, candidatesTokens: visibleTokenCount(context.plan), isLast: true });
}

/**
 * The `streamGenerateContent` chunks (docs/reference/gemini.md §Stream): only new parts per chunk, running `usageMetadata` on every
 * chunk, function calls whole, and the finish reason with final usage on the last chunk.
 */
export function buildGeminiChunks(context: GeminiContext): Record<string, unknown>[] {
  const { plan } = context;
  const groups: Part[][] = [];
  const counts: number[] = [];
  if (context.isIncludingThoughts) {
    for (let start = 0; start < plan.reasoningTokens.length; start += tokensPerStreamChunk) {
      const tokens = plan.reasoningTokens.slice(start, start + tokensPerStreamChunk);
      groups.push([{ text: tokens.join(''), thought: true }]);
      counts.push(0);
    }
  }
  if (plan.contentKind === 'text') {
    for (let start = 0; start < plan.contentTokens.length; start += tokensPerStreamChunk) {
      const tokens = plan.contentTokens.slice(start, start + tokensPerStreamChunk);
      groups.push([{ text: tokens.join('') }]);
      counts.push(tokens.length);
    }
  }
  if (plan.toolCalls.length > 0) {
    groups.push(functionCallParts(context));
    counts.push(plan.toolCalls.reduce((sum, call) => sum + call.argumentFragments.length, 0));
    // The recorded stream ends a function call with an empty text part carrying the finish reason (§6.3).
    groups.push([{ text: '' }]);
    counts.push(0);
  }
  if (groups.length === 0 || plan.contentKind === 'refusal') {
    groups.push([]);
    counts.push(0);
  }
  let emitted = 0;
  return groups.map((parts, index) => {
    emitted += counts[index] ?? 0;
    return envelope(context, { parts, candidatesTokens: emitted, isLast: index === groups.length - 1 });
  });
}

function envelope(
  context: GeminiContext,
  input: { parts: Part[]; candidatesTokens: number; isLast: boolean },
): Record<string, unknown> {
  const { plan } = context;
  const candidate: Record<string, unknown> =
    plan.contentKind === 'refusal'
      ? { safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] }
      : { content: { parts: input.parts.length > 0 ? input.parts : [{ text: '' }], role: 'model' } };
  if (input.isLast) candidate['finishReason'] = mapFinishReason(plan.finishReason);
  candidate['index'] = 0;
  if (input.isLast && plan.search) candidate['groundingMetadata'] = buildGroundingMetadata(plan);
  return {
    candidates: [candidate],
    usageMetadata: formatUsageMetadata({
      plan,
      conversation: context.conversation,
      candidatesTokens: input.candidatesTokens,
    }),
    modelVersion: context.model,
    responseId: context.responseId,
  };
}

function thoughtParts(context: GeminiContext, count: number): Part[] {
  if (!context.isIncludingThoughts || count === 0) return [];
  return [{ text: context.plan.reasoningTokens.slice(0, count).join(''), thought: true }];
}

function answerParts(context: GeminiContext): Part[] {
  const { plan } = context;
  if (plan.contentKind === 'refusal') return [];
  if (plan.toolCalls.length > 0) return functionCallParts(context);
  return [{ text: plan.contentTokens.join('') }];
}

/** Whole calls with object args; the first call carries the `thoughtSignature` to be echoed back (§6.1). */
function functionCallParts(context: GeminiContext): Part[] {
  return context.plan.toolCalls.map((call, index) => {
    const part: Part = { functionCall: { name: call.name, args: parseArgs(call.argumentsJson) } };
    if (index === 0) part['thoughtSignature'] = createOpaqueToken(context.plan.random, 128);
    return part;
  });
}

function parseArgs(argumentsJson: string): unknown {
  try {
    return JSON.parse(argumentsJson) as unknown;
  } catch {
    return {};
  }
}

function visibleTokenCount(plan: AnswerPlan): number {
  const refused = plan.contentKind === 'refusal' ? plan.contentTokens.length : 0;
  return plan.usage.outputTokens - plan.usage.reasoningTokens - refused;
}

/** @see docs/reference/gemini.md §Response: a function call also ends with STOP; blocked answers end with SAFETY. */
function mapFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'stop':
    case 'stop-sequence':
    case 'tool-calls':
      return 'STOP';
    case 'length':
      return 'MAX_TOKENS';
    case 'refusal':
      return 'SAFETY';
    default:
      return assertNever(reason);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected finish reason ${String(value)}`);
}

/** Grounding with UTF-8 byte offsets (§6.2); a zero `startIndex` is omitted, as proto3 JSON does. */
function buildGroundingMetadata(plan: AnswerPlan): Record<string, unknown> {
  const text = plan.contentTokens.join('');
  const citations = locateCitations(plan);
  return {
    webSearchQueries: [plan.search?.query ?? ''],
    searchEntryPoint: { renderedContent: '<!-- simulated Google Search suggestions -->' },
    groundingChunks: (plan.search?.sources ?? []).map((source) => ({
      web: {
        uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${Buffer.from(source.url).toString('base64url')}`,
        title: source.domain,
      },
    })),
    groundingSupports: citations.map((citation) => {
      const startByte = Buffer.byteLength(text.slice(0, citation.startIndex), 'utf8');
      const endByte = Buffer.byteLength(text.slice(0, citation.endIndex), 'utf8');
      const segment: Record<string, unknown> = { endIndex: endByte, text: citation.citedText };
      if (startByte > 0) segment['startIndex'] = startByte;
      return {
        segment,
        groundingChunkIndices: [plan.search?.sources.indexOf(citation.source) ?? 0],
        confidenceScores: [0.9],
      };
    }),
  };
}
