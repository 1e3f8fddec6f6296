import { codePointOffsetOfUtf16, countCodePoints } from '../lib/code-point-offsets.ts';
import type { SearchInputSource } from '../search/search-results-to-input.ts';
import type { UrlCitationAnnotation } from './response-object.ts';

/** What one `push` lets out: text safe to send now, and the citations that text completed. */
export type CitationStep = { delta: string; annotations: UrlCitationAnnotation[] };

/** `[1]`, `[2, 3]`, `[1,2]`: up to three digits per number. */
const markerPattern = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;
/** The tail of the text that may still become a marker when more text arrives. */
const partialMarkerPattern = /\[[\d,\s]*$/;
const maxPartialMarkerLength = 24;
/** A sentence ends at one of these followed by whitespace, or at a line break. */
const sentenceEndPattern = /[.!?。！？]\s+|\n+/g;

/**
 * Turns the model's `[n]` source references into `url_citation` annotations while the answer streams. A marker whose
 * numbers are all among the sources the model was shown is removed from the text, together with the spaces before
 * it; the annotation covers the cited words before it: from the start of their sentence (or the end of the previous
 * citation) to where the marker stood. Markers that follow each other share one span. Any other bracket text (an
 * unknown number, `[a]`, `[1234]`) stays as written. Offsets count Unicode code points (OpenAI's "characters"), so
 * `text[start_index:end_index]` in Python and `Array.from(text).slice(start_index, end_index)` in JavaScript are the
 * cited text. Citations a vendor's own search made (`addCitation`) pass through with their offsets.
 *
 * Streaming: trailing spaces and a possible partial marker (`… [1`) are held back until the next text decides them, so
 * no character that a later marker removes is ever sent.
 */
export class CitationTracker {
  readonly #sources: ReadonlyMap<number, SearchInputSource>;
  #emitted = '';
  #pending = '';
  #lastCitationEnd = 0;
  #lastSpan: { start: number; end: number; urls: Set<string> } | undefined;
  /** Vendor citations waiting for the text they cite to be sent. */
  #waiting: UrlCitationAnnotation[] = [];

  constructor(sources: readonly SearchInputSource[]) {
    this.#sources = new Map(sources.map((source) => [source.number, source]));
  }

  push(delta: string): CitationStep {
    const buffer = this.#pending + delta;
    let holdFrom = buffer.length;
    const partial = partialMarkerPattern.exec(buffer);
    if (partial && buffer.length - partial.index <= maxPartialMarkerLength) holdFrom = partial.index;
    while (holdFrom > 0 && isHorizontalSpace(buffer[holdFrom - 1])) holdFrom -= 1;
    this.#pending = buffer.slice(holdFrom);
    return this.#process(buffer.slice(0, holdFrom));
  }

  /** Lets out whatever was held back: the answer has ended. */
  finish(): CitationStep {
    const rest = this.#pending;
    this.#pending = '';
    const step = this.#process(rest);
    const length = countCodePoints(this.#emitted);
    for (const citation of this.#waiting) {
      const endIndex = Math.min(citation.end_index, length);
      if (citation.start_index < endIndex) step.annotations.push({ ...citation, end_index: endIndex });
    }
    this.#waiting = [];
    return step;
  }

  /**
   * A citation the vendor's own search made, with code-point offsets into this text; it is let out with the first
   * step whose text reaches its end (at once when the text is already there).
   */
  addCitation(citation: UrlCitationAnnotation): CitationStep {
    this.#waiting.push(citation);
    return { delta: '', annotations: this.#releaseWaiting() };
  }

  #releaseWaiting(): UrlCitationAnnotation[] {
    if (this.#waiting.length === 0) return [];
    const length = countCodePoints(this.#emitted);
    const ready = this.#waiting.filter((citation) => citation.end_index <= length);
    this.#waiting = this.#waiting.filter((citation) => citation.end_index > length);
    return ready;
  }

  #process(text: string): CitationStep {
    const startLength = this.#emitted.length;
    const annotations: UrlCitationAnnotation[] = [];
    let position = 0;
    for (const match of text.matchAll(markerPattern)) {
      const sources = this.#readSources(match[1] ?? '');
      if (!sources) continue;
      this.#emitted += text.slice(position, match.index).replace(/[ \t]+$/, '');
      annotations.push(...this.#cite(sources));
      position = match.index + match[0].length;
    }
    this.#emitted += text.slice(position);
    annotations.push(...this.#releaseWaiting());
    return { delta: this.#emitted.slice(startLength), annotations };
  }

  #readSources(numbersText: string): SearchInputSource[] | undefined {
    const sources: SearchInputSource[] = [];
    for (const part of numbersText.split(',')) {
      const source = this.#sources.get(Number(part.trim()));
      if (!source) return undefined;
      sources.push(source);
    }
    return sources;
  }

  #cite(sources: readonly SearchInputSource[]): UrlCitationAnnotation[] {
    const end = this.#emitted.length;
    const start = findSpanStart(this.#emitted, { from: this.#lastCitationEnd, end });
    let span = this.#lastSpan;
    if (start !== undefined) {
      span = { start, end, urls: new Set() };
      this.#lastSpan = span;
      this.#lastCitationEnd = end;
    } else if (span === undefined || span.end !== trimEndIndex(this.#emitted, end)) {
      return [];
    }
    const added: UrlCitationAnnotation[] = [];
    const startIndex = codePointOffsetOfUtf16(this.#emitted, span.start);
    const endIndex = codePointOffsetOfUtf16(this.#emitted, span.end);
    for (const source of sources) {
      if (span.urls.has(source.url)) continue;
      span.urls.add(source.url);
      added.push({
        type: 'url_citation',
        url: source.url,
        title: source.title,
        start_index: startIndex,
        end_index: endIndex,
      });
    }
    return added;
  }
}

/**
 * Where the cited words before `end` begin: the start of the last sentence in `[from, end)` that has any words before
 * `end`, without its leading whitespace; undefined when there are none (the marker follows another marker).
 */
function findSpanStart(text: string, input: { from: number; end: number }): number | undefined {
  const segment = text.slice(input.from, input.end);
  const starts = [0, ...[...segment.matchAll(sentenceEndPattern)].map((match) => match.index + match[0].length)];
  for (const relativeStart of starts.reverse()) {
    const words = segment.slice(relativeStart);
    if (words.trim() === '') continue;
    return input.from + relativeStart + (words.length - words.trimStart().length);
  }
  return undefined;
}

function trimEndIndex(text: string, end: number): number {
  return text.slice(0, end).trimEnd().length;
}

function isHorizontalSpace(character: string | undefined): boolean {
  return character === ' ' || character === '\t';
}
