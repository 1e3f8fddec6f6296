/**
 * A vendor request reduced to what the simulator needs to answer it. Each vendor's parser builds one; the shared
 * planner answers it; the vendor's builder renders the answer in the vendor's wire format.
 */
export type Conversation = {
  model: string;
  /** The request's input in order (tool definitions first, then one unit per message), for token counts and caching. */
  units: readonly InputUnit[];
  lastTurn: LastTurn;
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

/** Who spoke last: only a user turn triggers a tool call; after a tool result the model answers in text. */
export type LastTurn = 'user' | 'tool-result' | 'assistant';

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
