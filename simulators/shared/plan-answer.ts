import type { Conversation, ToolDefinition } from './conversation.ts';
import { citeProvidedSources, planSearchToolArguments } from './cite-provided-sources.ts';
import { countInputTokens } from './count-input-tokens.ts';
import type { FaultSpec } from './fault-spec.ts';
import { findSchemaInPrompt } from './find-schema-in-prompt.ts';
import { generateFromSchema } from './generate-from-schema.ts';
import { generateWordTokens, refusalTokens } from './generate-words.ts';
import type { CachePolicy, PromptCache } from './prompt-cache.ts';
import { createRandom, hashText, type Random } from './random.ts';
import { planWebSearch, type SearchPlan } from './plan-web-search.ts';
import { splitIntoFragments } from './split-into-fragments.ts';

/** The vendor-neutral answer: what to say, why it stopped, and the token counts every vendor reports. */
export type AnswerPlan = {
  /** Continues the request's seeded sequence: ids, signatures and other per-answer values. */
  random: Random;
  reasoningTokens: readonly string[];
  contentKind: 'text' | 'refusal';
  contentTokens: readonly string[];
  toolCalls: readonly PlannedToolCall[];
  search: SearchPlan | undefined;
  finishReason: FinishReason;
  stopSequence: string | undefined;
  usage: PlannedUsage;
};

export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'stop-sequence' | 'refusal';

export type PlannedToolCall = { name: string; argumentsJson: string; argumentFragments: readonly string[] };

export type PlannedUsage = {
  /** All input tokens, including those read from or written to the prompt cache. */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** All output tokens, reasoning included. */
  outputTokens: number;
  reasoningTokens: number;
  searchRequests: number;
};

export type PlanAnswerInput = {
  conversation: Conversation;
  faults: FaultSpec;
  /** Keeps vendors' caches and seeds apart. */
  namespace: string;
  promptCache: PromptCache;
  cachePolicy: CachePolicy;
  /** Anthropic models often say a few words before a tool call they chose themselves. */
  hasTextBeforeAutoToolCall: boolean;
};

const defaultWordCountBase = 32;
const defaultWordCountSpread = 17;

export function planAnswer(input: PlanAnswerInput): AnswerPlan {
  const { conversation, faults } = input;
  const random = createRandom(
    `${input.namespace}\u0000${conversation.model}\u0000${hashText(JSON.stringify(conversation.units))}`,
  );
  const cache = input.promptCache.lookUpAndRemember({
    namespace: `${input.namespace}\u0000${conversation.model}`,
    units: conversation.units,
    policy: input.cachePolicy,
  });
  const budget = new TokenBudget(conversation.maxOutputTokens);
  const reasoningTokens = conversation.reasoning
    ? budget.take(generateWordTokens(random, conversation.reasoning.targetTokens - 4 + random.nextInt(9)))
    : [];
  const toolsToCall = faults.isRefusal ? [] : chooseToolCalls(conversation, faults);
  const search =
    conversation.hasWebSearch && conversation.lastTurn === 'user' && toolsToCall.length === 0 && !faults.isRefusal
      ? planWebSearch(random)
      : undefined;
  let contentTokens: string[] = [];
  let contentKind: AnswerPlan['contentKind'] = 'text';
  let stopSequence: string | undefined;
  const toolCalls: PlannedToolCall[] = [];
  if (faults.isRefusal) {
    contentKind = 'refusal';
    contentTokens = budget.take(refusalTokens);
  } else if (toolsToCall.length > 0) {
    if (input.hasTextBeforeAutoToolCall && conversation.toolChoice.kind === 'auto') {
      contentTokens = budget.take(generateWordTokens(random, 4 + random.nextInt(4)));
    }
    for (const tool of toolsToCall) {
      const argumentsJson =
        planSearchToolArguments(tool, conversation) ??
        JSON.stringify(generateFromSchema(tool.parametersSchema, random));
      const argumentFragments = budget.take(splitIntoFragments(argumentsJson));
      toolCalls.push({ name: tool.name, argumentsJson: argumentFragments.join(''), argumentFragments });
    }
  } else {
    const fullTokens =
      conversation.outputFormat.kind === 'json'
        ? splitIntoFragments(
            JSON.stringify(
              generateFromSchema(
                conversation.outputFormat.schema ?? findSchemaInPrompt(conversation.units) ?? genericAnswerSchema,
                random,
              ),
            ),
          )
        : citeProvidedSources(
            generateWordTokens(
              random,
              faults.wordCount ?? defaultWordCountBase + random.nextInt(defaultWordCountSpread),
            ),
            conversation,
          );
    const stopped = cutAtStopSequence(fullTokens, conversation.stopSequences);
    stopSequence = stopped.stopSequence;
    contentTokens = budget.take(stopped.tokens);
  }
  const contentCount = contentTokens.length + toolCalls.reduce((sum, call) => sum + call.argumentFragments.length, 0);
  return {
    random,
    reasoningTokens,
    contentKind,
    contentTokens,
    toolCalls,
    search: search
      ? { ...search, citations: search.citations.filter((span) => span.endToken <= contentTokens.length) }
      : undefined,
    finishReason: chooseFinishReason({ isCut: budget.isExhausted, contentKind, toolCalls, stopSequence }),
    stopSequence: budget.isExhausted ? undefined : stopSequence,
    usage: {
      inputTokens: countInputTokens(conversation.units) + (search?.resultTokens ?? 0),
      cacheReadTokens: cache.readTokens,
      cacheWriteTokens: cache.writeTokens,
      outputTokens: reasoningTokens.length + contentCount,
      reasoningTokens: reasoningTokens.length,
      searchRequests: search ? 1 : 0,
    },
  };
}

const genericAnswerSchema = {
  type: 'object',
  properties: { answer: { type: 'string' }, confidence: { type: 'number', minimum: 0, maximum: 1 } },
  required: ['answer', 'confidence'],
};

/** Output tokens left under the request's max-tokens limit; taking past it cuts the answer ("length"). */
class TokenBudget {
  #remaining: number;
  isExhausted = false;
  constructor(maxTokens: number | undefined) {
    this.#remaining = maxTokens ?? Number.POSITIVE_INFINITY;
  }
  take(tokens: readonly string[]): string[] {
    if (tokens.length > this.#remaining) this.isExhausted = true;
    const taken = tokens.slice(0, Math.max(0, this.#remaining));
    this.#remaining -= taken.length;
    return taken;
  }
}

/**
 * The tools the model calls: on a user turn, and after tool results while the turn has had fewer rounds of calls than
 * `[sim:tool-rounds=N]` asks for (1 by default: after a result, text). A forcing tool choice (`required`, a named
 * tool) is honoured on every round, as vendors do: after results too.
 */
function chooseToolCalls(conversation: Conversation, faults: FaultSpec): ToolDefinition[] {
  const { tools, toolChoice, lastTurn } = conversation;
  if (tools.length === 0 || toolChoice.kind === 'none' || lastTurn === 'assistant') return [];
  const isForced = toolChoice.kind === 'required' || toolChoice.kind === 'named';
  const roundsDone = Math.max(conversation.toolRoundsInTurn, lastTurn === 'tool-result' ? 1 : 0);
  if (!isForced && roundsDone >= (faults.toolRounds ?? 1)) return [];
  const first = chooseTool(conversation, roundsDone);
  if (!first) return [];
  if (!faults.isParallel || !conversation.canCallToolsInParallel) return [first];
  const second = toolChoice.kind === 'named' ? first : (tools[1] ?? first);
  return [first, second];
}

/**
 * Agent frameworks end a run with a structured-output tool (pydantic-ai's `final_result`, `final_answer`, …) and force
 * a call: once the turn's tools were called, a forced round calls that tool, so the agent finishes as with a vendor.
 */
const outputToolName = /^final_(result|answer|output)/;

function chooseTool(conversation: Conversation, roundsDone: number): ToolDefinition | undefined {
  const { tools, toolChoice } = conversation;
  if (toolChoice.kind === 'named') return tools.find((tool) => tool.name === toolChoice.name);
  const outputTool = tools.find((tool) => outputToolName.test(tool.name));
  if (outputTool && (roundsDone > 0 || tools.length === 1)) return outputTool;
  return tools.find((tool) => !outputToolName.test(tool.name)) ?? tools[0];
}

function cutAtStopSequence(
  tokens: readonly string[],
  stopSequences: readonly string[],
): { tokens: readonly string[]; stopSequence: string | undefined } {
  const text = tokens.join('');
  let earliest: { index: number; sequence: string } | undefined;
  for (const sequence of stopSequences) {
    const index = sequence === '' ? -1 : text.indexOf(sequence);
    if (index >= 0 && (earliest === undefined || index < earliest.index)) earliest = { index, sequence };
  }
  if (!earliest) return { tokens, stopSequence: undefined };
  const kept: string[] = [];
  let length = 0;
  for (const token of tokens) {
    if (length + token.length > earliest.index) break;
    kept.push(token);
    length += token.length;
  }
  return { tokens: kept, stopSequence: earliest.sequence };
}

function chooseFinishReason(input: {
  isCut: boolean;
  contentKind: AnswerPlan['contentKind'];
  toolCalls: readonly PlannedToolCall[];
  stopSequence: string | undefined;
}): FinishReason {
  if (input.isCut) return 'length';
  if (input.contentKind === 'refusal') return 'refusal';
  if (input.toolCalls.length > 0) return 'tool-calls';
  if (input.stopSequence !== undefined) return 'stop-sequence';
  return 'stop';
}
