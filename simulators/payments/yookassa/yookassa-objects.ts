import { randomUUID } from 'node:crypto';
import { isRecord } from '../shared/start-simulator-server.ts';

/**
 * YooKassa's payment and refund objects as the simulator keeps them, written from the documented wire format
 * (https://yookassa.ru/developers/api#payment_object); independent of the gateway's own schemas.
 */
export type Amount = { value: string; currency: string };
export type PaymentObject = {
  id: string;
  status: 'pending' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: Amount;
  confirmation: { type: 'redirect'; confirmation_url: string; return_url: string };
  created_at: string;
  description: string;
  metadata: Record<string, string>;
  recipient: { account_id: string; gateway_id: string };
  refundable: boolean;
  refunded_amount?: Amount;
  test: boolean;
  payment_method: { type: string; id: string; saved: boolean };
  captured_at?: string;
  cancellation_details?: { party: string; reason: string };
};
export type RefundObject = { id: string; payment_id: string; status: 'succeeded'; amount: Amount; created_at: string };

const amountPattern = /^\d+\.\d{2}$/;

export function toKopecks(value: string): number {
  const [whole = '0', fraction = '00'] = value.split('.');
  return Number(whole) * 100 + Number(fraction);
}

export function fromKopecks(kopecks: number): string {
  return `${Math.floor(kopecks / 100)}.${String(kopecks % 100).padStart(2, '0')}`;
}

function isAmount(value: unknown): value is Amount {
  return (
    isRecord(value) && typeof value.value === 'string' && amountPattern.test(value.value) && value.currency === 'RUB'
  );
}

/** The create-payment checks YooKassa makes that matter here; the error names the first wrong parameter. */
export function findCreatePaymentProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'body';
  if (!isAmount(body.amount)) return 'amount';
  const confirmation = body.confirmation;
  if (!isRecord(confirmation) || confirmation.type !== 'redirect' || typeof confirmation.return_url !== 'string') {
    return 'confirmation';
  }
  const method = body.payment_method_data;
  if (method !== undefined && (!isRecord(method) || !['bank_card', 'sbp', 'yoo_money'].includes(String(method.type)))) {
    return 'payment_method_data.type';
  }
  if (typeof body.description === 'string' && body.description.length > 128) return 'description';
  if (body.metadata !== undefined && !isStringMap(body.metadata)) return 'metadata';
  return findReceiptProblem(body.receipt, body.amount);
}

function isStringMap(value: unknown): value is Record<string, string> {
  return isRecord(value) && Object.values(value).every((entry) => typeof entry === 'string');
}

function findReceiptProblem(receipt: unknown, amount: Amount): string | undefined {
  if (!isRecord(receipt) || !isRecord(receipt.customer) || typeof receipt.customer.email !== 'string')
    return 'receipt.customer';
  if (!Array.isArray(receipt.items) || receipt.items.length === 0) return 'receipt.items';
  let kopecks = 0;
  for (const item of receipt.items as unknown[]) {
    if (!isRecord(item) || !isAmount(item.amount) || typeof item.vat_code !== 'number') return 'receipt.items';
    kopecks += toKopecks(item.amount.value) * Number(item.quantity);
  }
  // YooKassa refuses a receipt whose items do not add up to the payment.
  return kopecks === toKopecks(amount.value) ? undefined : 'receipt.items.amount';
}

export function createPaymentObject(input: {
  body: Record<string, unknown>;
  baseUrl: string;
  isTest: boolean;
  nowMs: number;
}): PaymentObject {
  const id = randomUUID();
  const body = input.body;
  const confirmation = body.confirmation as { return_url: string };
  const methodType = isRecord(body.payment_method_data) ? String(body.payment_method_data.type) : 'bank_card';
  return {
    id,
    status: 'pending',
    paid: false,
    amount: body.amount as Amount,
    confirmation: {
      type: 'redirect',
      confirmation_url: `${input.baseUrl}/checkout/${id}`,
      return_url: confirmation.return_url,
    },
    created_at: new Date(input.nowMs).toISOString(),
    description: typeof body.description === 'string' ? body.description : '',
    metadata: isStringMap(body.metadata) ? body.metadata : {},
    recipient: { account_id: '100500', gateway_id: '100700' },
    refundable: false,
    test: input.isTest,
    payment_method: { type: methodType, id: randomUUID(), saved: false },
  };
}
