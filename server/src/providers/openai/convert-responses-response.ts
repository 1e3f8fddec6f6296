import type { ChatCompletion, FinishReason, ToolCall, Usage } from '../../openai-api/chat-completion.ts';
import { countCodePoints } from '../../lib/code-point-offsets.ts';
import { UpstreamFailureError } from '../provider-adapter.ts';
import { createCompletion } from '../shared/create-completion.ts';
import { createUpstreamFailure } from '../shared/create-upstream-failure.ts';
import type { NativeSearchEvent, WithNativeSearch } from '../shared/native-web-search.ts';
import { parseVendorBody } from '../shared/parse-vendor-body.ts';
import {
  outputTextSchema,
  refusalSchema,
  responsesFunctionCallItemSchema,
  responsesMessageItemSchema,
  responsesObjectSchema,
  responsesReasoningItemSchema,
  responsesUrlCitationSchema,
  responsesWebSearchCallItemSchema,
  type ResponsesObject,
  type ResponsesUsage,
  type ResponsesWebSearchCallItem,
} from './responses-api.ts';

const vendorName = 'OpenAI';

/**
 * A Responses API object → ChatCompletion with the vendor's search events: the text of every message item joined into
 * `content`, refusals into `refusal`, reasoning summaries and text into `reasoning_content`, `function_call` items into
 * tool calls. Each `web_search_call` item is a search event, each `url_citation` a citation whose offsets (code points,
 * as OpenAI counts its "characters") move by the text of the message items before its own.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export function convertResponsesResponse(input: {
  body: unknown;
  requestedModel: string;
  createdUnixSeconds: number;
  id: string;
}): WithNativeSearch<ChatCompletion> {
  const response = parseVendorBody(responsesObjectSchema, input.body, vendorName);
  if (response.status === 'failed') throw createFailedResponseError(response);
  const answer = { text: '', refusal: '', reasoning: '', toolCalls: [] as ToolCall[] };
  const searches: NativeSearchEvent[] = [];
  const citations: NativeSearchEvent[] = [];
  for (const item of response.output) {
    switch (item.type) {
      case 'message': {
        const message = parseVendorBody(responsesMessageItemSchema, item, vendorName);
        for (const part of message.content) {
          const text = outputTextSchema.safeParse(part);
          if (text.success) {
            citations.push(...readCitations(text.data.annotations, countCodePoints(answer.text)));
            answer.text += text.data.text;
          }
          const refusal = refusalSchema.safeParse(part);
          if (refusal.success) answer.refusal += refusal.data.refusal;
        }
        break;
      }
      case 'function_call': {
        const call = parseVendorBody(responsesFunctionCallItemSchema, item, vendorName);
        answer.toolCalls.push({
          id: call.call_id,
          type: 'function',
          function: { name: call.name, arguments: call.arguments },
        });
        break;
      }
      case 'web_search_call':
        searches.push(convertWebSearchCall(parseVendorBody(responsesWebSearchCallItemSchema, item, vendorName)));
        break;
      case 'reasoning':
        answer.reasoning += readReasoningText(parseVendorBody(responsesReasoningItemSchema, item, vendorName));
        break;
      default:
        break;
    }
  }
  const completion = createCompletion({
    id: input.id,
    created: input.createdUnixSeconds,
    model: input.requestedModel,
    choices: [
      {
        index: 0,
        text: answer.text,
        refusal: answer.refusal === '' ? undefined : answer.refusal,
        reasoning: answer.reasoning,
        toolCalls: answer.toolCalls,
        finishReason: mapResponsesFinishReason(response, answer.toolCalls.length > 0),
      },
    ],
    usage: response.usage ? convertResponsesUsage(response.usage) : undefined,
  });
  const nativeSearch = [...searches, ...citations];
  return nativeSearch.length === 0 ? completion : { ...completion, nativeSearch };
}

/** `url_citation` annotations of one `output_text` part; other annotation types (file citations) are not sources. */
export function readCitations(annotations: readonly unknown[] | null | undefined, offset: number): NativeSearchEvent[] {
  return (annotations ?? []).flatMap((annotation) => {
    const parsed = responsesUrlCitationSchema.safeParse(annotation);
    if (!parsed.success || parsed.data.end_index <= parsed.data.start_index) return [];
    const citation = parsed.data;
    return [
      {
        type: 'url_citation' as const,
        url: citation.url,
        title: citation.title ?? '',
        startIndex: offset + citation.start_index,
        endIndex: offset + citation.end_index,
      },
    ];
  });
}

export function convertWebSearchCall(item: ResponsesWebSearchCallItem): NativeSearchEvent {
  const action = item.action;
  return {
    type: 'web_search',
    query: action?.query ?? action?.queries?.[0] ?? '',
    sourceUrls: (action?.sources ?? []).map((source) => source.url),
    isCompleted: item.status !== 'failed',
  };
}

export function readReasoningText(item: {
  summary?: { text: string }[] | null | undefined;
  content?: { text: string }[] | null | undefined;
}) {
  const texts = [...(item.summary ?? []), ...(item.content ?? [])].map((part) => part.text);
  return texts.join('\n\n');
}

/** `incomplete` says why; a turn that called functions ends with `tool_calls`, as in Chat Completions. */
export function mapResponsesFinishReason(response: ResponsesObject, hasToolCalls: boolean): FinishReason {
  if (response.status === 'incomplete') {
    return response.incomplete_details?.reason === 'content_filter' ? 'content_filter' : 'length';
  }
  return hasToolCalls ? 'tool_calls' : 'stop';
}

/**
 * Responses usage → the canonical Usage: output tokens include reasoning tokens, as in Chat Completions.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage
 */
export function convertResponsesUsage(usage: ResponsesUsage): Usage {
  const promptTokens = usage.input_tokens ?? 0;
  const completionTokens = usage.output_tokens ?? 0;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: usage.input_tokens_details?.cached_tokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.output_tokens_details?.reasoning_tokens ?? 0 },
  };
}

/** A `failed` response (or `response.failed` event): the vendor could not answer; fail over like a 5xx or a 429. */
export function createFailedResponseError(response: ResponsesObject): UpstreamFailureError {
  const code = response.error?.code ?? undefined;
  return new UpstreamFailureError(
    createUpstreamFailure({
      status: code === 'rate_limit_exceeded' ? 429 : 502,
      headers: {},
      vendorMessage: response.error?.message,
      vendorCode: code ?? 'response_failed',
    }),
  );
}
