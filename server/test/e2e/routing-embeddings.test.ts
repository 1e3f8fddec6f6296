import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

type CostedUsage = { prompt_tokens: number; cost: number };

/** Issue #18: embedding calls fail over between the routes of one model like chat, and are charged once. */
describe('embeddings over upstream routes', () => {
  let fixture: RoutingFixture;
  before(async () => {
    fixture = await startRoutingFixture();
  });
  after(() => fixture.close());

  const balance = () => sumLedgerAccount(fixture.gateway.gateway.database.db, userLedgerAccount(fixture.userId));

  const cases = [
    { name: 'a 5xx', model: 'text-embedding-3-small', failing: { base_url: () => fixture.openAiBase('status=503') } },
    {
      name: 'a first-byte timeout',
      model: 'text-embedding-3-large',
      failing: { base_url: () => fixture.openAiBase('delay-first-byte=5000'), first_byte_timeout_ms: 200 },
    },
  ] as const;

  for (const { name, model, failing } of cases) {
    test(`${name} on the first route: the second serves the vectors, charged exactly once`, async () => {
      const { base_url: failingBase, ...failingOptions } = failing;
      const sick = await fixture.addRoute({ model, priority: 1, base_url: failingBase(), ...failingOptions });
      const healthy = await fixture.addRoute({ model, priority: 2, base_url: fixture.openAiBase() });
      const [balanceBefore, upstreamBefore] = [await balance(), await fixture.upstreamRequests()];
      const { data: answer, response } = await fixture.client.embeddings
        .create({ model, input: ['tides and the moon', 'rivers'], encoding_format: 'float' })
        .withResponse();
      assert.equal(answer.data.length, 2);
      assert.ok(answer.data.every((item) => item.embedding.length > 0));
      const record = await findUsageRecord(
        fixture.gateway.gateway.database.db,
        response.headers.get('x-request-id') ?? '',
      );
      assert.ok(record, 'one usage record for the call');
      assert.equal(record.route_id, healthy.id, 'served by the second route');
      assert.equal(record.status, 'completed');
      assert.ok(record.cost_micros > 0);
      assert.equal((answer.usage as unknown as CostedUsage).cost, microsToUsd(record.cost_micros));
      assert.equal(balanceBefore - (await balance()), record.cost_micros, 'charged once, whatever the attempts');
      assert.equal((await fixture.upstreamRequests()) - upstreamBefore, 2, 'the failed attempt and the one served');
      const listed = (await fixture.listRoutes()).find((route) => route.id === sick.id);
      assert.equal(listed?.health.failures, 1, "the failure counts in the first route's health");
    });
  }
});
