import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatUsdDecimal, formatUsdPerToken } from './format-usd-decimal.ts';

describe('formatUsdPerToken', () => {
  it('writes tiny per-token prices as plain decimals, never in exponent form', () => {
    assert.equal(formatUsdPerToken(800_000), '0.0000008', '$0.80 per 1M tokens');
    assert.equal(formatUsdPerToken(150_000), '0.00000015');
    assert.equal(formatUsdPerToken(1), '0.000000000001', 'one micro-dollar per 1M tokens');
    assert.equal(formatUsdPerToken(75_000_000), '0.000075');
    assert.equal(formatUsdPerToken(0), '0');
  });

  it('keeps every digit of the rate', () => {
    assert.equal(formatUsdPerToken(1_100_000), '0.0000011');
    assert.equal(formatUsdPerToken(123_456_789), '0.000123456789');
    assert.equal(formatUsdPerToken(60_000_000_000), '0.06', '$60,000 per 1M tokens');
  });
});

describe('formatUsdDecimal', () => {
  it('writes micros as USD without trailing zeros', () => {
    assert.equal(formatUsdDecimal(33_600), '0.0336');
    assert.equal(formatUsdDecimal(133_600), '0.1336');
    assert.equal(formatUsdDecimal(2_000_000), '2');
    assert.equal(formatUsdDecimal(1), '0.000001');
    assert.equal(formatUsdDecimal(-1_500_000), '-1.5');
  });
});
