import type { Database } from '../../db/database.ts';
import { findLatestFxRate, upsertFxRate } from '../../db/fx-rates.ts';
import type { Clock } from '../../lib/clock.ts';
import type { PaymentCurrency, PaymentHttp } from '../payment-provider.ts';
import { fetchCbrUsdRate } from './cbr-daily-rates.ts';
import { usdRate, type LockedRate } from './quote-top-up.ts';

/** The operator's FX rule (docs/payments.md §FX): the CBR rate plus a markup, or a fixed rate of their own. */
export type FxSettings = {
  /** Added to the CBR rate, in basis points (300 = 3%). */
  markupBasisPoints: number;
  /** When set, RUB converts at this many micro-roubles per USD and the feed is not used. */
  fixedMicroRoublesPerUsd: number | undefined;
  /** A stored CBR rate older than this is not quoted (the feed has been failing for too long). */
  maxRateAgeMs: number;
  cbrUrl: string;
};

export type FxDeps = { db: Database; clock: Clock; paymentHttp: PaymentHttp; fx: FxSettings };

/** Fetches the CBR's USD rate and stores it; returns the stored day. The schedule calls this (and start-up). */
export async function refreshFxRate(deps: FxDeps): Promise<string | undefined> {
  if (deps.fx.fixedMicroRoublesPerUsd !== undefined) return undefined;
  const rate = await fetchCbrUsdRate(deps.paymentHttp, { url: deps.fx.cbrUrl });
  await upsertFxRate(deps.db, {
    currency: 'RUB',
    rate_date: rate.rateDate,
    micros_per_usd: rate.microRoublesPerUsd,
    source: 'cbr',
    fetched_at: deps.clock.nowMs(),
  });
  return rate.rateDate;
}

/** The rate a new order of `currency` is locked at, or undefined when no usable rate is known yet. */
export async function findRateToLock(
  deps: Pick<FxDeps, 'db' | 'clock' | 'fx'>,
  currency: PaymentCurrency,
): Promise<LockedRate | undefined> {
  if (currency === 'USD') return usdRate;
  if (deps.fx.fixedMicroRoublesPerUsd !== undefined) {
    return { currency, microsPerUsd: deps.fx.fixedMicroRoublesPerUsd, source: 'fixed', markupBasisPoints: 0 };
  }
  const stored = await findLatestFxRate(deps.db, currency);
  if (!stored || deps.clock.nowMs() - stored.fetched_at > deps.fx.maxRateAgeMs) return undefined;
  return {
    currency,
    microsPerUsd: stored.micros_per_usd,
    source: `${stored.source}:${stored.rate_date}`,
    markupBasisPoints: deps.fx.markupBasisPoints,
  };
}
