import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as a mailbox would show it: parsed from the raw SMTP data. */
export type ReceivedMail = { to: string; from: string; subject: string; text: string; html: string };

export type TestSmtpServer = {
  port: number;
  /** Every message received so far. */
  received: ReceivedMail[];
  /** Waits (up to `timeoutMs`) for the next message to an address that no earlier call returned. */
  waitForMail: (to: string, options?: { timeoutMs?: number }) => Promise<ReceivedMail>;
  /** The environment that points a gateway at this server. */
  environment: Record<string, string>;
  close: () => Promise<void>;
};

/** A real SMTP server on loopback (no TLS, no auth, like a local relay) that keeps what it receives. */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, callback) => {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
          received.push({
            to: to?.value[0]?.address ?? '',
            from: parsed.from?.value[0]?.address ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          callback();
        })
        .catch((error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    waitForMail: async (to, options = {}) => {
      const deadline = Date.now() + (options.timeoutMs ?? 5000);
      for (;;) {
        const mail = received.find((candidate) => candidate.to === to && !taken.has(candidate));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within the time`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    environment: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_SECURITY: 'none',
      MAIL_FROM: 'Gateway <noreply@gateway.test>',
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that opens the given page of the site. */
export function readLink(mail: ReceivedMail, pagePath: string): URL {
  const match = new RegExp(`https?://\\S+${pagePath}\\?token=[\\w%-]+`).exec(mail.text);
  if (!match) throw new Error(`no ${pagePath} link in the mail "${mail.subject}"`);
  return new URL(match[0]);
}
