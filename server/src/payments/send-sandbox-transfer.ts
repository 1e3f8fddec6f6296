import { z } from 'zod';
import type { SandboxTransfer, SandboxTransferRequest } from '../../../contract/payments.ts';
import { findCryptoDeposit } from '../db/crypto-deposits.ts';
import type { Database } from '../db/database.ts';
import { findTopUpOrder } from '../db/top-up-orders.ts';
import { ConflictError } from '../errors/conflict-error.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import type { PaymentHttp, PaymentProviderId } from './payment-provider.ts';
import { callProviderApi } from './providers/shared/call-provider-api.ts';
import { PaymentProviderError } from './providers/shared/payment-provider-error.ts';
import { formatUsdt } from './write-receipt-to-order.ts';

/** Where the payment simulators of sandbox mode listen; the NOWPayments one is set once it has started. */
export type SandboxSimulatorUrls = { tronGrid: string | undefined; nowPayments: string | undefined };

export type SendSandboxTransferDeps = {
  db: Database;
  paymentHttp: PaymentHttp;
  isPaymentSandbox: boolean;
  sandboxSimulators: SandboxSimulatorUrls;
};

/** A token contract other than USDT's that the look-alike transfer comes from (its symbol still says USDT). */
const lookAlikeContract = 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj';
const transferAnswerSchema = z.object({ transaction_id: z.string() });
const paidAnswerSchema = z.object({ payment_id: z.string() });

/**
 * The sandbox site's "send transfer" buttons: asks the TronGrid or NOWPayments simulator, over HTTP, to play the
 * payer of the user's own sandbox USDT order. The gateway then learns of the money exactly as in production (its
 * watcher polls the chain, the processor notifies), so this credits nothing by itself. Outside payment sandbox mode
 * the route does not exist (404).
 */
export async function sendSandboxTransfer(
  deps: SendSandboxTransferDeps,
  input: { userId: string; orderId: string; request: SandboxTransferRequest },
): Promise<SandboxTransfer> {
  const notFound = new NotFoundError(`There is no sandbox USDT top-up \`${input.orderId}\` on this account.`);
  if (!deps.isPaymentSandbox) throw new NotFoundError('Sandbox transfers exist only in payment sandbox mode.');
  const order = await findTopUpOrder(deps.db, input.orderId);
  const deposit = order && order.user_id === input.userId ? await findCryptoDeposit(deps.db, order.id) : undefined;
  if (!order || order.is_sandbox !== 1 || !deposit) throw notFound;
  const expected = Number(deposit.expected_micro_usdt);
  const amount = formatUsdt(input.request.action === 'send_smaller' ? Math.floor(expected / 2) : expected);
  if (order.provider === 'tron' && deps.sandboxSimulators.tronGrid !== undefined) {
    return sendOnChain(deps, deps.sandboxSimulators.tronGrid, {
      request: input.request,
      to: deposit.pay_address,
      amount,
    });
  }
  if (order.provider === 'nowpayments' && deps.sandboxSimulators.nowPayments !== undefined) {
    if (input.request.action === 'send_look_alike' || input.request.action === 'confirm') {
      throw new ConflictError('A processor reports only its own USDT payments: no look-alikes or confirmations.');
    }
    await simulatorCall(deps, 'nowpayments', {
      url: `${deps.sandboxSimulators.nowPayments}/_simulator/payments/${encodeURIComponent(order.provider_payment_id ?? '')}/pay`,
      body: { amount },
      schema: paidAnswerSchema,
    });
    return { transaction_id: null };
  }
  throw notFound;
}

async function sendOnChain(
  deps: SendSandboxTransferDeps,
  tronGridUrl: string,
  input: { request: SandboxTransferRequest; to: string; amount: string },
): Promise<SandboxTransfer> {
  const { action, transaction_id: transactionId } = input.request;
  if (action === 'confirm') {
    if (transactionId === undefined) {
      throw new InvalidRequestError('`confirm` needs the `transaction_id` of a transfer sent earlier.', {
        code: 'missing_required_parameter',
        param: 'transaction_id',
      });
    }
    const answer = await simulatorCall(deps, 'tron', {
      url: `${tronGridUrl}/_simulator/transfers/${encodeURIComponent(transactionId)}/confirm`,
      body: {},
      schema: transferAnswerSchema,
    }).catch((error: unknown) => {
      // The simulator knows no such transfer: the caller's id is wrong, not the gateway (found by the fuzz run).
      if (error instanceof PaymentProviderError && error.httpStatus === 404) {
        throw new NotFoundError(`There is no sandbox transfer \`${transactionId}\` to confirm.`, {
          param: 'transaction_id',
        });
      }
      throw error;
    });
    return { transaction_id: answer.transaction_id };
  }
  const lookAlike = action === 'send_look_alike' ? { contract: lookAlikeContract, symbol: 'USDT' } : {};
  const answer = await simulatorCall(deps, 'tron', {
    url: `${tronGridUrl}/_simulator/transfers`,
    body: { to: input.to, amount: input.amount, ...lookAlike },
    schema: transferAnswerSchema,
  });
  return { transaction_id: answer.transaction_id };
}

function simulatorCall<T>(
  deps: SendSandboxTransferDeps,
  providerId: PaymentProviderId,
  call: { url: string; body: Record<string, unknown>; schema: z.ZodType<T> },
): Promise<T> {
  return callProviderApi({
    http: deps.paymentHttp,
    providerId,
    method: 'POST',
    url: call.url,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(call.body),
    schema: call.schema,
  });
}
