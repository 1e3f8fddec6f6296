/** Anthropic Messages response, stream event and error shapes (docs/reference/anthropic.md §Errors). */

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

export type MessageUsage = {
  /** Input tokens not read from or written to the prompt cache (Anthropic's definition). */
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  /** Searches the gateway ran for the `web_search` server tool. */
  server_tool_use?: { web_search_requests: number; web_fetch_requests: number };
  /** Added by the gateway: what the ledger debits for this request, in USD. */
  cost?: number;
};

/** Where a cited statement's source is; the `encrypted_*` fields are opaque to clients. */
export type WebSearchCitation = {
  type: 'web_search_result_location';
  url: string;
  title: string;
  encrypted_index: string;
  cited_text: string;
};
export type TextBlock = { type: 'text'; text: string; citations?: WebSearchCitation[] };
export type ServerToolUseBlock = {
  type: 'server_tool_use';
  id: string;
  name: 'web_search';
  /** `{query}`; empty in the stream's `content_block_start`, filled by its `input_json_delta`. */
  input: Record<string, unknown>;
};
export type WebSearchResult = {
  type: 'web_search_result';
  url: string;
  title: string;
  encrypted_content: string;
  page_age: string | null;
};
export type WebSearchToolResultBlock = {
  type: 'web_search_tool_result';
  tool_use_id: string;
  content: WebSearchResult[] | { type: 'web_search_tool_result_error'; error_code: 'unavailable' };
};
export type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string };
export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
export type ContentBlock = TextBlock | ThinkingBlock | ToolUseBlock | ServerToolUseBlock | WebSearchToolResultBlock;

export type Message = {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: ContentBlock[];
  stop_reason: StopReason | null;
  stop_sequence: string | null;
  usage: MessageUsage;
};

export type ContentBlockDelta =
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; thinking: string }
  | { type: 'input_json_delta'; partial_json: string }
  | { type: 'citations_delta'; citation: WebSearchCitation };

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'billing_error'
  | 'permission_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'timeout_error'
  | 'overloaded_error';

export type ErrorBody = { type: 'error'; error: { type: ErrorType; message: string }; request_id: string };

export type StreamEvent =
  | { type: 'message_start'; message: Message }
  | { type: 'content_block_start'; index: number; content_block: ContentBlock }
  | { type: 'content_block_delta'; index: number; delta: ContentBlockDelta }
  | { type: 'content_block_stop'; index: number }
  | {
      type: 'message_delta';
      delta: { stop_reason: StopReason | null; stop_sequence: string | null };
      usage: MessageUsage;
    }
  | { type: 'message_stop' }
  | ErrorBody;
