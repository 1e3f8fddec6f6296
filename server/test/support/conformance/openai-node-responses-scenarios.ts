import assert from 'node:assert/strict';
import type OpenAI from 'openai';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { countCodePoints, sliceCodePoints } from '../../../src/lib/code-point-offsets.ts';
import { shortAnswer, weatherToolParameters, type ConformanceModel } from './conformance-models.ts';

/** The question every client asks with web search: an emoji and a non-BMP letter come before the later citations. */
export const searchQuestion = 'Почему бывают приливы 🌊 и отливы 𠀋? Explain.';

/** The URLs the search simulator's SearXNG API answers for a query: the only pages a citation may point at. */
export async function searchResultUrls(searchUrl: string, query: string): Promise<Set<string>> {
  const response = await fetch(`${searchUrl}/searxng/search?format=json&q=${encodeURIComponent(query)}`);
  const body = (await response.json()) as { results: Array<{ url: string }> };
  return new Set(body.results.map((result) => result.url));
}

const tools: OpenAI.Responses.Tool[] = [
  {
    type: 'function',
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { ...weatherToolParameters },
    strict: true,
  },
];

/** The Responses API scenarios of the suite through the official OpenAI SDK for Node, for one model. */
export async function runOpenAiNodeResponsesScenarios(
  client: OpenAI,
  model: ConformanceModel,
  searchUrl: string,
): Promise<void> {
  const text = await client.responses.create({
    model: model.id,
    instructions: 'Be brief.',
    input: `Name a river. ${shortAnswer}`,
  });
  assert.equal(text.model, model.id);
  assert.equal(text.instructions, 'Be brief.');
  assert.ok(text.output_text, 'text answer');
  assert.ok((text.usage as { cost?: number } | undefined)?.cost !== undefined, 'usage.cost is present');

  const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'Weather in Paris?' }];
  const call = await client.responses.create({ model: model.id, input, tools, tool_choice: 'required' });
  const functionCall = call.output.find((item) => item.type === 'function_call');
  assert.ok(functionCall?.type === 'function_call' && functionCall.name === 'get_weather');
  assert.equal(typeof (JSON.parse(functionCall.arguments) as { city?: unknown }).city, 'string');
  const answer = await client.responses.create({
    model: model.id,
    tools,
    input: [
      ...input,
      ...(call.output as OpenAI.Responses.ResponseInputItem[]),
      { type: 'function_call_output', call_id: functionCall.call_id, output: '{"c": 21}' },
    ],
  });
  assert.ok(answer.output_text, 'answer after the function output');

  const request = { model: model.id, input: searchQuestion, tools: [{ type: 'web_search' as const }] };
  await checkSearchAnswer(await client.responses.create(request), searchUrl);
  const stream = client.responses.stream(request);
  const events: ResponseStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const final = await stream.finalResponse();
  assert.equal(events[0]?.type, 'response.created');
  assert.ok(
    events.some((event) => event.type === 'response.output_text.annotation.added'),
    'annotations announced',
  );
  await checkSearchAnswer(final, searchUrl);
}

/** Citations only on pages the engine returned, each slicing a sentence's words by its code-point offsets. */
async function checkSearchAnswer(response: Response, searchUrl: string): Promise<void> {
  assert.equal(response.status, 'completed');
  const searches = response.output.flatMap((item) => (item.type === 'web_search_call' ? [item] : []));
  assert.ok(searches.length > 0, 'a web_search_call records the search');
  const urls = new Set<string>();
  for (const search of searches) {
    assert.ok(search.action.type === 'search' && search.action.query);
    for (const url of await searchResultUrls(searchUrl, search.action.query)) urls.add(url);
  }
  let citationCount = 0;
  for (const item of response.output) {
    if (item.type !== 'message') continue;
    for (const part of item.content) {
      if (part.type !== 'output_text') continue;
      for (const annotation of part.annotations) {
        if (annotation.type !== 'url_citation') continue;
        assert.ok(urls.has(annotation.url), `${annotation.url} is one of the engine's results`);
        assert.ok(annotation.start_index < annotation.end_index);
        assert.ok(annotation.end_index <= countCodePoints(part.text));
        const cited = sliceCodePoints(part.text, annotation.start_index, annotation.end_index);
        assert.equal(cited, cited.trim(), 'a citation covers words');
        const before = sliceCodePoints(part.text, annotation.start_index - 1, annotation.start_index);
        const after = sliceCodePoints(part.text, annotation.end_index, annotation.end_index + 1);
        assert.match(before, /^(?:|\s)$/u, `"${cited}" starts at a word's start`);
        assert.match(after, /^(?:|[\s.!?,;:])$/u, `"${cited}" ends at a word's end`);
        citationCount += 1;
      }
    }
  }
  assert.ok(citationCount > 0, 'the answer cites its sources');
}
