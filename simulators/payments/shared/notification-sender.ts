import { setTimeout as sleep } from 'node:timers/promises';

export type Notification = { body: string; headers: Record<string, string> };

/** One attempt to deliver a notification, as the simulator recorded it. */
export type DeliveryAttempt = { body: string; status: number | undefined; attempt: number };

export type NotificationSenderOptions = {
  notificationUrl: string;
  /** Waits between re-deliveries after a non-2xx answer or a network error; the list's length caps the retries. */
  retryDelaysMs: readonly number[];
  /** Sends every notification twice, as providers sometimes do. */
  isDuplicating?: boolean;
};

export type NotificationSender = {
  /** Sends in the background, re-delivering as the provider does; `whenIdle` waits for every delivery to settle. */
  send: (notification: Notification) => void;
  whenIdle: () => Promise<void>;
  attempts: () => readonly DeliveryAttempt[];
  /** Keeps notifications back until `release`, to deliver them out of order (a refund before its payment). */
  hold: () => void;
  release: (input: { isReversed: boolean }) => void;
};

/** Delivers notifications to the gateway the way a provider does: POST, and re-delivery with back-off on non-2xx. */
export function createNotificationSender(options: NotificationSenderOptions): NotificationSender {
  const attempts: DeliveryAttempt[] = [];
  const inFlight = new Set<Promise<void>>();
  let held: Notification[] | undefined;

  function start(notification: Notification): void {
    const delivery = deliver(notification).finally(() => inFlight.delete(delivery));
    inFlight.add(delivery);
  }

  async function deliver(notification: Notification): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      const status = await postOnce(options.notificationUrl, notification);
      attempts.push({ body: notification.body, status, attempt });
      if (status !== undefined && status >= 200 && status < 300) return;
      const delayMs = options.retryDelaysMs[attempt];
      if (delayMs === undefined) return;
      await sleep(delayMs);
    }
  }

  return {
    send(notification) {
      const copies = options.isDuplicating ? [notification, notification] : [notification];
      if (held) held.push(...copies);
      else copies.forEach(start);
    },
    hold() {
      held ??= [];
    },
    release({ isReversed }) {
      const released = held ?? [];
      held = undefined;
      // One after another, so the chosen order is the order the gateway sees them in.
      const ordered = isReversed ? released.reverse() : released;
      const chain = ordered
        .reduce<Promise<void>>(
          (previous, notification) => previous.then(() => deliver(notification)),
          Promise.resolve(),
        )
        .finally(() => inFlight.delete(chain));
      inFlight.add(chain);
    },
    async whenIdle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    attempts: () => attempts,
  };
}

async function postOnce(url: string, notification: Notification): Promise<number | undefined> {
  try {
    const answer = await fetch(url, { method: 'POST', headers: notification.headers, body: notification.body });
    await answer.arrayBuffer();
    return answer.status;
  } catch {
    return undefined;
  }
}
