import nodemailer from 'nodemailer';
import type { SmtpConfig } from '../config/account-config.ts';
import type { MailTransport } from './mailer.ts';

/**
 * Sends through an SMTP server with nodemailer's pooled transport (a few reused connections, not one per message).
 * `starttls` refuses a server that does not upgrade the connection, so a password never crosses in clear.
 * @see https://nodemailer.com/smtp/
 */
export function createSmtpTransport(config: SmtpConfig): MailTransport {
  const transport = nodemailer.createTransport({
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
  return {
    delivery: 'smtp',
    send: async (message) => {
      await transport.sendMail({
        from: config.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
    },
    close: async () => {
      transport.close();
    },
  };
}
