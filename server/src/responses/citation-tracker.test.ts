import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countCodePoints, sliceCodePoints } from '../lib/code-point-offsets.ts';
import type { SearchInputSource } from '../search/search-results-to-input.ts';
import { CitationTracker } from './citation-tracker.ts';

const sources: SearchInputSource[] = [
  { number: 1, url: 'https://en.wikipedia.org/wiki/Tide', title: 'Tide - Wikipedia' },
  { number: 2, url: 'https://www.nature.com/articles/tides', title: 'Tidal energy | Nature' },
  { number: 3, url: 'https://www.bbc.com/news/tides', title: 'Tides explained - BBC' },
];

/** Everything the tracker let out for the text given in one piece: the text sent and the citations announced. */
function runWhole(text: string) {
  const tracker = new CitationTracker(sources);
  const first = tracker.push(text);
  const last = tracker.finish();
  return { text: first.delta + last.delta, annotations: [...first.annotations, ...last.annotations] };
}

function runInPieces(text: string, pieceLength: number) {
  const tracker = new CitationTracker(sources);
  let sent = '';
  const announced = [];
  for (let index = 0; index < text.length; index += pieceLength) {
    const step = tracker.push(text.slice(index, index + pieceLength));
    sent += step.delta;
    for (const annotation of step.annotations) {
      assert.ok(annotation.end_index <= countCodePoints(sent), 'an annotation is announced after the text it cites');
      announced.push(annotation);
    }
  }
  const last = tracker.finish();
  sent += last.delta;
  announced.push(...last.annotations);
  return { text: sent, annotations: announced };
}

describe('CitationTracker', () => {
  it('removes markers and cites the words of their sentence before them', () => {
    const result = runWhole('Tides follow the moon [1]. They also carry energy [2].');
    assert.equal(result.text, 'Tides follow the moon. They also carry energy.');
    assert.deepEqual(
      result.annotations.map((annotation) => result.text.slice(annotation.start_index, annotation.end_index)),
      ['Tides follow the moon', 'They also carry energy'],
    );
    assert.deepEqual(
      result.annotations.map((annotation) => annotation.url),
      [sources[0]?.url, sources[1]?.url],
    );
    assert.equal(result.annotations[0]?.title, 'Tide - Wikipedia');
  });

  it('gives adjacent and grouped markers the same span, once per source', () => {
    const result = runWhole('Tides are tidal [1][2] and daily [3, 1] [1].');
    assert.equal(result.text, 'Tides are tidal and daily.');
    const spans = result.annotations.map((annotation) => [
      result.text.slice(annotation.start_index, annotation.end_index),
      annotation.url,
    ]);
    assert.deepEqual(spans, [
      ['Tides are tidal', sources[0]?.url],
      ['Tides are tidal', sources[1]?.url],
      ['and daily', sources[2]?.url],
      ['and daily', sources[0]?.url],
    ]);
  });

  it('keeps bracket text that is not a known source number', () => {
    const result = runWhole('Use a[0] or [7] or [1234] here [2].');
    assert.equal(result.text, 'Use a[0] or [7] or [1234] here.');
    assert.equal(result.annotations.length, 1);
    assert.equal(result.annotations[0]?.start_index, 0);
  });

  it('cites the sentence before a marker placed after the full stop', () => {
    const result = runWhole('First point. Second point. [2] Third.');
    assert.equal(result.text, 'First point. Second point. Third.');
    const [annotation] = result.annotations;
    assert.equal(result.text.slice(annotation?.start_index, annotation?.end_index), 'Second point.');
  });

  it('counts offsets in code points, so emoji, astral letters and accents before a citation slice correctly', () => {
    const text = 'Приливы 🌊 зависят от Луны [1]. Café naïve 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ok [3]. 🌊🌊 𠀋 end [2].';
    const result = runWhole(text);
    assert.equal(result.text, 'Приливы 🌊 зависят от Луны. Café naïve 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ok. 🌊🌊 𠀋 end.');
    const cited = result.annotations.map((annotation) =>
      sliceCodePoints(result.text, annotation.start_index, annotation.end_index),
    );
    assert.deepEqual(cited, ['Приливы 🌊 зависят от Луны', 'Café naïve 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ok', '🌊🌊 𠀋 end']);
    // 8 characters outside the Basic Multilingual Plane come before the last span: UTF-16 indices would be 8 more.
    assert.equal(result.annotations[2]?.start_index, 50);
    assert.equal(result.text.indexOf('🌊🌊'), 58);
    assert.equal(result.annotations[2]?.end_index, countCodePoints(result.text) - 1);
  });

  it('passes a vendor citation through once the text it cites has been sent', () => {
    const tracker = new CitationTracker([]);
    const citation = {
      type: 'url_citation' as const,
      url: 'https://a.example/',
      title: 'A',
      start_index: 2,
      end_index: 6,
    };
    const opening = tracker.push('🌊 ab');
    assert.deepEqual(opening.annotations, []);
    assert.deepEqual(tracker.addCitation(citation).annotations, []);
    const step = tracker.push('cd [1] more');
    assert.equal(step.delta, 'cd [1] more');
    assert.deepEqual(step.annotations, [citation]);
    let sent = opening.delta + step.delta;
    assert.equal(sliceCodePoints(sent, 2, 6), 'abcd');
    const late = { ...citation, start_index: 7, end_index: 99 };
    assert.deepEqual(tracker.addCitation(late).annotations, []);
    const last = tracker.finish();
    sent += last.delta;
    assert.deepEqual(last.annotations, [{ ...late, end_index: countCodePoints(sent) }]);
  });

  it('streams the same text and citations whatever the chunking, never sending a removed character', () => {
    const text = 'Tides follow the moon [1]. Energy [2,3] flows.\nNew line [3] 🌊 end [9] [2]';
    const whole = runWhole(text);
    for (const pieceLength of [1, 2, 3, 5, 8]) {
      const pieces = runInPieces(text, pieceLength);
      assert.equal(pieces.text, whole.text, `piece length ${pieceLength}`);
      assert.deepEqual(pieces.annotations, [...whole.annotations], `piece length ${pieceLength}`);
    }
    assert.equal(whole.text, 'Tides follow the moon. Energy flows.\nNew line 🌊 end [9]');
  });

  it('lets out a held partial marker that never closes', () => {
    const tracker = new CitationTracker(sources);
    assert.equal(tracker.push('Ends with [1').delta, 'Ends with');
    assert.deepEqual(tracker.finish(), { delta: ' [1', annotations: [] });
  });
});
