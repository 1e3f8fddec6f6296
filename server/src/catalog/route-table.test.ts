import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { createTestDatabase, databaseKinds } from '../../test/support/test-databases.ts';
import { parseConfig } from '../config/config.ts';
import { seedCatalog } from '../config/seed-catalog.ts';
import { openDatabase } from '../db/database.ts';
import { insertRoute } from '../db/routes.ts';
import { systemClock } from '../lib/clock.ts';
import { cryptoIds } from '../lib/ids.ts';
import { createSecretBox } from '../lib/secret-box.ts';
import { prepareDatabase } from '../prepare-database.ts';
import { addRoute } from './add-route.ts';
import { loadPriceList } from './price-list.ts';
import { loadRouteTable } from './route-table.ts';

for (const databaseKind of databaseKinds) {
  describe(`the route table on ${databaseKind}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    after(async () => {
      for (const cleanup of cleanups) await cleanup();
    });

    test('a route sealed under another master key is skipped and reported once; the others still load', async () => {
      const database = await createTestDatabase(databaseKind);
      const handle = openDatabase(database.config);
      cleanups.push(async () => {
        await handle.close();
        await database.drop();
      });
      const config = parseConfig({ ...database.environment, SANDBOX: 'off' });
      await prepareDatabase({ db: handle.db, clock: systemClock }, config);
      const secretBox = createSecretBox(randomBytes(32));
      const readable = await addRoute(
        { db: handle.db, clock: systemClock, ids: cryptoIds, secretBox },
        {
          modelId: 'gpt-4o',
          provider: 'openai',
          baseUrl: 'http://127.0.0.1:9/v1',
          credential: 'sk-readable',
          upstreamModel: undefined,
          allowPrivateUpstreams: true,
        },
      );
      const unreadableId = 'rte_sealed_elsewhere';
      await insertRoute(handle.db, {
        id: unreadableId,
        model_id: 'gpt-4o',
        provider: 'openai',
        base_url: 'http://127.0.0.1:9/v1',
        credential_ciphertext: createSecretBox(randomBytes(32)).seal('sk-other-machine'),
        upstream_model: 'gpt-4o',
        priority: 5,
        weight: 1,
        enabled: 1,
        is_sandbox: 0,
        created_at: 1,
      });
      const reported: string[] = [];
      const routeTable = await loadRouteTable({
        db: handle.db,
        config,
        secretBox,
        priceList: await loadPriceList(handle.db),
        seedCatalog,
        simulatorUrl: undefined,
        onUnreadableCredential: (routeId) => reported.push(routeId),
      });
      const routes = routeTable.routesFor('gpt-4o');
      assert.deepEqual(
        routes.map((route) => [route.id, route.credential]),
        [[readable.id, 'sk-readable']],
      );
      assert.deepEqual(reported, [unreadableId]);
      await routeTable.reload();
      assert.equal(routeTable.routesFor('gpt-4o').length, 1);
      assert.deepEqual(reported, [unreadableId], 'a reload does not repeat the report');
    });
  });
}
