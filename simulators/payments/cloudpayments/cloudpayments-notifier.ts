import { createHmac } from 'node:crypto';
import { createNotificationSender } from '../shared/notification-sender.ts';
import type { NotificationSender } from '../shared/notification-sender.ts';

export type NotificationFormat = 'form' | 'json';
export type NotificationFields = Record<string, string | number | boolean>;

export type CloudPaymentsNotifier = NotificationSender & {
  /** Sends Pay/Fail/Refund fields, signed with the ApiSecret (or `signingSecret`, to forge one). */
  notify: (fields: NotificationFields, options?: { signingSecret?: string }) => void;
};

/**
 * CloudPayments' notifications: the fields form-encoded (amounts as "1234.56") or as JSON (amounts as numbers), with
 * `Content-HMAC` = base64(HMAC-SHA256(body as sent, ApiSecret)) and `X-Content-HMAC` over the URL-decoded body.
 * @see https://developers.cloudpayments.ru/ (notifications section)
 */
export function createCloudPaymentsNotifier(input: {
  notificationUrl: string;
  apiSecret: string;
  format: NotificationFormat;
  retryDelaysMs: readonly number[];
  isDuplicating: boolean;
}): CloudPaymentsNotifier {
  const sender = createNotificationSender({
    notificationUrl: input.notificationUrl,
    retryDelaysMs: input.retryDelaysMs,
    isDuplicating: input.isDuplicating,
  });
  const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text, 'utf8').digest('base64');
  return {
    ...sender,
    notify(fields, options = {}) {
      const secret = options.signingSecret ?? input.apiSecret;
      const isJson = input.format === 'json';
      const body = isJson
        ? JSON.stringify(fields)
        : new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, formValue(value)])).toString();
      const decoded = isJson ? body : decodeURIComponent(body.replace(/\+/g, ' '));
      sender.send({
        body,
        headers: {
          'content-type': isJson ? 'application/json' : 'application/x-www-form-urlencoded',
          'content-hmac': hmac(secret, body),
          'x-content-hmac': hmac(secret, decoded),
        },
      });
    },
  };
}

function formValue(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  return typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(2) : String(value);
}
