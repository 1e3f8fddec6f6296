/** The Responses API result object, its output items and usage (docs/reference/openai.md §Responses). */

export type UrlCitationAnnotation = {
  type: 'url_citation';
  url: string;
  title: string;
  /** `[start_index, end_index)` in Unicode code points of the `output_text`'s `text` (Python `str` indices). */
  start_index: number;
  end_index: number;
};

export type OutputTextPart = {
  type: 'output_text';
  text: string;
  annotations: UrlCitationAnnotation[];
  logprobs: [];
};

export type RefusalPart = { type: 'refusal'; refusal: string };

export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

export type MessageItem = {
  id: string;
  type: 'message';
  role: 'assistant';
  status: ItemStatus;
  content: Array<OutputTextPart | RefusalPart>;
};

export type FunctionCallItem = {
  id: string;
  type: 'function_call';
  call_id: string;
  /** Set for a function of a `namespace` tool group; `name` is then its name inside the group. */
  namespace?: string;
  name: string;
  arguments: string;
  status: ItemStatus;
};

/** A call of a custom (freeform) tool: `input` is the raw text the tool takes. */
export type CustomToolCallItem = {
  id: string;
  type: 'custom_tool_call';
  call_id: string;
  namespace?: string;
  name: string;
  input: string;
  status: ItemStatus;
};

export type WebSearchCallItem = {
  id: string;
  type: 'web_search_call';
  status: 'in_progress' | 'searching' | 'completed' | 'failed';
  action: { type: 'search'; query: string; sources?: Array<{ type: 'url'; url: string }> };
};

export type ReasoningItem = {
  id: string;
  type: 'reasoning';
  summary: Array<{ type: 'summary_text'; text: string }>;
  status?: ItemStatus;
};

export type OutputItem = MessageItem | FunctionCallItem | CustomToolCallItem | WebSearchCallItem | ReasoningItem;

export type ResponseUsage = {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
  /** Added by the gateway: what the ledger debits for this response, in USD. */
  cost: number;
};

export type ResponseStatus = 'completed' | 'failed' | 'in_progress' | 'incomplete';

/** The request's settings the Response echoes (required by the schema), fixed when the request is accepted. */
export type ResponseSettings = {
  instructions: string | null;
  tools: unknown[];
  tool_choice: unknown;
  parallel_tool_calls: boolean;
  temperature: number | null;
  top_p: number | null;
  max_output_tokens: number | null;
  metadata: Record<string, string>;
  reasoning: { effort: string | null; summary: string | null } | null;
  text: { format: unknown };
};

/** The codes of a failed response's `error` (OpenAI's ResponseErrorCode values the gateway uses; docs/errors.md). */
export const responseFailureCodes = ['server_error', 'rate_limit_exceeded'] as const;
export type ResponseFailureCode = (typeof responseFailureCodes)[number];

export type ResponseObject = ResponseSettings & {
  id: string;
  object: 'response';
  created_at: number;
  status: ResponseStatus;
  completed_at: number | null;
  error: { code: ResponseFailureCode; message: string } | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  model: string;
  output: OutputItem[];
  previous_response_id: null;
  store: false;
  truncation: 'disabled';
  /** Only on the finished response: the schema has no null usage, so in-progress snapshots leave it out. */
  usage?: ResponseUsage;
  service_tier: 'default';
};
