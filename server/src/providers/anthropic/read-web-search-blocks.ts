import { z } from 'zod';
import { countCodePoints } from '../../lib/code-point-offsets.ts';
import type { NativeSearchEvent } from '../shared/native-web-search.ts';
import { parseBodyText } from '../shared/parse-error-body.ts';

/**
 * Anthropic's web search blocks (docs/reference/anthropic.md §Response): `server_tool_use` with the query, `web_search_tool_result` with
 * the results (or an error object), and text blocks whose `citations` (`web_search_result_location`) carry no offsets:
 * the cited span is the whole text block.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
const serverToolUseSchema = z
  .object({ type: z.literal('server_tool_use'), id: z.string(), input: z.object({}).loose().nullish() })
  .loose();
const searchResultSchema = z.object({ type: z.string(), url: z.string().optional() }).loose();
const webSearchResultBlockSchema = z
  .object({
    type: z.literal('web_search_tool_result'),
    tool_use_id: z.string(),
    content: z.union([z.array(searchResultSchema), z.object({ type: z.string() }).loose()]),
  })
  .loose();
const citationSchema = z.object({ type: z.string(), url: z.string().optional(), title: z.string().nullish() }).loose();
const textBlockSchema = z
  .object({ type: z.literal('text'), text: z.string(), citations: z.array(citationSchema).nullish() })
  .loose();
const queryInputSchema = z.object({ query: z.string() }).loose();

type Citation = z.infer<typeof citationSchema>;

/**
 * Follows the blocks of one answer, whole (a Message's `content`) or as stream events, and reports the search events
 * they make: each finished search with its results, and each cited text block as citations of its span (without the
 * spaces around it). In a stream, text offsets count from the last search, as `NativeSearchEvent` offsets do; a whole
 * answer lists its searches first, so its offsets count from the start of the joined text.
 */
export class WebSearchBlockReader {
  readonly #isStream: boolean;
  #queries = new Map<string, string>();
  #textLength = 0;
  readonly #open = new Map<
    number,
    { kind: 'query'; id: string; json: string } | { kind: 'text'; text: string; citations: Citation[] }
  >();

  constructor(input: { isStream: boolean }) {
    this.#isStream = input.isStream;
  }

  /** A whole block (non-streamed answers, and `content_block_start` of blocks that come whole). */
  readBlock(block: unknown): NativeSearchEvent[] {
    const search = serverToolUseSchema.safeParse(block);
    if (search.success) {
      const query = queryInputSchema.safeParse(search.data.input);
      this.#queries.set(search.data.id, query.success ? query.data.query : '');
      return [];
    }
    const result = webSearchResultBlockSchema.safeParse(block);
    if (result.success) return [this.#finishSearch(result.data)];
    const text = textBlockSchema.safeParse(block);
    if (text.success) return this.#finishText(text.data.text, text.data.citations ?? []);
    return [];
  }

  /** `content_block_start`: blocks that stream their content are opened; results come whole. */
  startBlock(index: number, block: unknown): NativeSearchEvent[] {
    const search = serverToolUseSchema.safeParse(block);
    if (search.success) {
      this.#open.set(index, { kind: 'query', id: search.data.id, json: '' });
      return [];
    }
    const text = textBlockSchema.safeParse(block);
    if (text.success) {
      this.#open.set(index, { kind: 'text', text: text.data.text, citations: [...(text.data.citations ?? [])] });
      return [];
    }
    return this.readBlock(block);
  }

  /** `content_block_delta`: query JSON, text and citations of an open block. */
  addDelta(index: number, delta: { type: string; partial_json?: unknown; text?: unknown; citation?: unknown }): void {
    const open = this.#open.get(index);
    if (open?.kind === 'query' && typeof delta.partial_json === 'string') open.json += delta.partial_json;
    if (open?.kind !== 'text') return;
    if (typeof delta.text === 'string') open.text += delta.text;
    const citation = citationSchema.safeParse(delta.citation);
    if (delta.type === 'citations_delta' && citation.success) open.citations.push(citation.data);
  }

  /** `content_block_stop`: a finished query is remembered, a finished cited text block reported. */
  stopBlock(index: number): NativeSearchEvent[] {
    const open = this.#open.get(index);
    this.#open.delete(index);
    if (open?.kind === 'query') {
      const query = queryInputSchema.safeParse(parseBodyText(open.json));
      this.#queries.set(open.id, query.success ? query.data.query : '');
      return [];
    }
    return open?.kind === 'text' ? this.#finishText(open.text, open.citations) : [];
  }

  #finishSearch(block: z.infer<typeof webSearchResultBlockSchema>): NativeSearchEvent {
    if (this.#isStream) this.#textLength = 0;
    const results = Array.isArray(block.content) ? block.content : undefined;
    return {
      type: 'web_search',
      query: this.#queries.get(block.tool_use_id) ?? '',
      sourceUrls: (results ?? []).flatMap((result) => (result.url === undefined ? [] : [result.url])),
      isCompleted: results !== undefined,
    };
  }

  #finishText(text: string, citations: readonly Citation[]): NativeSearchEvent[] {
    const blockStart = this.#textLength;
    this.#textLength += countCodePoints(text);
    const leading = countCodePoints(text.slice(0, text.length - text.trimStart().length));
    const startIndex = blockStart + leading;
    const endIndex = blockStart + countCodePoints(text.trimEnd());
    if (endIndex <= startIndex) return [];
    const seen = new Set<string>();
    return citations.flatMap((citation) => {
      if (citation.type !== 'web_search_result_location' || citation.url === undefined || seen.has(citation.url)) {
        return [];
      }
      seen.add(citation.url);
      return [{ type: 'url_citation' as const, url: citation.url, title: citation.title ?? '', startIndex, endIndex }];
    });
  }
}
