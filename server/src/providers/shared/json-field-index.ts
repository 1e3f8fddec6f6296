/** Where one top-level value sits in a JSON object's text: `text.slice(start, end)` is the value. */
type ValueSpan = { start: number; end: number };

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
    fields.set(key, { start, end });
    at = skipSpace(text, end);
    if (text[at] === ',') at = skipSpace(text, at + 1);
  }
  return text[at] === '}' ? { text, fields, closeAt: at } : undefined;
}

/**
 * The indexed text with the given top-level values replaced (each a JSON text); a field the text lacks is added at
 * the end. Everything else is copied as it was.
 */
export function spliceJsonFields(index: JsonFieldIndex, values: Readonly<Record<string, string>>): string {
  const replaced: { span: ValueSpan; value: string }[] = [];
  let added = '';
  for (const [key, value] of Object.entries(values)) {
    const span = index.fields.get(key);
    if (span === undefined)
      added += `${index.fields.size > 0 || added !== '' ? ',' : ''}${JSON.stringify(key)}:${value}`;
    else replaced.push({ span, value });
  }
  replaced.sort((left, right) => left.span.start - right.span.start);
  let out = '';
  let copiedTo = 0;
  for (const { span, value } of replaced) {
    out += index.text.slice(copiedTo, span.start) + value;
    copiedTo = span.end;
  }
  return out + index.text.slice(copiedTo, index.closeAt) + added + index.text.slice(index.closeAt);
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && (text[at] === ' ' || text[at] === '\n' || text[at] === '\r' || text[at] === '\t')) at++;
  return at;
}

/** The end of the value starting at `start`: strings and nested objects and arrays are skipped whole. */
function skipValue(text: string, start: number): number {
  let depth = 0;
  let at = start;
  while (at < text.length) {
    const char = text[at];
    if (char === '"') at = skipString(text, at);
    else {
      if (char === '{' || char === '[') depth++;
      else if (char === '}' || char === ']') {
        if (depth === 0) return at;
        depth--;
      } else if (depth === 0 && (char === ',' || char === ' ' || char === '\n' || char === '\r' || char === '\t')) {
        return at;
      }
      at++;
    }
    if (depth === 0 && (text[start] === '"' || text[start] === '{' || text[start] === '[') && at > start) return at;
  }
  return at;
}

/** The position just after the string that opens at `start`. */
function skipString(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length) {
    const char = text[at];
    if (char === '\\') at += 2;
    else if (char === '"') return at + 1;
    else at++;
  }
  return at;
}
