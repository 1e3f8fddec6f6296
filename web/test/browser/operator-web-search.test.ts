import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import OpenAI from 'openai';
import { failuresBeforeDegraded } from '../../../server/src/search/watch-search-engine.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import {
  startSwitchableSearchEngine,
  type SwitchableSearchEngine,
} from '../../../server/test/support/switchable-search-engine.ts';
import { assertWebAppBuilt, launchBrowser, screenshotDir, type TestBrowser } from './support/launch-browser.ts';

/**
 * The operator console's Web search tab in a real browser, with a SearXNG on loopback that answers 500: the tab names
 * the engine, shows it failing (since when, the last failure's kind and status) and what to do, then shows it working
 * again once the engine recovers. Also in Russian.
 */

let engine: SwitchableSearchEngine;
let gateway: TestGateway;
let browser: TestBrowser;
let client: OpenAI;
const operatorEmail = `search-operator-${Date.now()}@example.com`;
const queryMarker = 'panel-query-marker-3e9b';

before(async () => {
  assertWebAppBuilt();
  engine = await startSwitchableSearchEngine();
  gateway = await startTestGateway({ environment: { SEARCH_ENGINE: 'searxng', SEARCH_BASE_URL: engine.url } });
  await gateway.createUserWithKey({ role: 'admin', email: operatorEmail });
  const { key } = await gateway.createUserWithKey();
  client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  browser = await launchBrowser();
  const login = await browser.context.request.post(`${gateway.url}/api/auth/login`, {
    data: { email: operatorEmail, password: 'correct horse battery staple' },
  });
  assert.equal(login.status(), 200, await login.text());
});

after(async () => {
  await browser?.close();
  await gateway?.close();
  await engine?.close();
});

async function searchOnce(): Promise<string | undefined> {
  const response = await client.responses.create({
    model: 'gpt-4o-mini',
    input: `Who painted the Night Watch? ${queryMarker}`,
    tools: [{ type: 'web_search' }],
    tool_choice: 'required',
  });
  return response.output.find((item) => item.type === 'web_search_call')?.status;
}

test('the Web search tab shows the engine failing with its last failure, then working again', async () => {
  const page = await browser.openPage();
  await page.goto(`${gateway.url}/operator`);
  await page.getByRole('tab', { name: 'Web search' }).click();
  const panel = page.locator('[data-panel="web-search"]');
  await panel.locator('[data-web-search-status="ok"]').waitFor();
  assert.equal(await panel.locator('[data-web-search-engine]').textContent(), `Engine: SearXNG at ${engine.url}.`);
  assert.equal(await panel.locator('[data-web-search-last-failure]').textContent(), 'none yet');

  for (let index = 0; index < failuresBeforeDegraded; index += 1) assert.equal(await searchOnce(), 'failed');
  await panel.getByRole('button', { name: 'Refresh' }).click();
  const failing = panel.locator('[data-web-search-status="failing"]');
  await failing.waitFor();
  assert.match(
    (await failing.textContent()) ?? '',
    new RegExp(`^Failing since .+: the last ${failuresBeforeDegraded} searches failed`),
  );
  assert.equal(await failing.getAttribute('role'), 'alert');
  assert.equal(await panel.locator('[data-web-search-failure-count]').textContent(), String(failuresBeforeDegraded));
  assert.match(
    (await panel.locator('[data-web-search-last-failure]').textContent()) ?? '',
    /, the engine could not be reached or answered with a server error \(HTTP 500\)$/,
  );
  assert.match(
    (await panel.locator('[data-web-search-advice]').textContent()) ?? '',
    /Check that the engine answers.*docs\/web-search-engines\.md#running-searxng-for-production/,
  );
  assert.ok(!((await panel.textContent()) ?? '').includes(queryMarker), 'no query text on the panel');
  await page.screenshot({ path: path.join(screenshotDir, 'operator-web-search-failing-1280.png'), fullPage: true });

  await page.getByRole('radio', { name: 'Русский' }).check();
  await page.getByRole('tab', { name: 'Веб-поиск' }).click();
  assert.match((await panel.locator('[data-web-search-status="failing"]').textContent()) ?? '', /^Не работает с /);
  await page.getByRole('radio', { name: 'English' }).check();

  engine.setFailing(false);
  assert.equal(await searchOnce(), 'completed');
  await panel.getByRole('button', { name: 'Refresh' }).click();
  await panel.locator('[data-web-search-status="ok"]').waitFor();
  assert.match((await panel.locator('[data-web-search-status]').textContent()) ?? '', /^Working/);
  assert.equal(
    await panel.locator('[data-web-search-failure-count]').textContent(),
    String(failuresBeforeDegraded),
    'past failures stay counted',
  );
  assert.deepEqual(browser.pageErrors, []);
});
