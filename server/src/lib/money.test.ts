import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  applyDiscountMicros,
  costOfTokensMicros,
  formatUsd,
  maxTokensWithinMicros,
  microsToUsd,
  parseUsdToMicros,
} from './money.ts';

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

test('a discounted cost is rounded once, after the discount, not per rate and again per call', () => {
  // 3,000,000 tokens at 3 micros per 1M less 50% is exactly 4.5 micros: one rounding gives 5. Discounting the rate
  // first (1.5 → 2 micros per 1M) and then pricing the tokens would give 6.
  assert.equal(costOfTokensMicros([{ tokens: 3_000_000, ratePerMillionMicros: 3 }], { discountBasisPoints: 5_000 }), 5);
  assert.equal(
    costOfTokensMicros([{ tokens: 3_000_000, ratePerMillionMicros: applyDiscountMicros(3, 5_000) }]),
    6,
    'the old double rounding',
  );
  // Parts add up before the single rounding: 0.4 + 0.4 + 0.4 micros is 2, not 3.
  assert.equal(
    costOfTokensMicros(
      [
        { tokens: 1, ratePerMillionMicros: 500_000 },
        { tokens: 1, ratePerMillionMicros: 500_000 },
        { tokens: 1, ratePerMillionMicros: 500_000 },
      ],
      { discountBasisPoints: 2_000 },
    ),
    2,
  );
  assert.equal(costOfTokensMicros([{ tokens: 1, ratePerMillionMicros: 1 }], { discountBasisPoints: 9_999 }), 1);
  assert.equal(
    costOfTokensMicros([{ tokens: 1_000_000, ratePerMillionMicros: 2_500_000 }], { discountBasisPoints: 0 }),
    2_500_000,
  );
  assert.equal(
    costOfTokensMicros([{ tokens: 5, ratePerMillionMicros: 2_500_000 }], { discountBasisPoints: 10_000 }),
    0,
  );
  assert.equal(costOfTokensMicros([{ tokens: 0, ratePerMillionMicros: 2_500_000 }], { discountBasisPoints: 4_000 }), 0);
  assert.equal(
    costOfTokensMicros([{ tokens: 9_000_000_000, ratePerMillionMicros: 75_000_000 }], { discountBasisPoints: 3_333 }),
    450_022_500_000,
  );
  assert.throws(() => costOfTokensMicros([], { discountBasisPoints: -1 }), RangeError);
  assert.throws(() => costOfTokensMicros([], { discountBasisPoints: 10_001 }), RangeError);
  assert.throws(() => costOfTokensMicros([], { discountBasisPoints: 12.5 }), RangeError);
});

test('prompt-cache writes are billed at a share of the input rate, inside the same single rounding', () => {
  const writes = (tokens: number) => ({ tokens, ratePerMillionMicros: 3_000_000, rateShareBasisPoints: 12_500 });
  assert.equal(costOfTokensMicros([writes(1_000_000)]), 3_750_000);
  assert.equal(costOfTokensMicros([writes(1)]), 4, '3.75 micros round up once');
  assert.equal(costOfTokensMicros([writes(2), { tokens: 2, ratePerMillionMicros: 3_000_000 }]), 14, '7.5 + 6');
  assert.equal(costOfTokensMicros([writes(1_000_000)], { discountBasisPoints: 2_000 }), 3_000_000);
  assert.equal(costOfTokensMicros([{ tokens: 7, ratePerMillionMicros: 150_000, rateShareBasisPoints: 10_000 }]), 2);
  assert.throws(() => costOfTokensMicros([{ ...writes(1), rateShareBasisPoints: 1.5 }]), RangeError);
  const tokens = maxTokensWithinMicros({
    budgetMicros: 100,
    fixedCharges: [writes(10)],
    ratePerMillionMicros: 15_000_000,
  });
  assert.equal(tokens, Math.floor((100 * 1e6 - 37_500_000) / 15_000_000));
});

test('the most tokens a budget affords is the exact inverse of the cost rule', () => {
  const rates = [1, 3, 150_000, 2_500_000, 10_000_001];
  const discounts = [0, 1, 2_000, 3_333, 5_000, 9_999];
  for (const rate of rates) {
    for (const discount of discounts) {
      for (const budget of [0, 1, 7, 1_000, 123_457]) {
        for (const fixedTokens of [0, 1, 999]) {
          const fixedCharges = [{ tokens: fixedTokens, ratePerMillionMicros: 2_000_000 }];
          const tokens = maxTokensWithinMicros({
            budgetMicros: budget,
            fixedCharges,
            ratePerMillionMicros: rate,
            discountBasisPoints: discount,
          });
          const cost = (count: number) =>
            costOfTokensMicros([...fixedCharges, { tokens: count, ratePerMillionMicros: rate }], {
              discountBasisPoints: discount,
            });
          const label = `rate ${rate}, discount ${discount}, budget ${budget}, fixed ${fixedTokens}`;
          if (cost(0) > budget) {
            assert.equal(tokens, 0, label);
            continue;
          }
          assert.ok(cost(tokens) <= budget, label);
          assert.ok(cost(tokens + 1) > budget, label);
        }
      }
    }
  }
  assert.equal(
    maxTokensWithinMicros({ budgetMicros: 5, fixedCharges: [], ratePerMillionMicros: 0 }),
    Number.MAX_SAFE_INTEGER,
    'a free output is never the limit',
  );
});

test('a discounted price rounds up so the operator never loses a fraction', () => {
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

test('the plain-number path of the cost gives exactly the BigInt rule, at the edges of safe integers too', () => {
  const reference = (charges: { tokens: number; rate: number; share: number }[], discount: number) => {
    let sum = 0n;
    for (const charge of charges) sum += BigInt(charge.tokens) * BigInt(charge.rate) * BigInt(charge.share);
    const numerator = sum * BigInt(10_000 - discount);
    const divisor = 1_000_000n * 10_000n * 10_000n;
    return Number(numerator / divisor + (numerator % divisor === 0n ? 0n : 1n));
  };
  let seed = 20;
  const next = (limit: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed % limit;
  };
  const magnitudes = [1, 10, 1_000, 100_000, 10_000_000, 1_000_000_000, 90_071_992];
  for (let round = 0; round < 20_000; round += 1) {
    const charges = Array.from({ length: 1 + next(4) }, () => ({
      tokens: next(magnitudes[next(magnitudes.length)] ?? 1) + next(2) * 1_000_000,
      rate: next(magnitudes[next(magnitudes.length)] ?? 1),
      share: next(4) === 0 ? ([12_500, 1_000, 10, 0][next(4)] ?? 10_000) : 10_000,
    }));
    const discount = next(3) === 0 ? next(10_001) : 0;
    const cost = costOfTokensMicros(
      charges.map((charge) => ({
        tokens: charge.tokens,
        ratePerMillionMicros: charge.rate,
        rateShareBasisPoints: charge.share,
      })),
      { discountBasisPoints: discount },
    );
    assert.equal(cost, reference(charges, discount), JSON.stringify({ charges, discount }));
  }
  // Just above 2^53 after the discount's factor: the BigInt path answers, exactly.
  const edge = [{ tokens: 9_007_199, ratePerMillionMicros: 1_000_000_003 }];
  assert.equal(
    costOfTokensMicros(edge, { discountBasisPoints: 1 }),
    reference([{ tokens: 9_007_199, rate: 1_000_000_003, share: 10_000 }], 1),
  );
});
