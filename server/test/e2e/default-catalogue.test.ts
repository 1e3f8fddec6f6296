import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitForUpdate } from '@pydantic/genai-prices';
import { findListPrice } from '../../src/catalog/list-price.ts';
import { compareVersions, readModelLine } from '../../src/catalog/model-line.ts';
import { seedCatalog } from '../../src/config/seed-catalog.ts';
import { listModels } from '../../src/db/models.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

for (const databaseKind of databaseKinds) {
  describe(`the default catalogue of a fresh install on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let customerKey: string;
    before(async () => {
      gateway = await startTestGateway({ databaseKind, environment: { PRICING_RULE: 'cost_plus_markup' } });
      customerKey = (await gateway.createUserWithKey({ balanceMicros: 10_000_000 })).key;
    });
    after(() => gateway.close());

    test('starts with the seed plus the current generation of each line, priced from the bundled data', async () => {
      const rows = await listModels(gateway.gateway.database.db);
      const seedIds = new Set(seedCatalog.map((model) => model.id));
      const added = rows.filter((row) => !seedIds.has(row.id));
      assert.ok(rows.length >= 32, `${rows.length} models`);
      assert.ok(added.length > 0, 'the bundled data has later versions of the seed’s lines');
      const data = (await waitForUpdate()) ?? [];
      for (const row of added) {
        const line = readModelLine(row.id);
        const older = seedCatalog.filter(
          (seed) => seed.family === row.family && readModelLine(seed.id).stem === line.stem,
        );
        assert.ok(older.length > 0, `${row.id} follows a line of the seed`);
        for (const seed of older) assert.ok(compareVersions(line.version, readModelLine(seed.id).version) > 0, row.id);
        // The list price is the bundled data's, read the way the seed reads it; our price is cost plus 20%.
        const providerId = seedCatalog.find((seed) => seed.id === older[0]?.id)?.listPriceFrom?.providerId ?? '';
        assert.ok(data.some((provider) => provider.id === providerId));
        const list = findListPrice({ ...older[0]!, id: row.id, listPriceFrom: { providerId, modelRef: row.id } });
        assert.equal(row.list_input_rate_micros, list.inputRateMicros, row.id);
        assert.equal(row.list_output_rate_micros, list.outputRateMicros, row.id);
        assert.equal(row.output_rate_micros, Math.ceil(list.outputRateMicros * 1.2), row.id);
        // None newer of the same line is left in the data: it is the current generation.
        const newer = data
          .find((provider) => provider.id === providerId)
          ?.models.filter((model) => !model.deprecated && readModelLine(model.id).stem === line.stem)
          .filter((model) => compareVersions(readModelLine(model.id).version, line.version) > 0)
          .filter(
            (model) =>
              findListPrice({ ...older[0]!, id: model.id, listPriceFrom: { providerId, modelRef: model.id } })
                .outputRateMicros > 0,
          );
        assert.deepEqual(
          newer?.map((model) => model.id),
          [],
          row.id,
        );
      }
      // Older ids keep working beside their successors.
      for (const id of ['gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash'])
        assert.ok(rows.some((row) => row.id === id && row.retired_at === null));
      const families = new Set(added.map((row) => row.family));
      for (const family of ['OpenAI', 'Anthropic', 'Google']) assert.ok(families.has(family), family);
    });

    test('a current-generation model answers through its vendor’s simulator', async () => {
      const rows = await listModels(gateway.gateway.database.db);
      const model = rows.find((row) => row.family === 'Anthropic' && !seedCatalog.some((seed) => seed.id === row.id));
      assert.ok(model);
      const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${customerKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: model.id, messages: [{ role: 'user', content: 'Hello' }] }),
      });
      assert.equal(answer.status, 200, await answer.clone().text());
      assert.equal(((await answer.json()) as { model: string }).model, model.id);
    });
  });
}
