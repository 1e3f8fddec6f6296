import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainMisses } from './explain-misses.ts';
import type { ReportRow } from './report.ts';

const row = (figure: string, system: string, result: string): ReportRow => ({
  figure,
  system,
  value: '1',
  target: 't',
  result,
  failed: '0',
});

test('every missed target gets its reason, next step and sections; a met one gets none', () => {
  const text = explainMisses([
    row('Requests/s, c=64, zero-delay upstream', 'gateway (SQLite)', 'MISS'),
    row('Requests/s, c=64, zero-delay upstream', 'gateway (PostgreSQL + Redis)', 'MISS'),
    row('RSS peak during the c=64 throughput run', 'gateway (SQLite)', 'PASS'),
    row('RSS, 1000 streams x 64 chunks over 20 s', 'gateway (SQLite)', 'MISS'),
  ]);
  assert.match(
    text,
    /MISS Requests\/s, c=64, zero-delay upstream \(gateway \(SQLite\), gateway \(PostgreSQL \+ Redis\)\)/,
  );
  assert.match(text, /MISS RSS, 1000 streams x 64 chunks over 20 s \(gateway \(SQLite\)\)/);
  assert.doesNotMatch(text, /RSS peak during/);
  assert.equal(text.match(/^ {2}why: /gm)?.length, 2);
  assert.equal(text.match(/^ {2}next: /gm)?.length, 2);
  assert.equal(text.match(/^ {2}see: {2}docs\/benchmarks\.md/gm)?.length, 2);
});

test('every figure the report can miss has an explanation', () => {
  const figures = [
    'Requests/s, c=64, zero-delay upstream',
    'RSS peak during the c=64 throughput run',
    'Added latency p50 / p99, c=1, zero-delay upstream',
    'Streaming time to first token p50 / p99, c=1',
    'Streaming largest gap between chunks p99 (max), c=1, 20 ms cadence',
    'RSS, 1000 streams x 640 chunks over 20 s',
    'RSS growth, 64 -> 640 chunks per stream',
  ];
  for (const figure of figures) assert.match(explainMisses([row(figure, 'gateway (SQLite)', 'MISS')]), /why: /, figure);
  assert.equal(explainMisses([row(figures[0] ?? '', 'gateway (SQLite)', 'PASS')]), '');
});

test("a missed figure is shown beside the raw floor's own figure of the same run", () => {
  const text = explainMisses([
    { ...row('Added latency p50 / p99, c=1, zero-delay upstream', 'raw floor', ''), value: '+0.369 / +0.550 ms' },
    row('Added latency p50 / p99, c=1, zero-delay upstream', 'gateway (SQLite)', 'MISS'),
    { ...row('RSS peak during the c=64 throughput run', 'raw floor', ''), value: '' },
    row('RSS peak during the c=64 throughput run', 'gateway (SQLite)', 'MISS'),
  ]);
  assert.match(text, /MISS Added latency[^\n]*\n {2}raw floor in this run: \+0\.369 \/ \+0\.550 ms\n {2}why: /);
  assert.equal(text.match(/raw floor in this run/g)?.length, 1, 'no line where the floor has no figure');
});
