import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import { loadDisposableEmailDomains } from './accounts/load-disposable-email-domains.ts';
import { createMemoryChallengeReplayGuard, createRedisChallengeReplayGuard } from './accounts/sign-up-challenge.ts';
import type { Config } from './config/config.ts';
import { systemClock } from './lib/clock.ts';
import { cryptoIds } from './lib/ids.ts';
import { createOutboxTransport } from './mail/create-outbox-transport.ts';
import { createSmtpTransport } from './mail/create-smtp-transport.ts';
import { createMailer } from './mail/mailer.ts';
import type { Storage } from './start-gateway.ts';

export type AccountMail = ReturnType<typeof startAccountMail>;

/**
 * Account mail (SMTP, or the outbox while none is configured) and the settings of the account flows: link lifetimes,
 * the welcome balance's moment, the sign-up challenge and limits. The mailer is closed (its queue sent) before the
 * database it may write to.
 */
export function startAccountMail(
  stack: AsyncDisposableStack,
  input: { config: Config; logger: Logger; storage: Pick<Storage, 'database' | 'redis' | 'masterKey'> },
) {
  const { config, logger, storage } = input;
  const settings = config.accounts;
  const transport = settings.smtp
    ? createSmtpTransport(settings.smtp)
    : createOutboxTransport({ db: storage.database.db, clock: systemClock, ids: cryptoIds });
  if (!settings.smtp) {
    logger.warn(
      'SMTP_HOST is not set: account mail is kept in the operator outbox (the Outbox tab of /operator), not sent',
    );
  }
  const mailer = stack.adopt(
    createMailer({
      transport,
      onError: ({ kind, error }) => logger.error({ err: error, kind }, 'account mail could not be sent'),
    }),
    (running) => running.close(),
  );
  const replays = storage.redis
    ? createRedisChallengeReplayGuard({ redis: storage.redis, keyPrefix: 'gw:', clock: systemClock })
    : createMemoryChallengeReplayGuard({ clock: systemClock });
  return {
    mailer,
    mailDelivery: transport.delivery,
    accountLinks: { verifyLinkTtlMs: settings.verifyLinkTtlMs, resetLinkTtlMs: settings.resetLinkTtlMs },
    welcomeBalance: { amountMicros: config.welcomeBalanceMicros, creditedAt: settings.welcomeBalanceAt },
    welcomeOnFirstPayment: welcomeOnFirstPayment(config),
    challenge: {
      ...settings.challenge,
      // Derived from the master key, so every node of one install signs and checks challenges alike.
      hmacKey: createHmac('sha256', storage.masterKey).update('altcha-sign-up-challenge').digest('hex'),
      replays,
    },
    signUpLimits: {
      perAddressPerDay: settings.signupsPerAddressPerDay,
      perNetworkPerDay: settings.signupsPerNetworkPerDay,
      disposableEmailDomains: loadDisposableEmailDomains(settings.disposableEmailDomainsFile),
    },
  };
}

/** The welcome balance that waits for an account's first credited payment, or undefined when it comes at another time. */
export function welcomeOnFirstPayment(config: Config): { amountMicros: number } | undefined {
  return config.accounts.welcomeBalanceAt === 'first-payment'
    ? { amountMicros: config.welcomeBalanceMicros }
    : undefined;
}
