import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { microsToUsd } from '../../src/lib/money.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

const familyModels = ['gpt-4o-mini', 'claude-haiku-4-5', 'gemini-2.5-flash', 'deepseek-chat', 'mistral-small-latest'];
type CostedUsage = { cost: number };

/** Issue #18: the legacy `POST /v1/completions` (editor completion) on every family, billed like chat. */
describe('POST /v1/completions', () => {
  let gateway: TestGateway;
  let client: OpenAI;
  let userId: string;

  before(async () => {
    gateway = await startTestGateway();
    const user = await gateway.createUserWithKey({ balanceMicros: 20_000_000 });
    userId = user.userId;
    client = new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });
  after(() => gateway.close());

  const db = () => gateway.gateway.database.db;
  const balance = () => sumLedgerAccount(db(), userLedgerAccount(userId));

  test('a completion per family: text_completion, the model asked for, usage.cost equal to the ledger debit', async () => {
    for (const model of familyModels) {
      const before = await balance();
      const { data: completion, response } = await client.completions
        .create({ model, prompt: 'def fibonacci(n):', max_tokens: 2000 })
        .withResponse();
      assert.equal(completion.object, 'text_completion');
      assert.equal(completion.model, model);
      assert.match(completion.id, /^cmpl-/);
      assert.ok((completion.choices[0]?.text ?? '').length > 0, model);
      assert.equal(completion.choices[0]?.finish_reason, 'stop', model);
      const record = await findUsageRecord(db(), response.headers.get('x-request-id') ?? '');
      assert.equal(record?.endpoint, 'completions', model);
      assert.equal(record.status, 'completed');
      assert.equal(completion.usage?.prompt_tokens, record.input_tokens);
      assert.equal((completion.usage as unknown as CostedUsage).cost, microsToUsd(record.cost_micros));
      assert.equal(before - (await balance()), record.cost_micros, `${model}: the ledger debit is usage.cost`);
    }
  });

  test('streamed: the text arrives in chunks, then the usage chunk with its cost when asked for', async () => {
    for (const model of familyModels) {
      const stream = await client.completions.create({
        model,
        prompt: 'Once upon a time [sim:words=20]',
        max_tokens: 100,
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: (OpenAI.CompletionUsage & Partial<CostedUsage>) | undefined;
      let finish: string | null = null;
      for await (const chunk of stream) {
        assert.equal(chunk.model, model);
        text += chunk.choices[0]?.text ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      assert.ok(text.length > 0, model);
      assert.equal(finish, 'stop', model);
      assert.ok(usage && usage.completion_tokens > 0 && typeof usage.cost === 'number' && usage.cost > 0, model);
    }
  });

  test('echo puts the prompt first; n gives several choices; max_tokens cuts with length', async () => {
    const echoed = await client.completions.create({ model: 'gpt-4o-mini', prompt: 'Hello there', echo: true });
    assert.ok(echoed.choices[0]?.text.startsWith('Hello there'));
    const several = await client.completions.create({ model: 'gpt-4o-mini', prompt: 'Name a colour.', n: 2 });
    assert.deepEqual(
      several.choices.map((choice) => choice.index),
      [0, 1],
    );
    const cut = await client.completions.create({
      model: 'deepseek-chat',
      prompt: 'Write [sim:words=50]',
      max_tokens: 5,
    });
    assert.equal(cut.choices[0]?.finish_reason, 'length');
  });

  test('what chat routes cannot honour is a 400 naming it, and nothing is charged', async () => {
    const before = await balance();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ suffix: '\n    return result' }, 'suffix'],
      [{ logprobs: 2 }, 'logprobs'],
      [{ best_of: 3 }, 'best_of'],
      [{ n: 9 }, 'n'],
      [{ prompt: ['one', 'two'] }, 'prompt'],
      [{ prompt: [1, 2, 3] }, 'prompt'],
      [{ prompt: '' }, 'prompt'],
    ];
    for (const [extra, param] of cases) {
      await assert.rejects(
        client.completions.create({
          model: 'gpt-4o-mini',
          prompt: 'x',
          ...extra,
        } as OpenAI.CompletionCreateParamsNonStreaming),
        (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === param,
        JSON.stringify(extra),
      );
    }
    await assert.rejects(client.completions.create({ model: 'no-such-model', prompt: 'x' }), OpenAI.NotFoundError);
    assert.equal(await balance(), before);
  });

  test("suffix on a Codestral model goes to Mistral's FIM API, whole and streamed, billed like chat", async () => {
    const prompt = 'def fibonacci(n):\n';
    const suffix = '\n    return result';
    const plain = await client.completions.create({ model: 'codestral-latest', prompt, max_tokens: 200 });
    const before = await balance();
    const { data: filled, response } = await client.completions
      .create({ model: 'codestral-latest', prompt, suffix, max_tokens: 200 })
      .withResponse();
    assert.equal(filled.object, 'text_completion');
    assert.ok((filled.choices[0]?.text ?? '').length > 0);
    // The vendor counts the text after the cursor as input too: the suffix reached it.
    assert.ok((filled.usage?.prompt_tokens ?? 0) > (plain.usage?.prompt_tokens ?? 0), 'suffix counted as input');
    const record = await findUsageRecord(db(), response.headers.get('x-request-id') ?? '');
    assert.equal(record?.endpoint, 'completions');
    assert.equal(record.input_tokens, filled.usage?.prompt_tokens);
    assert.equal((filled.usage as unknown as CostedUsage).cost, microsToUsd(record.cost_micros));
    assert.equal(before - (await balance()), record.cost_micros);

    const stream = await client.completions.create({
      model: 'codestral-latest',
      prompt,
      suffix,
      max_tokens: 200,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: (OpenAI.CompletionUsage & Partial<CostedUsage>) | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.text ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.ok(text.length > 0);
    assert.equal(usage?.prompt_tokens, filled.usage?.prompt_tokens);
  });

  test('suffix where no route has fill-in-the-middle, or with n over 1: a 400 naming it, nothing charged', async () => {
    const before = await balance();
    for (const [model, extra, param] of [
      ['mistral-small-latest', {}, 'model'],
      ['claude-haiku-4-5', {}, 'suffix'],
      ['codestral-latest', { n: 2 }, 'n'],
    ] as const) {
      await assert.rejects(
        client.completions.create({ model, prompt: 'x', suffix: 'y', ...extra }),
        (error: unknown) => error instanceof OpenAI.BadRequestError && error.param === param,
        `${model} ${JSON.stringify(extra)}`,
      );
    }
    assert.equal(await balance(), before);
  });
});
