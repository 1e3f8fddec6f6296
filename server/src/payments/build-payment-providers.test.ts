import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildLivePaymentProviders } from './build-payment-providers.ts';
import type { PaymentHttp } from './payment-provider.ts';

const unusedHttp: PaymentHttp = async () => {
  throw new Error('building a provider makes no call');
};
const deps = { http: unusedHttp, clock: { nowMs: () => 0 } };
const none = { yookassa: undefined, yookassaVatCode: 1, stripe: undefined, cloudPayments: undefined };

describe('live payment providers from the environment', () => {
  test('no credentials, no provider', () => {
    assert.deepEqual(buildLivePaymentProviders(none, deps), []);
  });

  test('each credential pair builds its provider, live, with its methods and currency', () => {
    const providers = buildLivePaymentProviders(
      {
        yookassa: { shopId: '100500', secretKey: 'live_x' },
        yookassaVatCode: 1,
        stripe: { secretKey: 'sk_live_x', webhookSecret: 'whsec_x' },
        cloudPayments: { publicId: 'pk_x', apiSecret: 'secret' },
      },
      deps,
    );
    assert.deepEqual(
      providers.map((provider) => [provider.id, provider.currency, [...provider.methods], provider.isSandbox]),
      [
        ['yookassa', 'RUB', ['card_rub', 'sbp', 'yoo_money'], false],
        ['stripe', 'USD', ['card_usd'], false],
        ['cloudpayments', 'RUB', ['card_rub'], false],
      ],
    );
  });

  test('only the configured ones', () => {
    const providers = buildLivePaymentProviders({ ...none, stripe: { secretKey: 'sk', webhookSecret: 'wh' } }, deps);
    assert.deepEqual(
      providers.map((provider) => provider.id),
      ['stripe'],
    );
  });
});
