/**
 * A small Markdown parser for chat answers: fenced code, headings, quotes, lists, tables, rules, paragraphs, and
 * inline code, bold, italic and links. It yields a tree of plain values that `MarkdownView` renders as React
 * elements; no HTML in the text is ever interpreted, so a model (or a web page it quotes) cannot inject markup.
 */

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong'; children: Inline[] }
  | { kind: 'emphasis'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block =
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { kind: 'code'; language: string; text: string }
  | { kind: 'quote'; children: Block[] }
  | { kind: 'list'; isOrdered: boolean; start: number; items: Block[][] }
  | { kind: 'table'; header: Inline[][]; rows: Inline[][][] }
  | { kind: 'rule' };

const fence = /^ {0,3}(`{3,}|~{3,})\s*([\w+#.-]*)/;
const heading = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const listItem = /^( {0,3})([-*+]|\d{1,9}[.)])\s+(.*)$/;
const rule = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const tableSeparator = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

export function parseMarkdown(source: string): Block[] {
  return parseBlocks(source.replaceAll('\r\n', '\n').split('\n'));
}

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    if (line.trim() === '') {
      index += 1;
      continue;
    }
    const fenceMatch = fence.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1] ?? '```';
      const body: string[] = [];
      index += 1;
      while (index < lines.length && !(lines[index] ?? '').trimStart().startsWith(marker)) {
        body.push(lines[index] ?? '');
        index += 1;
      }
      index += 1;
      blocks.push({ kind: 'code', language: (fenceMatch[2] ?? '').toLowerCase(), text: body.join('\n') });
      continue;
    }
    const headingMatch = heading.exec(line);
    if (headingMatch) {
      const level = (headingMatch[1] ?? '#').length as 1 | 2 | 3 | 4 | 5 | 6;
      blocks.push({ kind: 'heading', level, children: parseInline(headingMatch[2] ?? '') });
      index += 1;
      continue;
    }
    if (rule.test(line)) {
      blocks.push({ kind: 'rule' });
      index += 1;
      continue;
    }
    if (/^ {0,3}>/.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && /^ {0,3}>/.test(lines[index] ?? '')) {
        quoted.push((lines[index] ?? '').replace(/^ {0,3}> ?/, ''));
        index += 1;
      }
      blocks.push({ kind: 'quote', children: parseBlocks(quoted) });
      continue;
    }
    if (listItem.test(line)) {
      index = parseList(lines, index, blocks);
      continue;
    }
    if (line.includes('|') && tableSeparator.test(lines[index + 1] ?? '')) {
      const header = splitRow(line);
      const rows: Inline[][][] = [];
      index += 2;
      while (index < lines.length && (lines[index] ?? '').includes('|') && (lines[index] ?? '').trim() !== '') {
        rows.push(splitRow(lines[index] ?? ''));
        index += 1;
      }
      blocks.push({ kind: 'table', header, rows });
      continue;
    }
    const paragraph: string[] = [];
    while (index < lines.length && isParagraphLine(lines[index] ?? '')) {
      paragraph.push((lines[index] ?? '').trim());
      index += 1;
    }
    blocks.push({ kind: 'paragraph', children: parseInline(paragraph.join('\n')) });
  }
  return blocks;
}

function isParagraphLine(line: string): boolean {
  return (
    line.trim() !== '' &&
    !fence.test(line) &&
    !heading.test(line) &&
    !rule.test(line) &&
    !/^ {0,3}>/.test(line) &&
    !listItem.test(line)
  );
}

/** Reads a list starting at `start`; nested items (indented further) become blocks inside their item. */
function parseList(lines: string[], start: number, blocks: Block[]): number {
  const first = listItem.exec(lines[start] ?? '');
  const indent = (first?.[1] ?? '').length;
  const isOrdered = /\d/.test(first?.[2] ?? '');
  const items: string[][] = [];
  let index = start;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    const match = listItem.exec(line);
    const current = items[items.length - 1];
    if (match && (match[1] ?? '').length === indent) {
      if (/\d/.test(match[2] ?? '') !== isOrdered) break;
      items.push([match[3] ?? '']);
    } else if (current && /^\s+\S/.test(line)) {
      current.push(line.replace(/^\s{1,4}/, ''));
    } else if (current && line.trim() === '' && /^\s+\S/.test(lines[index + 1] ?? '')) {
      current.push('');
    } else if (current && isParagraphLine(line) && (lines[index - 1] ?? '').trim() !== '') {
      current.push(line);
    } else {
      break;
    }
    index += 1;
  }
  blocks.push({
    kind: 'list',
    isOrdered,
    start: isOrdered ? Number.parseInt(first?.[2] ?? '1', 10) : 1,
    items: items.map((itemLines) => parseBlocks(itemLines)),
  });
  return index;
}

function splitRow(line: string): Inline[][] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => parseInline(cell.trim()));
}

/** Only web and mail links are followed; anything else (`javascript:`, `data:`) stays plain text. */
export function isSafeHref(href: string): boolean {
  return /^(https?:\/\/|mailto:)/i.test(href.trim());
}

export function parseInline(text: string): Inline[] {
  const result: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) result.push({ kind: 'text', text: plain });
    plain = '';
  };
  let index = 0;
  while (index < text.length) {
    const rest = text.slice(index);
    const code = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest);
    if (code) {
      flush();
      result.push({ kind: 'code', text: (code[2] ?? '').trim() });
      index += code[0].length;
      continue;
    }
    const link = /^\[([^\]]+)\]\(\s*(<[^>]*>|[^()\s]+(?:\([^()\s]*\))?)\s*\)/.exec(rest);
    if (link) {
      const href = (link[2] ?? '').replace(/^<|>$/g, '');
      flush();
      if (isSafeHref(href)) result.push({ kind: 'link', href, children: parseInline(link[1] ?? '') });
      else result.push({ kind: 'text', text: link[0] });
      index += link[0].length;
      continue;
    }
    const bareUrl = /^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/.exec(rest);
    if (bareUrl && (index === 0 || /[\s(]/.test(text[index - 1] ?? ''))) {
      flush();
      result.push({ kind: 'link', href: bareUrl[0], children: [{ kind: 'text', text: bareUrl[0] }] });
      index += bareUrl[0].length;
      continue;
    }
    const strong = /^(\*\*|__)(?=\S)([\s\S]*?\S)\1/.exec(rest);
    if (strong) {
      flush();
      result.push({ kind: 'strong', children: parseInline(strong[2] ?? '') });
      index += strong[0].length;
      continue;
    }
    const emphasis = /^(\*|_)(?=\S)([\s\S]*?\S)\1(?![\w*])/.exec(rest);
    if (emphasis && !(emphasis[1] === '_' && /\w/.test(text[index - 1] ?? ''))) {
      flush();
      result.push({ kind: 'emphasis', children: parseInline(emphasis[2] ?? '') });
      index += emphasis[0].length;
      continue;
    }
    plain += text[index];
    index += 1;
  }
  flush();
  return result;
}
