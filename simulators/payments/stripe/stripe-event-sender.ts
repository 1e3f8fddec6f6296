import { createHmac } from 'node:crypto';
import { createNotificationSender } from '../shared/notification-sender.ts';
import type { NotificationSender } from '../shared/notification-sender.ts';
import { stripeId } from './stripe-objects.ts';

export type StripeEventOptions = {
  /** Seconds added to the signature's `t` (a negative value makes a stale signature). */
  timestampOffsetSeconds?: number;
  /** Signs with another secret (a forged event). */
  signingSecret?: string;
  previousAttributes?: Record<string, unknown>;
};

export type StripeEventSender = NotificationSender & {
  sendEvent: (type: string, object: unknown, options?: StripeEventOptions) => string;
  /** Delivers an already sent event again, same id and body, freshly signed (Stripe's re-delivery). */
  resendEvent: (eventId: string) => void;
};

/**
 * Stripe's webhook delivery: an Event object, signed `Stripe-Signature: t=…,v1=hex(HMAC-SHA256(whsec, "t.body"))`,
 * re-delivered with back-off on non-2xx. @see https://docs.stripe.com/webhooks#verify-manually
 */
export function createStripeEventSender(input: {
  notificationUrl: string;
  webhookSecret: string;
  retryDelaysMs: readonly number[];
  isDuplicating: boolean;
}): StripeEventSender {
  const sender = createNotificationSender({
    notificationUrl: input.notificationUrl,
    retryDelaysMs: input.retryDelaysMs,
    isDuplicating: input.isDuplicating,
  });
  const sentBodies = new Map<string, string>();

  function deliver(body: string, options: StripeEventOptions): void {
    const timestamp = Math.floor(Date.now() / 1000) + (options.timestampOffsetSeconds ?? 0);
    const signature = createHmac('sha256', options.signingSecret ?? input.webhookSecret)
      .update(`${timestamp}.${body}`)
      .digest('hex');
    sender.send({
      body,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'stripe-signature': `t=${timestamp},v1=${signature}`,
      },
    });
  }

  return {
    ...sender,
    sendEvent(type, object, options = {}) {
      const id = stripeId('evt');
      const data = options.previousAttributes
        ? { object, previous_attributes: options.previousAttributes }
        : { object };
      const event = {
        id,
        object: 'event',
        api_version: '2025-03-31.basil',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data,
      };
      const body = JSON.stringify(event, null, 2);
      sentBodies.set(id, body);
      deliver(body, options);
      return id;
    },
    resendEvent(eventId) {
      const body = sentBodies.get(eventId);
      if (body) deliver(body, {});
    },
  };
}
