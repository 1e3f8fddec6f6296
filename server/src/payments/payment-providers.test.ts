import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseConfig } from '../config/config.ts';
import type { PaymentProvider, PaymentProviderId } from './payment-provider.ts';
import { createPaymentProviders } from './payment-providers.ts';

/** A provider that only says who it is; choosing one never calls it. */
function providerServing(id: PaymentProviderId, methods: PaymentProvider['methods']): PaymentProvider {
  const unused = () => {
    throw new Error('not called when choosing a provider');
  };
  return {
    id,
    methods,
    currency: 'RUB',
    isSandbox: true,
    createPayment: unused,
    fetchPayment: unused,
    refundPayment: unused,
    verifyWebhook: unused,
    replyToWebhook: unused,
  };
}

const yookassa = providerServing('yookassa', ['card_rub', 'sbp', 'yoo_money']);
const cloudPayments = providerServing('cloudpayments', ['card_rub']);

test('without a choice, the first provider listed that serves the method takes it', () => {
  const providers = createPaymentProviders([yookassa, cloudPayments]);
  assert.equal(providers.forMethod('card_rub')?.id, 'yookassa');
  assert.equal(providers.forMethod('card_usd'), undefined);
});

test('PAYMENT_METHOD_PROVIDERS gives card_rub to CloudPayments and leaves the other methods alone', () => {
  const config = parseConfig({ PAYMENT_METHOD_PROVIDERS: ' card_rub = cloudpayments ' });
  assert.deepEqual(config.payments.methodProviders, { card_rub: 'cloudpayments' });
  const providers = createPaymentProviders([yookassa], config.payments.methodProviders);
  providers.add(cloudPayments);
  assert.equal(providers.forMethod('card_rub')?.id, 'cloudpayments');
  assert.equal(providers.forMethod('sbp')?.id, 'yookassa');
});

test('a chosen provider that is not running leaves the method unavailable instead of serving it elsewhere', () => {
  const providers = createPaymentProviders([yookassa], { card_rub: 'cloudpayments' });
  assert.equal(providers.forMethod('card_rub'), undefined);
});

test('a malformed choice is refused at start-up with the rule', () => {
  for (const value of ['card_rub', 'card_rub=paypal', 'usdt=yookassa']) {
    assert.throws(
      () => parseConfig({ PAYMENT_METHOD_PROVIDERS: value }),
      /PAYMENT_METHOD_PROVIDERS[\s\S]*<method>=<provider>/,
    );
  }
});
