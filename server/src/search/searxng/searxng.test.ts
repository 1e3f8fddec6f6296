import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readJsonFixture } from '../../providers/test-support/replay-fixture.ts';
import { SearchEngineError } from '../search-engine-error.ts';
import { convertSearxngResponse } from './convert-searxng-response.ts';
import { searxngSearchResponseSchema } from './searxng-api.ts';
import { searxngAdapter } from './searxng-adapter.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('SearXNG converter', () => {
  it('keeps http(s) results in order, once per page, with cleaned text and ISO dates', () => {
    const results = convertSearxngResponse(searxngSearchResponseSchema.parse(fixture('search.json')), {
      maxResults: 10,
    });
    assert.deepEqual(results, [
      {
        url: 'https://tokio.rs/tokio/tutorial',
        title: 'Tutorial | Tokio - An asynchronous Rust runtime',
        snippet:
          'Tokio is an asynchronous runtime for the Rust programming language. It provides the building blocks needed for writing network applications & more.',
      },
      {
        url: 'https://rust-lang.github.io/async-book/',
        title: 'Asynchronous Programming in Rust',
        snippet:
          'This book aims to be a thorough guide to asynchronous programming in Rust, from beginner to advanced.',
        publishedAt: '2024-03-21T00:00:00',
      },
      {
        url: 'https://without.boats/blog/why-async-rust/',
        title: 'Why async Rust? without boats',
        snippet:
          'Async/await syntax in Rust was initially released to much fanfare and excitement. It was the culmination of years of work.',
        publishedAt: '2023-10-15T00:00:00',
      },
    ]);
  });

  it('stops at maxResults', () => {
    const body = searxngSearchResponseSchema.parse(fixture('search.json'));
    assert.equal(convertSearxngResponse(body, { maxResults: 2 }).length, 2);
  });

  it('reads an empty list with failed backends as an outage, not as nothing found', () => {
    assert.throws(
      () => searxngAdapter.parseResponse({ body: fixture('unresponsive-engines.json'), maxResults: 5 }),
      (error: unknown) =>
        error instanceof SearchEngineError &&
        error.kind === 'unavailable' &&
        error.engineCode === 'unresponsive_engines',
    );
  });

  it('reports a body that is not SearXNG JSON as unavailable', () => {
    assert.throws(
      () => searxngAdapter.parseResponse({ body: '<html>login</html>', maxResults: 5 }),
      (error: unknown) => error instanceof SearchEngineError && error.kind === 'unavailable',
    );
  });
});

describe('SearXNG request', () => {
  it('asks /search for JSON, with a Bearer token only when a key is configured', () => {
    const request = searxngAdapter.buildRequest({
      query: '  café  au lait ',
      maxResults: 5,
      baseUrl: 'http://searx.internal:8080/',
      apiKey: undefined,
    });
    assert.equal(request.method, 'GET');
    assert.equal(request.url, 'http://searx.internal:8080/search?q=caf%C3%A9+au+lait&format=json&pageno=1');
    assert.equal(request.headers.authorization, undefined);
    const withKey = searxngAdapter.buildRequest({
      query: 'q',
      maxResults: 5,
      baseUrl: 'http://s',
      apiKey: 'proxy-key',
    });
    assert.equal(withKey.headers.authorization, 'Bearer proxy-key');
  });

  it('reads a 403 as the JSON format not being enabled', () => {
    assert.deepEqual(searxngAdapter.readError({ status: 403, body: '<html>Forbidden</html>' }), {
      engineCode: 'format_not_enabled',
      refusal: 'request',
    });
  });
});
