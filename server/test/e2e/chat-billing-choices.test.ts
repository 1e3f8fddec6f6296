import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import type { PublicModelList } from '../../../contract/models.ts';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { findUsageRecord } from '../../src/db/usage-records.ts';
import { assertLedgerBalanced } from '../support/assert-ledger-balanced.ts';
import { databaseKinds } from '../support/test-databases.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type WireUsage = {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  cost?: number;
};

// Issue 3 (`n` choices) and issue 5 (holds): a call is held and charged for every choice it asks for, and the 402
// decision rests on the likely size of the input while the hold stays an upper bound of what the vendor bills.
for (const databaseKind of databaseKinds) {
  describe(`billing of n choices and of the input estimate on ${databaseKind}`, () => {
    let gateway: TestGateway;
    let models: PublicModelList['data'];

    before(async () => {
      gateway = await startTestGateway({ databaseKind });
      models = ((await (await fetch(`${gateway.url}/api/models`)).json()) as PublicModelList).data;
    });
    after(() => gateway.close());
    afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

    const db = () => gateway.gateway.database.db;
    const balanceOf = (userId: string) => sumLedgerAccount(db(), userLedgerAccount(userId));
    const newClient = async (balanceMicros: number) => {
      const user = await gateway.createUserWithKey({ balanceMicros });
      return { ...user, client: new OpenAI({ apiKey: user.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 }) };
    };
    /** The price of reported usage at the public price list's rates, by the one rounding rule. */
    const priceMicros = (modelId: string, usage: WireUsage) => {
      const model = models.find((candidate) => candidate.id === modelId);
      assert.ok(model, modelId);
      const micros = (usd: number) => Math.round(usd * 1e6);
      const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
      const numerator =
        (usage.prompt_tokens - cached) * micros(model.input_usd_per_million) +
        cached * micros(model.cached_input_usd_per_million ?? model.input_usd_per_million) +
        usage.completion_tokens * micros(model.output_usd_per_million);
      return Math.ceil(numerator / 1e6);
    };

    test('n = 3 is charged for all three answers, not streamed: the price of the usage the vendor reported', async () => {
      const { client, userId } = await newClient(1_000_000);
      // The output limit is per choice: a hold for one answer of 20 tokens would cap the charge at a third.
      const completion = await client.chat.completions.create({
        model: 'gpt-4o',
        n: 3,
        max_completion_tokens: 20,
        messages: [{ role: 'user', content: 'Three takes, please [sim:words=20]' }],
      });
      assert.deepEqual(
        completion.choices.map((choice) => choice.index),
        [0, 1, 2],
      );
      assert.equal(new Set(completion.choices.map((choice) => choice.message.content)).size, 3);
      const usage = completion.usage as WireUsage;
      assert.equal(usage.completion_tokens, 60, 'twenty tokens in each of the three answers');
      const costMicros = priceMicros('gpt-4o', usage);
      assert.equal(usage.cost, costMicros / 1e6);
      assert.equal(1_000_000 - (await balanceOf(userId)), costMicros, 'the ledger debited the price of all three');
      const record = await findUsageRecord(db(), completion.id.replace(/^chatcmpl-/, ''));
      assert.equal(record?.output_tokens, 60);
      assert.equal(record?.cost_micros, costMicros);
    });

    test('n = 3 streamed: every choice arrives, and the final usage costs all three', async () => {
      const { client, userId } = await newClient(1_000_000);
      const stream = await client.chat.completions.create({
        model: 'gpt-4o',
        n: 3,
        max_completion_tokens: 25,
        stream: true,
        stream_options: { include_usage: true },
        messages: [{ role: 'user', content: 'Three streamed takes [sim:words=25]' }],
      });
      const texts = ['', '', ''];
      let usage: WireUsage | undefined;
      for await (const chunk of stream) {
        for (const choice of chunk.choices) texts[choice.index] += choice.delta.content ?? '';
        if (chunk.usage) usage = chunk.usage as WireUsage;
      }
      assert.ok(texts.every((text) => text.length > 0));
      assert.ok(usage);
      assert.equal(usage.completion_tokens, 75);
      const costMicros = priceMicros('gpt-4o', usage);
      assert.equal(usage.cost, costMicros / 1e6);
      assert.equal(1_000_000 - (await balanceOf(userId)), costMicros);
    });

    test('n = 3 on a balance too small for three full answers lowers the output limit of each', async () => {
      const model = models.find((candidate) => candidate.id === 'gpt-4o');
      assert.ok(model);
      // About 40 input tokens and 3 × 30 output tokens: far less than three answers of 500 words.
      const balanceMicros = Math.ceil(40 * model.input_usd_per_million + 90 * model.output_usd_per_million);
      const { client, userId } = await newClient(balanceMicros);
      const completion = await client.chat.completions.create({
        model: 'gpt-4o',
        n: 3,
        messages: [{ role: 'user', content: 'Long takes [sim:words=500]' }],
      });
      assert.equal(completion.choices.length, 3);
      assert.ok(completion.choices.every((choice) => choice.finish_reason === 'length'));
      const usage = completion.usage as WireUsage;
      assert.ok(usage.completion_tokens < 3 * 60, `${usage.completion_tokens} output tokens`);
      const costMicros = priceMicros('gpt-4o', usage);
      assert.equal(usage.cost, costMicros / 1e6, 'charged exactly, not capped at a hold that was too small');
      const balance = await balanceOf(userId);
      assert.ok(balance >= 0);
      assert.equal(balanceMicros - balance, costMicros);
    });

    test('a call whose real input is affordable is served although the worst-case input is not', async () => {
      // 8.4 kB of English: about 2,100 tokens really, and at most 8,400 (one token per byte) in the worst case. Each
      // call opens with its own word, so the second does not read the first one's prompt from the vendor's cache.
      const content = (opening: string) => `${opening} ${'hello world '.repeat(700)} [sim:words=5]`;
      const request = (opening: string) => ({
        model: 'gpt-4o',
        max_completion_tokens: 10,
        messages: [{ role: 'user' as const, content: content(opening) }],
      });
      const probe = await newClient(1_000_000);
      const probed = await probe.client.chat.completions.create(request('probe'));
      const probedCostMicros = priceMicros('gpt-4o', probed.usage as WireUsage);
      const model = models.find((candidate) => candidate.id === 'gpt-4o');
      assert.ok(model);
      const bytes = Buffer.byteLength(content('fresh'));
      const worstCaseInputMicros = Math.ceil(bytes * model.input_usd_per_million);
      const balanceMicros = probedCostMicros * 2;
      assert.ok(balanceMicros < worstCaseInputMicros, 'the balance does not cover the worst case');
      const { client, userId } = await newClient(balanceMicros);
      const served = await client.chat.completions.create(request('fresh'));
      const costMicros = priceMicros('gpt-4o', served.usage as WireUsage);
      assert.equal(costMicros, probedCostMicros, 'the same size of call');
      assert.equal((served.usage as WireUsage).cost, costMicros / 1e6);
      assert.equal(balanceMicros - (await balanceOf(userId)), costMicros);
    });

    test('a balance below the likely input is a 402 that names the input estimate', async () => {
      const content = `${'hello world '.repeat(700)} [sim:words=5]`;
      const { key, userId } = await newClient(1_000);
      const response = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content }] }),
      });
      assert.equal(response.status, 402);
      const error = ((await response.json()) as { error: { message: string; code: string } }).error;
      assert.equal(error.code, 'insufficient_credits');
      const match = /\(0\.001000 USD available\).*input of about (\d+) tokens costs about (\d+\.\d{6}) USD/.exec(
        error.message,
      );
      assert.ok(match, error.message);
      const likelyTokens = Number(match[1]);
      const bytes = Buffer.byteLength(content);
      assert.ok(likelyTokens > bytes / 5 && likelyTokens < bytes / 3, `${likelyTokens} tokens for ${bytes} bytes`);
      assert.equal(await balanceOf(userId), 1_000);
    });
  });
}

/** About 2,000 tokens of instructions: above the 1,024-token minimum Anthropic caches. */
const longInstructions = `You answer questions about rivers. ${'Keep every answer short and factual. '.repeat(220)}`;

describe('prompt-cache writes are billed at the vendor’s cache-write rate', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startTestGateway();
  });
  after(() => gateway.close());
  afterEach(() => assertLedgerBalanced(gateway.gateway.database.db));

  test('a Claude call that writes the cache pays 1.25× the input rate for the written tokens, reads pay the cached rate', async () => {
    const { key, userId } = await gateway.createUserWithKey({ balanceMicros: 1_000_000 });
    const anthropic = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0, logLevel: 'off' });
    const models = ((await (await fetch(`${gateway.url}/api/models`)).json()) as PublicModelList).data;
    const model = models.find((candidate) => candidate.id === 'claude-haiku-4-5');
    assert.ok(model);
    const micros = (usd: number | null) => Math.round((usd ?? 0) * 1e6);
    const ask = (question: string) =>
      anthropic.messages.create({
        model: 'claude-haiku-4-5',
        max_tokens: 64,
        system: [{ type: 'text', text: longInstructions, cache_control: { type: 'ephemeral' } }],
        messages: [{ role: 'user', content: question }],
      });
    const priceMicros = (usage: Anthropic.Usage, writeShare: number) =>
      Math.ceil(
        (usage.input_tokens * micros(model.input_usd_per_million) * 10_000 +
          (usage.cache_creation_input_tokens ?? 0) * micros(model.input_usd_per_million) * writeShare +
          (usage.cache_read_input_tokens ?? 0) * micros(model.cached_input_usd_per_million) * 10_000 +
          usage.output_tokens * micros(model.output_usd_per_million) * 10_000) /
          1e10,
      );
    const costOf = (usage: Anthropic.Usage) => Math.round((usage as Anthropic.Usage & { cost: number }).cost * 1e6);
    const writing = await ask('Name a long river.');
    assert.ok((writing.usage.cache_creation_input_tokens ?? 0) > 1024, JSON.stringify(writing.usage));
    assert.equal(costOf(writing.usage), priceMicros(writing.usage, 12_500), 'writes at 1.25× the input rate');
    assert.ok(costOf(writing.usage) > priceMicros(writing.usage, 10_000), 'dearer than the same tokens as input');
    const reading = await ask('Name a short river.');
    assert.ok((reading.usage.cache_read_input_tokens ?? 0) > 1024, JSON.stringify(reading.usage));
    assert.equal(costOf(reading.usage), priceMicros(reading.usage, 12_500));
    const balance = await sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));
    assert.equal(1_000_000 - balance, costOf(writing.usage) + costOf(reading.usage), 'the ledger debited both costs');
  });
});
