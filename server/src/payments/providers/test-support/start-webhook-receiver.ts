import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentEvent, PaymentProvider, PaymentProviderId } from '../../payment-provider.ts';
import { WebhookRejectedError } from '../../payment-provider.ts';

export type ReceivedNotification =
  | { outcome: 'accepted'; events: readonly PaymentEvent[] }
  | { outcome: 'rejected'; reason: string }
  | { outcome: 'failed'; message: string };

/**
 * The gateway's side of `/webhooks/<id>` for provider tests: raw body in, `verifyWebhook`, then the provider's reply
 * (accepted, or not accepted when verification could not finish, so the simulator re-delivers). The provider is read
 * per delivery because it is built after the simulator, which needs this receiver's URL first.
 */
export async function startWebhookReceiver(input: {
  providerId: PaymentProviderId;
  getProvider: () => PaymentProvider;
}): Promise<{
  url: string;
  received: ReceivedNotification[];
  close: () => Promise<void>;
}> {
  const received: ReceivedNotification[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const provider = input.getProvider();
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(request.headers))
        headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const delivery = { rawBody: Buffer.concat(chunks), headers, contentType: request.headers['content-type'] };
      void provider.verifyWebhook(delivery).then(
        (events) => {
          received.push({ outcome: 'accepted', events });
          const reply = provider.replyToWebhook({ isAccepted: true });
          response.writeHead(reply.status, { 'content-type': reply.contentType }).end(reply.body);
        },
        (error: unknown) => {
          const isRejected = error instanceof WebhookRejectedError;
          received.push(
            isRejected ? { outcome: 'rejected', reason: error.reason } : { outcome: 'failed', message: String(error) },
          );
          const reply = provider.replyToWebhook({ isAccepted: false });
          response.writeHead(isRejected ? 400 : reply.status, { 'content-type': reply.contentType }).end(reply.body);
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/${input.providerId}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The events of every accepted delivery, in arrival order. */
export function acceptedEvents(received: readonly ReceivedNotification[]): PaymentEvent[] {
  return received.flatMap((entry) => (entry.outcome === 'accepted' ? [...entry.events] : []));
}
