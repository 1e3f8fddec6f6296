import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatMinorUnits, parseDecimalAmount, parseNumberAmount } from './minor-units.ts';

describe('minor units ⇄ provider decimal amounts', () => {
  it('writes kopecks and cents as two-decimal strings', () => {
    assert.equal(formatMinorUnits(123456), '1234.56');
    assert.equal(formatMinorUnits(20000), '200.00');
    assert.equal(formatMinorUnits(5), '0.05');
    assert.throws(() => formatMinorUnits(1.5), RangeError);
    assert.throws(() => formatMinorUnits(-1), RangeError);
  });

  it('reads decimal strings exactly and refuses anything that is not a plain amount', () => {
    assert.equal(parseDecimalAmount('1234.56'), 123456);
    assert.equal(parseDecimalAmount('0.1'), 10);
    assert.equal(parseDecimalAmount('200'), 20000);
    for (const text of ['1.234', '-1.00', '1e3', '', '.5', '1,00'])
      assert.equal(parseDecimalAmount(text), undefined, text);
  });

  it('reads JSON number amounts without float error, for every kopeck up to 2,000 RUB', () => {
    for (let minorUnits = 0; minorUnits <= 200_000; minorUnits += 1) {
      assert.equal(parseNumberAmount(Number(formatMinorUnits(minorUnits))), minorUnits);
    }
    assert.equal(parseNumberAmount(1234.567), undefined);
    assert.equal(parseNumberAmount(Number.NaN), undefined);
  });
});
