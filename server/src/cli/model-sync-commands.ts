import type { ModelSyncReport, ModelSyncResult } from '../../../contract/operator-model-sync.ts';
import { loadPriceList } from '../catalog/price-list.ts';
import { readModelSyncSources } from '../catalog/read-model-sync-sources.ts';
import { loadRouteTable } from '../catalog/route-table.ts';
import { seedCatalog } from '../config/seed-catalog.ts';
import { applyModelSync, previewModelSync, type ModelSyncDeps } from '../operator/model-sync.ts';
import { listStoredRouteCosts } from '../operator/model-route-costs.ts';
import { recordCliAction } from './audit-commands.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';

const syncTimeoutMs = 30_000;

/**
 * `model sync [--apply all|id,id,…]`: shows what the genai-prices data and the model lists of the vendors with live
 * routes (the database's routes and the configured vendor keys; the sandbox simulators run only inside the gateway)
 * say that the catalogue lacks, and applies all or the changes of the models named.
 */
export async function runModelSyncCommand(context: CliContext, args: readonly string[]): Promise<void> {
  const options = parseOptions(args, { apply: { type: 'string' } });
  const priceList = await loadPriceList(context.db);
  const routeTable = await loadRouteTable({
    db: context.db,
    config: context.config,
    secretBox: context.secretBox(),
    priceList,
    seedCatalog,
    simulatorUrl: undefined,
    onUnreadableCredential: (routeId) => context.print(`route ${routeId} skipped: its credential does not open`),
  });
  const deps: ModelSyncDeps = {
    db: context.db,
    clock: context.clock,
    pricingRule: context.config.pricingRule,
    routeCosts: listStoredRouteCosts(context.db),
    priceList,
    readSources: () =>
      readModelSyncSources({
        vendorDispatcher: undefined,
        timeoutMs: syncTimeoutMs,
        priceDataUrl: context.config.priceDataUrl,
        routes: () => routeTable.allRoutes(),
      }),
  };
  if (options.apply === undefined) return printReport(context, await previewModelSync(deps));
  const ids = options.apply
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (options.apply !== 'all' && ids.length === 0) throw new UsageError('--apply takes all or a list of model ids');
  const result = await applyModelSync(deps, { apply: options.apply === 'all' ? 'all' : ids });
  for (const row of result.results.filter((candidate) => candidate.outcome === 'applied')) {
    await recordCliAction(context, {
      action: 'model.sync_applied',
      target: { kind: 'model', id: row.id },
      after: { change: row.change, price_source: result.price_source.kind },
    });
  }
  printResult(context, result);
}

function printSource(context: CliContext, source: ModelSyncReport['price_source']): void {
  const where =
    source.kind === 'published' ? `the published data (${source.url ?? ''})` : 'the data bundled with the package';
  context.print(`price data: ${where}${source.problem === null ? '' : `; not the published file: ${source.problem}`}`);
}

function printReport(context: CliContext, report: ModelSyncReport): void {
  printSource(context, report.price_source);
  for (const list of report.vendor_lists) {
    context.print(`vendor list ${list.provider}: ${list.problem ?? `${list.model_count ?? 0} models`}`);
  }
  const usd = (value: number | null) => (value === null ? '-' : String(value));
  for (const found of report.new_models) {
    const price = found.list_price
      ? `list in ${usd(found.list_price.input_usd_per_million)} out ${usd(found.list_price.output_usd_per_million)}`
      : 'no list price';
    const version = found.is_new_version ? ', new version' : '';
    context.print(`new       ${found.id.padEnd(32)} ${found.family.padEnd(10)} ${price} (${found.found_in}${version})`);
  }
  for (const change of report.list_price_changes) {
    context.print(
      `price     ${change.id.padEnd(32)} ${change.family.padEnd(10)} in ${change.from.input_usd_per_million} → ` +
        `${change.to.input_usd_per_million}, out ${change.from.output_usd_per_million} → ` +
        `${change.to.output_usd_per_million}, cached ${usd(change.from.cached_input_usd_per_million)} → ` +
        `${usd(change.to.cached_input_usd_per_million)} from ${change.effective_at}`,
    );
  }
  for (const model of report.unlisted_models) {
    context.print(`unlisted  ${model.id.padEnd(32)} ${model.family.padEnd(10)} no longer listed by ${model.provider}`);
  }
  const total = report.new_models.length + report.list_price_changes.length + report.unlisted_models.length;
  context.print(total === 0 ? 'the catalogue is in sync' : `${total} changes; apply with --apply all or --apply id,id`);
}

function printResult(context: CliContext, result: ModelSyncResult): void {
  printSource(context, result.price_source);
  for (const row of result.results) {
    context.print(
      `${row.outcome.padEnd(16)} ${row.change.padEnd(10)} ${row.id}${row.message === null ? '' : `: ${row.message}`}`,
    );
  }
  for (const id of result.not_found) context.print(`no change found for ${id}`);
}
