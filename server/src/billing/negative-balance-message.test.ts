import assert from 'node:assert/strict';
import { test } from 'node:test';
import { negativeBalanceMessage } from './negative-balance-message.ts';

test('a balance below zero is explained as a refunded or charged-back top-up, with what brings it back', () => {
  assert.equal(
    negativeBalanceMessage(-2_500_000),
    'Your balance is -2.500000 USD because a top-up was refunded or charged back after it was spent. Paid calls resume once a top-up of at least 2.500000 USD brings the balance above zero.',
  );
});

test('a balance at or above zero keeps the usual message', () => {
  assert.equal(negativeBalanceMessage(0), undefined);
  assert.equal(negativeBalanceMessage(1), undefined);
});
