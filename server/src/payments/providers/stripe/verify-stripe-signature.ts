import { WebhookRejectedError } from '../../payment-provider.ts';
import { computeHmacSha256, isSignatureMatch } from '../shared/verify-hmac.ts';

/** Stripe's SDKs accept a signature up to five minutes old; older ones may be replays. */
const toleranceSeconds = 300;

/**
 * Checks `Stripe-Signature: t=…,v1=…[,v1=…]`: hex HMAC-SHA256 of `t.rawBody` keyed with the endpoint's whsec_ secret,
 * compared in constant time with every v1 value (several during a secret roll), and `t` within 300 s of now.
 * @see https://docs.stripe.com/webhooks#verify-manually
 */
export function verifyStripeSignature(input: {
  header: string | undefined;
  rawBody: Buffer;
  webhookSecret: string;
  nowMs: number;
}): void {
  if (!input.header) throw new WebhookRejectedError('the Stripe-Signature header is missing');
  const pairs = input.header.split(',').map((item) => {
    const separator = item.indexOf('=');
    return separator < 0 ? ['', ''] : [item.slice(0, separator).trim(), item.slice(separator + 1).trim()];
  });
  const timestamp = pairs.find(([name]) => name === 't')?.[1];
  const signatures = pairs.filter(([name]) => name === 'v1').map(([, value]) => value ?? '');
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) {
    throw new WebhookRejectedError('the Stripe-Signature header has no timestamp or no v1 signature');
  }
  const message = Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), input.rawBody]);
  const expected = computeHmacSha256({ key: input.webhookSecret, message, encoding: 'hex' });
  if (!signatures.some((signature) => isSignatureMatch(expected, signature))) {
    throw new WebhookRejectedError('no v1 signature matches the body');
  }
  if (Math.abs(input.nowMs / 1000 - Number(timestamp)) > toleranceSeconds) {
    throw new WebhookRejectedError('the signature timestamp is outside the 300 s tolerance');
  }
}
