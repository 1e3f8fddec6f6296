/** The languages account mail is written in. */
export type MailLocale = 'en' | 'ru';

/** One rendered message: plain text and HTML of the same content. Never carries prompt or completion text. */
export type MailMessage = {
  readonly to: string;
  /** What the mail is about (a template name), kept with outbox mail and logged instead of the text. */
  readonly kind: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
};

/** Where mail goes: an SMTP server, or the operator's outbox when none is configured (pages and logs say which). */
export type MailTransport = {
  readonly delivery: 'smtp' | 'outbox';
  send: (message: MailMessage) => Promise<void>;
  close: () => Promise<void>;
};

/**
 * Account mail, posted without waiting: a request never waits for an SMTP round trip (so a password-reset answer
 * takes as long whether or not the address exists), and a failed send is reported, not thrown at the caller.
 */
export type Mailer = {
  readonly delivery: MailTransport['delivery'];
  post: (message: MailMessage) => void;
  /** Resolves once every message posted so far has been sent or has failed. */
  flush: () => Promise<void>;
  /** Flushes, then closes the transport. */
  close: () => Promise<void>;
};

/** A mailer over a transport; `onError` hears of each message that could not be sent (by kind, never its text). */
export function createMailer(input: {
  transport: MailTransport;
  onError: (failure: { kind: string; error: unknown }) => void;
}): Mailer {
  const pending = new Set<Promise<void>>();
  const flush = async () => {
    await Promise.all([...pending]);
  };
  return {
    delivery: input.transport.delivery,
    post: (message) => {
      const sending = input.transport
        .send(message)
        .catch((error: unknown) => input.onError({ kind: message.kind, error }))
        .finally(() => pending.delete(sending));
      pending.add(sending);
    },
    flush,
    close: async () => {
      await flush();
      await input.transport.close();
    },
  };
}
