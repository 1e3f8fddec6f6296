import type { Transporter } from 'nodemailer';
import type { SmtpConfig } from '../config/account-config.ts';
import type { MailTransport } from './mailer.ts';

/**
 * Sends through an SMTP server with nodemailer's pooled transport (a few reused connections, not one per message).
 * `starttls` refuses a server that does not upgrade the connection, so a password never crosses in clear.
 * @see https://nodemailer.com/smtp/
 */
export function createSmtpTransport(config: SmtpConfig): MailTransport {
  let transport: Promise<Transporter> | undefined;
  return {
    delivery: 'smtp',
    send: async (message) => {
      transport ??= openTransport(config);
      const opened = await transport;
      await opened.sendMail({
        from: config.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
    close: async () => {
      if (transport !== undefined) (await transport).close();
    },
  };
}

/**
 * nodemailer is loaded with the first message, not at start: it is about 5 MB of heap that a gateway which sends no
 * mail would hold for good. It opens no connection before a message either way.
 */
async function openTransport(config: SmtpConfig): Promise<Transporter> {
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport({
    pool: true,
    maxConnections: 3,
    host: config.host,
    port: config.port,
    secure: config.security === 'tls',
    requireTLS: config.security === 'starttls',
    ignoreTLS: config.security === 'none',
    ...(config.user === undefined ? {} : { auth: { user: config.user, pass: config.password ?? '' } }),
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}
