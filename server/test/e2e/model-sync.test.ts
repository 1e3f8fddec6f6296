import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { ModelSyncReport, ModelSyncResult } from '../../../contract/operator-model-sync.ts';
import { listListPriceChanges } from '../../src/db/model-sync.ts';
import { findModel } from '../../src/db/models.ts';
import { createModelSyncDeps } from '../../src/http/api/operator-model-sync.ts';
import { runScheduledModelSync } from '../../src/operator/model-sync-schedule.ts';
import { callApi, readError, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { runCli } from '../support/run-cli.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** The genai-prices data file in the package's own format: Anthropic only, with a dated price and a new version. */
const fixtureText = readFileSync(new URL('./__fixtures__/genai-prices-data.json', import.meta.url), 'utf8');

/** A loopback stand-in for the published data file; `answer` says what it serves next. */
async function startPriceDataServer(): Promise<{
  url: string;
  answer: { status: number; body: string };
  close: () => Promise<void>;
}> {
  const state = { answer: { status: 200, body: fixtureText } };
  const server: Server = createServer((_request, response) => {
    response.writeHead(state.answer.status, { 'content-type': 'application/json' });
    response.end(state.answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/prices/data.json`,
    get answer() {
      return state.answer;
    },
    set answer(next) {
      state.answer = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An Anthropic model the simulator's model list does not name, so a sync finds it unlisted. */
const legacyClaude = {
  id: 'claude-legacy-2',
  display_name: 'Claude Legacy 2',
  family: 'Anthropic',
  kind: 'text',
  context_length: 100_000,
  max_output_tokens: 4_096,
  list_input_usd_per_million: '8',
  list_output_usd_per_million: '24',
};

for (const databaseKind of databaseKinds) {
  describe(`model sync on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let priceData: Awaited<ReturnType<typeof startPriceDataServer>>;
    let operator: BrowserSession;
    let otherOperator: BrowserSession;
    let customerKey: string;
    const db = () => gateway.gateway.database.db;
    const api = (path: string, options: { method?: string; body?: unknown; session?: BrowserSession } = {}) =>
      callApi(gateway.url, path, { session: operator, ...options });
    const preview = async () => {
      const response = await api('/api/operator/models/sync');
      assert.equal(response.status, 200, response.text);
      return response.json as ModelSyncReport;
    };
    const countRows = async () => ({
      models: (await db().selectFrom('models').select('id').execute()).length,
      listChanges: (await db().selectFrom('list_price_changes').select('model_id').execute()).length,
    });

    before(async () => {
      priceData = await startPriceDataServer();
      gateway = await startTestGateway({
        databaseKind,
        // The seed alone (no current generation): the fixture's versions are then the newest of their lines.
        environment: { PRICING_RULE: 'cost_plus_markup', PRICE_DATA_URL: priceData.url, SEED_GENERATION: 'fixed' },
      });
      for (const name of ['one', 'two']) {
        await gateway.createUserWithKey({ role: 'admin', email: `sync-${name}-${databaseKind}@example.com` });
      }
      operator = await signIn(gateway.url, { email: `sync-one-${databaseKind}@example.com` });
      otherOperator = await signIn(gateway.url, { email: `sync-two-${databaseKind}@example.com` });
      customerKey = (await gateway.createUserWithKey({ balanceMicros: 50_000_000 })).key;
      const added = await api('/api/operator/models', { body: legacyClaude });
      assert.equal(added.status, 201, added.text);
    });
    after(async () => {
      await gateway.close();
      await priceData.close();
    });

    test('the preview shows new versions, dated list price changes and unlisted models, and writes nothing', async () => {
      const before = await countRows();
      const report = await preview();
      assert.deepEqual(report.price_source, { kind: 'published', url: priceData.url, problem: null });
      const anthropicList = report.vendor_lists.find((list) => list.provider === 'anthropic');
      assert.equal(anthropicList?.problem, null);
      assert.ok((anthropicList?.model_count ?? 0) >= 4);
      const opus = report.new_models.find((found) => found.id === 'claude-opus-4-7');
      assert.deepEqual(opus, {
        id: 'claude-opus-4-7',
        family: 'Anthropic',
        provider: 'anthropic',
        display_name: 'Claude Opus 4.7',
        found_in: 'both',
        is_new_version: true,
        list_price: { input_usd_per_million: 5, output_usd_per_million: 25, cached_input_usd_per_million: 0.5 },
        context_length: 500_000,
      });
      // An older model the vendor still lists (Claude Haiku 3) is shown, but not as a new version (no auto-add).
      assert.equal(report.new_models.find((found) => found.id === 'claude-3-haiku')?.is_new_version, false);
      const anthropicChanges = report.list_price_changes.filter((change) => change.family === 'Anthropic');
      assert.deepEqual(anthropicChanges, [
        {
          id: 'claude-opus-4-5',
          family: 'Anthropic',
          from: { input_usd_per_million: 5, output_usd_per_million: 25, cached_input_usd_per_million: 0.5 },
          to: { input_usd_per_million: 4, output_usd_per_million: 20, cached_input_usd_per_million: 0.4 },
          effective_at: '2026-01-15T00:00:00.000Z',
        },
      ]);
      assert.deepEqual(
        report.unlisted_models.filter((model) => model.family === 'Anthropic'),
        [{ id: legacyClaude.id, family: 'Anthropic', provider: 'anthropic' }],
      );
      assert.deepEqual(await countRows(), before);
    });

    test('an unreachable or malformed data file falls back to the bundled data, says why, and changes nothing', async () => {
      const before = await countRows();
      priceData.answer = { status: 200, body: '[{"id": "anthropic", "models": "none"}]' };
      const malformed = await preview();
      assert.equal(malformed.price_source.kind, 'bundled');
      assert.match(malformed.price_source.problem ?? '', /not in the genai-prices format/);
      priceData.answer = { status: 200, body: '<html>rate limited</html>' };
      assert.match((await preview()).price_source.problem ?? '', /not in the genai-prices format/);
      priceData.answer = { status: 503, body: '' };
      assert.match((await preview()).price_source.problem ?? '', /answered HTTP 503/);
      const unreachable = await runCli(gateway.config, ['model', 'sync'], {
        PRICE_DATA_URL: 'http://127.0.0.1:9/data.json',
      });
      assert.equal(unreachable.exitCode, 0, unreachable.stderr);
      assert.match(unreachable.stdout, /data bundled with the package; not the published file: .*could not be reached/);
      assert.deepEqual(await countRows(), before);
      priceData.answer = { status: 200, body: fixtureText };
    });

    test('two operators applying the same sync at once apply each change once', async () => {
      const ids = ['claude-opus-4-7', 'claude-opus-4-5', legacyClaude.id];
      const [first, second] = await Promise.all(
        [operator, otherOperator].map((session) => api('/api/operator/models/sync', { body: { apply: ids }, session })),
      );
      assert.equal(first?.status, 200, first?.text);
      assert.equal(second?.status, 200, second?.text);
      const results = [first, second].flatMap((response) => (response?.json as ModelSyncResult).results);
      for (const id of ids) {
        const applied = results.filter((result) => result.id === id && result.outcome === 'applied');
        assert.equal(applied.length, 1, `${id}: ${JSON.stringify(results)}`);
      }
      const added = await findModel(db(), 'claude-opus-4-7');
      // Priced by the default rule: the vendor's list price (its own API's cost) plus 20%.
      assert.equal(added?.input_rate_micros, 6_000_000);
      assert.equal(added?.output_rate_micros, 30_000_000);
      assert.equal(added?.list_cached_input_rate_micros, 500_000);
      assert.equal(added?.context_length, 500_000);
      const changed = await findModel(db(), 'claude-opus-4-5');
      assert.equal(changed?.list_input_rate_micros, 4_000_000);
      // Our price was the rule's price of the old list price, so it follows the new one.
      assert.equal(changed?.input_rate_micros, 4_800_000);
      const history = await listListPriceChanges(db(), 'claude-opus-4-5');
      assert.equal(history.length, 1);
      assert.equal(history[0]?.effective_at, Date.parse('2026-01-15T00:00:00Z'));
      assert.notEqual((await findModel(db(), legacyClaude.id))?.retired_at, null);
      const listed = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${customerKey}` } });
      const listedIds = ((await listed.json()) as { data: { id: string }[] }).data.map((model) => model.id);
      assert.ok(listedIds.includes('claude-opus-4-7'));
      assert.ok(!listedIds.includes(legacyClaude.id));
      const answer = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${customerKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-opus-4-7', messages: [{ role: 'user', content: 'Hello' }] }),
      });
      assert.equal(answer.status, 200, await answer.clone().text());
      assert.equal(((await answer.json()) as { model: string }).model, 'claude-opus-4-7');
      const again = await preview();
      assert.equal(
        again.new_models.find((found) => found.id === 'claude-opus-4-7'),
        undefined,
      );
      assert.equal(
        again.list_price_changes.find((change) => change.id === 'claude-opus-4-5'),
        undefined,
      );
    });

    test('the CLI applies a chosen list price change and records it in the audit log', async () => {
      const data = JSON.parse(fixtureText) as { models: { id: string; prices: unknown }[] }[];
      const haiku = data[0]?.models.find((model) => model.id === 'claude-haiku-4-5');
      assert.ok(haiku);
      haiku.prices = { input_mtok: 1.1, cache_write_mtok: 1.375, cache_read_mtok: 0.11, output_mtok: 5.5 };
      priceData.answer = { status: 200, body: JSON.stringify(data) };
      const shown = await runCli(gateway.config, ['model', 'sync'], { PRICE_DATA_URL: priceData.url });
      assert.equal(shown.exitCode, 0, shown.stderr);
      assert.match(shown.stdout, /price data: the published data/);
      assert.match(shown.stdout, /price +claude-haiku-4-5 +Anthropic +in 1 → 1\.1, out 5 → 5\.5/);
      const applied = await runCli(gateway.config, ['model', 'sync', '--apply', 'claude-haiku-4-5'], {
        PRICE_DATA_URL: priceData.url,
      });
      assert.equal(applied.exitCode, 0, applied.stderr);
      assert.match(applied.stdout, /applied +list_price +claude-haiku-4-5/);
      assert.equal((await findModel(db(), 'claude-haiku-4-5'))?.list_input_rate_micros, 1_100_000);
      const audit = await db()
        .selectFrom('audit_events')
        .selectAll()
        .where('action', '=', 'model.sync_applied')
        .where('target_id', '=', 'claude-haiku-4-5')
        .execute();
      assert.equal(audit.length, 1);
      priceData.answer = { status: 200, body: fixtureText };
    });

    test('the schedule is off by default; on, one node of several runs it and auto-adds new versions', async () => {
      assert.deepEqual((await api('/api/operator/models/sync/settings')).json, { interval_hours: 0, auto_add: 'off' });
      const invalid = await api('/api/operator/models/sync/settings', {
        method: 'PUT',
        body: { interval_hours: -1, auto_add: 'off' },
      });
      assert.equal(invalid.status, 400, invalid.text);
      assert.equal(readError(invalid).param, 'interval_hours');
      const sync = createModelSyncDeps(gateway.gateway.deps);
      assert.equal(await runScheduledModelSync(sync), undefined);
      const set = await api('/api/operator/models/sync/settings', {
        method: 'PUT',
        body: { interval_hours: 24, auto_add: 'new_versions' },
      });
      assert.deepEqual(set.json, { interval_hours: 24, auto_add: 'new_versions' });
      const data = JSON.parse(fixtureText) as { models: Record<string, unknown>[] }[];
      const sonnet = {
        ...data[0]?.models[4],
        id: 'claude-sonnet-4-6',
        name: 'Claude Sonnet 4.6',
        match: { starts_with: 'claude-sonnet-4-6' },
      };
      data[0]?.models.push(sonnet);
      priceData.answer = { status: 200, body: JSON.stringify(data) };
      const runs = await Promise.all([runScheduledModelSync(sync), runScheduledModelSync(sync)]);
      const ran = runs.filter((run) => run !== undefined);
      assert.equal(ran.length, 1, JSON.stringify(runs));
      assert.deepEqual(
        ran[0]?.added,
        ['claude-sonnet-4-6'],
        JSON.stringify((await preview()).new_models.filter((found) => found.is_new_version)),
      );
      assert.equal((await findModel(db(), 'claude-sonnet-4-6'))?.input_rate_micros, 3_600_000);
      // Within the interval the next tick does nothing.
      assert.equal(await runScheduledModelSync(sync), undefined);
      priceData.answer = { status: 200, body: fixtureText };
    });
  });
}
