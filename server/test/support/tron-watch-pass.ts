/**
 * One pass of the USDT chain watcher in a process of its own, for the crash test (`kill -9` while it credits). Reads
 * TRON_WATCH_PASS as JSON: the database config, the TronGrid URL and the xpub. Prints "done" when the pass ends.
 */
import { Agent } from 'undici';
import { openDatabase, type DatabaseConfig } from '../../src/db/database.ts';
import { cryptoIds } from '../../src/lib/ids.ts';
import { createPaymentHttp } from '../../src/payments/create-payment-http.ts';
import { createTronDepositStore } from '../../src/payments/create-tron-deposit-store.ts';
import { parseTronXpub } from '../../src/payments/providers/tron/tron-address.ts';
import { createTronProvider } from '../../src/payments/providers/tron/tron-provider.ts';
import { watchTronDeposits } from '../../src/payments/providers/tron/watch-tron-deposits.ts';

const input = JSON.parse(process.env.TRON_WATCH_PASS ?? '{}') as {
  database: DatabaseConfig;
  tronGridUrl: string;
  xpub: string;
};
const handle = openDatabase(input.database);
const agent = new Agent();
const clock = { nowMs: () => Date.now() };
const provider = createTronProvider({
  account: parseTronXpub(input.xpub),
  store: createTronDepositStore({ db: handle.db, clock }),
  microUsdtPerUsd: 1_000_000,
  isSandbox: true,
});
await watchTronDeposits({
  db: handle.db,
  clock,
  ids: cryptoIds,
  onBalancesChanged: async () => undefined,
  tronGrid: { http: createPaymentHttp({ dispatcher: agent }), apiBaseUrl: input.tronGridUrl, apiKey: undefined },
  provider,
  watchWindowMs: 24 * 3_600_000,
  onOrderError: () => undefined,
});
await handle.close();
await agent.close();
process.stdout.write('done\n');
