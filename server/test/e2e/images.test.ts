import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI from 'openai';
import type { PublicModelList } from '../../../contract/models.ts';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { decodeImage, decodeImageSize } from '../support/decode-image.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';

function sizeOf(datum: OpenAI.Image | undefined): string {
  assert.ok(datum?.b64_json, 'the image comes as base64');
  return decodeImageSize(Buffer.from(datum.b64_json, 'base64'));
}

async function sizeAtUrl(url: string | undefined): Promise<string> {
  assert.ok(url, 'the image comes as a URL');
  const response = await fetch(url);
  assert.equal(response.status, 200);
  return decodeImageSize(Buffer.from(await response.arrayBuffer()));
}

type GatewayImages = OpenAI.ImagesResponse & { model: string; cost: number };

for (const databaseKind of databaseKinds) {
  describe(`image generation through the official OpenAI SDK on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let client: OpenAI;
    let userId: string;
    const logLines: string[] = [];

    before(async () => {
      gateway = await startTestGateway({
        databaseKind,
        environment: { IMAGE_TIMEOUT_MS: '3000' },
        logStream: { write: (line) => logLines.push(line) },
      });
      const user = await gateway.createUserWithKey({ balanceMicros: 10_000_000 });
      userId = user.userId;
      client = new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const balance = () => sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));
    /** The price of one image as the public price list shows it: the tier of the quality and size, or the flat one. */
    const pricePerImage = async (model: string, drawn: { quality?: string; size?: string } = {}) => {
      const list = (await (await fetch(`${gateway.url}/api/models`)).json()) as PublicModelList;
      const entry = list.data.find((item) => item.id === model);
      const tier = (entry?.image_price_tiers ?? []).find(
        (item) =>
          (item.quality === null || item.quality === drawn.quality) && (item.size === null || item.size === drawn.size),
      );
      const usd = tier?.usd_per_request ?? entry?.usd_per_request;
      assert.ok(usd !== undefined && usd !== null && usd > 0, `${model} has a per-image price`);
      return Math.round(usd * 1_000_000);
    };

    /**
     * Generates, then checks the answer's model and cost against the usage record and the ledger: n × the listed
     * price of the quality and size drawn (`priceAt`, for models priced by tier).
     */
    const generateAndCheckBill = async (
      params: OpenAI.ImageGenerateParamsNonStreaming,
      priceAt: { quality?: string; size?: string } = {},
    ) => {
      const before = await balance();
      const { data, response } = await client.images.generate(params).withResponse();
      const images = data as GatewayImages;
      const count = params.n ?? 1;
      const expectedMicros = count * (await pricePerImage(params.model ?? '', priceAt));
      assert.equal(images.model, params.model, 'the answer names the requested model');
      assert.equal(images.data?.length, count);
      assert.equal(images.cost, microsToUsd(expectedMicros), 'cost is n × the per-image price');
      const requestId = response.headers.get('x-request-id') ?? '';
      const record = await findUsageRecord(gateway.gateway.database.db, requestId);
      assert.equal(record?.endpoint, 'images.generations');
      assert.equal(record?.status, 'completed');
      assert.equal(record?.image_count, count);
      assert.equal(record?.cost_micros, expectedMicros);
      assert.equal(before - (await balance()), expectedMicros, 'the ledger debits exactly n × price');
      return images;
    };

    test('the model list offers every seeded image vendor', async () => {
      const ids = [];
      for await (const model of client.models.list()) ids.push(model.id);
      for (const id of [
        'gpt-image-1',
        'dall-e-3',
        'gemini-2.5-flash-image',
        'imagen-4.0-generate-001',
        'flux-pro-1.1',
      ]) {
        assert.ok(ids.includes(id), `${id} is listed`);
      }
    });

    test('OpenAI gpt-image-1 draws n images of the requested size, billed at the quality it drew', async () => {
      const images = await generateAndCheckBill(
        { model: 'gpt-image-1', prompt: 'a red fox', n: 2, size: '1536x1024' },
        { quality: 'high', size: '1536x1024' },
      );
      assert.deepEqual(images.data?.map(sizeOf), ['1536x1024', '1536x1024']);
      assert.ok(images.usage && images.usage.output_tokens > 0, 'the vendor token usage is passed on');
      assert.deepEqual([images.size, images.quality], ['1536x1024', 'high'], 'auto quality came back as high');
      const low = await generateAndCheckBill(
        { model: 'gpt-image-1', prompt: 'a red fox', quality: 'low' },
        { quality: 'low', size: '1024x1024' },
      );
      assert.ok(low.cost < images.cost / 2 / 10, 'a low-quality square image costs far less than a large high one');
    });

    test('OpenAI dall-e-3 answers a URL by default and base64 on request, with a revised prompt', async () => {
      const byUrl = await generateAndCheckBill(
        { model: 'dall-e-3', prompt: 'a lighthouse at dusk' },
        { quality: 'standard', size: '1024x1024' },
      );
      assert.equal(await sizeAtUrl(byUrl.data?.[0]?.url), '1024x1024');
      assert.ok(byUrl.data?.[0]?.revised_prompt);
      const inline = await generateAndCheckBill(
        {
          model: 'dall-e-3',
          prompt: 'a lighthouse at dawn',
          size: '1792x1024',
          quality: 'hd',
          response_format: 'b64_json',
        },
        { quality: 'hd', size: '1792x1024' },
      );
      assert.equal(inline.cost, byUrl.cost * 3, 'HD at 1792x1024 is three times a standard square image');
      assert.equal(sizeOf(inline.data?.[0]), '1792x1024');
    });

    test('Gemini image output draws the aspect ratio of the requested size', async () => {
      const images = await generateAndCheckBill({
        model: 'gemini-2.5-flash-image',
        prompt: 'a banana in a tuxedo',
        size: '1344x768',
      });
      assert.equal(sizeOf(images.data?.[0]), '1344x768');
    });

    test('Imagen draws several samples in one call', async () => {
      const images = await generateAndCheckBill({
        model: 'imagen-4.0-generate-001',
        prompt: 'a robot holding a red skateboard',
        n: 3,
        size: '768x1408',
      });
      assert.deepEqual(images.data?.map(sizeOf), ['768x1408', '768x1408', '768x1408']);
      assert.notEqual(images.data?.[0]?.b64_json, images.data?.[1]?.b64_json, 'the samples differ');
    });

    test('FLUX is submitted, polled until ready and fetched, as base64 or as the delivery URL', async () => {
      const images = await generateAndCheckBill({
        model: 'flux-pro-1.1',
        prompt: 'a mountain lake',
        n: 2,
        size: '1024x768',
      });
      assert.deepEqual(images.data?.map(sizeOf), ['1024x768', '1024x768']);
      const byUrl = await generateAndCheckBill({
        model: 'flux-dev',
        prompt: 'a mountain lake',
        size: '512x512',
        response_format: 'url',
      });
      assert.equal(await sizeAtUrl(byUrl.data?.[0]?.url), '512x512');
      const jpeg = await generateAndCheckBill({
        model: 'flux-pro-1.1',
        prompt: 'a mountain lake',
        size: '1440x256',
        output_format: 'jpeg',
      });
      assert.deepEqual(decodeImage(Buffer.from(jpeg.data?.[0]?.b64_json ?? '', 'base64')), {
        format: 'jpeg',
        width: 1440,
        height: 256,
      });
    });

    test('FLUX draws a different picture for each of n images (issue 9)', async () => {
      const images = await generateAndCheckBill({ model: 'flux-dev', prompt: 'a red barn', n: 3, size: '256x256' });
      const distinct = new Set(images.data?.map((datum) => datum.b64_json));
      assert.equal(distinct.size, 3, 'three tasks, three pictures');
    });

    test('GPT image models answer output_format jpeg and webp in that format (issue 9)', async () => {
      for (const format of ['jpeg', 'webp'] as const) {
        const images = await generateAndCheckBill(
          { model: 'gpt-image-1', prompt: 'a blue kite', quality: 'low', size: '1024x1536', output_format: format },
          { quality: 'low', size: '1024x1536' },
        );
        assert.equal(images.output_format, format);
        assert.deepEqual(decodeImage(Buffer.from(images.data?.[0]?.b64_json ?? '', 'base64')), {
          format,
          width: 1024,
          height: 1536,
        });
      }
    });

    test('neither the prompt nor the images are stored in the database or written to the logs', async () => {
      const marker = `zebra-marker-${Date.now()}`;
      const images: string[] = [];
      for (const model of ['gpt-image-1', 'gemini-2.5-flash-image', 'imagen-4.0-generate-001', 'flux-pro-1.1']) {
        const answer = await client.images.generate({ model, prompt: `A picture of ${marker}` });
        images.push(answer.data?.[0]?.b64_json ?? '');
      }
      await client.images.generate({ model: 'flux-pro-1.1', prompt: `${marker} [sim:refusal]` }).catch(() => undefined);
      await client.images.generate({ model: 'dall-e-3', prompt: `${marker} [sim:status=503]` }).catch(() => undefined);
      const db = gateway.gateway.database.db;
      let stored = '';
      for (const table of await db.introspection.getTables()) {
        stored += JSON.stringify(
          await db
            .selectFrom(table.name as never)
            .selectAll()
            .execute(),
        );
      }
      assert.ok(stored.includes('images.generations'), 'the dump holds the usage rows');
      assert.ok(!stored.includes(marker), 'the prompt is not stored');
      assert.ok(
        images.every((image) => image.length > 100 && !stored.includes(image.slice(0, 100))),
        'no image bytes',
      );
      const logs = logLines.join('');
      assert.ok(logs.includes('"msg":"request"'), 'logs were captured');
      assert.ok(!logs.includes(marker), 'the prompt is not in the logs');
    });

    test('a balance that cannot cover n × price is a 402', async () => {
      const poor = await gateway.createUserWithKey({ balanceMicros: 40_000 });
      const poorClient = new OpenAI({ apiKey: poor.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const error = await poorClient.images.generate({ model: 'imagen-4.0-generate-001', prompt: 'a cat', n: 4 }).then(
        () => assert.fail('the request should fail'),
        (thrown: unknown) => thrown,
      );
      assert.ok(error instanceof OpenAI.APIError);
      assert.equal(error.status, 402);
      const single = (await poorClient.images.generate({
        model: 'imagen-4.0-generate-001',
        prompt: 'a cat',
      })) as GatewayImages;
      assert.equal(single.cost, microsToUsd(await pricePerImage('imagen-4.0-generate-001')));
    });

    test('when the model picks the quality, the dearest tier is held: 402 if the balance covers only cheaper ones', async () => {
      const highSquare = await pricePerImage('gpt-image-1', { quality: 'high', size: '1024x1024' });
      const lowSquare = await pricePerImage('gpt-image-1', { quality: 'low', size: '1024x1024' });
      const user = await gateway.createUserWithKey({ balanceMicros: highSquare - 1 });
      const limited = new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const error = await limited.images.generate({ model: 'gpt-image-1', prompt: 'a cat', size: '1024x1024' }).then(
        () => assert.fail('the request should fail'),
        (thrown: unknown) => thrown,
      );
      assert.ok(error instanceof OpenAI.APIError);
      assert.equal(error.status, 402);
      const low = (await limited.images.generate({
        model: 'gpt-image-1',
        prompt: 'a cat',
        size: '1024x1024',
        quality: 'low',
      })) as GatewayImages;
      assert.equal(low.cost, microsToUsd(lowSquare));
    });

    test('a client that leaves before the image is ready is not charged, and its hold is freed', async () => {
      const flux = await pricePerImage('flux-pro-1.1');
      const user = await gateway.createUserWithKey({ balanceMicros: flux });
      const simulatorUrl = gateway.gateway.simulator?.url ?? '';
      const bflRequests = async () =>
        ((await (await fetch(`${simulatorUrl}/_sim/stats`)).json()) as { requestsByVendor: { bfl: number } })
          .requestsByVendor.bfl;
      const before = await bflRequests();
      const leaving = new AbortController();
      const pending = fetch(`${gateway.url}/v1/images/generations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'flux-pro-1.1', prompt: 'slow [sim:delay-first-byte=60000]' }),
        signal: leaving.signal,
      }).catch((error: unknown) => error);
      while ((await bflRequests()) === before) await sleep(20);
      leaving.abort();
      assert.ok((await pending) instanceof Error);
      const db = gateway.gateway.database.db;
      const findRecord = () =>
        db.selectFrom('usage_records').selectAll().where('user_id', '=', user.userId).executeTakeFirst();
      let record = await findRecord();
      while (!record) record = await sleep(20).then(findRecord);
      assert.deepEqual([record.status, record.error_code, record.cost_micros], ['failed', 'client_disconnected', 0]);
      assert.equal(await sumLedgerAccount(db, userLedgerAccount(user.userId)), flux, 'nothing was charged');
      const again = new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const images = (await again.images.generate({ model: 'flux-pro-1.1', prompt: 'a lake' })) as GatewayImages;
      assert.equal(images.cost, microsToUsd(flux), 'the whole balance was free again for the next call');
    });
  });
}
