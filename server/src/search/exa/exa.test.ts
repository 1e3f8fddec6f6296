import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBodyText } from '../../providers/shared/parse-error-body.ts';
import { readJsonFixture } from '../../providers/test-support/replay-fixture.ts';
import { convertExaResponse } from './convert-exa-response.ts';
import { exaSearchResponseSchema } from './exa-api.ts';
import { exaAdapter } from './exa-adapter.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('Exa converter', () => {
  it('uses the first highlight as the snippet and all highlights as the content', () => {
    const results = convertExaResponse(exaSearchResponseSchema.parse(fixture('search-highlights.json')), {
      maxResults: 10,
    });
    assert.deepEqual(results, [
      {
        url: 'https://arxiv.org/pdf/2307.06435.pdf',
        title: 'A Comprehensive Overview of Large Language Models',
        snippet: 'Such requirements have limited their adoption in resource-constrained settings.',
        content:
          'Such requirements have limited their adoption in resource-constrained settings. [...] Large Language Models (LLMs) have recently demonstrated remarkable capabilities in natural language processing tasks.',
        publishedAt: '2023-11-16T01:36:32.547Z',
      },
      {
        url: 'https://www.ibm.com/think/topics/large-language-models',
        title: 'www.ibm.com',
        snippet:
          'Large language models (LLMs) are a category of deep learning models trained on immense amounts of data.',
      },
    ]);
  });

  it('falls back to the page text when no highlights were asked for', () => {
    const [result] = exaAdapter.parseResponse({ body: fixture('search-text.json'), maxResults: 5 });
    assert.equal(
      result?.snippet,
      'Abstract Large Language Models (LLMs) have recently demonstrated remarkable capabilities in natural language processing tasks and beyond.',
    );
    assert.equal(result?.content, undefined);
  });
});

describe('Exa errors and request', () => {
  it('keeps the error tag for the logs', () => {
    assert.deepEqual(exaAdapter.readError({ status: 401, body: fixture('invalid-api-key-error.json') }), {
      engineCode: 'INVALID_API_KEY',
    });
    assert.deepEqual(exaAdapter.readError({ status: 402, body: fixture('no-more-credits-error.json') }), {
      engineCode: 'NO_MORE_CREDITS',
    });
  });

  it('posts an auto search with x-api-key, numResults and highlights only', () => {
    const request = exaAdapter.buildRequest({
      query: 'latest research in LLMs',
      maxResults: 6,
      baseUrl: 'https://api.exa.ai',
      apiKey: 'exa-key',
    });
    assert.equal(request.url, 'https://api.exa.ai/search');
    assert.equal(request.headers['x-api-key'], 'exa-key');
    assert.deepEqual(parseBodyText(request.body ?? ''), {
      query: 'latest research in LLMs',
      type: 'auto',
      numResults: 6,
      contents: { highlights: { maxCharacters: 1500 } },
    });
  });
});
