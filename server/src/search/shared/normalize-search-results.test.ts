import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanSearchText, truncateText } from './clean-search-text.ts';
import { clipQuery } from './clip-query.ts';
import { normalizeSearchResults, searchResultLimits } from './normalize-search-results.ts';
import { readIsoDate } from './read-iso-date.ts';

const page = (url: string, extra: Partial<{ title: string; snippet: string; content: string }> = {}) => ({
  url,
  title: extra.title ?? 'Title',
  snippet: extra.snippet ?? 'Snippet.',
  content: extra.content,
});

describe('normalizeSearchResults', () => {
  it('drops URLs that are not absolute http(s) or that carry credentials', () => {
    const results = normalizeSearchResults(
      [
        page('javascript:alert(1)'),
        page('ftp://files.example.com/a.txt'),
        page('/relative/path'),
        page('data:text/html,hi'),
        page('https://user:secret@example.com/'),
        page('not a url'),
        page('  https://example.com/ok  '),
        page('http://example.org/plain'),
      ],
      { maxResults: 10 },
    );
    assert.deepEqual(
      results.map((result) => result.url),
      ['https://example.com/ok', 'http://example.org/plain'],
    );
  });

  it('keeps the first result per page, ignoring the fragment', () => {
    const results = normalizeSearchResults(
      [page('https://example.com/a#intro', { title: 'First' }), page('https://example.com/a', { title: 'Second' })],
      { maxResults: 10 },
    );
    assert.deepEqual(
      results.map((result) => result.title),
      ['First'],
    );
  });

  it('bounds titles, snippets and content, and uses the host when the title is empty', () => {
    const [result] = normalizeSearchResults(
      [page('https://example.com/', { title: '   ', snippet: 'word '.repeat(400), content: 'longer '.repeat(1000) })],
      { maxResults: 1 },
    );
    assert.equal(result?.title, 'example.com');
    assert.ok((result?.snippet.length ?? 0) <= searchResultLimits.snippetChars);
    assert.ok(result?.snippet.endsWith('…'));
    assert.ok((result?.content?.length ?? 0) <= searchResultLimits.contentChars);
  });

  it('omits content equal to the snippet and derives a missing snippet from the content', () => {
    const [same, derived] = normalizeSearchResults(
      [
        page('https://a.example/', { snippet: 'Same text.', content: 'Same   text.' }),
        { url: 'https://b.example/', title: 'B', snippet: null, content: 'Only content here.' },
      ],
      { maxResults: 5 },
    );
    assert.equal(same?.content, undefined);
    assert.equal(derived?.snippet, 'Only content here.');
    assert.equal(derived?.content, undefined);
  });
});

describe('cleanSearchText', () => {
  it('removes markup, decodes entities and collapses whitespace', () => {
    assert.equal(
      cleanSearchText(
        '<strong>Rust</strong> &amp; <em>Go</em>&#x27;s\n\n runtimes&nbsp;&#8212; &lt;b&gt; a &bogus; b',
        100,
      ),
      "Rust & Go's runtimes — <b> a &bogus; b",
    );
  });

  it('never cuts a surrogate pair in half', () => {
    const cut = truncateText(`${'a'.repeat(8)}😀😀😀`, 10);
    assert.equal(cut, `${'a'.repeat(8)}…`);
    assert.doesNotMatch(cut, /[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('readIsoDate', () => {
  it('keeps ISO dates as the engine wrote them and drops everything else', () => {
    assert.equal(readIsoDate('2025-03-04'), '2025-03-04');
    assert.equal(readIsoDate('2023-11-16T01:36:32.547Z'), '2023-11-16T01:36:32.547Z');
    assert.equal(readIsoDate(' 2024-03-21T00:00:00 '), '2024-03-21T00:00:00');
    assert.equal(readIsoDate('2 days ago'), undefined);
    assert.equal(readIsoDate('Sat, 15 Jul 2023 22:15:00 GMT'), undefined);
    assert.equal(readIsoDate('2025-13-01'), undefined);
    assert.equal(readIsoDate(null), undefined);
  });
});

describe('clipQuery', () => {
  it('collapses spaces and cuts at word boundaries within the limits', () => {
    assert.equal(clipQuery('  a   b  c ', { maxChars: 100 }), 'a b c');
    assert.equal(clipQuery('one two three four', { maxChars: 100, maxWords: 2 }), 'one two');
    assert.equal(clipQuery('alpha beta gamma', { maxChars: 12 }), 'alpha beta');
    assert.equal(clipQuery('x'.repeat(20), { maxChars: 5 }), 'xxxxx');
  });
});
