/** A piece of highlighted code: the CSS class says what it is; the text is shown as text, never as markup. */
export type CodeToken = { kind: 'keyword' | 'string' | 'comment' | 'number' | 'plain'; text: string };

const hashCommentLanguages = new Set([
  'python',
  'py',
  'bash',
  'sh',
  'shell',
  'zsh',
  'yaml',
  'yml',
  'ruby',
  'rb',
  'toml',
]);
const sqlLanguages = new Set(['sql', 'postgres', 'postgresql', 'sqlite']);

const keywords = new Set(
  (
    'abstract and as async await break case catch class const continue def default defer del do elif else enum ' +
    'except export extends false final finally fn for from func function go if impl import in interface is let ' +
    'match mod module mut new nil none not null or package pass private protected pub public raise return self ' +
    'static struct super switch then this throw true try type typeof use var void while with yield ' +
    'select insert update delete where join left right inner outer on group by order limit into values create ' +
    'table drop alter index primary key foreign references begin commit rollback echo fi done esac local export'
  ).split(' '),
);

/**
 * A lexical highlighter good enough for reading: comments, strings, numbers and common keywords of the usual
 * languages. It never changes the text: joining the tokens gives back the code exactly.
 */
export function highlightCode(code: string, language: string): CodeToken[] {
  const lineComment = hashCommentLanguages.has(language) ? '#' : sqlLanguages.has(language) ? '--' : '//';
  const hasBlockComments = !hashCommentLanguages.has(language);
  const tokens: CodeToken[] = [];
  const push = (kind: CodeToken['kind'], text: string) => {
    const last = tokens[tokens.length - 1];
    if (last && last.kind === kind && kind === 'plain') last.text += text;
    else tokens.push({ kind, text });
  };
  let index = 0;
  while (index < code.length) {
    const rest = code.slice(index);
    if (rest.startsWith(lineComment)) {
      const end = rest.indexOf('\n');
      const text = end < 0 ? rest : rest.slice(0, end);
      push('comment', text);
      index += text.length;
      continue;
    }
    if (hasBlockComments && rest.startsWith('/*')) {
      const end = rest.indexOf('*/', 2);
      const text = end < 0 ? rest : rest.slice(0, end + 2);
      push('comment', text);
      index += text.length;
      continue;
    }
    const quote = rest[0];
    if (quote === '"' || quote === "'" || quote === '`') {
      let end = 1;
      while (end < rest.length && rest[end] !== quote && !(quote !== '`' && rest[end] === '\n')) {
        end += rest[end] === '\\' ? 2 : 1;
      }
      const text = rest.slice(0, Math.min(end + 1, rest.length));
      push('string', text);
      index += text.length;
      continue;
    }
    const number = /^\d[\d_]*(\.\d+)?([eE][+-]?\d+)?/.exec(rest);
    if (number && !/[\w$]/.test(code[index - 1] ?? '')) {
      push('number', number[0]);
      index += number[0].length;
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(rest);
    if (word) {
      push(keywords.has(word[0].toLowerCase()) && word[0] === word[0].toLowerCase() ? 'keyword' : 'plain', word[0]);
      index += word[0].length;
      continue;
    }
    push('plain', rest[0] ?? '');
    index += 1;
  }
  return tokens;
}
