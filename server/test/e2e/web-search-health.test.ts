import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { failuresBeforeDegraded } from '../../src/search/watch-search-engine.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnGateway, waitForListening } from '../support/gateway-process.ts';
import { fetchMetrics, startTestGateway, type TestGateway } from '../support/start-test-gateway.ts';

/** A loopback port with nothing listening on it: every search there fails to connect. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address && typeof address === 'object');
  return address.port;
}

describe('issue 19: a broken search engine is logged, counted and reported by /readyz', () => {
  let gateway: TestGateway;
  const logLines: string[] = [];
  const marker = 'tide-query-marker-51c2';

  before(async () => {
    gateway = await startTestGateway({
      environment: { SEARCH_ENGINE: 'searxng', SEARCH_BASE_URL: `http://127.0.0.1:${await closedPort()}` },
      logStream: { write: (line) => void logLines.push(line) },
    });
  });
  after(() => gateway.close());

  test('after repeated failures /readyz says degraded, /metrics counts them, the log names the engine, not the query', async () => {
    assert.deepEqual(await (await fetch(`${gateway.gateway.url}/readyz`)).json(), { status: 'ready' });
    const { key } = await gateway.createUserWithKey();
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    for (let index = 0; index < failuresBeforeDegraded; index += 1) {
      const response = await client.responses.create({
        model: 'gpt-4o-mini',
        input: `What causes ocean tides? ${marker}`,
        tools: [{ type: 'web_search' }],
        tool_choice: 'required',
      });
      const searchCall = response.output.find((item) => item.type === 'web_search_call');
      assert.equal(searchCall?.status, 'failed', 'the answer says the search failed');
    }
    const readiness = await fetch(`${gateway.gateway.url}/readyz`);
    assert.equal(readiness.status, 200, 'the node still serves everything else');
    assert.deepEqual(await readiness.json(), { status: 'degraded', web_search: 'failing' });
    const metrics = await fetchMetrics(gateway.gateway.url);
    const failed = /gateway_web_search_total\{engine="searxng",outcome="unavailable"\} (\d+)/.exec(metrics);
    assert.ok(failed && Number(failed[1]) >= failuresBeforeDegraded, metrics.slice(0, 200));
    const failureLines = logLines.filter((line) => line.includes('web search failed'));
    assert.ok(failureLines.length >= failuresBeforeDegraded);
    assert.ok(failureLines.every((line) => line.includes('"engine":"searxng"')));
    assert.ok(!logLines.some((line) => line.includes(marker)), 'the query text is never logged');
  });
});

describe('issue 19: start-up names the search engine or says web search is not configured', () => {
  const startAndRead = async (environment: Record<string, string>) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-search-'));
    const gateway = spawnGateway({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SANDBOX: 'off', ...environment });
    try {
      const url = await waitForListening(gateway);
      const readiness = (await (await fetch(`${url}/readyz`)).json()) as unknown;
      const firstLine =
        gateway
          .output()
          .split('\n')
          .find((line) => line.includes('gateway listening')) ?? '';
      return { firstLine, readiness };
    } finally {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  };

  test('without SEARCH_ENGINE outside sandbox mode: no SearXNG is assumed, the line and /readyz say so', async () => {
    const { firstLine, readiness } = await startAndRead({});
    assert.match(firstLine, /web search: not configured \(set SEARCH_ENGINE/);
    assert.deepEqual(readiness, { status: 'degraded', web_search: 'not_configured' });
  });

  test('with an engine: the line names it and its address, never its key', async () => {
    const { firstLine, readiness } = await startAndRead({
      SEARCH_ENGINE: 'searxng',
      SEARCH_BASE_URL: 'http://searcher:s3cret-pass@127.0.0.1:9/searxng',
      SEARCH_API_KEY: 'key-that-must-not-show',
    });
    assert.match(firstLine, /web search: SearXNG at http:\/\/127\.0\.0\.1:9\)/);
    assert.doesNotMatch(firstLine, /s3cret-pass|key-that-must-not-show/);
    assert.deepEqual(readiness, { status: 'ready' });
  });
});
