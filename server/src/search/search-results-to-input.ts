import type { SearchResult } from './search-engine.ts';

/** A result the model was shown, under the number it may cite it by (`[firstNumber]` is `sources[0]`). */
export type SearchInputSource = { number: number; url: string; title: string };

/** The results as model input text, and the numbering that maps the model's `[n]` citations back to URLs. */
export type SearchResultsInput = {
  /** Entries `[n] Title — URL`, each followed by its content or snippet on the next line, separated by blank lines. */
  text: string;
  /** Exactly the results that made it into `text`, in order; only these URLs may become `url_citation`s. */
  sources: SearchInputSource[];
  /** The UTF-8 size of `text`, never above the budget. */
  byteLength: number;
};

const encoder = new TextEncoder();
const ellipsis = '…';
const separator = '\n\n';

/**
 * Formats search results for the model within `maxBytes` of UTF-8: results in the engine's order, each with its
 * longer `content` when there is one, else its snippet. When the budget runs out, the current entry's text is cut
 * (at a character boundary, with an ellipsis) and later results are left out, so numbers stay contiguous and every
 * number in `sources` is one the model actually saw.
 */
export function convertSearchResultsToInput(input: {
  results: readonly SearchResult[];
  maxBytes: number;
  /** The number of the first result (default 1), so the sources of later searches in one answer continue the count. */
  firstNumber?: number;
}): SearchResultsInput {
  const firstNumber = input.firstNumber ?? 1;
  const entries: string[] = [];
  const sources: SearchInputSource[] = [];
  let usedBytes = 0;
  for (const result of input.results) {
    const number = firstNumber + sources.length;
    const title = toOneLine(result.title) || result.url;
    const header = `[${number}] ${title} — ${toOneLine(result.url)}`;
    const prefixBytes = entries.length === 0 ? 0 : byteLength(separator);
    const headerBytes = prefixBytes + byteLength(header);
    if (usedBytes + headerBytes > input.maxBytes) break;
    const body = (result.content ?? result.snippet).trim();
    const room = input.maxBytes - usedBytes - headerBytes - byteLength('\n');
    const fittedBody = body === '' || room <= 0 ? '' : fitToBytes(body, room);
    const entry = fittedBody === '' ? header : `${header}\n${fittedBody}`;
    entries.push(entry);
    sources.push({ number, url: result.url, title });
    usedBytes += prefixBytes + byteLength(entry);
    if (fittedBody !== body) break;
  }
  const text = entries.join(separator);
  return { text, sources, byteLength: byteLength(text) };
}

function fitToBytes(text: string, maxBytes: number): string {
  if (byteLength(text) <= maxBytes) return text;
  const room = maxBytes - byteLength(ellipsis);
  if (room <= 0) return '';
  const buffer = new Uint8Array(room);
  // encodeInto never splits a code point: `read` stops before a character that would not fit whole.
  const { read } = encoder.encodeInto(text, buffer);
  const cut = text.slice(0, read).trimEnd();
  return cut === '' ? '' : `${cut}${ellipsis}`;
}

function toOneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}
