import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { calcPrice } from '@pydantic/genai-prices';
import { createTestDatabase } from '../../test/support/test-databases.ts';
import { findListPrice } from '../catalog/list-price.ts';
import { loadPriceList } from '../catalog/price-list.ts';
import { providerEndpoints } from '../catalog/provider-endpoints.ts';
import { loadRouteTable } from '../catalog/route-table.ts';
import { openDatabase } from '../db/database.ts';
import { systemClock } from '../lib/clock.ts';
import { applyDiscountMicros } from '../lib/money.ts';
import { createSecretBox } from '../lib/secret-box.ts';
import { prepareDatabase } from '../prepare-database.ts';
import { parseConfig } from './config.ts';
import { seedCatalog } from './seed-catalog.ts';

test('the catalogue has at least 32 models with unique ids across vendor families', () => {
  assert.ok(seedCatalog.length >= 32, `${seedCatalog.length} models`);
  assert.equal(new Set(seedCatalog.map((model) => model.id)).size, seedCatalog.length, 'ids are unique');
  const families = new Set(seedCatalog.map((model) => model.family));
  for (const family of ['OpenAI', 'Anthropic', 'Google', 'DeepSeek', 'xAI', 'Mistral', 'Meta', 'Qwen'] as const) {
    assert.ok(families.has(family), `${family} is in the catalogue`);
  }
});

test('at least one family has two text models and two image models', () => {
  const qualifying = [...new Set(seedCatalog.map((model) => model.family))].filter((family) => {
    const ofFamily = seedCatalog.filter((model) => model.family === family);
    return (
      ofFamily.filter((model) => model.kind === 'text').length >= 2 &&
      ofFamily.filter((model) => model.kind === 'image').length >= 2
    );
  });
  assert.ok(qualifying.length >= 1, 'no family has two text and two image models');
});

test('every genai-prices lookup resolves to a priced model of the named provider', () => {
  const lookups = seedCatalog.filter((model) => model.listPriceFrom !== undefined);
  assert.ok(lookups.length >= 20, 'most list prices come from @pydantic/genai-prices');
  for (const model of lookups) {
    const { providerId, modelRef } = model.listPriceFrom!;
    const price = calcPrice({ input_tokens: 1000, output_tokens: 1000 }, modelRef, { providerId });
    assert.ok(price, `${model.id}: @pydantic/genai-prices has no ${providerId}/${modelRef}`);
    assert.equal(price.provider.id, providerId, `${model.id}: priced under another provider`);
    assert.ok(price.input_price > 0 && price.output_price > 0, `${model.id}: zero list price`);
  }
});

test('every model has a list price: per token for text and embeddings, per request for images', () => {
  for (const model of seedCatalog) {
    const price = findListPrice(model);
    if (model.kind === 'text') {
      assert.ok(price.inputRateMicros > 0 && price.outputRateMicros > 0, `${model.id}: no token price`);
      assert.ok(
        price.cachedInputRateMicros === null || price.cachedInputRateMicros < price.inputRateMicros,
        `${model.id}: cached input is not cheaper`,
      );
      assert.ok(model.contextLength > 0 && model.maxOutputTokens > 0, `${model.id}: no context or output limit`);
    } else if (model.kind === 'embedding') {
      assert.ok(price.inputRateMicros > 0 && price.outputRateMicros === 0, `${model.id}: no input-token price`);
      assert.ok(model.contextLength > 0, `${model.id}: no input limit`);
    } else {
      assert.ok(price.perRequestMicros !== null && price.perRequestMicros > 0, `${model.id}: no per-image price`);
    }
  }
});

const database = await createTestDatabase('sqlite');
after(() => database.drop());

test('a new install prices every model at its route cost plus the markup and gives each one a sandbox route', async () => {
  const config = parseConfig({ ...database.environment, SANDBOX: 'on' });
  const handle = openDatabase(config.database);
  try {
    await prepareDatabase({ db: handle.db, clock: systemClock }, config);
    const priceList = await loadPriceList(handle.db);
    const simulatorUrl = 'http://127.0.0.1:9';
    const routeTable = await loadRouteTable({
      db: handle.db,
      config,
      secretBox: createSecretBox(Buffer.alloc(32)),
      priceList,
      seedCatalog,
      simulatorUrl,
      onUnreadableCredential: (routeId) => assert.fail(`unexpected unreadable route ${routeId}`),
    });
    for (const seed of seedCatalog) {
      const model = priceList.find(seed.id);
      assert.ok(model, `${seed.id} is in the live price list`);
      // The default rule: the vendor's own API bills the list price, and a stock install sells 20% above it.
      const marked = (micros: number) => applyDiscountMicros(micros, -2000);
      if (seed.kind === 'text') {
        assert.equal(model.inputRateMicros, marked(model.listInputRateMicros), seed.id);
        assert.equal(model.outputRateMicros, marked(model.listOutputRateMicros), seed.id);
      } else if (seed.kind === 'embedding') {
        assert.equal(model.inputRateMicros, marked(model.listInputRateMicros), seed.id);
        assert.equal(model.outputRateMicros, 0, seed.id);
      } else {
        assert.ok(model.perRequestMicros !== null && model.listPerRequestMicros !== null, seed.id);
        assert.equal(model.perRequestMicros, marked(model.listPerRequestMicros), seed.id);
      }
      const routes = routeTable.routesFor(seed.id);
      assert.equal(routes.length, 1, `${seed.id} has one route`);
      assert.equal(routes[0]?.origin, 'sandbox');
      assert.equal(routes[0]?.baseUrl, `${simulatorUrl}${providerEndpoints[seed.provider].simulatorPath}`);
      assert.equal(routes[0]?.upstreamModel, seed.upstreamModel);
      assert.equal(routeTable.isSimulated(seed.id), true);
    }
  } finally {
    await handle.close();
  }
});
