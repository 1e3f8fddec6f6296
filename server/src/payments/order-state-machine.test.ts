import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { topUpStatusSchema } from '../../../contract/payments.ts';
import type { TopUpOrderStatus } from '../db/schema.ts';
import { decideOrderTransition, isCreditedStatus, type OrderEvent } from './order-state-machine.ts';

const allStatuses: readonly TopUpOrderStatus[] = topUpStatusSchema.options;

describe('order state machine', () => {
  test('an order goes created → pending → succeeded', () => {
    assert.deepEqual(decideOrderTransition('created', { kind: 'payment_created' }), {
      kind: 'move',
      to: 'pending',
      isLate: false,
    });
    assert.deepEqual(decideOrderTransition('pending', { kind: 'succeeded' }), {
      kind: 'move',
      to: 'succeeded',
      isLate: false,
    });
  });

  test('a second success is a repeat, never a second move', () => {
    for (const status of ['succeeded', 'partially_refunded', 'refunded', 'charged_back'] as const) {
      assert.deepEqual(decideOrderTransition(status, { kind: 'succeeded' }), { kind: 'unchanged' });
    }
  });

  test('a success after cancel or expiry still moves to succeeded, flagged late', () => {
    for (const status of ['canceled', 'expired'] as const) {
      assert.deepEqual(decideOrderTransition(status, { kind: 'succeeded' }), {
        kind: 'move',
        to: 'succeeded',
        isLate: true,
      });
    }
  });

  test('a paid order cannot be canceled or expired', () => {
    for (const kind of ['canceled', 'expired', 'provider_failed'] as const) {
      assert.deepEqual(decideOrderTransition('succeeded', { kind }), { kind: 'refused', reason: 'already_final' });
    }
    assert.deepEqual(decideOrderTransition('pending', { kind: 'expired' }).kind, 'move');
    assert.deepEqual(decideOrderTransition('expired', { kind: 'expired' }), { kind: 'unchanged' });
  });

  test('a refund before the success is refused until the order is credited', () => {
    for (const status of ['created', 'pending', 'canceled', 'expired'] as const) {
      assert.deepEqual(decideOrderTransition(status, { kind: 'refunded', isWhollyReturned: true }), {
        kind: 'refused',
        reason: 'not_credited',
      });
      assert.deepEqual(decideOrderTransition(status, { kind: 'charged_back' }), {
        kind: 'refused',
        reason: 'not_credited',
      });
    }
  });

  test('partial refunds stay partially refunded until the whole amount is back', () => {
    assert.deepEqual(decideOrderTransition('succeeded', { kind: 'refunded', isWhollyReturned: false }), {
      kind: 'move',
      to: 'partially_refunded',
      isLate: false,
    });
    assert.deepEqual(decideOrderTransition('partially_refunded', { kind: 'refunded', isWhollyReturned: true }), {
      kind: 'move',
      to: 'refunded',
      isLate: false,
    });
  });

  test('a chargeback reversed returns the order to where it was', () => {
    assert.equal(
      (decideOrderTransition('charged_back', { kind: 'chargeback_reversed', hasRefunds: false }) as { to: string }).to,
      'succeeded',
    );
    assert.equal(
      (decideOrderTransition('charged_back', { kind: 'chargeback_reversed', hasRefunds: true }) as { to: string }).to,
      'partially_refunded',
    );
    assert.deepEqual(decideOrderTransition('succeeded', { kind: 'chargeback_reversed', hasRefunds: false }), {
      kind: 'refused',
      reason: 'not_charged_back',
    });
  });

  test('every status answers every event without throwing, and only credited statuses take refunds', () => {
    const events: OrderEvent[] = [
      { kind: 'payment_created' },
      { kind: 'provider_failed' },
      { kind: 'succeeded' },
      { kind: 'canceled' },
      { kind: 'expired' },
      { kind: 'refunded', isWhollyReturned: false },
      { kind: 'charged_back' },
      { kind: 'chargeback_reversed', hasRefunds: false },
    ];
    for (const status of allStatuses) {
      for (const event of events) {
        const decision = decideOrderTransition(status, event);
        if (event.kind === 'refunded' && decision.kind === 'move') assert.ok(isCreditedStatus(status));
      }
    }
  });
});
