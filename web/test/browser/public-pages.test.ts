import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type PublicModelList, publicModelListSchema } from '../../../contract/models.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, screenshotDir, type TestBrowser } from './support/launch-browser.ts';

/**
 * The other public pages in a real browser against a real gateway (sandbox mode, fresh SQLite): the docs show both
 * base addresses and examples, the header navigates without reloading, nothing overflows at 375 px, and every page
 * carries a strict Content-Security-Policy. The models page is in models-page.test.ts. Screenshots of every page
 * land in test-artifacts/screenshots/.
 */

let gateway: TestGateway;
let browser: TestBrowser;
let priceList: PublicModelList;

before(async () => {
  assertWebAppBuilt();
  gateway = await startTestGateway();
  const response = await fetch(`${gateway.url}/api/models`);
  assert.equal(response.status, 200);
  priceList = publicModelListSchema.parse(await response.json());
  assert.ok(priceList.data.length > 0, 'the sandbox gateway serves a price list');
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await gateway?.close();
});

test('the docs page shows both base addresses with copy buttons, and examples in cURL, Python and Node.js', async () => {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: gateway.url });
  const page = await browser.openPage();
  await page.goto(`${gateway.url}/docs`);
  const publicUrl = page.locator('[data-base-url="public"] code');
  await publicUrl.waitFor();
  assert.equal(await publicUrl.textContent(), priceList.public_base_url);
  assert.equal(await page.locator('[data-base-url="direct"] code').textContent(), priceList.direct_base_url);
  assert.match((await page.locator('[data-base-url="direct"]').textContent()) ?? '', /2 minutes/);

  await page.getByRole('button', { name: 'Copy: Direct address' }).click();
  await page.getByRole('button', { name: 'Copy: Direct address' }).getByText('Copied').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), priceList.direct_base_url);

  const examples = page.locator('.code-example pre');
  const expectedTitles = [
    'Chat completion',
    'Streaming',
    'Tool calling',
    'Web search (Responses API)',
    'Image generation',
  ];
  assert.deepEqual(await page.locator('.code-example h3').allTextContents(), expectedTitles);
  const languages = [
    { name: 'cURL', marker: 'curl ' },
    { name: 'Python', marker: 'from openai import OpenAI' },
    { name: 'Node.js', marker: 'import OpenAI from "openai"' },
  ];
  const modelIds = new Set(priceList.data.map((model) => model.id));
  for (const language of languages) {
    await page.getByRole('radio', { name: language.name }).check();
    const sources = await examples.allTextContents();
    assert.equal(sources.length, expectedTitles.length);
    for (const source of sources) {
      assert.ok(source.includes(language.marker), `${language.name}: ${source.slice(0, 40)}`);
      assert.ok(source.includes(priceList.public_base_url), `${language.name}: uses the public base address`);
      assert.ok(source.includes('sk-...'), `${language.name}: the key is a placeholder`);
      const modelId = /model["]?[:=] ?"([^"]+)"/.exec(source)?.[1];
      assert.ok(modelId && modelIds.has(modelId), `${language.name}: ${modelId} is a listed model`);
    }
    assert.match(sources[1] ?? '', /stream/);
    assert.match(sources[2] ?? '', /get_weather/);
    assert.match(sources[3] ?? '', /"?type"?: "web_search"/);
    assert.match(sources[3] ?? '', /responses/);
    assert.match(sources[4] ?? '', /images/);
  }
  await page.close();
});

test('the header navigates between pages without reloading, and sign-in offers the form and sign-up', async () => {
  const page = await browser.openPage();
  await page.goto(`${gateway.url}/`);
  await page.evaluate(() => Object.assign(window, { sameDocumentMarker: true }));
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Docs' }).click();
  await page.getByRole('heading', { level: 1, name: 'API documentation' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/docs');
  assert.equal(await nav.getByRole('link', { name: 'Docs' }).getAttribute('aria-current'), 'page');
  assert.equal(await page.title(), 'API documentation · Model Gateway');

  await nav.getByRole('link', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  assert.equal(await page.locator('main input[type="password"]').count(), 1, 'the sign-in form');
  assert.equal(await page.locator('main').getByRole('link', { name: 'Create one' }).getAttribute('href'), '/sign-up');

  await page.goBack();
  await page.getByRole('heading', { level: 1, name: 'API documentation' }).waitFor();
  assert.equal(await page.evaluate(() => 'sameDocumentMarker' in window), true, 'no full page load');

  await page.goto(`${gateway.url}/no-such-page`);
  await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  await page.close();
});

const pages = [
  { name: 'home', path: '/', ready: 'tr[data-model-id]' },
  { name: 'models', path: '/models', ready: 'tr[data-model-id]' },
  { name: 'docs', path: '/docs', ready: '.code-example pre' },
  { name: 'sign-in', path: '/sign-in', ready: 'h1' },
] as const;

test('no page overflows sideways at 375 px; screenshots at 1280x800 and 375x812', async () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 375, height: 812 },
  ]) {
    const page = await browser.openPage(viewport);
    for (const { name, path: pagePath, ready } of pages) {
      await page.goto(`${gateway.url}${pagePath}`);
      await page.locator(ready).first().waitFor();
      const widths = await page.evaluate(() => ({
        scroll: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
        client: document.documentElement.clientWidth,
      }));
      assert.ok(widths.scroll <= widths.client, `${name} at ${viewport.width}px: ${widths.scroll} > ${widths.client}`);
      await page.screenshot({ path: path.join(screenshotDir, `${name}-${viewport.width}.png`) });
    }
    await page.close();
  }
});

test('every page and asset carries a strict Content-Security-Policy; an injected inline script does not run', async () => {
  const index = await (await fetch(`${gateway.url}/`)).text();
  const scriptPath = /<script[^>]+src="([^"]+)"/.exec(index)?.[1];
  assert.ok(scriptPath, 'the page loads its script from a file');
  assert.ok(!/<script(?![^>]*\ssrc=)[^>]*>/.test(index), 'the page has no inline script');
  for (const pagePath of ['/', '/models', '/chat', '/operator', scriptPath]) {
    const response = await fetch(`${gateway.url}${pagePath}`);
    assert.equal(response.status, 200, pagePath);
    const policy = Object.fromEntries(
      (response.headers.get('content-security-policy') ?? '')
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name = '', ...values]) => [name, values.join(' ')]),
    );
    assert.equal(policy['default-src'], "'self'", pagePath);
    assert.equal(policy['script-src'], "'self'", `${pagePath}: scripts only from this origin, none inline`);
    assert.equal(policy['style-src'], "'self'", pagePath);
    assert.equal(policy['connect-src'], "'self'", `${pagePath}: the page talks only to its own origin`);
    assert.equal(policy['frame-ancestors'], "'none'", `${pagePath}: no other site may frame it`);
    assert.equal(policy['object-src'], "'none'", pagePath);
    assert.equal(policy['base-uri'], "'none'", pagePath);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff', pagePath);
    assert.equal(response.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', pagePath);
    assert.equal(response.headers.get('x-frame-options'), 'DENY', pagePath);
  }

  const page = await browser.openPage();
  await page.goto(`${gateway.url}/models`);
  await page.locator('tr[data-model-id]').first().waitFor();
  const errorsBefore = browser.pageErrors.length;
  const outcome = await page.evaluate(
    () =>
      new Promise<{ ran: boolean; blocked: string }>((resolve) => {
        document.addEventListener('securitypolicyviolation', (event) =>
          resolve({ ran: 'injectedScriptRan' in window, blocked: event.violatedDirective }),
        );
        const script = document.createElement('script');
        script.textContent = 'window.injectedScriptRan = true;';
        document.body.append(script);
      }),
  );
  assert.deepEqual(outcome, { ran: false, blocked: 'script-src-elem' });
  await page.close();
  // The browser reports the refused script on the console; that report is this test's expected outcome.
  const reports = browser.pageErrors.splice(errorsBefore);
  assert.ok(
    reports.every((report) => report.includes('Content Security Policy')),
    reports.join('\n'),
  );
});

test('no page logged a script error', () => {
  assert.deepEqual(browser.pageErrors, []);
});
