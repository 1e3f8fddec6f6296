import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** Each embedding model of the catalogue and the size of its vectors (the vendors' model pages). */
const vectorSizes: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'gemini-embedding-001': 3072,
  'mistral-embed': 1024,
  'bge-large-en-v1.5': 1024,
};

type CostedUsage = { prompt_tokens: number; total_tokens: number; cost: number };
type ErrorBody = { error: { message: string; param: string | null; code: string | null } };

/** Issue #18: `POST /v1/embeddings` for OpenAI, Google, Mistral and BAAI models. */
describe('POST /v1/embeddings', () => {
  let gateway: TestGateway;
  let client: OpenAI;
  let key: string;
  let userId: string;

  before(async () => {
    gateway = await startTestGateway();
    ({ key, userId } = await gateway.createUserWithKey({ balanceMicros: 10_000_000 }));
    client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  after(() => gateway.close());

  const db = () => gateway.gateway.database.db;
  const balance = () => sumLedgerAccount(db(), userLedgerAccount(userId));
  const post = async (body: unknown) => {
    const response = await fetch(`${gateway.url}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      body: (await response.json()) as unknown,
      requestId: response.headers.get('x-request-id'),
    };
  };

  test('the catalogue lists the embedding models as their own kind', async () => {
    const list = await fetch(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    const models = ((await list.json()) as { data: Array<{ id: string; kind: string }> }).data;
    assert.deepEqual(
      models
        .filter((model) => model.kind === 'embedding')
        .map((model) => model.id)
        .sort(),
      Object.keys(vectorSizes).sort(),
    );
  });

  test('every embedding model: one vector per input, of its size, billed per input token at the ledger debit', async () => {
    for (const [model, size] of Object.entries(vectorSizes)) {
      const before = await balance();
      const answer = await post({ model, input: ['The river flows.', 'Mountains rise.'], encoding_format: 'float' });
      assert.equal(answer.status, 200, `${model}: ${JSON.stringify(answer.body)}`);
      const body = answer.body as OpenAI.CreateEmbeddingResponse & { usage: CostedUsage };
      assert.equal(body.object, 'list');
      assert.equal(body.model, model);
      assert.deepEqual(
        body.data.map((item) => [item.object, item.index, item.embedding.length]),
        [
          ['embedding', 0, size],
          ['embedding', 1, size],
        ],
      );
      const norm = Math.hypot(...body.data[0]!.embedding);
      assert.ok(Math.abs(norm - 1) < 1e-6, `${model}: unit vector`);
      assert.notDeepEqual(body.data[0]!.embedding, body.data[1]!.embedding);
      const record = await findUsageRecord(db(), answer.requestId ?? '');
      assert.equal(record?.endpoint, 'embeddings', model);
      assert.equal(record.status, 'completed');
      assert.equal(record.input_tokens, body.usage.prompt_tokens);
      assert.equal(record.output_tokens, 0);
      assert.ok(record.cost_micros > 0, `${model} costs something`);
      assert.equal(body.usage.cost, microsToUsd(record.cost_micros));
      assert.equal(before - (await balance()), record.cost_micros, `${model}: the ledger debit is usage.cost`);
    }
  });

  test('the OpenAI SDK (base64 by default) decodes the same vectors; the same text gives the same vector', async () => {
    for (const model of Object.keys(vectorSizes)) {
      const viaSdk = await client.embeddings.create({ model, input: 'The river flows.' });
      const asFloats = await post({ model, input: 'The river flows.', encoding_format: 'float' });
      const floats = (asFloats.body as OpenAI.CreateEmbeddingResponse).data[0]!.embedding;
      const decoded = viaSdk.data[0]!.embedding;
      assert.equal(decoded.length, floats.length, model);
      decoded.forEach((value, index) => assert.ok(Math.abs(value - floats[index]!) < 1e-6, `${model}[${index}]`));
    }
  });

  test('dimensions shortens the vectors of models that can; token-id inputs reach OpenAI-dialect models', async () => {
    const short = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'x y z', dimensions: 256 });
    assert.equal(short.data[0]!.embedding.length, 256);
    const gemini = await client.embeddings.create({ model: 'gemini-embedding-001', input: 'x y z', dimensions: 768 });
    assert.equal(gemini.data[0]!.embedding.length, 768);
    const tokens = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: [
        [1, 2, 3],
        [4, 5],
      ],
    });
    assert.equal(tokens.data.length, 2);
    assert.equal(tokens.usage.prompt_tokens, 5);
    const single = await client.embeddings.create({ model: 'mistral-embed', input: [10, 11, 12, 13] });
    assert.equal(single.data.length, 1);
    assert.equal(single.usage.prompt_tokens, 4);
  });

  test('bad input is a 400 naming the field, an unknown or chat model a 404, and none of it is charged', async () => {
    const before = await balance();
    const cases: Array<[unknown, number, string | null, RegExp]> = [
      [{ model: 'text-embedding-3-small', input: [] }, 400, 'input', /empty list/],
      [{ model: 'text-embedding-3-small', input: '' }, 400, 'input', /empty/],
      [{ model: 'text-embedding-3-small', input: ['ok', ''] }, 400, 'input[1]', /empty/],
      [{ model: 'bge-large-en-v1.5', input: 'word '.repeat(1000) }, 400, 'input', /at most 512 tokens per input/],
      [{ model: 'mistral-embed', input: 'x', dimensions: 256 }, 400, 'dimensions', /dimensions/],
      [{ model: 'gemini-embedding-001', input: [[1, 2]] }, 400, 'input[0]', /text only/],
      [{ model: 'text-embedding-3-small', input: 'x', encoding_format: 'int8' }, 400, 'encoding_format', /./],
      [{ model: 'no-such-model', input: 'x' }, 404, 'model', /no-such-model/],
      [{ model: 'gpt-4o', input: 'x' }, 404, 'model', /embedding/],
    ];
    for (const [body, status, param, message] of cases) {
      const answer = await post(body);
      const error = (answer.body as ErrorBody).error;
      assert.equal(answer.status, status, JSON.stringify(body));
      assert.equal(error.param, param, JSON.stringify(body));
      assert.match(error.message, message, JSON.stringify(body));
    }
    assert.equal(await balance(), before);
  });
});
