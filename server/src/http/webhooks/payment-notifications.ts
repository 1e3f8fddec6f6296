import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../errors/not-found-error.ts';
import { applyPaymentEvent, isSettledOutcome, type PaymentCoreDeps } from '../../payments/apply-payment-event.ts';
import { WebhookRejectedError, type WebhookDelivery } from '../../payments/payment-provider.ts';
import type { PaymentProviders } from '../../payments/payment-providers.ts';

export type PaymentWebhookRouteDeps = PaymentCoreDeps & { paymentProviders: PaymentProviders };

/** Notifications are small; a body this large is not one. */
const webhookBodyLimitBytes = 256 * 1024;

/**
 * `POST /webhooks/:provider`: the provider's notification, read as raw bytes (signatures cover the exact bytes, so
 * no parser runs first), verified by the provider's client, each fact applied exactly once, and answered the way
 * that provider expects. A forged, stale or malformed delivery gets the provider's rejection and credits nothing.
 */
export function registerPaymentWebhookRoutes(app: FastifyInstance, deps: PaymentWebhookRouteDeps): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: webhookBodyLimitBytes }, (_request, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: { provider: string } }>('/webhooks/:provider', async (request, reply) => {
      const provider = deps.paymentProviders.find(request.params.provider);
      if (!provider) throw new NotFoundError(`There is no payment provider \`${request.params.provider}\` here.`);
      let events;
      try {
        events = await provider.verifyWebhook(toDelivery(request));
      } catch (error) {
        if (!(error instanceof WebhookRejectedError)) throw error;
        request.log.warn({ provider: provider.id, reason: error.reason }, 'payment notification rejected');
        const rejection = provider.replyToWebhook({ isAccepted: false });
        return reply.status(rejection.status).type(rejection.contentType).send(rejection.body);
      }
      let isAccepted = true;
      for (const event of events) {
        const outcome = await applyPaymentEvent(deps, { provider, event, source: 'webhook' });
        request.log.info({ provider: provider.id, eventKey: event.eventKey, outcome }, 'payment notification');
        if (!isSettledOutcome(outcome)) isAccepted = false;
      }
      const answer = provider.replyToWebhook({ isAccepted });
      return reply.status(answer.status).type(answer.contentType).send(answer.body);
    });
  });
}

function toDelivery(request: FastifyRequest): WebhookDelivery {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  const body = request.body;
  return {
    rawBody: Buffer.isBuffer(body) ? body : Buffer.alloc(0),
    headers,
    contentType: request.headers['content-type'],
  };
}
