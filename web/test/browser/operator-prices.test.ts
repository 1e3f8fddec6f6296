import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { publicModelListSchema, type PublicModel } from '../../../contract/models.ts';
import { imagePriceTierListSchema, type ImagePriceTierList } from '../../../contract/operator.ts';
import { startTestGateway, type TestGateway } from '../../../server/test/support/start-test-gateway.ts';
import { assertWebAppBuilt, launchBrowser, screenshotDir, type TestBrowser } from './support/launch-browser.ts';

/**
 * The operator console's Prices tab in a real browser against a real gateway: an operator changes a model's price
 * and the models page shows it (in the same app without a reload, and after one); an image model's form saved as
 * it stands moves no price; its price tiers are edited in place. Screenshots land in test-artifacts/screenshots/.
 */

let gateway: TestGateway;
let browser: TestBrowser;
const operatorEmail = 'prices-operator@example.com';

/** The money oracle, independent of the app's formatter (as in the public pages test). */
const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 6,
});

before(async () => {
  assertWebAppBuilt();
  // Prices above cost, as a stock install has them: saving a price as it stands needs no below-cost confirmation.
  gateway = await startTestGateway({ environment: { PRICING_RULE: 'cost_plus_markup' } });
  await gateway.createUserWithKey({ role: 'admin', email: operatorEmail });
  browser = await launchBrowser();
  const login = await browser.context.request.post(`${gateway.url}/api/auth/login`, {
    data: { email: operatorEmail, password: 'correct horse battery staple' },
  });
  assert.equal(login.status(), 200, await login.text());
});

after(async () => {
  await browser?.close();
  await gateway?.close();
});

/** The console at the given size, on the Prices tab with `modelId` chosen. */
async function openPrices(modelId: string, options: { width: number; height: number }): Promise<Page> {
  const page = await browser.openPage(options);
  await page.goto(`${gateway.url}/operator`);
  await page.getByRole('tab', { name: 'Prices' }).click();
  await page.locator('select[name="model"]').selectOption(modelId);
  return page;
}

async function readPublicModels(): Promise<PublicModel[]> {
  return publicModelListSchema.parse(await (await fetch(`${gateway.url}/api/models`)).json()).data;
}

async function readPublicModel(modelId: string): Promise<PublicModel> {
  const model = (await readPublicModels()).find((candidate) => candidate.id === modelId);
  assert.ok(model, `${modelId} is listed`);
  return model;
}

async function readTiers(modelId: string): Promise<ImagePriceTierList> {
  const answer = await browser.context.request.get(`${gateway.url}/api/operator/models/${modelId}/image-tiers`);
  assert.equal(answer.status(), 200, await answer.text());
  return imagePriceTierListSchema.parse(await answer.json());
}

/** Buttons of the price form whose label does not fit inside them, or that reach past the form's right edge. */
async function findOverflowingButtons(page: Page): Promise<string[]> {
  return page
    .locator('form.operator-form')
    .first()
    .evaluate((form) => {
      const formRight = form.getBoundingClientRect().right;
      return [...form.querySelectorAll('button')]
        .filter((button) => button.scrollWidth > button.clientWidth || button.getBoundingClientRect().right > formRight)
        .map((button) => button.textContent ?? '');
    });
}

test('an operator changes a price in the console and the models page shows it', async () => {
  const model = (await readPublicModels()).find((candidate) => candidate.kind === 'text');
  assert.ok(model, 'the sandbox serves a text model');
  const newInput = '3.456789';
  const newOutput = '12.5';
  const page = await openPrices(model.id, { width: 1280, height: 800 });
  await page.locator('input[name="input"]').fill(newInput);
  await page.locator('input[name="output"]').fill(newOutput);
  await page.locator('input[name="reason"]').fill('browser test');
  await page.getByRole('button', { name: 'Save price (effective now)' }).click();
  await page.getByText('Saved. The models page shows the new price.').waitFor();
  assert.match((await page.locator('form.operator-form').first().textContent()) ?? '', /prices cannot be scheduled/);
  const history = page.locator('[data-panel="price-history"] tbody tr');
  await history.locator('[data-column="reason"]').getByText('browser test', { exact: true }).waitFor();
  const recorded = (await (
    await browser.context.request.get(`${gateway.url}/api/operator/models/${model.id}/prices`)
  ).json()) as { data: { effective_at: string; reason: string }[] };
  assert.equal(recorded.data[0]?.reason, 'browser test', 'the history is newest first');
  assert.equal(await history.count(), recorded.data.length, 'every recorded change is listed');
  assert.equal(await history.first().getAttribute('data-effective-at'), recorded.data[0]?.effective_at);
  assert.equal(await history.first().locator('[data-column="input"]').textContent(), usd.format(Number(newInput)));
  assert.equal(await history.first().locator('[data-column="output"]').textContent(), usd.format(Number(newOutput)));
  await page.screenshot({ path: path.join(screenshotDir, 'operator-prices-1280.png'), fullPage: true });

  const fromApi = await readPublicModel(model.id);
  assert.equal(fromApi.input_usd_per_million, Number(newInput));
  assert.equal(fromApi.output_usd_per_million, Number(newOutput));

  await page.getByRole('navigation').getByRole('link', { name: 'Models' }).click();
  const inputCell = page.locator(`tr[data-model-id="${model.id}"] td[data-column="input"]`);
  const outputCell = page.locator(`tr[data-model-id="${model.id}"] td[data-column="output"]`);
  // The page keeps the old list on screen while the new one loads; the new price replaces it without a reload.
  await inputCell.filter({ hasText: usd.format(Number(newInput)) }).waitFor();
  assert.equal(await inputCell.textContent(), usd.format(Number(newInput)), 'shown without reloading the app');
  assert.equal(await outputCell.textContent(), usd.format(Number(newOutput)));

  await page.reload();
  await inputCell.waitFor();
  assert.equal(await inputCell.textContent(), usd.format(Number(newInput)), 'shown after a reload');
  await page.close();
  assert.deepEqual(browser.pageErrors, []);
});

test('saving an image model’s price form as it stands moves no price; its button fits its label (issue 9)', async () => {
  const model = 'gpt-image-1';
  const shownBefore = await readPublicModel(model);
  const tiersBefore = await readTiers(model);
  assert.equal(shownBefore.flat_usd_per_request, tiersBefore.flat_usd_per_request, 'the flat price, listed');
  assert.notEqual(
    shownBefore.usd_per_request,
    shownBefore.flat_usd_per_request,
    'a default request falls in a dearer tier than the flat price, so the two cannot be mixed up unnoticed',
  );
  const page = await openPrices(model, { width: 1280, height: 800 });
  const flatField = page.getByLabel('Flat price per image, USD');
  await flatField.waitFor();
  assert.equal(
    await flatField.inputValue(),
    String(tiersBefore.flat_usd_per_request),
    'pre-filled with the flat price',
  );
  assert.deepEqual(await findOverflowingButtons(page), [], 'every label fits its button at 1280 px');

  await page.locator('input[name="reason"]').fill('only a note');
  await page.getByRole('button', { name: 'Save price (effective now)' }).click();
  await page.getByText('Saved. The models page shows the new price.').waitFor();
  const history = page.locator('[data-panel="price-history"] tbody tr').first();
  await history.locator('[data-column="reason"]').getByText('only a note', { exact: true }).waitFor();
  assert.equal(
    await history.locator('[data-column="per-request"]').textContent(),
    usd.format(tiersBefore.flat_usd_per_request),
  );
  assert.equal(await page.locator('input[name="per-request"]').count(), 1, 'one price form');

  const shownAfter = await readPublicModel(model);
  for (const field of [
    'usd_per_request',
    'flat_usd_per_request',
    'list_usd_per_request',
    'image_price_tiers',
  ] as const) {
    assert.deepEqual(shownAfter[field], shownBefore[field], `${field} did not move`);
  }
  assert.deepEqual(await readTiers(model), tiersBefore, 'neither the flat price nor any tier moved');

  await page.getByRole('radio', { name: 'Русский' }).check();
  await page.getByRole('button', { name: 'Сохранить цену (с этого момента)' }).waitFor();
  assert.deepEqual(await findOverflowingButtons(page), [], 'every label fits its button in Russian too');
  await page.getByRole('radio', { name: 'English' }).check();
  await page.close();
  assert.deepEqual(browser.pageErrors, []);
});

test('an operator edits an image model’s price tiers and the models page shows the new tier prices', async () => {
  const model = 'gpt-image-1';
  const before = await readTiers(model);
  assert.ok(
    before.data.some((tier) => tier.quality === 'high' && tier.size === '1024x1024'),
    'a seeded tier',
  );
  const page = await openPrices(model, { width: 1280, height: 800 });
  const editor = page.locator('[data-panel="image-tiers"]');
  await editor.locator('li[data-tier-quality]').first().waitFor();
  assert.equal(await editor.locator('li[data-tier-quality]').count(), before.data.length);

  const high = editor.locator('li[data-tier-quality="high"][data-tier-size="1024x1024"]');
  await high.locator('input[name="tier-list-price"]').fill('0.2');
  const reloaded = page.waitForResponse((answer) => new URL(answer.url()).pathname === '/api/models');
  await high.getByRole('button', { name: 'Save tier' }).click();
  await editor.getByText('Saved. The models page shows the new tier prices.').waitFor();
  const changed = (await readTiers(model)).data.find((tier) => tier.quality === 'high' && tier.size === '1024x1024');
  assert.equal(changed?.list_usd_per_request, 0.2);
  await editor
    .locator('li[data-tier-quality="high"][data-tier-size="1024x1024"] [data-field="tier-price"]')
    .getByText(usd.format(changed.usd_per_request), { exact: true })
    .waitFor();
  await reloaded;

  await editor.locator('input[name="tier-quality"]').fill('ultra');
  await editor.locator('input[name="tier-new-list-price"]').fill('1');
  await editor.getByRole('button', { name: 'Add tier' }).click();
  assert.match((await editor.getByRole('alert').textContent()) ?? '', /ultra/);
  assert.equal(
    (await readTiers(model)).data.length,
    before.data.length,
    'a quality the model does not draw is refused',
  );

  const low = editor.locator('li[data-tier-quality="low"][data-tier-size="1024x1024"]');
  await low.getByRole('button', { name: 'Remove tier' }).click();
  await low.waitFor({ state: 'detached' });
  const after = await readTiers(model);
  assert.equal(after.data.length, before.data.length - 1);
  assert.ok(!after.data.some((tier) => tier.quality === 'low' && tier.size === '1024x1024'));
  // The models list reloaded after the tier changes: still one price form, holding the flat price.
  const perRequest = page.locator('input[name="per-request"]');
  assert.equal(await perRequest.count(), 1, 'one price form after the tier changes');
  assert.equal(await perRequest.inputValue(), String(after.flat_usd_per_request));
  await page.screenshot({ path: path.join(screenshotDir, 'operator-image-tiers-1280.png'), fullPage: true });

  await page.getByRole('navigation').getByRole('link', { name: 'Models' }).click();
  const cell = page.locator(`tr[data-model-id="${model}"] td[data-column="per-request"]`);
  await cell.locator('summary').click();
  const shown = await readPublicModel(model);
  const shownHigh = shown.image_price_tiers?.find((tier) => tier.quality === 'high' && tier.size === '1024x1024');
  assert.equal(shownHigh?.usd_per_request, changed.usd_per_request, '/api/models bills the new tier');
  const highPrice = cell.locator('li[data-tier-quality="high"][data-tier-size="1024x1024"] [data-tier-price]');
  await highPrice.filter({ hasText: usd.format(changed.usd_per_request) }).waitFor();
  assert.equal(await highPrice.textContent(), usd.format(changed.usd_per_request));
  await cell.locator('li[data-tier-quality="low"][data-tier-size="1024x1024"]').waitFor({ state: 'detached' });
  await page.close();
  // The refused tier is a 400 that the browser logs; it is the expected answer here.
  const unexpected = browser.pageErrors.filter((error) => !error.includes('status of 400'));
  browser.pageErrors.splice(0);
  assert.deepEqual(unexpected, []);
});

test('a price below cost asks "save anyway?" and is saved only when confirmed', async () => {
  const models = await readPublicModels();
  const model = models.filter((candidate) => candidate.kind === 'text').at(-1);
  assert.ok(model, 'the sandbox serves a text model');
  const page = await openPrices(model.id, { width: 1280, height: 800 });
  await page.locator('input[name="input"]').fill('0.000001');
  await page.locator('input[name="output"]').fill('0.000001');
  await page.getByRole('button', { name: 'Save price (effective now)' }).click();
  const question = page.getByRole('alertdialog', {
    name: 'This price sells below the cost of every route. Save anyway?',
  });
  await question.waitFor();
  // Refused, not saved: the price is unchanged until the operator confirms.
  assert.equal((await readPublicModel(model.id)).input_usd_per_million, model.input_usd_per_million);
  await question.getByRole('button', { name: 'Keep editing' }).click();
  await question.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Save price (effective now)' }).click();
  await question.getByRole('button', { name: 'Save anyway' }).click();
  await page.getByText('Saved. The models page shows the new price.').waitFor();
  const saved = await readPublicModel(model.id);
  assert.equal(saved.input_usd_per_million, 0.000001);
  assert.equal(saved.output_usd_per_million, 0.000001);
  await page.close();
  // The refused save is a 400 that the browser logs; it is the expected answer here.
  const unexpected = browser.pageErrors.filter((error) => !error.includes('status of 400'));
  browser.pageErrors.splice(0);
  assert.deepEqual(unexpected, []);
});
