import type { CreatePaymentInput, PaymentMethodId, ProviderPayment } from '../../payment-provider.ts';
import { formatMinorUnits, parseDecimalAmount } from '../shared/minor-units.ts';
import type { YooKassaAmount, YooKassaCreatePaymentBody, YooKassaPayment } from './yookassa-api.ts';

const methodTypes = {
  card_rub: 'bank_card',
  sbp: 'sbp',
  yoo_money: 'yoo_money',
} as const satisfies Partial<Record<PaymentMethodId, YooKassaCreatePaymentBody['payment_method_data']['type']>>;

export type YooKassaMethodId = keyof typeof methodTypes;

export function isYooKassaMethod(method: PaymentMethodId): method is YooKassaMethodId {
  return method in methodTypes;
}

/** YooKassa limits `description` (payment and receipt item) to 128 characters. */
const maxDescriptionLength = 128;

/**
 * Our order → the create-payment body: one-stage (`capture: true`), redirect confirmation, the method preselected,
 * our ids in metadata and the 54-FZ receipt with one service item. @see https://yookassa.ru/developers/api#create_payment
 */
export function convertCreatePaymentBody(
  input: CreatePaymentInput & { method: YooKassaMethodId; vatCode: number },
): YooKassaCreatePaymentBody {
  const amount = { value: formatMinorUnits(input.amount.minorUnits), currency: 'RUB' };
  const description = input.description.slice(0, maxDescriptionLength);
  return {
    amount,
    capture: true,
    confirmation: { type: 'redirect', return_url: input.returnUrl },
    payment_method_data: { type: methodTypes[input.method] },
    description,
    metadata: { order_id: input.orderId, user_id: input.userId },
    receipt: {
      customer: { email: input.customerEmail },
      items: [
        {
          description,
          quantity: '1.00',
          amount,
          vat_code: input.vatCode,
          payment_mode: 'full_payment',
          payment_subject: 'service',
        },
      ],
    },
  };
}

/** "1234.56" RUB → 123456; undefined when the amount is not RUB or not a two-decimal figure. */
export function convertRubAmount(amount: YooKassaAmount): number | undefined {
  return amount.currency === 'RUB' ? parseDecimalAmount(amount.value) : undefined;
}

/**
 * A payment object → our normalised payment. `waiting_for_capture` never happens with `capture: true`; if it does,
 * the money is not ours yet, so it reads as pending. @see https://yookassa.ru/developers/payment-acceptance/getting-started/payment-process
 */
export function convertYooKassaPayment(payment: YooKassaPayment): ProviderPayment | undefined {
  const minorUnits = convertRubAmount(payment.amount);
  const refundedMinorUnits = payment.refunded_amount ? convertRubAmount(payment.refunded_amount) : 0;
  if (minorUnits === undefined || refundedMinorUnits === undefined) return undefined;
  const isSucceeded = payment.status === 'succeeded' && payment.paid;
  return {
    providerPaymentId: payment.id,
    orderId: payment.metadata?.order_id,
    status: isSucceeded ? 'succeeded' : payment.status === 'canceled' ? 'canceled' : 'pending',
    amount: { currency: 'RUB', minorUnits },
    refundedMinorUnits,
    isTest: payment.test,
    cancellationReason: payment.cancellation_details?.reason,
  };
}
