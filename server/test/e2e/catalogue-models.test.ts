import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RevenueReport } from '../../../contract/operator.ts';
import type { OperatorModel, OperatorModelList } from '../../../contract/operator-models.ts';
import { findModel } from '../../src/db/models.ts';
import { callApi, readError, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { runCli } from '../support/run-cli.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** A new Claude version, priced at the vendor's list price of Claude Sonnet 4.5 ($3 in, $15 out per 1M). */
const newClaude = {
  id: 'claude-sonnet-4-9',
  display_name: 'Claude Sonnet 4.9',
  family: 'Anthropic',
  kind: 'text',
  context_length: 200_000,
  max_output_tokens: 64_000,
  supports_tools: true,
  supports_reasoning: true,
  list_input_usd_per_million: '3',
  list_output_usd_per_million: '15',
  list_cached_input_usd_per_million: '0.3',
};

for (const databaseKind of databaseKinds) {
  describe(`models as data on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let operator: BrowserSession;
    let customerKey: string;
    const db = () => gateway.gateway.database.db;
    const api = (path: string, options: { method?: string; body?: unknown } = {}) =>
      callApi(gateway.url, path, { session: operator, ...options });
    const v1 = (path: string, body?: unknown) =>
      fetch(`${gateway.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${customerKey}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const listedIds = async () =>
      ((await (await v1('/v1/models')).json()) as { data: { id: string }[] }).data.map((model) => model.id);
    const publicIds = async () =>
      ((await (await fetch(`${gateway.url}/api/models`)).json()) as { data: { id: string }[] }).data.map((m) => m.id);
    const operatorModel = async (id: string) =>
      ((await api('/api/operator/models')).json as OperatorModelList).data.find((model) => model.id === id);

    before(async () => {
      gateway = await startTestGateway({ databaseKind, environment: { PRICING_RULE: 'cost_plus_markup' } });
      await gateway.createUserWithKey({ role: 'admin', email: `catalogue-${databaseKind}@example.com` });
      operator = await signIn(gateway.url, { email: `catalogue-${databaseKind}@example.com` });
      customerKey = (await gateway.createUserWithKey({ balanceMicros: 50_000_000 })).key;
    });
    after(() => gateway.close());

    test('bad input is refused with a clear error naming the field, and nothing is written', async () => {
      const cases: [Record<string, unknown>, number, string, string][] = [
        [{ ...newClaude, family: 'Acme' }, 400, 'family', 'unknown_family'],
        [{ ...newClaude, list_input_usd_per_million: '-1' }, 400, 'list_input_usd_per_million', 'invalid_value'],
        [{ ...newClaude, list_output_usd_per_million: 'cheap' }, 400, 'list_output_usd_per_million', 'invalid_value'],
        [{ ...newClaude, input_usd_per_million: '1e3' }, 400, 'input_usd_per_million', 'invalid_value'],
        [{ ...newClaude, provider: 'acme' }, 400, 'provider', 'invalid_value'],
        [
          { ...newClaude, list_input_usd_per_million: undefined },
          400,
          'list_input_usd_per_million',
          'missing_required_parameter',
        ],
        // $1 in / $5 out sells below the $3 / $15 the vendor's own API costs: refused unless confirmed.
        [
          { ...newClaude, input_usd_per_million: '1', output_usd_per_million: '5' },
          400,
          'confirm_below_cost',
          'below_cost',
        ],
      ];
      for (const [body, status, param, code] of cases) {
        const response = await api('/api/operator/models', { body });
        assert.equal(response.status, status, response.text);
        assert.equal(readError(response).param, param, response.text);
        assert.equal(readError(response).code, code, response.text);
      }
      assert.equal(await findModel(db(), newClaude.id), undefined);
      const duplicate = await api('/api/operator/models', { body: { ...newClaude, id: 'gpt-4o' } });
      assert.equal(duplicate.status, 409, duplicate.text);
      assert.equal(readError(duplicate).code, 'model_exists');
    });

    test('an added model is priced by the rule, listed on /v1/models and the models page, and answers', async () => {
      const created = await api('/api/operator/models', { body: newClaude });
      assert.equal(created.status, 201, created.text);
      const model = created.json as OperatorModel;
      // Cost plus the default 20% markup over the vendor's own API at its list price.
      assert.equal(model.input_usd_per_million, 3.6);
      assert.equal(model.output_usd_per_million, 18);
      assert.equal(model.cached_input_usd_per_million, 0.36);
      assert.equal(model.provider, 'anthropic');
      assert.equal(model.margin_percent, 16.67);
      assert.equal(model.is_below_cost, false);
      assert.equal(model.supports_reasoning, true);
      assert.ok((await listedIds()).includes(newClaude.id));
      assert.ok((await publicIds()).includes(newClaude.id));
      const answer = await v1('/v1/chat/completions', {
        model: newClaude.id,
        messages: [{ role: 'user', content: 'Hello' }],
      });
      assert.equal(answer.status, 200, await answer.clone().text());
      const body = (await answer.json()) as { model: string; usage: { cost: number } };
      assert.equal(body.model, newClaude.id);
      assert.ok(body.usage.cost > 0);
      const usage = await db().selectFrom('usage_records').selectAll().where('model_id', '=', newClaude.id).execute();
      assert.equal(usage.length, 1);
      // The route cost the list price: the usage row keeps what the call cost us, below what it was sold for.
      assert.ok((usage[0]?.upstream_cost_micros ?? 0) > 0);
      assert.ok((usage[0]?.upstream_cost_micros ?? 0) < (usage[0]?.cost_micros ?? 0));
      const report = (await api('/api/operator/revenue')).json as RevenueReport;
      const sold = report.models.find((entry) => entry.model === newClaude.id);
      const costMicros = usage[0]?.upstream_cost_micros ?? 0;
      const incomeMicros = usage[0]?.cost_micros ?? 0;
      assert.equal(sold?.cost_of_goods_usd, costMicros / 1e6);
      assert.equal(sold?.margin_usd, (incomeMicros - costMicros) / 1e6);
      assert.equal(sold?.margin_percent, Math.round(((incomeMicros - costMicros) / incomeMicros) * 10_000) / 100);
      const today = report.days.at(-1);
      assert.ok((today?.cost_of_goods_usd ?? 0) >= costMicros / 1e6);
      assert.equal(
        today?.margin_usd,
        Math.round(((today?.usage_usd ?? 0) - (today?.cost_of_goods_usd ?? 0)) * 1e6) / 1e6,
      );
    });

    test('a price below cost is refused unless confirmed, then flagged', async () => {
      const path = `/api/operator/models/${newClaude.id}`;
      const refused = await api(path, { method: 'PATCH', body: { input_usd_per_million: '2.5' } });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(readError(refused).code, 'below_cost');
      assert.equal((await operatorModel(newClaude.id))?.input_usd_per_million, 3.6);
      const viaPrice = await api(`${path}/price`, { body: { input_usd_per_million: '2.5' } });
      assert.equal(viaPrice.status, 400, viaPrice.text);
      const confirmed = await api(path, {
        method: 'PATCH',
        body: { input_usd_per_million: '2.5', confirm_below_cost: true, reason: 'launch offer' },
      });
      assert.equal(confirmed.status, 200, confirmed.text);
      assert.equal((confirmed.json as OperatorModel).is_below_cost, true);
      const listed = await runCli(gateway.config, ['model', 'list']);
      assert.equal(listed.exitCode, 0, listed.stderr);
      assert.match(listed.stdout, /claude-sonnet-4-9\s+Anthropic\s+text\s+in 2\.500000 out 18\.000000 .*BELOW COST/);
      const history = await api(`${path}/prices`);
      assert.equal((history.json as { data: { reason: string }[] }).data[0]?.reason, 'launch offer');
      const restored = await api(path, { method: 'PATCH', body: { input_usd_per_million: '3.6' } });
      assert.equal(restored.status, 200, restored.text);
    });

    test('a retired model leaves the lists, names its successor, keeps its usage; its successor cannot retire', async () => {
      const retired = await api(`/api/operator/models/${newClaude.id}/retire`, {
        body: { successor: 'claude-sonnet-4-5' },
      });
      assert.equal(retired.status, 200, retired.text);
      assert.ok(!(await listedIds()).includes(newClaude.id));
      assert.ok(!(await publicIds()).includes(newClaude.id));
      const answer = await v1('/v1/chat/completions', {
        model: newClaude.id,
        messages: [{ role: 'user', content: 'x' }],
      });
      assert.equal(answer.status, 404);
      const error = ((await answer.json()) as { error: { code: string; message: string; param: string } }).error;
      assert.equal(error.code, 'model_not_found');
      assert.equal(error.param, 'model');
      assert.match(error.message, /retired; use `claude-sonnet-4-5` instead/);
      const usage = await db()
        .selectFrom('usage_records')
        .select('model_id')
        .where('model_id', '=', newClaude.id)
        .execute();
      assert.equal(usage.length, 1);

      const successor = await api('/api/operator/models/claude-sonnet-4-5/retire', { body: {} });
      assert.equal(successor.status, 400, successor.text);
      assert.equal(readError(successor).code, 'model_is_successor');
      assert.ok((await listedIds()).includes('claude-sonnet-4-5'));
      const unknownSuccessor = await api('/api/operator/models/gpt-4o/retire', { body: { successor: 'gpt-99' } });
      assert.equal(unknownSuccessor.status, 400, unknownSuccessor.text);
      assert.equal(readError(unknownSuccessor).param, 'successor');

      const restored = await api(`/api/operator/models/${newClaude.id}/restore`, { body: {} });
      assert.equal(restored.status, 200, restored.text);
      assert.equal((restored.json as OperatorModel).retired_at, null);
      assert.ok((await listedIds()).includes(newClaude.id));
    });

    test('the CLI adds, updates, retires and restores with the same checks', async () => {
      const add = (...extra: string[]) =>
        runCli(gateway.config, [
          'model',
          'add',
          '--id',
          'mistral-next',
          '--kind',
          'text',
          '--name',
          'Mistral Next',
          '--family',
          'mistral',
          '--context-length',
          '128000',
          '--list-input-usd',
          '2',
          '--list-output-usd',
          '6',
          ...extra,
        ]);
      const unknownFamily = await runCli(gateway.config, [
        'model',
        'add',
        '--id',
        'x',
        '--kind',
        'text',
        '--name',
        'X',
        '--family',
        'Acme',
        '--context-length',
        '1',
        '--list-input-usd',
        '1',
        '--list-output-usd',
        '1',
      ]);
      assert.equal(unknownFamily.exitCode, 1);
      assert.match(unknownFamily.stderr, /Unknown model family "Acme"/);
      const negative = await add('--input-usd=-2');
      assert.equal(negative.exitCode, 1);
      assert.match(negative.stderr, /input_usd_per_million` must be a non-negative USD amount/);
      const belowCost = await add('--input-usd', '1');
      assert.equal(belowCost.exitCode, 1);
      assert.match(belowCost.stderr, /below the cost of every route/);
      assert.equal(await findModel(db(), 'mistral-next'), undefined);
      const added = await add('--capabilities', 'tools,json_schema');
      assert.equal(added.exitCode, 0, added.stderr);
      const row = await findModel(db(), 'mistral-next');
      assert.equal(row?.family, 'Mistral');
      assert.equal(row?.provider, 'mistral');
      assert.equal(row?.input_rate_micros, 2_400_000);
      assert.equal(row?.supports_json_schema, 1);
      const updated = await runCli(gateway.config, [
        'model',
        'update',
        '--model',
        'mistral-next',
        '--name',
        'Mistral Next 2',
      ]);
      assert.equal(updated.exitCode, 0, updated.stderr);
      assert.equal((await findModel(db(), 'mistral-next'))?.display_name, 'Mistral Next 2');
      const retired = await runCli(gateway.config, ['model', 'retire', '--model', 'mistral-next']);
      assert.equal(retired.exitCode, 0, retired.stderr);
      const retiredList = await runCli(gateway.config, ['model', 'list', '--retired']);
      assert.match(retiredList.stdout, /^mistral-next\s/m);
      const restored = await runCli(gateway.config, ['model', 'restore', '--model', 'mistral-next']);
      assert.equal(restored.exitCode, 0, restored.stderr);
      assert.equal((await findModel(db(), 'mistral-next'))?.retired_at, null);
    });

    test('a plan or contract discount that newly sells below cost is refused unless confirmed', async () => {
      const customer = await gateway.createUserWithKey({ email: `terms-${databaseKind}@example.com` });
      // Cost plus 20% survives a 10% contract discount (1.2 × 0.9 = 1.08 of cost).
      const terms = await api(`/api/operator/users/${customer.userId}/terms`, {
        body: { contract_discount_percent: 10, requests_per_minute: null },
      });
      assert.equal(terms.status, 200, terms.text);
      // A 20% plan sells every model at 0.96 of its cost.
      const plan = { name: 'Pro', price_usd: '10', discount_percent: 20 };
      const refused = await api('/api/operator/plans', { body: plan });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(readError(refused).code, 'below_cost');
      assert.match(readError(refused).message, /A 20% discount sells \d+ model\(s\) below the cost of every route/);
      const plans = await api('/api/operator/plans');
      assert.equal((plans.json as { data: unknown[] }).data.length, 0);
      const confirmed = await api('/api/operator/plans', { body: { ...plan, confirm_below_cost: true } });
      assert.equal(confirmed.status, 201, confirmed.text);
      const flagged = await operatorModel('claude-sonnet-4-5');
      assert.equal(flagged?.deepest_discount_percent, 20);
      assert.equal(flagged?.is_below_cost, true);
    });
  });
}
