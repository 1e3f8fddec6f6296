import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sumLedgerAccount, userLedgerAccount } from '../../src/db/ledger.ts';
import { startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

type AnthropicErrorBody = { type: string; error: { type: string; message: string }; request_id: string };

/** Issue #18: `anthropic-beta` names are ignored unless they change the wire format in a way the gateway cannot serve. */
describe('the anthropic-beta header on /v1/messages', () => {
  let gateway: TestGateway;
  let key: string;
  let userId: string;
  before(async () => {
    gateway = await startTestGateway();
    ({ key, userId } = await gateway.createUserWithKey());
  });
  after(() => gateway.close());

  const balance = () => sumLedgerAccount(gateway.gateway.database.db, userLedgerAccount(userId));
  const upstreamRequests = async () => {
    const stats = await fetch(`${gateway.gateway.simulator?.url}/_sim/stats`);
    return ((await stats.json()) as { totalRequests: number }).totalRequests;
  };
  const post = (path: string, beta: string) =>
    fetch(`${gateway.url}${path}`, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'anthropic-version': '2023-06-01',
        'anthropic-beta': beta,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }] }),
    });

  test('unknown betas and betas that change nothing the gateway must honour are ignored', async () => {
    for (const beta of [
      'some-future-beta-2031-01-01',
      'claude-code-20250219,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14',
      'prompt-caching-2024-07-31, context-management-2025-06-27 , mid-conversation-system-2026-04-07',
    ]) {
      const response = await post('/v1/messages', beta);
      assert.equal(response.status, 200, beta);
      assert.equal(((await response.json()) as { type: string }).type, 'message');
    }
  });

  test('a beta that changes the wire format, or a malformed name: an Anthropic 400 naming it, nothing charged', async () => {
    const [balanceBefore, requestsBefore] = [await balance(), await upstreamRequests()];
    const cases: Array<[string, string, RegExp]> = [
      ['/v1/messages', 'interleaved-thinking-2025-05-14,files-api-2025-04-14', /files-api-2025-04-14/],
      ['/v1/messages', 'code-execution-2025-08-25', /code-execution-2025-08-25/],
      ['/v1/messages/count_tokens', 'mcp-client-2025-11-20', /mcp-client-2025-11-20/],
      ['/v1/messages', 'not a beta!', /not a beta name/],
    ];
    for (const [path, beta, pattern] of cases) {
      const response = await post(path, beta);
      assert.equal(response.status, 400, beta);
      const body = (await response.json()) as AnthropicErrorBody;
      assert.equal(body.type, 'error');
      assert.equal(body.error.type, 'invalid_request_error');
      assert.match(body.error.message, /anthropic-beta/);
      assert.match(body.error.message, pattern);
    }
    assert.equal(await balance(), balanceBefore, 'nothing charged');
    assert.equal(await upstreamRequests(), requestsBefore, 'no upstream call');
  });
});
