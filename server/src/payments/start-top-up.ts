import type { CreatedTopUp, TopUpQuoteView, TopUpRequest } from '../../../contract/payments.ts';
import { findUserById } from '../db/users.ts';
import { NotFoundError } from '../errors/not-found-error.ts';
import { createTopUpOrder, type CreateTopUpOrderDeps } from './create-top-up-order.ts';
import { quoteTopUpOrder, type TopUpQuoteDeps } from './quote-top-up-order.ts';
import { toTopUpOrderView, toTopUpQuoteView } from './to-top-up-order-view.ts';
import { withCryptoDeposit } from './with-crypto-deposit.ts';

/** `POST /api/top-ups/quote`: what the user would pay and get, without creating anything. */
export async function quoteTopUp(deps: TopUpQuoteDeps, request: TopUpRequest): Promise<TopUpQuoteView> {
  const quote = await quoteTopUpOrder(deps, {
    method: request.method,
    amount: { currency: request.currency, minorUnits: request.amount_minor },
  });
  return toTopUpQuoteView(quote);
}

/** `POST /api/top-ups`: a new order for the signed-in user, with the provider's payment page to send them to. */
export async function startTopUp(
  deps: CreateTopUpOrderDeps,
  input: { userId: string; request: TopUpRequest },
): Promise<CreatedTopUp> {
  const user = await findUserById(deps.db, input.userId);
  if (!user) throw new NotFoundError('This account no longer exists.');
  const { order, quote } = await createTopUpOrder(deps, {
    userId: user.id,
    customerEmail: user.email,
    method: input.request.method,
    amount: { currency: input.request.currency, minorUnits: input.request.amount_minor },
  });
  return { order: await withCryptoDeposit(deps.db, toTopUpOrderView(order)), quote: toTopUpQuoteView(quote) };
}
