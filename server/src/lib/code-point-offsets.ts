/**
 * Offsets into text counted in Unicode code points: what OpenAI's "character" indices of a `url_citation` are, and
 * what Python (`str`), Go (`[]rune`) and `Array.from(text)` index by. JavaScript string indices count UTF-16 code
 * units instead (a character outside the Basic Multilingual Plane, such as most emoji, is two of them), and Gemini
 * counts UTF-8 bytes; these helpers convert both.
 */
export function countCodePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (!isLowSurrogateAfterHigh(text, index)) count += 1;
  }
  return count;
}

/** The code-point offset of the UTF-16 index `utf16Index` of `text`. */
export function codePointOffsetOfUtf16(text: string, utf16Index: number): number {
  return countCodePoints(text.slice(0, Math.max(0, Math.min(utf16Index, text.length))));
}

/**
 * The code-point offset of the UTF-8 byte offset `byteOffset` of `text`. An offset inside a multi-byte character
 * (never valid, but a vendor's count may be off) falls to that character's start; one past the end is the end.
 */
export function codePointOffsetOfUtf8(text: string, byteOffset: number): number {
  let bytes = 0;
  let codePoints = 0;
  for (const character of text) {
    const width = utf8Width(character.codePointAt(0) ?? 0);
    if (bytes + width > byteOffset) return codePoints;
    bytes += width;
    codePoints += 1;
  }
  return codePoints;
}

/** `text` between two code-point offsets, end exclusive: `Array.from(text).slice(start, end).join('')`. */
export function sliceCodePoints(text: string, start: number, end: number): string {
  return Array.from(text).slice(start, end).join('');
}

function isLowSurrogateAfterHigh(text: string, index: number): boolean {
  if (index === 0) return false;
  const code = text.charCodeAt(index);
  const previous = text.charCodeAt(index - 1);
  return code >= 0xdc00 && code <= 0xdfff && previous >= 0xd800 && previous <= 0xdbff;
}

function utf8Width(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}
