import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type PublicModel, type PublicModelList, publicModelListSchema } from '../../../contract/models.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, screenshotDir, type TestBrowser } from './support/launch-browser.ts';

/**
 * The public pages in a real browser against a real gateway (sandbox mode, fresh SQLite): the models page shows the
 * whole price list exactly and filters and sorts it, the docs show both base addresses and examples, Russian
 * persists, nothing overflows at 375 px. Screenshots of every page land in test-artifacts/screenshots/.
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

/** The money oracle, independent of the app's formatter: Intl, up to six decimals, at least cents. */
const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});
/** An image model's token rate of 0 means "priced per image only": shown as a dash, sorted last. */
const tokenRate = (model: PublicModel, usdPerMillion: number) =>
  model.kind === 'image' && usdPerMillion === 0 ? null : usdPerMillion;
const expectedPercent = (percent: number) => `${Number(percent.toFixed(2))}%`;

type RenderedCell = { text: string; isEmpty: boolean };
type RenderedRow = { id: string; family: string | null; cells: Record<string, RenderedCell> };

async function openModelsPage(search = '', options: { width?: number } = {}): Promise<Page> {
  const page = await browser.openPage(options);
  await page.goto(`${gateway.url}/models${search}`);
  await page.locator('tr[data-model-id]').first().waitFor();
  return page;
}

function readRows(page: Page): Promise<RenderedRow[]> {
  return page.locator('tr[data-model-id]').evaluateAll((rows) =>
    rows.map((row) => ({
      id: row.getAttribute('data-model-id') ?? '',
      family: row.closest('tbody')?.getAttribute('data-family') ?? null,
      cells: Object.fromEntries(
        [...row.querySelectorAll('td')].map((cell) => [
          cell.getAttribute('data-column') ?? '',
          {
            // A cell with more than its value (an image model's price tiers) marks the value itself.
            text: (cell.querySelector('[data-cell-value]') ?? cell).textContent ?? '',
            isEmpty: cell.hasAttribute('data-empty'),
          },
        ]),
      ),
    })),
  );
}

function waitForRowCount(page: Page, count: number): Promise<unknown> {
  return page.waitForFunction((expected) => document.querySelectorAll('tr[data-model-id]').length === expected, count);
}

function cell(row: RenderedRow, column: string): RenderedCell {
  const found = row.cells[column];
  assert.ok(found, `row ${row.id} has a ${column} cell`);
  return found;
}

function findModel(id: string): PublicModel {
  const model = priceList.data.find((item) => item.id === id);
  assert.ok(model, `${id} is in /api/models`);
  return model;
}

test('the models page lists every model from /api/models with its prices rendered exactly', async () => {
  const page = await openModelsPage();
  const rows = await readRows(page);
  assert.deepEqual(rows.map((row) => row.id).sort(), priceList.data.map((model) => model.id).sort());
  for (const row of rows) {
    const model = findModel(row.id);
    assert.equal(row.family, model.family);
    assert.ok(cell(row, 'model').text.includes(model.display_name), `${model.id}: name`);
    assert.ok(cell(row, 'model').text.includes(model.id), `${model.id}: id`);
    const isImage = model.kind === 'image';
    for (const [column, value] of [
      ['input', model.input_usd_per_million],
      ['output', model.output_usd_per_million],
    ] as const) {
      if (isImage && value === 0) assert.ok(cell(row, column).isEmpty, `${model.id}: no ${column} rate`);
      else assert.equal(cell(row, column).text, usd.format(value), `${model.id}: ${column}`);
    }
    if (model.usd_per_request === null) assert.ok(cell(row, 'per-request').isEmpty, `${model.id}: no image price`);
    else assert.equal(cell(row, 'per-request').text, usd.format(model.usd_per_request), `${model.id}: per image`);
    const listPrice = cell(row, 'list-price').text;
    if (isImage && model.list_usd_per_request !== null) {
      assert.ok(listPrice.includes(usd.format(model.list_usd_per_request)), `${model.id}: list price ${listPrice}`);
    } else {
      assert.ok(listPrice.includes(`${usd.format(model.list_input_usd_per_million)} in`), `${model.id}: list in`);
      assert.ok(listPrice.includes(`${usd.format(model.list_output_usd_per_million)} out`), `${model.id}: list out`);
    }
    assert.equal(cell(row, 'discount').text, expectedPercent(model.discount_percent), `${model.id}: discount`);
    assert.equal(cell(row, 'savings').text, usd.format(model.savings_usd_at_10_to_1), `${model.id}: savings`);
    if (model.context_length > 0) assert.match(cell(row, 'context').text, /^\d+(\.\d+)?[KM]?$/);
    for (const rendered of Object.values(row.cells)) {
      assert.doesNotMatch(rendered.text, /\d\.\d{7,}|0000001|9999999/, `${model.id}: no float artefacts`);
    }
  }
  const families = [...new Set(priceList.data.map((model) => model.family))];
  const headings = await page.locator('.model-table__group th').allTextContents();
  assert.deepEqual(headings, families, 'one group per vendor family, in price-list order');
  await page.close();
});

test('filtering by vendor and type, and searching by name, narrow the list; the choice survives a reload', async () => {
  const page = await openModelsPage();
  const family = priceList.data.at(-1)?.family ?? '';
  await page.getByLabel('Vendor').selectOption(family);
  const expectedIds = priceList.data.filter((model) => model.family === family).map((model) => model.id);
  await waitForRowCount(page, expectedIds.length);
  assert.deepEqual((await readRows(page)).map((row) => row.id).sort(), expectedIds.sort());
  assert.match(page.url(), /[?&]family=/);

  await page.reload();
  await page.locator('tr[data-model-id]').first().waitFor();
  assert.deepEqual((await readRows(page)).map((row) => row.id).sort(), expectedIds.sort(), 'kept after reload');
  assert.equal(await page.getByLabel('Vendor').inputValue(), family);

  await page.getByLabel('Vendor').selectOption('');
  await page.getByRole('radio', { name: 'Image' }).check();
  const imageIds = priceList.data.filter((model) => model.kind === 'image').map((model) => model.id);
  await waitForRowCount(page, imageIds.length);
  assert.deepEqual((await readRows(page)).map((row) => row.id).sort(), imageIds.sort());

  await page.getByRole('radio', { name: 'All', exact: true }).check();
  const target = priceList.data.find((model) => model.kind === 'text') ?? priceList.data[0];
  assert.ok(target);
  const searchText = target.display_name.toUpperCase();
  await page.getByLabel('Search').fill(searchText);
  const matchingIds = priceList.data
    .filter(
      (model) => model.display_name.toUpperCase().includes(searchText) || model.id.toUpperCase().includes(searchText),
    )
    .map((model) => model.id);
  await waitForRowCount(page, matchingIds.length);
  const foundIds = (await readRows(page)).map((row) => row.id);
  assert.ok(foundIds.includes(target.id));
  assert.deepEqual(foundIds.sort(), matchingIds.sort());

  await page.getByLabel('Search').fill('no-such-model-anywhere');
  await page.getByText('No model matches these filters.').waitFor();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await waitForRowCount(page, priceList.data.length);
  await page.close();
});

test('an image model priced by quality and size lists every tier with its exact price', async () => {
  const tiered = priceList.data.filter((model) => (model.image_price_tiers ?? []).length > 0);
  assert.ok(tiered.length > 0, 'the sandbox catalogue has an image model with price tiers');
  const page = await openModelsPage();
  for (const model of tiered) {
    const cell = page.locator(`tr[data-model-id="${model.id}"] td[data-column="per-request"]`);
    assert.equal(await cell.locator('[data-cell-value]').textContent(), usd.format(model.usd_per_request ?? NaN));
    assert.match((await cell.textContent()) ?? '', /default request/);
    await cell.locator('summary').click();
    const tiers = model.image_price_tiers ?? [];
    assert.equal(await cell.locator('li[data-tier-quality]').count(), tiers.length, `${model.id}: every tier`);
    for (const tier of tiers) {
      const item = cell.locator(`li[data-tier-quality="${tier.quality ?? '*'}"][data-tier-size="${tier.size ?? '*'}"]`);
      assert.equal(await item.locator('[data-tier-price]').textContent(), usd.format(tier.usd_per_request));
      assert.ok(await item.isVisible(), `${model.id}: ${tier.quality} ${tier.size} shows when opened`);
      const name = (await item.locator('.price-tiers__name').textContent()) ?? '';
      assert.ok(name.includes(tier.quality ?? 'any quality') && name.includes(tier.size ?? 'any size'), name);
    }
  }
  await page.screenshot({ path: path.join(screenshotDir, 'models-image-tiers-1280.png'), fullPage: true });
  await page.close();
});

test('sorting by input, output and per-image price orders the rows by that price', async () => {
  const page = await openModelsPage();
  const sorts = [
    {
      sort: 'input-asc',
      column: 'input',
      price: (model: PublicModel) => tokenRate(model, model.input_usd_per_million),
      direction: 1,
    },
    {
      sort: 'output-desc',
      column: 'output',
      price: (model: PublicModel) => tokenRate(model, model.output_usd_per_million),
      direction: -1,
    },
    {
      sort: 'per-request-asc',
      column: 'per-request',
      price: (model: PublicModel) => model.usd_per_request,
      direction: 1,
    },
    {
      sort: 'per-request-desc',
      column: 'per-request',
      price: (model: PublicModel) => model.usd_per_request,
      direction: -1,
    },
  ] as const;
  for (const { sort, column, price, direction } of sorts) {
    await page.getByLabel('Sort by').selectOption(sort);
    const ariaSort = direction === 1 ? 'ascending' : 'descending';
    await page.locator(`th[data-column="${column}"][aria-sort="${ariaSort}"]`).waitFor();
    assert.equal(await page.locator('.model-table__group').count(), 0, `${sort}: one flat list`);
    const prices = (await readRows(page)).map((row) => price(findModel(row.id)));
    assert.equal(prices.length, priceList.data.length, `${sort}: every model still listed`);
    const priced = prices.filter((value) => value !== null);
    assert.deepEqual(prices.slice(0, priced.length), priced, `${sort}: models without the price go last`);
    for (let index = 1; index < priced.length; index += 1) {
      const step = ((priced[index] ?? 0) - (priced[index - 1] ?? 0)) * direction;
      assert.ok(step >= 0, `${sort}: ${priced.join(', ')} is in order`);
    }
    assert.equal(await page.locator('th[aria-sort]').count(), 1, `${sort}: one sorted column`);
  }
  await page.close();
});

test('sandbox mode shows a badge in the header, a notice, and a badge on every simulated model', async () => {
  assert.equal(priceList.sandbox, true, 'the test gateway runs in sandbox mode');
  const page = await openModelsPage();
  await page.locator('.site-header .badge--sandbox').waitFor();
  assert.equal(await page.locator('.site-header .badge--sandbox').textContent(), 'Sandbox');
  assert.match(
    (await page.getByRole('note').first().textContent()) ?? '',
    /answers come from a simulator, not the vendor/,
  );
  const simulatedIds = priceList.data.filter((model) => model.is_simulated).map((model) => model.id);
  const badgedIds = await page
    .locator('tr[data-model-id]:has(.badge--sandbox)')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-model-id')));
  assert.deepEqual(badgedIds.sort(), simulatedIds.sort());
  await page.close();
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

test('switching to Russian changes the text and lang, persists across a reload, and switches back', async () => {
  const page = await openModelsPage('', { width: 375 });
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  await page.getByRole('radio', { name: 'Русский' }).check();
  await page.getByRole('heading', { level: 1, name: 'Модели и цены' }).waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
  assert.equal(await page.getByRole('navigation').getByRole('link', { name: 'Документация' }).count(), 1);

  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Модели и цены' }).waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'ru');
  assert.ok(await page.getByLabel('Поиск').isVisible());
  const widths = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  assert.ok((widths[0] ?? 0) <= (widths[1] ?? 0), `Russian at 375 px: ${widths.join(' > ')}`);
  await page.screenshot({ path: path.join(screenshotDir, 'models-ru-375.png') });

  await page.getByRole('radio', { name: 'English' }).check();
  await page.getByRole('heading', { level: 1, name: 'Models and prices' }).waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), 'en');
  await page.close();
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

  const page = await openModelsPage();
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
