import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCsv, protectCsvText } from './csv.ts';

test('plain cells are written as they are, records end in CRLF, null is an empty cell', () => {
  assert.equal(
    formatCsv([
      ['a', 1, null],
      ['b', 0.5, 'x'],
    ]),
    'a,1,\r\nb,0.5,x\r\n',
  );
});

test('commas, quotes and line breaks are quoted with inner quotes doubled (RFC 4180)', () => {
  assert.equal(
    formatCsv([['a,b', 'say "hi"', 'two\nlines', 'cr\rhere']]),
    '"a,b","say ""hi""","two\nlines","cr\rhere"\r\n',
  );
});

test('text that a spreadsheet would run as a formula gets a leading quote', () => {
  assert.equal(protectCsvText('=SUM(A1)'), "'=SUM(A1)");
  assert.equal(protectCsvText('@cmd'), "'@cmd");
  assert.equal(protectCsvText('+1'), "'+1");
  assert.equal(protectCsvText('my key'), 'my key');
  assert.equal(protectCsvText(null), null);
});
