import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import type { PublicModelList } from '../../../contract/models.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { preparePythonEnvironment } from '../support/conformance/python-part.ts';
import { runProcess } from '../support/conformance/run-process.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** One image request per vendor API, the size each must come back in, and the price tier it falls in. */
const cases = [
  { request: { model: 'gpt-image-1', n: 2, size: '1024x1536', quality: 'medium' }, quality: 'medium' },
  { request: { model: 'dall-e-3', n: 1, size: '1024x1792', response_format: 'b64_json' }, quality: 'standard' },
  { request: { model: 'gemini-2.5-flash-image', n: 1, size: '1248x832' } },
  { request: { model: 'imagen-4.0-generate-001', n: 2, size: '1280x896' } },
  { request: { model: 'flux-pro-1.1', n: 2, size: '768x512' } },
] as const;

/**
 * The official OpenAI SDK for Python: `client.images.generate` for each case; every image's bytes are decoded and
 * the PNG header read, and one JSON line per case reports what came back.
 */
const script = `
import base64, json, os, struct, sys
from openai import OpenAI

client = OpenAI(base_url=os.environ["GATEWAY_BASE_URL"], api_key=os.environ["GATEWAY_API_KEY"], max_retries=0)
for case in json.loads(os.environ["IMAGE_CASES"]):
    result = client.images.generate(prompt="a harbour at night", **case)
    sizes = []
    for image in result.data:
        data = base64.b64decode(image.b64_json)
        assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "not a PNG"
        width, height = struct.unpack(">II", data[16:24])
        sizes.append(f"{width}x{height}")
    extra = result.model_extra or {}
    print(json.dumps({"model": extra.get("model"), "cost": extra.get("cost"), "sizes": sizes}))
    sys.stdout.flush()
`;

type CaseResult = { model: string; cost: number; sizes: string[] };

describe('image generation through the official OpenAI SDK for Python', () => {
  let gateway: TestGateway;
  let python: string;
  let workDir: string;

  before(async () => {
    python = await preparePythonEnvironment();
    gateway = await startTestGateway();
    workDir = mkdtempSync(path.join(tmpdir(), 'images-python-'));
  });
  after(async () => {
    rmSync(workDir, { recursive: true, force: true });
    await gateway.close();
  });

  test('every image vendor answers images of the requested size, and the ledger shows n × price', async () => {
    const user = await gateway.createUserWithKey({ balanceMicros: 10_000_000 });
    const db = gateway.gateway.database.db;
    const balanceBefore = await sumLedgerAccount(db, userLedgerAccount(user.userId));
    const scriptPath = path.join(workDir, 'generate_images.py');
    writeFileSync(scriptPath, script);
    const run = await runProcess(python, [scriptPath], {
      env: {
        GATEWAY_BASE_URL: `${gateway.url}/v1`,
        GATEWAY_API_KEY: user.key,
        IMAGE_CASES: JSON.stringify(cases.map((testCase) => testCase.request)),
      },
    });
    assert.equal(run.exitCode, 0, run.output);
    const results = run.output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as CaseResult);
    assert.equal(results.length, cases.length, run.output);
    const priceList = (await (await fetch(`${gateway.url}/api/models`)).json()) as PublicModelList;
    let expectedTotalMicros = 0;
    for (const [index, testCase] of cases.entries()) {
      const { model, n, size } = testCase.request;
      const quality = 'quality' in testCase ? testCase.quality : undefined;
      const listed = priceList.data.find((entry) => entry.id === model);
      const tier = listed?.image_price_tiers?.find((item) => item.quality === quality && item.size === size);
      const expectedMicros = n * Math.round((tier?.usd_per_request ?? listed?.usd_per_request ?? 0) * 1_000_000);
      expectedTotalMicros += expectedMicros;
      const result = results[index];
      assert.equal(result?.model, model);
      assert.deepEqual(
        result?.sizes,
        Array.from({ length: n }, () => size),
        model,
      );
      assert.ok(expectedMicros > 0);
      assert.equal(result?.cost, microsToUsd(expectedMicros), `${model}: cost is n × the listed price`);
    }
    const balanceAfter = await sumLedgerAccount(db, userLedgerAccount(user.userId));
    assert.equal(balanceBefore - balanceAfter, expectedTotalMicros, 'the ledger debits exactly the sum of n × price');
  });
});
