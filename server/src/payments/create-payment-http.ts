import type { Dispatcher } from 'undici';
import { requestBuffered } from '../upstream/request-buffered.ts';
import type { PaymentHttp } from './payment-provider.ts';

/**
 * The production `PaymentHttp`: the one upstream module's buffered call over the given connection pool (the whole
 * exchange bounded by `timeoutMs`, the body by `maxBodyBytes`, decoded by the charset the reply declares).
 */
export function createPaymentHttp(input: { dispatcher: Dispatcher }): PaymentHttp {
  return (call) => requestBuffered(call, input.dispatcher);
}
