import assert from 'node:assert/strict';
import OpenAI from 'openai';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { countCodePoints, sliceCodePoints } from '../../src/lib/code-point-offsets.ts';
import {
  startSearchSimulator,
  type RunningSearchSimulator,
} from '../../../simulators/search/start-search-simulator.ts';
import { conformanceModels } from './conformance/conformance-models.ts';
import { loadOpenApiSchemaValidator, type OpenAiSchemaName } from './openapi-schema-validator.ts';
import { startTestGateway, type TestGateway } from './start-test-gateway.ts';

/** One model of every vendor family of the conformance suite (OpenAI, Anthropic, Gemini and the OpenAI dialects). */
export const familyModels = conformanceModels.map((model) => model.id);
export const schemas = loadOpenApiSchemaValidator();
export const responseSchema: OpenAiSchemaName = 'Response';
export const streamEventSchema: OpenAiSchemaName = 'ResponseStreamEvent';

/** A sandbox gateway searching its own search simulator (SearXNG dialect), and a funded customer's SDK client. */
export type ResponsesFixture = {
  gateway: TestGateway;
  search: RunningSearchSimulator;
  client: OpenAI;
  apiKey: string;
  userId: string;
  /** The URLs the search simulator returns for a query, asked over its own SearXNG API. */
  searchResultUrls: (query: string) => Promise<Set<string>>;
  /** A streamed request over raw HTTP, to see the bytes as they come (comments included). */
  postRawStream: (body: Record<string, unknown>) => Promise<string>;
  balance: () => Promise<number>;
  /** Checks the searches and citations of a web search answer; returns how many citations it has. */
  checkCitations: (response: Response) => Promise<number>;
  close: () => Promise<void>;
};

export async function startResponsesFixture(): Promise<ResponsesFixture> {
  const search = await startSearchSimulator();
  const gateway = await startTestGateway({
    environment: {
      SEARCH_ENGINE: 'searxng',
      SEARCH_BASE_URL: `${search.url}/searxng`,
      SEARCH_TIMEOUT_MS: '1000',
      KEEPALIVE_INTERVAL_MS: '300',
    },
  });
  const user = await gateway.createUserWithKey();
  const client = new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  const searchResultUrls = async (query: string) => {
    const response = await fetch(`${search.url}/searxng/search?format=json&q=${encodeURIComponent(query)}`);
    const body = (await response.json()) as { results: Array<{ url: string }> };
    return new Set(body.results.map((result) => result.url));
  };
  return {
    gateway,
    search,
    client,
    apiKey: user.key,
    userId: user.userId,
    searchResultUrls,
    postRawStream: async (body) => {
      const response = await fetch(`${gateway.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, stream: true }),
      });
      assert.equal(response.status, 200);
      return response.text();
    },
    balance: () => sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(user.userId)),
    checkCitations: (response) => checkCitations(response, searchResultUrls),
    close: async () => {
      await gateway.close();
      await search.close();
    },
  };
}

async function checkCitations(
  response: Response,
  searchResultUrls: (query: string) => Promise<Set<string>>,
): Promise<number> {
  const searches = response.output.filter((item) => item.type === 'web_search_call');
  assert.ok(searches.length >= 1, `${response.model} searched`);
  const urls = new Set<string>();
  for (const item of searches) {
    assert.equal(item.status, 'completed');
    assert.ok(item.action.type === 'search' && item.action.query, 'the search records its query');
    if (item.action.type === 'search') for (const url of await searchResultUrls(item.action.query)) urls.add(url);
  }
  let annotationCount = 0;
  for (const item of response.output) {
    if (item.type !== 'message') continue;
    for (const part of item.content) {
      if (part.type !== 'output_text') continue;
      assert.doesNotMatch(part.text, /\[\d+\]/, 'the [n] markers are removed from the text');
      for (const annotation of part.annotations) {
        assert.equal(annotation.type, 'url_citation');
        if (annotation.type !== 'url_citation') continue;
        assert.ok(urls.has(annotation.url), `${annotation.url} is one of the engine's results`);
        assert.ok(annotation.title.length > 0);
        assert.ok(0 <= annotation.start_index && annotation.start_index < annotation.end_index);
        assert.ok(annotation.end_index <= countCodePoints(part.text));
        // Offsets count code points (docs/responses.md): Python's `text[start:end]`, JavaScript's Array.from.
        const cited = sliceCodePoints(part.text, annotation.start_index, annotation.end_index);
        assert.equal(cited, cited.trim(), 'a citation covers words, not the spaces around them');
        annotationCount += 1;
      }
    }
  }
  return annotationCount;
}

/**
 * The ordering rules the SDKs enforce (docs/reference/openai.md §Responses): created first with sequence 0, numbers without gaps,
 * items added densely before their deltas, parts added before text, annotations after the text they cite, every
 * open item done before the end, the terminal event last.
 */
export function checkEventOrder(events: readonly ResponseStreamEvent[]): void {
  assert.equal(events[0]?.type, 'response.created');
  assert.equal(events[1]?.type, 'response.in_progress');
  for (const opening of events.slice(0, 2)) {
    // The Python SDK's stream helper rebuilds the output from the item events: an opening output must be empty.
    assert.ok(opening.type === 'response.created' || opening.type === 'response.in_progress');
    assert.deepEqual(opening.response.output, [], `${opening.type} carries no output yet`);
  }
  events.forEach((event, index) => assert.equal(event.sequence_number, index, `sequence of ${event.type}`));
  const items = new Map<number, { isDone: boolean; parts: Map<number, string> }>();
  const itemAt = (outputIndex: number) => {
    const item = items.get(outputIndex);
    assert.ok(item && !item.isDone, `output ${outputIndex} is open`);
    return item;
  };
  for (const event of events.slice(2, -1)) {
    switch (event.type) {
      case 'response.output_item.added':
        assert.equal(event.output_index, items.size, 'output indices are dense');
        items.set(event.output_index, { isDone: false, parts: new Map() });
        break;
      case 'response.output_item.done':
        itemAt(event.output_index).isDone = true;
        break;
      case 'response.content_part.added':
        itemAt(event.output_index).parts.set(event.content_index, '');
        break;
      case 'response.output_text.delta': {
        const parts = itemAt(event.output_index).parts;
        assert.ok(parts.has(event.content_index), 'a part is added before its text');
        parts.set(event.content_index, (parts.get(event.content_index) ?? '') + event.delta);
        break;
      }
      case 'response.output_text.annotation.added': {
        const text = itemAt(event.output_index).parts.get(event.content_index) ?? '';
        const annotation = event.annotation as { end_index: number };
        assert.ok(annotation.end_index <= text.length, 'an annotation follows the text it cites');
        break;
      }
      case 'response.output_text.done':
        assert.equal(event.text, itemAt(event.output_index).parts.get(event.content_index), 'done repeats the deltas');
        break;
      case 'response.function_call_arguments.delta':
      case 'response.web_search_call.searching':
        itemAt(event.output_index);
        break;
      default:
        break;
    }
  }
  assert.ok(
    [...items.values()].every((item) => item.isDone),
    'every item is done before the end',
  );
  assert.ok(['response.completed', 'response.incomplete'].includes(events.at(-1)?.type ?? ''));
}
