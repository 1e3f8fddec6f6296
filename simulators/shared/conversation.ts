/**
 * A vendor request reduced to what the simulator needs to answer it. Each vendor's parser builds one; the shared
 * planner answers it; the vendor's builder renders the answer in the vendor's wire format.
 */
export type Conversation = {
  model: string;
  /** The request's input in order (tool definitions first, then one unit per message), for token counts and caching. */
  units: readonly InputUnit[];
  lastTurn: LastTurn;
  /** Model turns with tool calls since the last user message (`countToolRounds`): `[sim:tool-rounds=N]` reads it. */
  toolRoundsInTurn: number;
  /** Text of the last user message that has text: where `[sim:…]` directives are read. */
  lastUserText: string;
  tools: readonly ToolDefinition[];
  toolChoice: ToolChoice;
  canCallToolsInParallel: boolean;
  hasWebSearch: boolean;
  maxOutputTokens: number | undefined;
  /** Undefined when the request does not reason. */
  reasoning: ReasoningRequest | undefined;
  outputFormat: OutputFormat;
  stopSequences: readonly string[];
};

export type InputUnit = {
  text: string;
  imageCount: number;
  /** Messages carry a fixed per-message token overhead; the tool-definition unit does not. */
  isMessage: boolean;
};

/**
 * Who spoke last: a user turn triggers a tool call; after a tool result the model answers in text, unless
 * `[sim:tool-rounds=N]` asks for more rounds of calls.
 */
export type LastTurn = 'user' | 'tool-result' | 'assistant';

/** One history entry as `countToolRounds` sees it: a user message, a model turn's tool call, or anything else. */
export type TurnKind = 'user' | 'tool-call' | 'other';

/**
 * How many times the model called tools since the last user message: each run of consecutive tool calls is one round
 * (the Responses API lists parallel calls as separate items; chat formats put them in one message).
 */
export function countToolRounds(kinds: Iterable<TurnKind>): number {
  let rounds = 0;
  let previous: TurnKind = 'other';
  for (const kind of kinds) {
    if (kind === 'user') rounds = 0;
    else if (kind === 'tool-call' && previous !== 'tool-call') rounds += 1;
    previous = kind;
  }
  return rounds;
}

export type ToolDefinition = { name: string; parametersSchema: unknown };

export type ToolChoice = { kind: 'none' } | { kind: 'auto' } | { kind: 'required' } | { kind: 'named'; name: string };

export type ReasoningRequest = {
  /** How many reasoning tokens the simulated model spends at most before answering. */
  targetTokens: number;
};

export type OutputFormat = { kind: 'text' } | { kind: 'json'; schema: unknown };

export const effortReasoningTokens = {
  minimal: 8,
  low: 16,
  medium: 32,
  high: 64,
  xhigh: 96,
  max: 128,
} as const;

/** Reasoning tokens for an effort name (OpenAI, OpenRouter, xAI, Gemini `thinkingLevel`); unknown names count as medium. */
export function reasoningForEffort(effort: string | undefined): ReasoningRequest | undefined {
  if (effort === 'none') return undefined;
  const known = Object.entries(effortReasoningTokens).find(([name]) => name === effort);
  return { targetTokens: known ? known[1] : effortReasoningTokens.medium };
}
