const namedEntities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
};

/** Tags inside a run of text vanish; any other tag (`<br>`, `<p>`, `<li>`) separates words. */
const inlineTagPattern = /<\/?(?:a|abbr|b|code|em|i|mark|small|span|strong|sub|sup|u)(?:\s[^<>]*)?>/gi;

/**
 * Engine text → plain text of at most `maxChars` characters: markup removed (Brave wraps query words in `<strong>`
 * unless `text_decorations` is off, some SearXNG engines keep tags), entities decoded, control characters and runs of
 * whitespace collapsed to one space, and long text cut at a word boundary with an ellipsis.
 */
export function cleanSearchText(text: string, maxChars: number): string {
  const withoutMarkup = text.replace(inlineTagPattern, '').replace(/<\/?[a-zA-Z][^<>]*>/g, ' ');
  const plain = decodeEntities(withoutMarkup)
    .replace(/[\u0000-\u001f\u007f\u200b]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return truncateText(plain, maxChars);
}

/** Cuts `text` to at most `maxChars` UTF-16 units, never inside a surrogate pair, preferring a word boundary. */
export function truncateText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let cut = text.slice(0, Math.max(0, maxChars - 1));
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  const lastSpace = cut.lastIndexOf(' ');
  if (lastSpace >= cut.length * 0.8) cut = cut.slice(0, lastSpace);
  return `${cut.trimEnd()}…`;
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, body: string) => {
    if (body.startsWith('#')) {
      const isHex = body[1] === 'x' || body[1] === 'X';
      const codePoint = Number.parseInt(body.slice(isHex ? 2 : 1), isHex ? 16 : 10);
      return codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : ' ';
    }
    return namedEntities[body.toLowerCase()] ?? entity;
  });
}
