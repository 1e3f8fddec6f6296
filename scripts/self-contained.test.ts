import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';

/**
 * The repository stands on its own (docs/STYLE.md §1): no comment, doc or message points at a document outside it,
 * and every relative path or Markdown link in it resolves to a file inside it.
 */
const repositoryRoot = path.resolve(import.meta.dirname, '..');
const thisFile = path.relative(repositoryRoot, import.meta.filename);
const skippedFolders = new Set(['node_modules', '.git', 'dist', 'data', 'test-artifacts', '.scratch', '.tmp']);
const textExtensions = new Set(['.ts', '.tsx', '.js', '.md', '.json', '.yaml', '.yml', '.sh', '.css', '.html', '.py']);
/** Vendor files kept byte for byte (decision 0574) and generated files are not ours to reword. */
const skippedFiles = new Set(['package-lock.json', 'conformance/openai-openapi.yaml']);

function listTextFiles(folder: string): string[] {
  return readdirSync(path.join(repositoryRoot, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    if (entry.isDirectory()) return skippedFolders.has(entry.name) ? [] : listTextFiles(relative);
    const isText = textExtensions.has(path.extname(entry.name)) && !relative.includes('__fixtures__');
    return isText && !skippedFiles.has(relative) && relative !== thisFile ? [relative] : [];
  });
}

const files = listTextFiles('.').map((file) => ({ file, text: readFileSync(path.join(repositoryRoot, file), 'utf8') }));

type Finding = { file: string; line: number; text: string };

function findAll(pattern: RegExp, keep: (match: RegExpExecArray, file: string) => boolean): Finding[] {
  const findings: Finding[] = [];
  for (const { file, text } of files) {
    for (const match of text.matchAll(pattern)) {
      if (!keep(match, file)) continue;
      findings.push({ file, line: text.slice(0, match.index).split('\n').length, text: match[0] });
    }
  }
  return findings;
}

const describeFindings = (findings: Finding[]) =>
  findings.map((finding) => `${finding.file}:${finding.line}: ${finding.text}`).join('\n');

/** Whether `target`, relative to the folder of `file`, stays inside the repository. */
function staysInside(file: string, target: string): boolean {
  const resolved = path.relative(repositoryRoot, path.resolve(repositoryRoot, path.dirname(file), target));
  return !resolved.startsWith('..') && !path.isAbsolute(resolved);
}

/** Whether `offset` of a Markdown file falls inside a fenced ```sh block. */
function isInShellExample(file: string, offset: number): boolean {
  if (!file.endsWith('.md')) return false;
  const before = files.find((entry) => entry.file === file)?.text.slice(0, offset) ?? '';
  const fences = [...before.matchAll(/^```(\w*)/gm)];
  return fences.length % 2 === 1 && fences.at(-1)?.[1] === 'sh';
}

describe('the repository is self-contained', () => {
  test('the files scanned include the code and the docs', () => {
    const scanned = new Set(files.map((entry) => entry.file));
    for (const expected of ['README.md', 'docs/STYLE.md', 'eslint.config.js', 'server/src/app.ts']) {
      assert.ok(scanned.has(expected), `${expected} is scanned`);
    }
  });

  test('nothing names the notes that live outside the repository', () => {
    const outsideNotes = new RegExp(
      [
        'shared/reference',
        'shared/specs',
        'DESIGN\\.md',
        '/work/',
        // The notes this repository's docs/reference/ replaced, by their names.
        'wire-formats',
        'openrouter-api\\.md',
        'payments-and-encrypted-chat',
      ].join('|'),
      'g',
    );
    assert.equal(describeFindings(findAll(outsideNotes, () => true)), '');
  });

  test('every mention of the style guide names the one in docs/', () => {
    const mentions = findAll(/(\S*)STYLE\.md/g, (match, file) => {
      const prefix = match[1] ?? '';
      if (/(^|[^\w.])docs\/$/.test(prefix)) return false;
      // Inside docs/ a bare `STYLE.md` (or a link to it) is a path relative to the page, which resolves.
      return !(path.dirname(file) === 'docs' && /(^|[(\[`'"])$/.test(prefix));
    });
    assert.equal(describeFindings(mentions), '');
  });

  test('no relative path leaves the repository', () => {
    // Shell examples in Markdown run from folders they `cd` into, so their paths are not relative to the page.
    const escaping = findAll(
      /(?<![\w/])(?:\.\.\/)+[\w.@-]+/g,
      (match, file) => !staysInside(file, match[0]) && !isInShellExample(file, match.index),
    );
    assert.equal(describeFindings(escaping), '');
  });

  test('every relative Markdown link resolves to a file in the repository', () => {
    const broken = findAll(/\]\(([^)\s]+)\)/g, (match, file) => {
      const target = (match[1] ?? '').split('#')[0] ?? '';
      if (!file.endsWith('.md') || target === '' || /^[a-z]+:/i.test(target)) return false;
      return !staysInside(file, target) || !existsSync(path.resolve(repositoryRoot, path.dirname(file), target));
    });
    assert.equal(describeFindings(broken), '');
  });
});
