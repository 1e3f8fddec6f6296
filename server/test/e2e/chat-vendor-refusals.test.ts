import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { startRoutingFixture, type RoutingFixture } from '../support/routing-fixture.ts';

const weatherTool: OpenAI.ChatCompletionTool = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

/**
 * A parameter a vendor cannot honour is refused with a 400 naming it before any upstream call, never silently
 * changed: Groq serves one choice per request (`n`), Gemini cannot be held to one tool call per turn
 * (`parallel_tool_calls: false`).
 */
describe('parameters a route cannot honour', () => {
  let fixture: RoutingFixture;

  before(async () => {
    fixture = await startRoutingFixture();
  });
  after(() => fixture.close());

  const expectRefusal = async (request: OpenAI.ChatCompletionCreateParamsNonStreaming, param: string) => {
    const balance = () => sumLedgerAccount(fixture.gateway.gateway.database.db, userLedgerAccount(fixture.userId));
    const [balanceBefore, upstreamBefore] = [await balance(), await fixture.upstreamRequests()];
    const refusal = await fixture.client.chat.completions.create(request).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert.ok(refusal instanceof OpenAI.APIError, String(refusal));
    assert.equal(refusal.status, 400);
    assert.equal(refusal.param, param);
    assert.equal(await fixture.upstreamRequests(), upstreamBefore, 'refused before any upstream call');
    assert.equal(await balance(), balanceBefore, 'nothing charged');
  };

  test('n > 1 on a Groq model: 400 naming n; n = 1 is answered', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Two takes [sim:words=4]' }];
    await expectRefusal({ model: 'llama-4-maverick', n: 2, messages }, 'n');
    const single = await fixture.client.chat.completions.create({ model: 'llama-4-maverick', n: 1, messages });
    assert.equal(single.choices.length, 1);
  });

  test('parallel_tool_calls: false with tools on a Gemini model: 400 naming parallel_tool_calls', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather in Paris and Rome?' }];
    await expectRefusal(
      { model: 'gemini-2.5-flash', tools: [weatherTool], parallel_tool_calls: false, messages },
      'parallel_tool_calls',
    );
    const answer = await fixture.client.chat.completions.create({
      model: 'gemini-2.5-flash',
      tools: [weatherTool],
      messages,
    });
    assert.equal(answer.choices[0]?.finish_reason, 'tool_calls');
  });
});
