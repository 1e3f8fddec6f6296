import { z } from 'zod';
import type { ChatChunk, ChatCompletion } from '../../openai-api/chat-completion.ts';
import type { ProviderAdapter, SseEvent } from '../provider-adapter.ts';
import {
  createNativeSearchChunk,
  removeSearchFunction,
  type NativeSearchEvent,
  type NativeSearchRequest,
  type WithNativeSearch,
} from '../shared/native-web-search.ts';
import { parseVendorBody } from '../shared/parse-vendor-body.ts';
import { anthropicAdapter } from './anthropic-adapter.ts';
import type { AnthropicRequest } from './anthropic-api.ts';
import { convertRequest } from './convert-request.ts';
import { convertResponse } from './convert-response.ts';
import { convertStream } from './convert-stream.ts';
import { WebSearchBlockReader } from './read-web-search-blocks.ts';

/**
 * Anthropic's `web_search` server tool for a `/v1/responses` round whose operator lets Anthropic search
 * (NATIVE_WEB_SEARCH): the chat adapter's request with the gateway's search function replaced by the server tool
 * (`max_uses`, `allowed_domains`, `user_location` from the client's settings), and its answers with the searches and
 * citations read beside the chat conversion (`read-web-search-blocks.ts`).
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
export function createAnthropicSearchAdapter(search: NativeSearchRequest): ProviderAdapter {
  return {
    id: 'anthropic',
    buildRequest: (input) => {
      const { request, isSearchForced } = removeSearchFunction(input.request, search);
      const built = anthropicAdapter.buildRequest({ ...input, request });
      const body = convertRequest({ request, target: input.target, isStreaming: input.isStreaming });
      return { ...built, body: JSON.stringify(addSearchTool(body, { search, isSearchForced })) };
    },
    parseResponse: convertSearchResponse,
    parseStream: convertSearchStream,
    parseError: anthropicAdapter.parseError,
  };
}

/** Anthropic's server tool type for web search, the version the wire formats describe (§5.1). */
const webSearchToolType = 'web_search_20250305';

type SearchToolRequest = Omit<AnthropicRequest, 'tools' | 'tool_choice'> & {
  tools: Array<NonNullable<AnthropicRequest['tools']>[number] | Record<string, unknown>>;
  tool_choice?: AnthropicRequest['tool_choice'];
};

function addSearchTool(
  body: AnthropicRequest,
  input: { search: NativeSearchRequest; isSearchForced: boolean },
): SearchToolRequest {
  const { tool, maxSearches } = input.search;
  const searchTool = {
    type: webSearchToolType,
    name: 'web_search',
    max_uses: maxSearches,
    ...(tool.filters ? { allowed_domains: tool.filters.allowed_domains } : {}),
    ...(tool.user_location === undefined ? {} : { user_location: tool.user_location }),
  };
  const withSearch: SearchToolRequest = { ...body, tools: [...(body.tools ?? []), searchTool] };
  if (input.isSearchForced) withSearch.tool_choice = { type: 'tool', name: 'web_search' };
  return withSearch;
}

const contentOnlySchema = z.object({ content: z.array(z.unknown()) }).loose();

function convertSearchResponse(input: Parameters<ProviderAdapter['parseResponse']>[0]): ChatCompletion {
  const completion = convertResponse(input);
  const reader = new WebSearchBlockReader({ isStream: false });
  const events = parseVendorBody(contentOnlySchema, input.body, 'Anthropic').content.flatMap((block) =>
    reader.readBlock(block),
  );
  const ordered = [
    ...events.filter((event) => event.type === 'web_search'),
    ...events.filter((event) => event.type === 'url_citation'),
  ];
  const withSearch: WithNativeSearch<ChatCompletion> =
    ordered.length === 0 ? completion : { ...completion, nativeSearch: ordered };
  return withSearch;
}

const blockStartSchema = z
  .object({ type: z.literal('content_block_start'), index: z.number(), content_block: z.unknown() })
  .loose();
const blockDeltaSchema = z
  .object({ type: z.literal('content_block_delta'), index: z.number(), delta: z.object({ type: z.string() }).loose() })
  .loose();
const blockStopSchema = z.object({ type: z.literal('content_block_stop'), index: z.number() }).loose();

/**
 * The chat stream conversion, with the search events slipped in where they happened: each event is read as the chat
 * converter takes it, and what it reported goes out before the converter's next chunk (so a citation follows the
 * text of its block, and a search precedes the text after it).
 */
async function* convertSearchStream(input: Parameters<ProviderAdapter['parseStream']>[0]): AsyncGenerator<ChatChunk> {
  const reader = new WebSearchBlockReader({ isStream: true });
  const pending: NativeSearchEvent[] = [];
  const identity = { id: input.id, created: input.createdUnixSeconds, model: input.requestedModel };
  async function* observe(events: AsyncIterable<SseEvent>): AsyncGenerator<SseEvent> {
    for await (const event of events) {
      pending.push(...readSearchEvents(reader, event.data));
      yield event;
    }
  }
  for await (const chunk of convertStream({ ...input, events: observe(input.events) })) {
    if (pending.length > 0) yield createNativeSearchChunk(identity, pending.splice(0));
    yield chunk;
  }
  if (pending.length > 0) yield createNativeSearchChunk(identity, pending.splice(0));
}

function readSearchEvents(reader: WebSearchBlockReader, data: unknown): NativeSearchEvent[] {
  const start = blockStartSchema.safeParse(data);
  if (start.success) return reader.startBlock(start.data.index, start.data.content_block);
  const delta = blockDeltaSchema.safeParse(data);
  if (delta.success) {
    reader.addDelta(delta.data.index, delta.data.delta);
    return [];
  }
  const stop = blockStopSchema.safeParse(data);
  return stop.success ? reader.stopBlock(stop.data.index) : [];
}
