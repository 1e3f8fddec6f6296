import assert from 'node:assert/strict';
import { test } from 'node:test';
import { highlightCode } from '../../src/features/chat/markdown/highlight-code.ts';
import { isSafeHref, parseInline, parseMarkdown } from '../../src/features/chat/markdown/parse-markdown.ts';

test('parses the blocks a chat answer uses', () => {
  const blocks = parseMarkdown(
    [
      '# Title',
      '',
      'Some **bold** and *italic* and `code`.',
      '',
      '- one',
      '- two',
      '  - nested',
      '',
      '1. first',
      '2. second',
      '',
      '```ts',
      'const a = 1;',
      '```',
      '',
      '> quoted',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '---',
    ].join('\n'),
  );
  assert.deepEqual(
    blocks.map((block) => block.kind),
    ['heading', 'paragraph', 'list', 'list', 'code', 'quote', 'table', 'rule'],
  );
  const list = blocks[2];
  assert.ok(list?.kind === 'list' && !list.isOrdered && list.items.length === 2);
  assert.equal(list.items[1]?.[1]?.kind, 'list', 'the nested list sits inside its item');
  assert.deepEqual(blocks[4], { kind: 'code', language: 'ts', text: 'const a = 1;' });
  const table = blocks[6];
  assert.ok(table?.kind === 'table');
  assert.equal(table.rows.length, 1);
});

test('HTML is text, and only http(s) and mailto links become links', () => {
  const inlines = parseInline('<img src=x onerror=alert(1)> [click](javascript:alert(1)) [ok](https://example.com/a)');
  const links = inlines.filter((inline) => inline.kind === 'link');
  assert.deepEqual(links, [{ kind: 'link', href: 'https://example.com/a', children: [{ kind: 'text', text: 'ok' }] }]);
  const text = inlines.map((inline) => (inline.kind === 'text' ? inline.text : '')).join('');
  assert.equal(text, '<img src=x onerror=alert(1)> [click](javascript:alert(1)) ', 'kept as visible text');
  assert.equal(isSafeHref('JAVASCRIPT:alert(1)'), false);
  assert.equal(isSafeHref('data:text/html,x'), false);
  assert.equal(isSafeHref('mailto:a@example.com'), true);
  const bare = parseInline('see https://example.org/page.');
  assert.deepEqual(bare[1], {
    kind: 'link',
    href: 'https://example.org/page',
    children: [{ kind: 'text', text: 'https://example.org/page' }],
  });
});

test('highlighting never changes the code and marks comments, strings, numbers and keywords', () => {
  const code = 'const x = "a \\" b"; // note\nreturn 42;';
  const tokens = highlightCode(code, 'ts');
  assert.equal(tokens.map((token) => token.text).join(''), code);
  assert.deepEqual(
    tokens.filter((token) => token.kind !== 'plain').map((token) => [token.kind, token.text]),
    [
      ['keyword', 'const'],
      ['string', '"a \\" b"'],
      ['comment', '// note'],
      ['keyword', 'return'],
      ['number', '42'],
    ],
  );
  const python = highlightCode('# comment\nx = 1', 'python');
  assert.deepEqual(python[0], { kind: 'comment', text: '# comment' });
});
