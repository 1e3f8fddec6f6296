import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { PublicModelList } from '../../../contract/models.ts';
import type { ImagePriceTierList } from '../../../contract/operator.ts';
import { seedCatalog } from '../../src/config/seed-catalog.ts';
import { seedImagePriceTiers } from '../../src/images/seed-image-price-tiers.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import type { ModelList, ModelObject } from '../../src/openai-api/model-object.ts';
import { callApi, readError, signIn, type BrowserSession } from '../support/account-api-client.ts';
import { runCli } from '../support/run-cli.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type GatewayImages = OpenAI.ImagesResponse & { model: string; cost: number };

const plainDecimal = /^\d+(\.\d*[1-9])?$/;

/** A plain decimal string × 10^places as an exact integer ("0.0000008", 12 → 800000n). */
function scaleDecimal(text: string, places: number): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(places, '0'));
}

/** Polls until `check` holds; the bound only catches a change that never arrives (the nodes poll every 500 ms). */
async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await check()) return;
    await sleep(50);
  }
  assert.fail(`${what} did not happen within 10 s`);
}

for (const databaseKind of databaseKinds) {
  describe(`image prices: shown honestly, managed by the operator, on ${databaseKind} (issue 9)`, () => {
    let gateway: TestGateway;
    let client: OpenAI;
    let key: string;
    let operator: BrowserSession;

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      const user = await gateway.createUserWithKey({ balanceMicros: 20_000_000 });
      key = user.key;
      client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const email = `tier-operator-${databaseKind}@example.com`;
      await gateway.createUserWithKey({ role: 'admin', email });
      operator = await signIn(gateway.url, { email });
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const v1Model = async (id: string): Promise<ModelObject> => {
      const list = (await (
        await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as ModelList;
      const model = list.data.find((entry) => entry.id === id);
      assert.ok(model, `${id} is listed`);
      return model;
    };
    const publicModel = async (id: string) => {
      const list = (await (await fetch(`${gateway.url}/api/models`)).json()) as PublicModelList;
      const model = list.data.find((entry) => entry.id === id);
      assert.ok(model, `${id} is listed`);
      return model;
    };
    const tierPrice = (model: ModelObject, tier: { quality: string | null; size: string | null }) =>
      model.pricing.image_tiers?.find((item) => item.quality === tier.quality && item.size === tier.size)?.price;
    const draw = async (params: OpenAI.ImageGenerateParamsNonStreaming) =>
      (await client.images.generate(params)) as GatewayImages;

    test('the per-request price shown for GPT Image is what a default request costs, with every tier listed', async () => {
      const model = await v1Model('gpt-image-1');
      assert.equal(model.pricing.image_tiers?.length, 9, 'low/medium/high × three sizes');
      for (const tier of model.pricing.image_tiers ?? []) assert.match(tier.price, plainDecimal);
      const highSquare = tierPrice(model, { quality: 'high', size: '1024x1024' });
      assert.equal(model.pricing.request, highSquare, 'a default request is held at the dearest quality it may get');
      const lowSquare = tierPrice(model, { quality: 'low', size: '1024x1024' });
      const defaultCall = await draw({ model: 'gpt-image-1', prompt: 'a lighthouse' });
      assert.equal(String(defaultCall.cost), model.pricing.request, 'a default call costs the price shown');
      assert.equal(model.pricing.usd_per_request, defaultCall.cost);
      assert.equal((await publicModel('gpt-image-1')).usd_per_request, defaultCall.cost, 'the models page agrees');
      const low = await draw({ model: 'gpt-image-1', prompt: 'a lighthouse', quality: 'low' });
      assert.equal(String(low.cost), lowSquare, 'a low-quality square image costs its tier');
    });

    test('models without tiers show their flat price, and every pricing string is a plain decimal', async () => {
      const flux = await v1Model('flux-pro-1.1');
      assert.deepEqual(flux.pricing.image_tiers, []);
      const call = await draw({ model: 'flux-pro-1.1', prompt: 'a lake' });
      assert.equal(flux.pricing.request, String(call.cost));
      const list = (await (
        await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as ModelList;
      const cheapText = list.data.find((entry) => entry.kind === 'text' && entry.pricing.input_usd_per_million < 1);
      assert.ok(cheapText, 'a text model under $1 per 1M input tokens, whose per-token price is below 1e-6');
      for (const model of list.data) {
        for (const text of [model.pricing.prompt, model.pricing.completion, model.pricing.request]) {
          assert.match(text, plainDecimal, `${model.id}: "${text}"`);
        }
        assert.equal(
          scaleDecimal(model.pricing.prompt, 12),
          BigInt(Math.round(model.pricing.input_usd_per_million * 1_000_000)),
          `${model.id}: prompt is exactly the input rate per token`,
        );
      }
    });

    test('the CLI sets and deletes a tier; the running server bills with it within a second', async () => {
      const set = await runCli(gateway.config, [
        'model',
        'set-image-tier',
        '--model',
        'dall-e-3',
        '--quality',
        'hd',
        '--size',
        '1024x1024',
        '--list-usd',
        '0.1',
      ]);
      assert.equal(set.exitCode, 0, set.stderr);
      assert.match(set.stdout, /quality hd\s+size 1024x1024\s+list 0\.1 → 0\.08 USD per image/);
      await waitFor(
        async () => tierPrice(await v1Model('dall-e-3'), { quality: 'hd', size: '1024x1024' }) === '0.08',
        'the new tier price on /v1/models',
      );
      const hd = await draw({ model: 'dall-e-3', prompt: 'a lighthouse', quality: 'hd' });
      assert.equal(hd.cost, 0.08, 'billed at the new tier: $0.10 list less the 20% default discount');
      const listed = await runCli(gateway.config, ['model', 'image-tiers', '--model', 'dall-e-3']);
      assert.equal(listed.exitCode, 0, listed.stderr);
      assert.equal(listed.stdout.trim().split('\n').length, 1 + 6, 'the flat price line and six tiers');
      const removed = await runCli(gateway.config, [
        'model',
        'delete-image-tier',
        '--model',
        'dall-e-3',
        '--quality',
        'hd',
        '--size',
        '1024x1024',
      ]);
      assert.equal(removed.exitCode, 0, removed.stderr);
      await waitFor(
        async () => tierPrice(await v1Model('dall-e-3'), { quality: 'hd', size: '1024x1024' }) === undefined,
        'the tier gone from /v1/models',
      );
      const flat = await draw({ model: 'dall-e-3', prompt: 'a lighthouse', quality: 'hd' });
      const tiers = (await callApi(gateway.url, '/api/operator/models/dall-e-3/image-tiers', { session: operator }))
        .json as ImagePriceTierList;
      assert.equal(flat.cost, tiers.flat_usd_per_request, 'no tier matches any more: the flat price');
      assert.equal(
        await seedImagePriceTiers(gateway.gateway.database.db, seedCatalog),
        0,
        'a restart re-seeds nothing',
      );
      assert.equal(
        tierPrice(await v1Model('dall-e-3'), { quality: 'hd', size: '1024x1024' }),
        undefined,
        'the removed seed tier stays removed',
      );
    });

    test('the CLI refuses a tier the model cannot draw, a text model and a bad amount', async () => {
      const refusals: Array<[string[], RegExp]> = [
        [['--model', 'gpt-image-1', '--quality', 'hd', '--list-usd', '0.1'], /qualities 'low', 'medium', 'high'/],
        [['--model', 'gpt-image-1', '--quality', 'auto', '--list-usd', '0.1'], /cannot be 'auto'/],
        [['--model', 'dall-e-3', '--size', '1536x1024', '--list-usd', '0.1'], /size '1536x1024' is not supported/],
        [['--model', 'gpt-4o', '--list-usd', '0.1'], /only image models have price tiers/],
        [['--model', 'dall-e-3', '--list-usd=-1'], /--list-usd must be a non-negative USD amount/],
        [['--model', 'no-such-model', '--list-usd', '0.1'], /no model `no-such-model`/],
      ];
      for (const [args, message] of refusals) {
        const result = await runCli(gateway.config, ['model', 'set-image-tier', ...args]);
        assert.notEqual(result.exitCode, 0, args.join(' '));
        assert.match(result.stderr, message, args.join(' '));
      }
      const missing = await runCli(gateway.config, ['model', 'delete-image-tier', '--model', 'flux-dev']);
      assert.notEqual(missing.exitCode, 0);
      assert.match(missing.stderr, /no price tier for quality any and size any/);
    });

    test('the operator API lists, sets and removes tiers; billing and both model lists follow', async () => {
      const path = '/api/operator/models/flux-pro-1.1/image-tiers';
      const empty = await callApi(gateway.url, path, { session: operator });
      assert.equal(empty.status, 200, empty.text);
      const before = empty.json as ImagePriceTierList;
      assert.deepEqual(before.data, []);
      const set = await callApi(gateway.url, path, {
        session: operator,
        body: { quality: null, size: '1440x1440', list_usd_per_request: '0.06' },
      });
      assert.equal(set.status, 200, set.text);
      const tiers = set.json as ImagePriceTierList;
      const scaled = (before.flat_usd_per_request * 0.06) / (before.flat_list_usd_per_request ?? 1);
      assert.deepEqual(tiers.data, [
        { quality: null, size: '1440x1440', list_usd_per_request: 0.06, usd_per_request: Number(scaled.toFixed(6)) },
      ]);
      const shown = await publicModel('flux-pro-1.1');
      assert.deepEqual(shown.image_price_tiers, [
        {
          quality: null,
          size: '1440x1440',
          usd_per_request: tiers.data[0]?.usd_per_request,
          list_usd_per_request: 0.06,
        },
      ]);
      assert.equal(shown.usd_per_request, before.flat_usd_per_request, 'the default size keeps the flat price');
      const large = await draw({ model: 'flux-pro-1.1', prompt: 'a lake', size: '1440x1440', n: 2 });
      assert.equal(large.cost, microsToUsd(2 * Math.round((tiers.data[0]?.usd_per_request ?? 0) * 1_000_000)));
      const usual = await draw({ model: 'flux-pro-1.1', prompt: 'a lake', size: '1024x768' });
      assert.equal(usual.cost, before.flat_usd_per_request);
      const removed = await callApi(gateway.url, `${path}?size=1440x1440`, { method: 'DELETE', session: operator });
      assert.equal(removed.status, 200, removed.text);
      assert.deepEqual((removed.json as ImagePriceTierList).data, []);
      assert.deepEqual((await v1Model('flux-pro-1.1')).pricing.image_tiers, []);
    });

    test('the operator API refuses bad tiers with a 400 naming the field, and unknown models or tiers with 404', async () => {
      const post = (model: string, body: unknown) =>
        callApi(gateway.url, `/api/operator/models/${model}/image-tiers`, { session: operator, body });
      const cases: Array<[string, unknown, number, string]> = [
        ['gpt-image-1', { quality: 'ultra', size: null, list_usd_per_request: '0.1' }, 400, 'quality'],
        ['gpt-image-1', { quality: 'low', size: 'auto', list_usd_per_request: '0.1' }, 400, 'size'],
        ['flux-dev', { quality: 'high', size: null, list_usd_per_request: '0.1' }, 400, 'quality'],
        ['flux-dev', { quality: null, size: '1000x1000', list_usd_per_request: '0.1' }, 400, 'size'],
        ['flux-dev', { quality: null, size: null, list_usd_per_request: '0.1234567' }, 400, 'list_usd_per_request'],
        ['gpt-4o', { quality: null, size: null, list_usd_per_request: '0.1' }, 400, 'model'],
        ['no-such-model', { quality: null, size: null, list_usd_per_request: '0.1' }, 404, 'model'],
      ];
      for (const [model, body, status, param] of cases) {
        const response = await post(model, body);
        assert.equal(response.status, status, `${model} ${JSON.stringify(body)}: ${response.text}`);
        assert.equal(readError(response).param, param, JSON.stringify(body));
      }
      const absent = await callApi(gateway.url, '/api/operator/models/flux-dev/image-tiers?quality=x', {
        method: 'DELETE',
        session: operator,
      });
      assert.equal(absent.status, 404);
      assert.deepEqual((await v1Model('flux-dev')).pricing.image_tiers, [], 'nothing was stored');
    });
  });
}
