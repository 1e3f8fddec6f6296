import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextEwma } from './ewma.ts';

describe('moving average', () => {
  it('takes the first sample as is, then moves towards each new sample by the smoothing factor', () => {
    let average = nextEwma(undefined, 100, 0.2);
    assert.equal(average, 100);
    average = nextEwma(average, 200, 0.2);
    assert.equal(average, 120);
    average = nextEwma(average, 120, 0.2);
    assert.equal(average, 120);
  });

  it('converges on a steady signal and forgets an old one', () => {
    let average = 1;
    for (let step = 0; step < 50; step += 1) average = nextEwma(average, 0, 0.2);
    assert.ok(average < 0.0001);
  });
});
