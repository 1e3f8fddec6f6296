import { z } from 'zod';

/** A decimal amount with at most `decimals` decimals, read exactly (no float) into integer units of 10^-decimals. */
function decimalAsInteger(input: { decimals: number; max: number; what: string }) {
  return z.string().transform((text, context) => {
    const match = new RegExp(`^(\\d{1,9})(?:\\.(\\d{1,${input.decimals}}))?$`).exec(text.trim());
    const value = match
      ? Number(match[1]) * 10 ** input.decimals + Number((match[2] ?? '').padEnd(input.decimals, '0'))
      : undefined;
    if (value === undefined || value <= 0 || value > input.max * 10 ** input.decimals) {
      context.addIssue(
        `must be ${input.what} above 0 and at most ${input.max}, with at most ${input.decimals} decimals`,
      );
      return z.NEVER;
    }
    return value;
  });
}

const methodIds = ['card_rub', 'sbp', 'yoo_money', 'card_usd'] as const;
const providerIds = ['yookassa', 'stripe', 'cloudpayments'] as const;
type MethodProviders = Readonly<Partial<Record<(typeof methodIds)[number], (typeof providerIds)[number]>>>;

/** `card_rub=cloudpayments,sbp=yookassa`: which provider serves a method that several could. */
const methodProvidersSchema = z
  .string()
  .default('')
  .transform((text, context): MethodProviders => {
    const choices: Partial<Record<string, string>> = {};
    for (const entry of text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const [method = '', provider = ''] = entry.split('=').map((part) => part.trim());
      if (!methodIds.some((id) => id === method) || !providerIds.some((id) => id === provider)) {
        context.addIssue(
          `"${entry}" must be <method>=<provider>, a method of ${methodIds.join(', ')} and a provider of ${providerIds.join(', ')}`,
        );
        return z.NEVER;
      }
      choices[method] = provider;
    }
    return Object.freeze(choices) as MethodProviders;
  });

/** The payment keys of the environment schema (a pair of credentials configures one provider in live mode) (docs/configuration.md §Payments). */
export const paymentEnvironmentShape = {
  YOOKASSA_SHOP_ID: z.string().min(1).optional(),
  YOOKASSA_SECRET_KEY: z.string().min(1).optional(),
  /** The 54-FZ receipt's VAT code, per the shop's tax system (1 = no VAT). */
  YOOKASSA_VAT_CODE: z.coerce.number().int().min(1).max(12).default(1),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  CLOUDPAYMENTS_PUBLIC_ID: z.string().min(1).optional(),
  CLOUDPAYMENTS_API_SECRET: z.string().min(1).optional(),
  PAYMENT_SANDBOX: z.enum(['on', 'off', 'auto']).default('auto'),
  PAYMENT_METHOD_PROVIDERS: methodProvidersSchema,
  /** The account-level extended public key (m/44'/195'/0') USDT deposit addresses derive from (docs/payments.md §USDT). */
  USDT_TRON_XPUB: z.string().min(1).optional(),
  NOWPAYMENTS_API_KEY: z.string().min(1).optional(),
  NOWPAYMENTS_IPN_SECRET: z.string().min(1).optional(),
  /** How USDT (TRC20) is taken: watching TRON directly (`direct`) or through NOWPayments (`processor`). */
  USDT_WAY: z.enum(['direct', 'processor']).optional(),
  TRONGRID_URL: z.url({ protocol: /^https?$/ }).default('https://api.trongrid.io'),
  TRONGRID_API_KEY: z.string().min(1).optional(),
  /** The block explorer's page of a TRON transaction, the id appended (the operator console links each transfer). */
  TRON_EXPLORER_TX_URL: z.url({ protocol: /^https?$/ }).default('https://tronscan.org/#/transaction/'),
  /** USDT asked per 1 USD of credit (1 = at par), locked on each order. */
  USDT_PER_USD: decimalAsInteger({ decimals: 6, max: 10, what: 'USDT per USD' }).default(1_000_000),
  USDT_TRON_POLL_SECONDS: z.coerce.number().int().min(3).max(3600).default(30),
  USDT_TRON_WATCH_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  TOP_UP_MIN_RUB: decimalAsInteger({ decimals: 2, max: 10_000_000, what: 'a RUB amount' }).default(20_000),
  TOP_UP_MIN_USD: decimalAsInteger({ decimals: 2, max: 100_000, what: 'a USD amount' }).default(500),
  TOP_UP_ORDER_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .default(60),
  FX_MARKUP_PERCENT: z
    .string()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, 'must be a percentage from 0 to 99.99 with at most 2 decimals')
    .default('0'),
  FX_FIXED_RUB_PER_USD: decimalAsInteger({ decimals: 6, max: 100_000, what: 'roubles per dollar' }).optional(),
  FX_CBR_URL: z.url({ protocol: /^https?$/ }).default('https://www.cbr.ru/scripts/XML_daily.asp'),
  FX_REFRESH_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  FX_MAX_RATE_AGE_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 14)
    .default(72),
};

type PaymentEnvironment = {
  YOOKASSA_SHOP_ID?: string | undefined;
  YOOKASSA_SECRET_KEY?: string | undefined;
  YOOKASSA_VAT_CODE: number;
  STRIPE_SECRET_KEY?: string | undefined;
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  CLOUDPAYMENTS_PUBLIC_ID?: string | undefined;
  CLOUDPAYMENTS_API_SECRET?: string | undefined;
  PAYMENT_SANDBOX: 'on' | 'off' | 'auto';
  PAYMENT_METHOD_PROVIDERS: MethodProviders;
  USDT_TRON_XPUB?: string | undefined;
  NOWPAYMENTS_API_KEY?: string | undefined;
  NOWPAYMENTS_IPN_SECRET?: string | undefined;
  USDT_WAY?: 'direct' | 'processor' | undefined;
  TRONGRID_URL: string;
  TRONGRID_API_KEY?: string | undefined;
  TRON_EXPLORER_TX_URL: string;
  USDT_PER_USD: number;
  USDT_TRON_POLL_SECONDS: number;
  USDT_TRON_WATCH_HOURS: number;
  TOP_UP_MIN_RUB: number;
  TOP_UP_MIN_USD: number;
  TOP_UP_ORDER_TTL_MINUTES: number;
  FX_MARKUP_PERCENT: string;
  FX_FIXED_RUB_PER_USD?: number | undefined;
  FX_CBR_URL: string;
  FX_REFRESH_INTERVAL_MINUTES: number;
  FX_MAX_RATE_AGE_HOURS: number;
};

/** Payment settings as decided from the environment. */
export type PaymentConfig = {
  /** Sandbox payments: `on`, or `auto` with no payment credential set (the providers' simulators then take payments). */
  readonly isSandbox: boolean;
  readonly yookassa: { readonly shopId: string; readonly secretKey: string } | undefined;
  readonly yookassaVatCode: number;
  readonly stripe: { readonly secretKey: string; readonly webhookSecret: string } | undefined;
  readonly cloudPayments: { readonly publicId: string; readonly apiSecret: string } | undefined;
  /** The operator's provider for a method several providers serve (`PAYMENT_METHOD_PROVIDERS`); else the first. */
  readonly methodProviders: MethodProviders;
  /** USDT on TRON watched directly (set by USDT_TRON_XPUB); the xpub is checked when payments start. */
  readonly usdtTron: UsdtTronConfig | undefined;
  readonly nowPayments: { readonly apiKey: string; readonly ipnSecret: string } | undefined;
  /** Which way serves `usdt_trc20`: USDT_WAY, else direct when an xpub is set, else the processor when it is set. */
  readonly usdtWay: 'direct' | 'processor';
  /** Where the console links a TRON transaction: this URL with the transaction id appended. */
  readonly tronExplorerTxUrl: string;
  /** The smallest top-up per currency, in minor units (kopecks, cents). */
  readonly minimumMinorUnits: { readonly RUB: number; readonly USD: number };
  readonly orderTtlMs: number;
  readonly fx: {
    readonly markupBasisPoints: number;
    /** The operator's own rate, micro-roubles per USD; when set the CBR feed is not used. */
    readonly fixedMicroRoublesPerUsd: number | undefined;
    readonly cbrUrl: string;
    readonly refreshIntervalMs: number;
    readonly maxRateAgeMs: number;
  };
};

export type UsdtTronConfig = {
  readonly xpub: string;
  readonly tronGridUrl: string;
  readonly apiKey: string | undefined;
  readonly microUsdtPerUsd: number;
  readonly pollIntervalMs: number;
  readonly watchWindowMs: number;
};

export function readPaymentConfig(values: PaymentEnvironment): PaymentConfig {
  const pair = <First extends string, Second extends string>(
    first: string | undefined,
    second: string | undefined,
    names: [First, Second],
  ) =>
    first !== undefined && second !== undefined
      ? ({ [names[0]]: first, [names[1]]: second } as Record<First | Second, string>)
      : undefined;
  const yookassa = pair(values.YOOKASSA_SHOP_ID, values.YOOKASSA_SECRET_KEY, ['shopId', 'secretKey']);
  const stripe = pair(values.STRIPE_SECRET_KEY, values.STRIPE_WEBHOOK_SECRET, ['secretKey', 'webhookSecret']);
  const cloudPayments = pair(values.CLOUDPAYMENTS_PUBLIC_ID, values.CLOUDPAYMENTS_API_SECRET, [
    'publicId',
    'apiSecret',
  ]);
  const usdtTron: UsdtTronConfig | undefined =
    values.USDT_TRON_XPUB === undefined
      ? undefined
      : Object.freeze({
          xpub: values.USDT_TRON_XPUB,
          tronGridUrl: values.TRONGRID_URL.replace(/\/+$/, ''),
          apiKey: values.TRONGRID_API_KEY,
          microUsdtPerUsd: values.USDT_PER_USD,
          pollIntervalMs: values.USDT_TRON_POLL_SECONDS * 1000,
          watchWindowMs: values.USDT_TRON_WATCH_HOURS * 3_600_000,
        });
  const nowPayments = pair(values.NOWPAYMENTS_API_KEY, values.NOWPAYMENTS_IPN_SECRET, ['apiKey', 'ipnSecret']);
  const hasCredential =
    yookassa !== undefined ||
    stripe !== undefined ||
    cloudPayments !== undefined ||
    usdtTron !== undefined ||
    nowPayments !== undefined;
  const [whole = '0', fraction = ''] = values.FX_MARKUP_PERCENT.split('.');
  return Object.freeze({
    isSandbox: values.PAYMENT_SANDBOX === 'on' || (values.PAYMENT_SANDBOX === 'auto' && !hasCredential),
    yookassa,
    yookassaVatCode: values.YOOKASSA_VAT_CODE,
    stripe,
    cloudPayments,
    methodProviders: values.PAYMENT_METHOD_PROVIDERS,
    usdtTron,
    nowPayments,
    usdtWay: values.USDT_WAY ?? (usdtTron === undefined && nowPayments !== undefined ? 'processor' : 'direct'),
    tronExplorerTxUrl: values.TRON_EXPLORER_TX_URL,
    minimumMinorUnits: Object.freeze({ RUB: values.TOP_UP_MIN_RUB, USD: values.TOP_UP_MIN_USD }),
    orderTtlMs: values.TOP_UP_ORDER_TTL_MINUTES * 60_000,
    fx: Object.freeze({
      markupBasisPoints: Number(whole) * 100 + Number(fraction.padEnd(2, '0')),
      fixedMicroRoublesPerUsd: values.FX_FIXED_RUB_PER_USD,
      cbrUrl: values.FX_CBR_URL,
      refreshIntervalMs: values.FX_REFRESH_INTERVAL_MINUTES * 60_000,
      maxRateAgeMs: values.FX_MAX_RATE_AGE_HOURS * 3_600_000,
    }),
  });
}
