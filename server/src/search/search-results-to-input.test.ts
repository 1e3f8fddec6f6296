import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SearchResult } from './search-engine.ts';
import { convertSearchResultsToInput } from './search-results-to-input.ts';

const results: SearchResult[] = [
  {
    url: 'https://en.wikipedia.org/wiki/Tide',
    title: 'Tide - Wikipedia',
    snippet: 'Tides are the rise and fall of sea levels.',
  },
  {
    url: 'https://www.nature.com/articles/s41586-024-01234-5',
    title: 'Tidal energy | Nature',
    snippet: 'Short snippet.',
    content: 'Longer content about tidal energy, used instead of the snippet.',
  },
  { url: 'https://www.bbc.com/news/articles/c123', title: 'Tides explained - BBC News', snippet: 'The Moon pulls.' },
];

const utf8Bytes = (text: string) => new TextEncoder().encode(text).byteLength;

describe('convertSearchResultsToInput', () => {
  it('continues the numbering from firstNumber, for the second search of one answer', () => {
    const input = convertSearchResultsToInput({ results, maxBytes: 10_000, firstNumber: 4 });
    assert.deepEqual(
      input.sources.map((source) => source.number),
      [4, 5, 6],
    );
    assert.match(input.text, /^\[4\] Tide - Wikipedia — /);
    assert.match(input.text, /\n\n\[6\] Tides explained/);
  });

  it('numbers the results and maps each number back to its URL', () => {
    const input = convertSearchResultsToInput({ results, maxBytes: 10_000 });
    assert.equal(
      input.text,
      [
        '[1] Tide - Wikipedia — https://en.wikipedia.org/wiki/Tide\nTides are the rise and fall of sea levels.',
        '[2] Tidal energy | Nature — https://www.nature.com/articles/s41586-024-01234-5\nLonger content about tidal energy, used instead of the snippet.',
        '[3] Tides explained - BBC News — https://www.bbc.com/news/articles/c123\nThe Moon pulls.',
      ].join('\n\n'),
    );
    assert.deepEqual(
      input.sources.map((source) => [source.number, source.url]),
      [
        [1, 'https://en.wikipedia.org/wiki/Tide'],
        [2, 'https://www.nature.com/articles/s41586-024-01234-5'],
        [3, 'https://www.bbc.com/news/articles/c123'],
      ],
    );
    assert.equal(input.byteLength, utf8Bytes(input.text));
  });

  it('stays within the byte budget, cutting the last entry and leaving later ones out', () => {
    const full = convertSearchResultsToInput({ results, maxBytes: 10_000 });
    for (let maxBytes = 0; maxBytes <= full.byteLength; maxBytes += 7) {
      const input = convertSearchResultsToInput({ results, maxBytes });
      assert.ok(utf8Bytes(input.text) <= maxBytes, `over budget at ${maxBytes}`);
      assert.equal(input.byteLength, utf8Bytes(input.text));
      input.sources.forEach((source, index) => {
        assert.equal(source.number, index + 1);
        assert.ok(input.text.includes(`[${source.number}] `) && input.text.includes(source.url));
      });
    }
    const [firstEntry = '', secondEntry = ''] = full.text.split('\n\n');
    const secondHeader = secondEntry.split('\n')[0] ?? '';
    const cut = convertSearchResultsToInput({
      results,
      maxBytes: utf8Bytes(`${firstEntry}\n\n${secondHeader}\n`) + 20,
    });
    assert.equal(cut.sources.length, 2);
    assert.ok(cut.text.startsWith(`${firstEntry}\n\n${secondHeader}\nLonger content`));
    assert.ok(cut.text.endsWith('…'));
  });

  it('gives no text and no sources when not even one header fits', () => {
    assert.deepEqual(convertSearchResultsToInput({ results, maxBytes: 20 }), { text: '', sources: [], byteLength: 0 });
    assert.deepEqual(convertSearchResultsToInput({ results: [], maxBytes: 1000 }), {
      text: '',
      sources: [],
      byteLength: 0,
    });
  });

  it('counts UTF-8 bytes of Unicode titles and never splits a character', () => {
    const unicode: SearchResult[] = [
      {
        url: 'https://zh.wikipedia.org/wiki/%E6%BD%AE%E6%B1%90',
        title: '潮汐 — 维基百科',
        snippet: '潮汐是海水的周期性涨落现象。🌊🌕',
      },
      {
        url: 'https://fr.wikipedia.org/wiki/Mar%C3%A9e',
        title: 'Marée\n(océan)',
        snippet: 'La marée est le mouvement montant puis descendant des eaux.',
      },
    ];
    const full = convertSearchResultsToInput({ results: unicode, maxBytes: 10_000 });
    assert.match(full.text, /^\[1\] 潮汐 — 维基百科 — https:\/\/zh\.wikipedia\.org\/wiki\/%E6%BD%AE%E6%B1%90\n/);
    assert.match(full.text, /\[2\] Marée \(océan\) — /);
    assert.equal(full.sources[1]?.title, 'Marée (océan)');
    for (let maxBytes = 60; maxBytes <= full.byteLength; maxBytes += 1) {
      const input = convertSearchResultsToInput({ results: unicode, maxBytes });
      assert.ok(utf8Bytes(input.text) <= maxBytes);
      assert.ok(input.text.isWellFormed(), `split character at ${maxBytes}`);
      assert.doesNotMatch(input.text, /\ufffd/);
    }
  });
});
