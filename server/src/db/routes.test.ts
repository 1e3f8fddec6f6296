import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../../test/support/test-databases.ts';
import { openDatabase, type DatabaseHandle } from './database.ts';
import { migrateToLatest } from './migrate.ts';
import { insertModelIfAbsent } from './models.ts';
import { findRoute, insertRoute, listRoutes, setRouteEnabled, updateRoute } from './routes.ts';

const model = {
  id: 'test-model',
  display_name: 'Test model',
  family: 'test',
  kind: 'text' as const,
  context_length: 8000,
  max_output_tokens: 1000,
  input_rate_micros: 1_000_000,
  output_rate_micros: 2_000_000,
  cached_input_rate_micros: null,
  per_request_micros: null,
  list_input_rate_micros: 1_250_000,
  list_output_rate_micros: 2_500_000,
  list_cached_input_rate_micros: null,
  list_per_request_micros: null,
  supports_tools: 1,
  supports_vision: 0,
  price_effective_at: 1,
  enabled: 1,
  created_at: 1,
};

const baseRoute = {
  model_id: model.id,
  provider: 'openai',
  base_url: 'https://api.example.com/v1',
  credential_ciphertext: 'v1.sealed',
  upstream_model: 'vendor-model',
  priority: 10,
  weight: 1,
  enabled: 1,
  is_sandbox: 0,
  created_at: 1,
};

for (const kind of databaseKinds) {
  describe(`routes on ${kind}`, () => {
    let testDatabase: TestDatabase;
    let handle: DatabaseHandle;

    before(async () => {
      testDatabase = await createTestDatabase(kind);
      handle = openDatabase(testDatabase.config);
      await migrateToLatest(handle.db);
      await insertModelIfAbsent(handle.db, model);
    });
    after(async () => {
      await handle.close();
      await testDatabase.drop();
    });

    test('a route without settings reads them back as null (the defaults)', async () => {
      await insertRoute(handle.db, { ...baseRoute, id: 'rte_plain' });
      const route = await findRoute(handle.db, 'rte_plain');
      assert.equal(route?.max_concurrency, null);
      assert.equal(route?.first_byte_timeout_ms, null);
      assert.equal(route?.reserved_for_user_ids, null);
      assert.equal(route?.vendor_options, null);
    });

    test('the settings of migration 0004 are stored and read back as numbers and text', async () => {
      await insertRoute(handle.db, {
        ...baseRoute,
        id: 'rte_full',
        provider: 'azure',
        priority: 5,
        input_cost_micros: 2_500_000_000,
        output_cost_micros: 10_000_000,
        max_concurrency: 8,
        connect_timeout_ms: 2_000,
        first_byte_timeout_ms: 30_000,
        idle_timeout_ms: 60_000,
        reserved_for_user_ids: 'usr_a\nusr_b',
        vendor_options: '{"api_version":"2024-10-21"}',
      });
      const route = await findRoute(handle.db, 'rte_full');
      assert.equal(route?.input_cost_micros, 2_500_000_000);
      assert.equal(route?.output_cost_micros, 10_000_000);
      assert.equal(route?.max_concurrency, 8);
      assert.equal(route?.connect_timeout_ms, 2_000);
      assert.equal(route?.idle_timeout_ms, 60_000);
      assert.equal(route?.reserved_for_user_ids, 'usr_a\nusr_b');
      assert.equal(route?.vendor_options, '{"api_version":"2024-10-21"}');
      assert.deepEqual(
        (await listRoutes(handle.db)).map((row) => row.id),
        ['rte_full', 'rte_plain'],
        'listed by model, then priority',
      );
    });

    test('an update changes only the given columns and can clear a setting', async () => {
      assert.equal(
        await updateRoute(handle.db, {
          routeId: 'rte_full',
          changes: { weight: 7, max_concurrency: null, vendor_options: null, updated_at: 99 },
        }),
        true,
      );
      const route = await findRoute(handle.db, 'rte_full');
      assert.equal(route?.weight, 7);
      assert.equal(route?.max_concurrency, null);
      assert.equal(route?.first_byte_timeout_ms, 30_000);
      assert.equal(route?.updated_at, 99);
      assert.equal(await updateRoute(handle.db, { routeId: 'rte_missing', changes: { weight: 1 } }), false);
      assert.equal(await updateRoute(handle.db, { routeId: 'rte_full', changes: {} }), true);
    });

    test('migration 0016 moves the three vendor columns of existing routes into one vendor_options field', async () => {
      // Put the table back as it was before 0016 (three columns, no vendor_options) with two routes holding values,
      // forget that 0016 ran, and run the migrations again.
      const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await db.schema.alterTable('routes').dropColumn('vendor_options').execute();
      for (const column of ['api_version', 'vertex_project', 'vertex_location']) {
        await db.schema.alterTable('routes').addColumn(column, 'text').execute();
      }
      await db.updateTable('routes').set({ api_version: '2025-01-01-preview' }).where('id', '=', 'rte_full').execute();
      await insertRoute(handle.db, { ...baseRoute, id: 'rte_vertex', provider: 'vertex' });
      await db
        .updateTable('routes')
        .set({ vertex_project: 'acme-prod-1', vertex_location: 'europe-west4' })
        .where('id', '=', 'rte_vertex')
        .execute();
      await db.deleteFrom('kysely_migration').where('name', '=', '0016-route-vendor-options').execute();
      assert.deepEqual(await migrateToLatest(handle.db), ['0016-route-vendor-options']);
      assert.deepEqual(JSON.parse((await findRoute(handle.db, 'rte_full'))?.vendor_options ?? 'null'), {
        api_version: '2025-01-01-preview',
      });
      assert.deepEqual(JSON.parse((await findRoute(handle.db, 'rte_vertex'))?.vendor_options ?? 'null'), {
        vertex_project: 'acme-prod-1',
        vertex_location: 'europe-west4',
      });
      assert.equal((await findRoute(handle.db, 'rte_plain'))?.vendor_options, null);
      const columns = (await handle.db.introspection.getTables()).find((table) => table.name === 'routes')?.columns;
      assert.deepEqual(
        columns?.map((column) => column.name).filter((name) => /api_version|vertex_/.test(name)),
        [],
        'the three old columns are gone',
      );
    });

    test('disabling and enabling a route', async () => {
      assert.equal(await setRouteEnabled(handle.db, { routeId: 'rte_plain', isEnabled: false }), true);
      assert.equal((await findRoute(handle.db, 'rte_plain'))?.enabled, 0);
      assert.equal(await setRouteEnabled(handle.db, { routeId: 'rte_nope', isEnabled: true }), false);
    });
  });
}
