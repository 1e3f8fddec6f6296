import type { PaymentProvider } from '../../payment-provider.ts';
import { WebhookRejectedError } from '../../payment-provider.ts';
import { PaymentProviderError } from '../shared/payment-provider-error.ts';
import { deriveTronAddress, type TronAccountKey } from './tron-address.ts';

/** Where the provider keeps each order's deposit (the database, in production; `db/crypto-deposits.ts`). */
export type TronDepositStore = {
  /** Stores the order's deposit at the next free derivation index, derived by `addressFor`; retried on a clash. */
  createDeposit: (input: {
    orderId: string;
    expectedMicroUsdt: number;
    microUsdtPerUsd: number;
    addressFor: (index: number) => string;
  }) => Promise<{ address: string; derivationIndex: number }>;
};

export type TronProviderOptions = {
  account: TronAccountKey;
  store: TronDepositStore;
  /** Micro-USDT per 1 USD the operator takes (1,000,000 at 1:1), locked on each order. */
  microUsdtPerUsd: number;
  isSandbox: boolean;
};

const MICROS_PER_CENT = 10_000n;
const MICROS_PER_UNIT = 1_000_000n;

/**
 * USDT on TRON watched directly: an order gets its own address derived from the operator's xpub, and the chain
 * watcher (`watch-tron-deposits.ts`) credits what arrives there. The gateway holds no key, so it has no hosted page,
 * no notifications and no refunds; the order is priced in USD and asks for the same value in USDT at the locked rate.
 */
export function createTronProvider(options: TronProviderOptions): PaymentProvider {
  const noRefunds = () =>
    new PaymentProviderError({
      providerId: 'tron',
      httpStatus: undefined,
      isRetryable: false,
      detail: 'a USDT deposit cannot be refunded from the gateway: it holds no key; send it back from the wallet',
    });
  return {
    id: 'tron',
    methods: ['usdt_trc20'],
    currency: 'USD',
    isSandbox: options.isSandbox,
    webhooks: 'none',
    refunds: 'none',
    createPayment: async (input) => {
      const expectedMicroUsdt = Number(
        (BigInt(input.amount.minorUnits) * MICROS_PER_CENT * BigInt(options.microUsdtPerUsd)) / MICROS_PER_UNIT,
      );
      const deposit = await options.store.createDeposit({
        orderId: input.orderId,
        expectedMicroUsdt,
        microUsdtPerUsd: options.microUsdtPerUsd,
        addressFor: (index) => deriveTronAddress(options.account, index),
      });
      return { providerPaymentId: deposit.address, confirmationUrl: `tron:${deposit.address}` };
    },
    // The chain watcher, not a re-fetch, finds what arrived; to reconciliation the order stays pending until it expires.
    fetchPayment: async (address) => ({
      providerPaymentId: address,
      orderId: undefined,
      status: 'pending',
      amount: { currency: 'USD', minorUnits: 0 },
      refundedMinorUnits: 0,
      isTest: options.isSandbox,
      cancellationReason: undefined,
    }),
    refundPayment: async () => {
      throw noRefunds();
    },
    verifyWebhook: async () => {
      throw new WebhookRejectedError('TRON deposits are watched on chain; there are no notifications');
    },
    replyToWebhook: ({ isAccepted }) => ({
      status: isAccepted ? 200 : 400,
      contentType: 'text/plain',
      body: isAccepted ? 'ok' : 'rejected',
    }),
  };
}
