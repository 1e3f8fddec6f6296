import type { TopUpOrderView } from '../../../../contract/payments.ts';

/** Where a USDT order stands, in the words the panel uses (messages.topUp.usdt.stages). */
export type UsdtStage = 'waiting' | 'seen' | 'credited' | 'credited_late' | 'partial' | 'expired' | 'failed';

/** The steps a transfer goes through, in order; a step is done when the order's stage is at or past it. */
export const usdtSteps = ['waiting', 'seen', 'confirmed', 'credited'] as const;
export type UsdtStep = (typeof usdtSteps)[number];

export function toUsdtStage(order: TopUpOrderView): UsdtStage {
  const stage = order.crypto_deposit?.stage ?? 'waiting';
  if (order.status === 'succeeded' || stage === 'credited') {
    return order.is_paid_after_expiry ? 'credited_late' : 'credited';
  }
  if (order.status === 'partially_paid' || stage === 'partially_credited') return 'partial';
  if (stage === 'seen') return 'seen';
  if (order.status === 'expired') return 'expired';
  if (order.status === 'canceled') return 'failed';
  return 'waiting';
}

/** How many of `usdtSteps` are done: a credit is made in the same step as the confirmation it waits for. */
export function doneSteps(stage: UsdtStage): number {
  if (stage === 'credited' || stage === 'credited_late' || stage === 'partial') return 4;
  if (stage === 'seen') return 2;
  return 1;
}

/** A USDT order can still receive money while it waits, and after a part of it has come. */
export const isOpenUsdtOrder = (order: TopUpOrderView): boolean =>
  order.status === 'created' || order.status === 'pending' || order.status === 'partially_paid';
