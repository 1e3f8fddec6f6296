/** OpenAI Chat Completions response and stream chunk shapes (docs/reference/openai.md §Chat Completions). */

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export type Usage = {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens: number };
  /** Added by the gateway: what the ledger debits for this request, in USD. */
  cost?: number;
};

export type ToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

export type TokenLogprob = {
  token: string;
  logprob: number;
  bytes: number[] | null;
  top_logprobs: Array<{ token: string; logprob: number; bytes: number[] | null }>;
};

/** Per-token log probabilities, returned when the client asks for `logprobs`. */
export type ChoiceLogprobs = { content: TokenLogprob[] | null; refusal: TokenLogprob[] | null };

export type AssistantMessage = {
  role: 'assistant';
  content: string | null;
  refusal: string | null;
  tool_calls?: ToolCall[];
  /** Reasoning text some vendors return (DeepSeek, xAI, vLLM); passed on as-is. */
  reasoning_content?: string;
};

export type ChatCompletion = {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: AssistantMessage;
    finish_reason: FinishReason;
    logprobs: ChoiceLogprobs | null;
  }>;
  usage?: Usage;
  system_fingerprint?: string;
};

export type ToolCallDelta = {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
};

export type ChunkDelta = {
  role?: 'assistant';
  content?: string | null;
  refusal?: string | null;
  tool_calls?: ToolCallDelta[];
  reasoning_content?: string;
};

export type ChatChunk = {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: ChunkDelta;
    finish_reason: FinishReason | null;
    logprobs?: ChoiceLogprobs | null;
  }>;
  usage?: Usage | null;
};
