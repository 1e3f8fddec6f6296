import { ConfigError, readConfig, type Config } from '../config/config.ts';
import type { MasterKey } from '../config/master-key.ts';
import { loadVerifiedMasterKey } from '../config/verify-master-key.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { systemClock } from '../lib/clock.ts';
import { cryptoIds } from '../lib/ids.ts';
import { createSecretBox } from '../lib/secret-box.ts';
import { prepareDatabase } from '../prepare-database.ts';
import { StartupError } from '../startup-error.ts';
import { runBackupCommand } from './backup-commands.ts';
import { runBalanceCommand } from './balance-commands.ts';
import { UsageError, type CliContext } from './cli-context.ts';
import { runKeyCommand } from './key-commands.ts';
import { runModelCommand } from './model-commands.ts';
import { runRouteCommand } from './route-commands.ts';
import { runUserCommand } from './user-commands.ts';
import { runAuditCommand } from './audit-commands.ts';
import { runOperatorCommand } from './operator-commands.ts';

const usage = `usage: npm run cli -- <command>
  migrate
  backup --to FILE   (SQLite, while the gateway serves; PostgreSQL: pg_dump)
  user create --email E --password P [--admin] [--balance-usd N]
  user list [--limit N] | user set-password --email E --password P | user block --email E | user unblock --email E
  key create --email E [--name N] | key list --email E | key revoke --email E --id ID
  balance credit --email E --usd N --reason R [--idempotency-key K]
  route add --model M --provider P --base-url U --api-key K [--upstream-model X] [route settings]
  route update --id ID [--base-url U] [--api-key K] [--upstream-model X] [route settings]
  route list | route disable --id ID | route enable --id ID
    route settings: [--priority N] [--weight N] [--input-cost-usd N] [--output-cost-usd N] [--cached-input-cost-usd N]
      [--per-image-cost-usd N] [--max-concurrency N]
      [--connect-timeout-ms N] [--first-byte-timeout-ms N] [--idle-timeout-ms N] [--reserved-for USER_ID,…]
      [--api-version V (azure)] [--vertex-project P --vertex-location L (vertex)]; "none" clears a setting
  model list [--retired] | model set-price --model M [--input-usd N] [--output-usd N] [--cached-input-usd N]
    [--per-request-usd N] [--reason R] [--confirm-below-cost]
  model add --id ID --kind text|image --name N --family F --context-length N [--max-output-tokens N] [model fields]
  model update --model M [model fields] | model retire --model M [--successor S] | model restore --model M
    model fields: [--provider P] [--upstream-model X] [--capabilities tools,vision,json_schema,reasoning,web_search]
      [--list-input-usd N] [--list-output-usd N] [--list-cached-input-usd N] [--list-per-image-usd N] [--input-usd N]
      [--output-usd N] [--cached-input-usd N] [--per-image-usd N] [--reason R] [--confirm-below-cost]
  model image-tiers --model M | model set-image-tier --model M [--quality Q] [--size S] --list-usd N
  model delete-image-tier --model M [--quality Q] [--size S]   (no --quality/--size: the tier for any)
  model sync [--apply all|ID,ID,…]   (compare with the genai-prices data and the vendors' model lists; apply)
  audit export [--format jsonl|csv] [--from ISO] [--to ISO]
  operator reset-totp --email E`;

type Command = (context: CliContext, action: string | undefined, args: readonly string[]) => Promise<void>;

const commands: Record<string, Command> = {
  migrate: async (context) => {
    context.print('migrations applied and catalogue seeded; the database is up to date');
  },
  user: runUserCommand,
  key: runKeyCommand,
  balance: runBalanceCommand,
  backup: runBackupCommand,
  route: runRouteCommand,
  model: runModelCommand,
  audit: runAuditCommand,
  operator: runOperatorCommand,
};

/**
 * Argument checks that need no database, run before it is opened: every command migrates the database first, so
 * `migrate` with a stray argument would otherwise apply the migrations and only then refuse.
 */
const argumentChecks: Partial<Record<string, (args: readonly string[]) => void>> = {
  migrate: (args) => {
    if (args.length > 0) throw new UsageError(`migrate takes no arguments, got "${args.join(' ')}"`);
  },
};

/** The operator CLI: works on the same DATA_DIR or DATABASE_URL as a running server, which sees changes within a second. */
async function main(argv: readonly string[]): Promise<number> {
  const [group, ...rest] = argv;
  const command = group === undefined ? undefined : commands[group];
  if (group === undefined || !command) {
    process.stderr.write(
      `${group === undefined || group === '--help' ? '' : `unknown command "${group}"\n`}${usage}\n`,
    );
    return group === '--help' ? 0 : 2;
  }
  argumentChecks[group]?.(rest);
  const config = readConfig();
  const database = openDatabase(config.database);
  try {
    await prepareDatabase({ db: database.db, clock: systemClock }, config);
    const [action, ...args] = rest;
    // Only route commands seal or open vendor credentials; they need this database's master key (and refuse another).
    const secretBox =
      group === 'route' || (group === 'model' && action === 'sync')
        ? createSecretBox((await loadCliMasterKey(database.db, config)).key)
        : undefined;
    await command(
      {
        db: database.db,
        config,
        clock: systemClock,
        ids: cryptoIds,
        secretBox: () => {
          if (!secretBox) throw new Error(`the ${group} command has no master key`);
          return secretBox;
        },
        print: (line) => process.stdout.write(`${line}\n`),
      },
      action,
      args,
    );
    return 0;
  } finally {
    await database.close();
  }
}

async function loadCliMasterKey(db: Database, config: Config): Promise<MasterKey> {
  const masterKey = await loadVerifiedMasterKey(
    { db, nowMs: () => systemClock.nowMs() },
    { masterKeyHex: config.masterKeyHex, dataDir: config.dataDir },
  );
  if (masterKey.source === 'generated') {
    process.stderr.write(
      `warning: MASTER_KEY is not set: generated ${masterKey.filePath}; back it up, it seals vendor credentials, ` +
        'and give the same key to the server\n',
    );
  }
  return masterKey;
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    process.stderr.write(`error: ${error.message}\n${usage}\n`);
    process.exitCode = 2;
  } else if (error instanceof ConfigError || error instanceof GatewayError || error instanceof StartupError) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exitCode = error instanceof ConfigError ? 2 : 1;
  } else {
    const code = (error as NodeJS.ErrnoException).code;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `error: ${code === 'ECONNREFUSED' ? 'cannot reach the database (is it running at DATABASE_URL?)' : message}\n`,
    );
    process.exitCode = 1;
  }
}
