import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type PublicModel, type PublicModelList, publicModelListSchema } from '../../../contract/models.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, screenshotDir, type TestBrowser } from './support/launch-browser.ts';

/**
 * The models page in a real browser against a real gateway (sandbox mode, fresh SQLite): it shows the whole price
 * list exactly, image prices by tier, filters and sorts it, badges simulated models, and persists Russian. The other
 * public pages are in public-pages.test.ts. Screenshots land in test-artifacts/screenshots/.
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
  // The search field comes with the price list, which may arrive after the heading: wait for it, then check it.
  await page.getByLabel('Поиск').waitFor();
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

test('no page logged a script error', () => {
  assert.deepEqual(browser.pageErrors, []);
});
