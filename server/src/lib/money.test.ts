import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyDiscountMicros, costOfTokensMicros, formatUsd, microsToUsd, parseUsdToMicros } from './money.ts';

test('a request cost is the exact sum of its parts rounded up once to a whole micro-dollar', () => {
  assert.equal(costOfTokensMicros([{ tokens: 1_000_000, ratePerMillionMicros: 2_500_000 }]), 2_500_000);
  assert.equal(costOfTokensMicros([{ tokens: 1, ratePerMillionMicros: 150_000 }]), 1);
  assert.equal(
    costOfTokensMicros([
      { tokens: 3, ratePerMillionMicros: 150_000 },
      { tokens: 3, ratePerMillionMicros: 150_000 },
    ]),
    1,
  );
  assert.equal(costOfTokensMicros([{ tokens: 7, ratePerMillionMicros: 150_000 }]), 2);
  assert.equal(costOfTokensMicros([]), 0);
});

test('large token counts stay exact', () => {
  assert.equal(costOfTokensMicros([{ tokens: 9_000_000_000, ratePerMillionMicros: 75_000_000 }]), 675_000_000_000);
});

test('a discount rounds up so the operator never loses a fraction', () => {
  assert.equal(applyDiscountMicros(2_500_000, 2_000), 2_000_000);
  assert.equal(applyDiscountMicros(3, 5_000), 2);
  assert.equal(applyDiscountMicros(0, 4_000), 0);
});

test('USD text parses to micros exactly and rejects anything else', () => {
  assert.equal(parseUsdToMicros('12.5'), 12_500_000);
  assert.equal(parseUsdToMicros('0.000001'), 1);
  assert.equal(parseUsdToMicros('-3'), -3_000_000);
  assert.equal(parseUsdToMicros('0.1234567'), undefined);
  assert.equal(parseUsdToMicros('abc'), undefined);
  assert.equal(parseUsdToMicros('1e3'), undefined);
  assert.equal(parseUsdToMicros(''), undefined);
});

test('micros format as six-decimal USD and convert to wire numbers', () => {
  assert.equal(formatUsd(1_234_567), '1.234567');
  assert.equal(formatUsd(-5), '-0.000005');
  assert.equal(microsToUsd(42_000), 0.042);
});
