import type { Logger } from 'pino';
import { notifyLowBalances } from './alerts/notify-low-balances.ts';
import { createOperatorAlerts } from './alerts/operator-alerts.ts';
import { remindSubscriptionRenewals } from './alerts/remind-subscription-renewals.ts';
import { watchRouteCircuits } from './alerts/watch-route-circuits.ts';
import { watchSearchFailures } from './alerts/watch-search-failures.ts';
import type { RouteTable } from './catalog/route-table.ts';
import type { Database } from './db/database.ts';
import { systemClock } from './lib/clock.ts';
import type { Mailer } from './mail/mailer.ts';
import { pruneUsageRecords } from './accounts/prune-usage-records.ts';
import type { Routing } from './routing/create-routing.ts';
import type { SearchEngine } from './search/search-engine.ts';
import { scheduleRenewals } from './subscriptions/schedule-renewals.ts';

/** How often the alert passes run: balances and renewals each minute, route circuits every few seconds. */
const alertPassIntervalMs = 60_000;
const circuitCheckIntervalMs = 5_000;
const retentionPassIntervalMs = 60 * 60 * 1000;

/**
 * The account jobs: alerts (low balance, renewal reminder, route circuits), the usage retention pass, and the search
 * engine wrapped to count failures. Each job is stopped through the stack before the mailer and the database close.
 */
export function startAccountJobs(
  stack: AsyncDisposableStack,
  input: {
    logger: Logger;
    db: Database;
    mailer: Mailer;
    publicBaseUrl: string;
    routing: Routing;
    routeTable: RouteTable;
    searchEngine: SearchEngine;
    /** Usage records older than this many days are deleted; 0 keeps them for ever. */
    usageRetentionDays: number;
  },
): { searchEngine: SearchEngine } {
  const { logger } = input;
  const deps = { db: input.db, clock: systemClock, mailer: input.mailer, publicBaseUrl: input.publicBaseUrl };
  const consoleUrl = `${input.publicBaseUrl}/operator`;
  const alerts = createOperatorAlerts({
    ...deps,
    onError: (error) => logger.error({ err: error }, 'operator alert could not be mailed'),
  });
  const onError = (error: unknown) => logger.error({ err: error }, 'alert pass failed');
  for (const pass of [notifyLowBalances, remindSubscriptionRenewals]) {
    const job = scheduleRenewals({ intervalMs: alertPassIntervalMs, renew: () => pass(deps), onError });
    stack.defer(() => job.stop());
  }
  const circuits = watchRouteCircuits({ routeTable: input.routeTable, routing: input.routing, alerts, consoleUrl });
  const circuitJob = scheduleRenewals({
    intervalMs: circuitCheckIntervalMs,
    renew: async () => circuits.check(),
    onError,
  });
  stack.defer(() => circuitJob.stop());
  if (input.usageRetentionDays > 0) {
    const retentionJob = scheduleRenewals({
      intervalMs: retentionPassIntervalMs,
      renew: () => pruneUsageRecords({ ...deps, retentionDays: input.usageRetentionDays }),
      onError: (error) => logger.error({ err: error }, 'usage retention pass failed'),
    });
    stack.defer(() => retentionJob.stop());
  }
  return { searchEngine: watchSearchFailures(input.searchEngine, { alerts, consoleUrl }) };
}
