import type { z } from 'zod';
import type { PaymentProviderId } from '../../payment-provider.ts';
import { WebhookRejectedError } from '../../payment-provider.ts';
import { PaymentProviderError } from './payment-provider-error.ts';

function parseJsonText(text: string): { isJson: true; value: unknown } | { isJson: false } {
  try {
    return { isJson: true, value: JSON.parse(text) as unknown };
  } catch {
    return { isJson: false };
  }
}

/** A provider API answer checked against its wire schema; anything else is the provider breaking its own format. */
export function parseProviderAnswer<T>(input: {
  schema: z.ZodType<T>;
  text: string;
  providerId: PaymentProviderId;
}): T {
  const json = parseJsonText(input.text);
  const parsed = json.isJson ? input.schema.safeParse(json.value) : undefined;
  if (parsed?.success) return parsed.data;
  throw new PaymentProviderError({
    providerId: input.providerId,
    httpStatus: undefined,
    isRetryable: true,
    detail: 'the provider sent an answer that does not match its documented format',
  });
}

/** A notification body checked against its wire schema; a malformed one is rejected, never credited. */
export function parseNotificationJson<T>(schema: z.ZodType<T>, rawBody: Buffer): T {
  const json = parseJsonText(rawBody.toString('utf8'));
  if (!json.isJson) throw new WebhookRejectedError('the body is not JSON');
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) throw new WebhookRejectedError('the body does not match the documented notification format');
  return parsed.data;
}
