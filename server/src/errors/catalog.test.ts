import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { listErrorSamples } from './catalog.ts';

const documentedRows = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => /^\| [A-Z]\w+Error\s+\|/.test(line))
  .map((line) => line.split('|').map((cell) => cell.trim()));

test('docs/errors.md lists exactly the error classes of the catalogue', () => {
  const documented = documentedRows.map((cells) => cells[1]).sort();
  const coded = listErrorSamples()
    .map((error) => error.name)
    .sort();
  assert.deepEqual(documented, coded);
});

test('each documented status, type and default code matches the class', () => {
  for (const error of listErrorSamples()) {
    const row = documentedRows.find((cells) => cells[1] === error.name);
    assert.ok(row, `${error.name} is documented`);
    assert.equal(Number(row[2]), error.status, `${error.name} status`);
    assert.equal(row[3], error.type, `${error.name} type`);
    assert.equal(row[4], error.code ?? 'null', `${error.name} code`);
  }
});

test('a rate-limit error always carries a whole-second Retry-After of at least 1', () => {
  const samples = listErrorSamples();
  const rateLimit = samples.find((error) => error.status === 429);
  assert.equal(rateLimit?.headers['retry-after'], '1');
});
