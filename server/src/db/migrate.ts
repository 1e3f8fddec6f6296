import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as foundation from './migrations/0001-foundation.ts';
import * as usageRecords from './migrations/0002-usage-records.ts';
import * as sessions from './migrations/0003-sessions.ts';
import * as routeSettings from './migrations/0004-route-settings.ts';
import * as encryptedChats from './migrations/0005-encrypted-chats.ts';
import * as operatorAndSubscriptions from './migrations/0006-operator-and-subscriptions.ts';
import * as imagePriceTiers from './migrations/0007-image-price-tiers.ts';
import * as tokenLimitsAndCacheWrites from './migrations/0008-token-limits-and-cache-writes.ts';
import * as imagePriceTierSeeds from './migrations/0009-image-price-tier-seeds.ts';
import * as instanceSettings from './migrations/0010-instance-settings.ts';
import * as balanceVersions from './migrations/0011-balance-versions.ts';
import * as disabledImplicitRoutes from './migrations/0015-disabled-implicit-routes.ts';
import * as routeVendorOptions from './migrations/0016-route-vendor-options.ts';
import * as topUpOrders from './migrations/0020-top-up-orders.ts';
import * as cryptoDeposits from './migrations/0030-crypto-deposits.ts';
import * as modelsAsData from './migrations/0040-models-as-data.ts';
import * as routeCosts from './migrations/0041-route-costs.ts';
import * as accountEmail from './migrations/0050-account-email.ts';
import * as accountAlerts from './migrations/0051-account-alerts.ts';
import * as auditEvents from './migrations/0060-audit-events.ts';
import * as accountDeletion from './migrations/0052-account-deletion.ts';
import * as operatorTotp from './migrations/0061-operator-totp.ts';
import * as listPriceChanges from './migrations/0110-list-price-changes.ts';
import * as keySpendBudgets from './migrations/0120-key-spend-budgets.ts';
import * as dropLedgerKindIndex from './migrations/0130-drop-ledger-kind-index.ts';

/** Forward-only migrations, in order. Written with Kysely's schema builder so one file serves SQLite and PostgreSQL. */
const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-usage-records': usageRecords,
  '0003-sessions': sessions,
  '0004-route-settings': routeSettings,
  '0005-encrypted-chats': encryptedChats,
  '0006-operator-and-subscriptions': operatorAndSubscriptions,
  '0007-image-price-tiers': imagePriceTiers,
  '0008-token-limits-and-cache-writes': tokenLimitsAndCacheWrites,
  '0009-image-price-tier-seeds': imagePriceTierSeeds,
  '0010-instance-settings': instanceSettings,
  '0011-balance-versions': balanceVersions,
  '0015-disabled-implicit-routes': disabledImplicitRoutes,
  '0016-route-vendor-options': routeVendorOptions,
  '0020-top-up-orders': topUpOrders,
  '0030-crypto-deposits': cryptoDeposits,
  '0040-models-as-data': modelsAsData,
  '0041-route-costs': routeCosts,
  '0050-account-email': accountEmail,
  '0051-account-alerts': accountAlerts,
  '0060-audit-events': auditEvents,
  '0052-account-deletion': accountDeletion,
  '0061-operator-totp': operatorTotp,
  '0110-list-price-changes': listPriceChanges,
  '0120-key-spend-budgets': keySpendBudgets,
  '0130-drop-ledger-kind-index': dropLedgerKindIndex,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies every pending migration; returns the names applied. Throws on the first failure. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the migrator works on any schema
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  // Migrations are independent of each other, so one written in parallel with a later number still applies.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
