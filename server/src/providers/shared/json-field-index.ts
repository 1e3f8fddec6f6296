/** Where one top-level field sits in a JSON object's text: `text.slice(start, end)` is the value. */
export type ValueSpan = { keyStart: number; start: number; end: number };

/**
 * The top-level fields of a JSON object's text, located without building the object, so an answer can be forwarded
 * as the vendor wrote it with a few values replaced (`spliceJsonFields`).
 */
export type JsonFieldIndex = {
  text: string;
  fields: ReadonlyMap<string, ValueSpan>;
  /** The position of the object's closing brace, where missing fields are added. */
  closeAt: number;
};

/**
 * Indexes the top-level fields of `text`, which must already have parsed as JSON (the scan trusts its syntax).
 * Undefined when it is not an object, or when a key is written with escapes or appears twice: such text is not
 * forwarded as sent, since what a client's parser would make of it is not plain.
 */
export function indexJsonFields(text: string): JsonFieldIndex | undefined {
  const fields = new Map<string, ValueSpan>();
  let at = skipSpace(text, 0);
  if (text[at] !== '{') return undefined;
  at = skipSpace(text, at + 1);
  while (text[at] === '"') {
    const keyEnd = text.indexOf('"', at + 1);
    const key = text.slice(at + 1, keyEnd);
    if (key.includes('\\') || fields.has(key)) return undefined;
    const start = skipSpace(text, text.indexOf(':', keyEnd) + 1);
    const end = skipValue(text, start);
    fields.set(key, { keyStart: at, start, end });
    at = skipSpace(text, end);
    if (text[at] === ',') at = skipSpace(text, at + 1);
  }
  return text[at] === '}' ? { text, fields, closeAt: at } : undefined;
}

/**
 * The indexed text with the given top-level values replaced (each a JSON text); a field the text lacks is added at
 * the end, and a field given as undefined is removed with its comma. Everything else is copied as it was.
 */
export function spliceJsonFields(index: JsonFieldIndex, values: Readonly<Record<string, string | undefined>>): string {
  const replaced: { from: number; to: number; value: string }[] = [];
  let added = '';
  for (const [key, value] of Object.entries(values)) {
    const span = index.fields.get(key);
    if (span === undefined) {
      if (value !== undefined)
        added += `${index.fields.size > 0 || added !== '' ? ',' : ''}${JSON.stringify(key)}:${value}`;
    } else if (value === undefined) replaced.push({ ...removalOf(index, span), value: '' });
    else replaced.push({ from: span.start, to: span.end, value });
  }
  replaced.sort((left, right) => left.from - right.from);
  let out = '';
  let copiedTo = 0;
  for (const { from, to, value } of replaced) {
    out += index.text.slice(copiedTo, from) + value;
    copiedTo = to;
  }
  return out + index.text.slice(copiedTo, index.closeAt) + added + index.text.slice(index.closeAt);
}

/** The text a field takes with its comma: the one before it, or the one after it when it is the first field. */
function removalOf(index: JsonFieldIndex, span: ValueSpan): { from: number; to: number } {
  const { text } = index;
  let before = span.keyStart - 1;
  while (before >= 0 && isSpace(text.charCodeAt(before))) before--;
  if (text.charCodeAt(before) === comma) return { from: before, to: span.end };
  const after = skipSpace(text, span.end);
  return { from: span.keyStart, to: text.charCodeAt(after) === comma ? skipSpace(text, after + 1) : span.end };
}

const quote = 0x22;
const backslash = 0x5c;
const comma = 0x2c;
const openers = new Set([0x7b, 0x5b]);
const closers = new Set([0x7d, 0x5d]);

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && isSpace(text.charCodeAt(at))) at++;
  return at;
}

/** The end of the value starting at `start`: strings and nested objects and arrays are skipped whole. */
function skipValue(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === quote) return skipString(text, start);
  if (!openers.has(first)) {
    let at = start;
    while (at < text.length) {
      const code = text.charCodeAt(at);
      if (code === comma || closers.has(code) || isSpace(code)) return at;
      at++;
    }
    return at;
  }
  let depth = 0;
  let at = start;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === quote) {
      at = skipString(text, at);
      continue;
    }
    if (openers.has(code)) depth++;
    else if (closers.has(code) && --depth === 0) return at + 1;
    at++;
  }
  return at;
}

/** The position just after the string that opens at `start`; answer text is skipped from quote to quote. */
function skipString(text: string, start: number): number {
  let at = start + 1;
  for (;;) {
    const close = text.indexOf('"', at);
    if (close === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === backslash) backslashes++;
    if (backslashes % 2 === 0) return close + 1;
    at = close + 1;
  }
}
