import { z } from 'zod';

const onOff = z.enum(['on', 'off']);

/** The account keys of the environment schema: SMTP, links, the welcome balance's moment, sign-up abuse limits (docs/accounts.md). */
export const accountEnvironmentShape = {
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  /** `starttls` (upgrade required), `tls` (implicit TLS, usually port 465) or `none` (a relay on loopback). */
  SMTP_SECURITY: z.enum(['starttls', 'tls', 'none']).default('starttls'),
  SMTP_USER: z.string().min(1).optional(),
  SMTP_PASSWORD: z.string().min(1).optional(),
  MAIL_FROM: z.string().min(3).max(320).optional(),
  WELCOME_BALANCE_AT: z.enum(['sign-up', 'verification', 'first-payment']).default('verification'),
  VERIFY_LINK_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(48),
  RESET_LINK_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .default(60),
  /** The switch for tests and trusted installs: `off` turns off the proof of work and the sign-up throttles below. */
  SIGNUP_ABUSE_CHECKS: onOff.default('on'),
  SIGNUP_CHALLENGE: onOff.default('on'),
  SIGNUP_CHALLENGE_MAX_NUMBER: z.coerce.number().int().min(1000).max(10_000_000).default(100_000),
  SIGNUPS_PER_ADDRESS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(3),
  SIGNUPS_PER_NETWORK_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(10),
  DISPOSABLE_EMAIL_DOMAINS_FILE: z.string().min(1).optional(),
  USAGE_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(0),
};

type AccountEnvironment = {
  SMTP_HOST?: string | undefined;
  SMTP_PORT: number;
  SMTP_SECURITY: 'starttls' | 'tls' | 'none';
  SMTP_USER?: string | undefined;
  SMTP_PASSWORD?: string | undefined;
  MAIL_FROM?: string | undefined;
  WELCOME_BALANCE_AT: 'sign-up' | 'verification' | 'first-payment';
  VERIFY_LINK_TTL_HOURS: number;
  RESET_LINK_TTL_MINUTES: number;
  SIGNUP_ABUSE_CHECKS: 'on' | 'off';
  SIGNUP_CHALLENGE: 'on' | 'off';
  SIGNUP_CHALLENGE_MAX_NUMBER: number;
  SIGNUPS_PER_ADDRESS_PER_DAY: number;
  SIGNUPS_PER_NETWORK_PER_DAY: number;
  DISPOSABLE_EMAIL_DOMAINS_FILE?: string | undefined;
  USAGE_RETENTION_DAYS: number;
};

/** An SMTP server to send through; undefined keeps mail in the operator's outbox instead. */
export type SmtpConfig = {
  readonly host: string;
  readonly port: number;
  readonly security: 'starttls' | 'tls' | 'none';
  readonly user: string | undefined;
  readonly password: string | undefined;
  readonly from: string;
};

/** When the welcome balance is credited: at sign-up, when the address is verified, or with the first payment. */
export type WelcomeBalanceMoment = AccountEnvironment['WELCOME_BALANCE_AT'];

/** Account settings as decided from the environment. */
export type AccountConfig = {
  readonly smtp: SmtpConfig | undefined;
  readonly welcomeBalanceAt: WelcomeBalanceMoment;
  readonly verifyLinkTtlMs: number;
  readonly resetLinkTtlMs: number;
  /** The ALTCHA proof of work on sign-up and password reset, with its difficulty (the largest secret number). */
  readonly challenge: { readonly isRequired: boolean; readonly maxNumber: number };
  /** Accounts one client address, and one /24 (IPv4) or /64 (IPv6) network, may open per 24 hours; 0 = no limit. */
  readonly signupsPerAddressPerDay: number;
  readonly signupsPerNetworkPerDay: number;
  readonly disposableEmailDomainsFile: string | undefined;
  /** Usage records older than this many days are deleted by an hourly pass; 0 keeps them for ever. */
  readonly usageRetentionDays: number;
};

/** Reads the account keys; every problem (SMTP without a sender) is returned for the caller to report with the rest. */
export function readAccountConfig(values: AccountEnvironment): { config: AccountConfig; problems: string[] } {
  const problems: string[] = [];
  if (values.SMTP_HOST !== undefined && values.MAIL_FROM === undefined) {
    problems.push('MAIL_FROM: required when SMTP_HOST is set (the sender of account mail)');
  }
  if ((values.SMTP_USER === undefined) !== (values.SMTP_PASSWORD === undefined)) {
    problems.push('SMTP_USER, SMTP_PASSWORD: set both or neither');
  }
  const areChecksOn = values.SIGNUP_ABUSE_CHECKS === 'on';
  const smtp =
    values.SMTP_HOST === undefined
      ? undefined
      : Object.freeze({
          host: values.SMTP_HOST,
          port: values.SMTP_PORT,
          security: values.SMTP_SECURITY,
          user: values.SMTP_USER,
          password: values.SMTP_PASSWORD,
          from: values.MAIL_FROM ?? '',
        });
  const config: AccountConfig = Object.freeze({
    smtp,
    welcomeBalanceAt: values.WELCOME_BALANCE_AT,
    verifyLinkTtlMs: values.VERIFY_LINK_TTL_HOURS * 3_600_000,
    resetLinkTtlMs: values.RESET_LINK_TTL_MINUTES * 60_000,
    challenge: Object.freeze({
      isRequired: areChecksOn && values.SIGNUP_CHALLENGE === 'on',
      maxNumber: values.SIGNUP_CHALLENGE_MAX_NUMBER,
    }),
    signupsPerAddressPerDay: areChecksOn ? values.SIGNUPS_PER_ADDRESS_PER_DAY : 0,
    signupsPerNetworkPerDay: areChecksOn ? values.SIGNUPS_PER_NETWORK_PER_DAY : 0,
    disposableEmailDomainsFile: values.DISPOSABLE_EMAIL_DOMAINS_FILE,
    usageRetentionDays: values.USAGE_RETENTION_DAYS,
  });
  return { config, problems };
}
