import type {
  MessageItem,
  OutputItem,
  ResponseObject,
  UrlCitationAnnotation,
  WebSearchCallItem,
} from './response-object.ts';
import type { SearchResult } from '../search/search-engine.ts';
import type {
  ContentBlock,
  Message,
  MessageUsage,
  StopReason,
  TextBlock,
  WebSearchCitation,
} from '../anthropic-api/message-object.ts';
import { parseToolInput } from '../anthropic-api/parse-tool-input.ts';
import { toToolUseId } from '../anthropic-api/tool-use-id.ts';

/** Anthropic's `cited_text` is at most 150 characters of the source. */
const citedTextLength = 150;

/**
 * A Response the gateway's search rounds produced → an Anthropic `Message` in the web search tool's shape: each search
 * as a `server_tool_use` block and its `web_search_tool_result` block, the answer as text blocks split at its
 * citations, cited statements carrying `web_search_result_location` citations, function calls as `tool_use` blocks.
 * `results` are the pages the engine returned, by URL: they give the titles and cited text the Response leaves out.
 * The `encrypted_*` fields are opaque: the gateway never reads them back (docs/messages.md).
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
export function convertSearchResponse(
  response: ResponseObject,
  input: { id: string; model: string; results: ReadonlyMap<string, SearchResult> },
): Message {
  const content = response.output.flatMap((item) => convertItem(item, input.results));
  const searchCount = response.output.filter((item) => item.type === 'web_search_call').length;
  return {
    id: input.id,
    type: 'message',
    role: 'assistant',
    model: input.model,
    content,
    stop_reason: stopReasonOf(response),
    stop_sequence: null,
    usage: convertResponseUsage(response.usage, searchCount),
  };
}

function convertItem(item: OutputItem, results: ReadonlyMap<string, SearchResult>): ContentBlock[] {
  switch (item.type) {
    case 'reasoning': {
      const thinking = item.summary.map((part) => part.text).join('\n\n');
      return thinking === '' ? [] : [{ type: 'thinking', thinking, signature: '' }];
    }
    case 'web_search_call':
      return convertSearch(item, results);
    case 'message':
      return convertMessageItem(item, results);
    case 'function_call':
      return [
        { type: 'tool_use', id: toToolUseId(item.call_id), name: item.name, input: parseToolInput(item.arguments) },
      ];
    case 'custom_tool_call':
      return [{ type: 'tool_use', id: toToolUseId(item.call_id), name: item.name, input: { input: item.input } }];
  }
}

function convertSearch(item: WebSearchCallItem, results: ReadonlyMap<string, SearchResult>): ContentBlock[] {
  const id = `srvtoolu_${item.id.replace(/^ws_/, '')}`;
  const sources = item.action.sources ?? [];
  return [
    { type: 'server_tool_use', id, name: 'web_search', input: { query: item.action.query } },
    {
      type: 'web_search_tool_result',
      tool_use_id: id,
      content:
        item.status === 'failed'
          ? { type: 'web_search_tool_result_error', error_code: 'unavailable' }
          : sources.map((source) => {
              const result = results.get(source.url);
              return {
                type: 'web_search_result' as const,
                url: source.url,
                title: result?.title || source.url,
                encrypted_content: toOpaque({ url: source.url }),
                page_age: result?.publishedAt ?? null,
              };
            }),
    },
  ];
}

/** Text split at its citation spans: a cited span is its own block with the citations of every source it names. */
function convertMessageItem(item: MessageItem, results: ReadonlyMap<string, SearchResult>): TextBlock[] {
  return item.content.flatMap((part): TextBlock[] => {
    if (part.type === 'refusal') return [{ type: 'text', text: part.refusal }];
    const characters = Array.from(part.text);
    const spans = groupSpans(part.annotations);
    const blocks: TextBlock[] = [];
    let position = 0;
    for (const span of spans) {
      if (span.start > position) blocks.push({ type: 'text', text: characters.slice(position, span.start).join('') });
      const citations = span.annotations.map((annotation) => toCitation(annotation, results));
      blocks.push({ type: 'text', text: characters.slice(span.start, span.end).join(''), citations });
      position = span.end;
    }
    if (position < characters.length || blocks.length === 0) {
      blocks.push({ type: 'text', text: characters.slice(position).join('') });
    }
    return blocks;
  });
}

function groupSpans(
  annotations: readonly UrlCitationAnnotation[],
): Array<{ start: number; end: number; annotations: UrlCitationAnnotation[] }> {
  const spans: Array<{ start: number; end: number; annotations: UrlCitationAnnotation[] }> = [];
  for (const annotation of [...annotations].sort((a, b) => a.start_index - b.start_index)) {
    const last = spans.at(-1);
    if (last && last.start === annotation.start_index && last.end === annotation.end_index) {
      last.annotations.push(annotation);
    } else if (!last || annotation.start_index >= last.end) {
      spans.push({ start: annotation.start_index, end: annotation.end_index, annotations: [annotation] });
    }
  }
  return spans;
}

function toCitation(annotation: UrlCitationAnnotation, results: ReadonlyMap<string, SearchResult>): WebSearchCitation {
  const result = results.get(annotation.url);
  const sourceText = (result?.snippet || result?.content || annotation.title).replace(/\s+/g, ' ').trim();
  return {
    type: 'web_search_result_location',
    url: annotation.url,
    title: annotation.title,
    encrypted_index: toOpaque({ url: annotation.url, start: annotation.start_index }),
    cited_text: Array.from(sourceText).slice(0, citedTextLength).join(''),
  };
}

function toOpaque(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function stopReasonOf(response: ResponseObject): StopReason {
  const reason = response.incomplete_details?.reason;
  if (reason === 'max_output_tokens') return 'max_tokens';
  if (reason === 'content_filter') return 'refusal';
  const isToolCall = response.output.some((item) => item.type === 'function_call' || item.type === 'custom_tool_call');
  return isToolCall ? 'tool_use' : 'end_turn';
}

/** Anthropic's `input_tokens` leaves out cache reads and writes, which it reports apart. */
function convertResponseUsage(usage: ResponseObject['usage'], searchCount: number): MessageUsage {
  const cacheRead = usage?.input_tokens_details.cached_tokens ?? 0;
  const cacheWrite = usage?.input_tokens_details.cache_write_tokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.input_tokens ?? 0) - cacheRead - cacheWrite),
    output_tokens: usage?.output_tokens ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
    server_tool_use: { web_search_requests: searchCount, web_fetch_requests: 0 },
    ...(usage === undefined ? {} : { cost: usage.cost }),
  };
}
