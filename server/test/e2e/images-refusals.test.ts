import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

for (const databaseKind of databaseKinds) {
  describe(`image requests refused or failed without a charge, through the OpenAI SDK, on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let client: OpenAI;
    let userId: string;

    before(async () => {
      gateway = await startTestGateway({ databaseKind, environment: { IMAGE_TIMEOUT_MS: '3000' } });
      const user = await gateway.createUserWithKey({ balanceMicros: 10_000_000 });
      userId = user.userId;
      client = new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const balance = () => sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));

    /** A request that must fail with the given status and param, leaving the balance untouched. */
    const expectRefusedWithoutCharge = async (
      params: OpenAI.ImageGenerateParamsNonStreaming,
      expected: { status: number; param?: string; code?: string },
    ) => {
      const before = await balance();
      const error = await client.images.generate(params).then(
        () => assert.fail('the request should fail'),
        (thrown: unknown) => thrown,
      );
      assert.ok(error instanceof OpenAI.APIError, String(error));
      assert.equal(error.status, expected.status, error.message);
      if (expected.param !== undefined) assert.equal(error.param, expected.param);
      if (expected.code !== undefined) assert.equal(error.code, expected.code);
      assert.equal(await balance(), before, 'nothing is charged');
      return error;
    };

    test('an unsupported size, an n out of range and an empty prompt are refused before any charge', async () => {
      const size = await expectRefusedWithoutCharge(
        { model: 'dall-e-3', prompt: 'a cat', size: '512x512' },
        { status: 400, param: 'size' },
      );
      assert.match(size.message, /1792x1024/, 'the message lists the supported sizes');
      await expectRefusedWithoutCharge(
        { model: 'flux-pro-1.1', prompt: 'a cat', size: '1000x1000' },
        { status: 400, param: 'size' },
      );
      await expectRefusedWithoutCharge({ model: 'dall-e-3', prompt: 'a cat', n: 2 }, { status: 400, param: 'n' });
      await expectRefusedWithoutCharge(
        { model: 'imagen-4.0-generate-001', prompt: 'a cat', n: 5 },
        { status: 400, param: 'n' },
      );
      await expectRefusedWithoutCharge({ model: 'gpt-image-1', prompt: 'a cat', n: 0 }, { status: 400, param: 'n' });
      await expectRefusedWithoutCharge({ model: 'gpt-image-1', prompt: '   ' }, { status: 400, param: 'prompt' });
      await expectRefusedWithoutCharge(
        { model: 'gpt-image-1', prompt: 'a cat', response_format: 'url' },
        { status: 400, param: 'response_format' },
      );
      await expectRefusedWithoutCharge({ model: 'gpt-4o', prompt: 'a cat' }, { status: 404, param: 'model' });
      await expectRefusedWithoutCharge(
        { model: 'dall-e-3', prompt: 'a'.repeat(4001) },
        { status: 400, param: 'prompt', code: 'string_above_max_length' },
      );
    });

    test('an unknown field, or a request to stream, is a 400 naming the field (issue 9)', async () => {
      const post = (body: Record<string, unknown>) =>
        fetch(`${gateway.url}/v1/images/generations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-image-1', prompt: 'a cat', ...body }),
        });
      const before = await balance();
      for (const [body, param, code] of [
        [{ seed: 7 }, 'seed', 'unknown_parameter'],
        [{ stream: true }, 'stream', 'unsupported_parameter'],
        [{ partial_images: 2 }, 'partial_images', 'unsupported_parameter'],
      ] as const) {
        const response = await post(body);
        assert.equal(response.status, 400);
        const { error } = (await response.json()) as { error: { param: string; code: string; message: string } };
        assert.deepEqual([error.param, error.code], [param, code]);
        assert.match(error.message, new RegExp(param));
      }
      assert.equal(await balance(), before, 'nothing is charged');
    });

    test('a vendor content-policy refusal is a 400 with the vendor reason, for every vendor, and costs nothing', async () => {
      const openAi = await expectRefusedWithoutCharge(
        { model: 'gpt-image-1', prompt: 'something forbidden [sim:refusal]' },
        { status: 400, code: 'moderation_blocked' },
      );
      assert.match(openAi.message, /safety system/);
      const gemini = await expectRefusedWithoutCharge(
        { model: 'gemini-2.5-flash-image', prompt: 'something forbidden [sim:refusal]' },
        { status: 400, param: 'prompt', code: 'content_policy_violation' },
      );
      assert.match(gemini.message, /PROHIBITED_CONTENT/);
      const imagen = await expectRefusedWithoutCharge(
        { model: 'imagen-4.0-generate-001', prompt: 'something forbidden [sim:refusal]', n: 2 },
        { status: 400, code: 'content_policy_violation' },
      );
      assert.match(imagen.message, /safety filter/);
      const flux = await expectRefusedWithoutCharge(
        { model: 'flux-pro-1.1', prompt: 'something forbidden [sim:refusal]' },
        { status: 400, code: 'content_policy_violation' },
      );
      assert.match(flux.message, /Request Moderated/);
      await expectRefusedWithoutCharge(
        { model: 'dall-e-3', prompt: 'refused outright [sim:status=400]' },
        { status: 400 },
      );
    });

    test('a vendor that does not answer in time is a 504 and costs nothing', async () => {
      await expectRefusedWithoutCharge(
        { model: 'gpt-image-1', prompt: 'a slow picture [sim:delay-first-byte=60000]' },
        { status: 504, code: 'upstream_timeout' },
      );
      await expectRefusedWithoutCharge(
        { model: 'flux-pro-1.1', prompt: 'a slow picture [sim:delay-first-byte=60000]' },
        { status: 504, code: 'upstream_timeout' },
      );
    });

    test('a vendor outage is a 502 and costs nothing; the failed record names the route tried (issue 9)', async () => {
      const response = await expectRefusedWithoutCharge(
        { model: 'imagen-4.0-generate-001', prompt: 'x [sim:status=503]' },
        { status: 502 },
      );
      const record = await findUsageRecord(gateway.gateway.database.db, response.requestID ?? '');
      assert.deepEqual(
        [record?.status, record?.cost_micros, record?.route_id, record?.provider],
        ['failed', 0, 'sandbox:imagen-4.0-generate-001', 'gemini'],
        'the sandbox route that was tried',
      );
    });
  });
}
