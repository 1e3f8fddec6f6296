import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatPercent, formatUsd } from '../../src/lib/format-usd.ts';
import { formatTokenCount, formatTokenCountInFull } from '../../src/lib/format-token-count.ts';

test('formats USD amounts exactly, with at least cents and no float artefacts', () => {
  assert.equal(formatUsd(0.15), '$0.15');
  assert.equal(formatUsd(1.25), '$1.25');
  assert.equal(formatUsd(0.042), '$0.042');
  assert.equal(formatUsd(2), '$2.00');
  assert.equal(formatUsd(0.1), '$0.10');
  assert.equal(formatUsd(0.0375), '$0.0375');
  assert.equal(formatUsd(0.000001), '$0.000001');
  assert.equal(formatUsd(0.1 + 0.2), '$0.30');
  assert.equal(formatUsd(0.07 * 3), '$0.21');
  assert.equal(formatUsd(0), '$0.00');
  assert.equal(formatUsd(1234567.5), '$1,234,567.50');
  assert.equal(formatUsd(-3.375), '-$3.375');
});

test('formats percentages with up to two decimals', () => {
  assert.equal(formatPercent(15), '15%');
  assert.equal(formatPercent(12.5), '12.5%');
  assert.equal(formatPercent(33.33), '33.33%');
  assert.equal(formatPercent(0), '0%');
  assert.equal(formatPercent(-2.05), '-2.05%');
});

test('shortens token counts to K and M', () => {
  assert.equal(formatTokenCount(400_000), '400K');
  assert.equal(formatTokenCount(128_000), '128K');
  assert.equal(formatTokenCount(1_048_576), '1.05M');
  assert.equal(formatTokenCount(1_000_000), '1M');
  assert.equal(formatTokenCount(32_768), '32.77K');
  assert.equal(formatTokenCount(512), '512');
  assert.equal(formatTokenCount(0), '');
  assert.equal(formatTokenCountInFull(1_048_576), '1,048,576');
});
