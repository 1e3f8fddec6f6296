import { bumpCacheVersion } from '../db/cache-versions.ts';
import { findModel, updateModelPrice } from '../db/models.ts';
import type { ModelRow } from '../db/schema.ts';
import { formatUsd, parseUsdToMicros } from '../lib/money.ts';
import { checkAboveCost, listStoredRouteCosts, toModelListRates } from '../operator/model-route-costs.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';
import { imageTierActions, runImageTierCommand } from './image-tier-commands.ts';
import { modelCatalogActions, runModelCatalogCommand } from './model-catalog-commands.ts';
import { runModelSyncCommand } from './model-sync-commands.ts';
import { recordCliAction } from './audit-commands.ts';

/**
 * `model set-price --model M [--input-usd N] [--output-usd N] [--cached-input-usd N] [--per-request-usd N]
 * [--confirm-below-cost]`, the catalogue actions (`model-catalog-commands.ts`) and the image price tier actions
 * (`image-tier-commands.ts`).
 */
export async function runModelCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  const tierAction = imageTierActions.find((candidate) => candidate === action);
  if (tierAction) return runImageTierCommand(context, tierAction, args);
  const catalogAction = modelCatalogActions.find((candidate) => candidate === action);
  if (catalogAction) return runModelCatalogCommand(context, catalogAction, args);
  if (action === 'sync') return runModelSyncCommand(context, args);
  if (action !== 'set-price')
    throw new UsageError(
      `unknown model command "${action ?? ''}" (expected: ${modelCatalogActions.join(', ')}, sync, set-price, ${imageTierActions.join(', ')})`,
    );
  const options = parseOptions(args, {
    model: { type: 'string', required: true },
    'input-usd': { type: 'string' },
    'output-usd': { type: 'string' },
    'cached-input-usd': { type: 'string' },
    'per-request-usd': { type: 'string' },
    reason: { type: 'string' },
    'confirm-below-cost': { type: 'boolean' },
  });
  const model = await findModel(context.db, options.model ?? '');
  if (!model) throw new UsageError(`no model ${options.model} in the catalogue`);
  const amount = (name: string, text: string | undefined, current: number | null) => {
    if (text === undefined) return current;
    const micros = parseUsdToMicros(text);
    if (micros === undefined || micros < 0)
      throw new UsageError(`--${name} must be a non-negative USD amount, got "${text}"`);
    return micros;
  };
  const input = amount('input-usd', options['input-usd'], model.input_rate_micros) ?? 0;
  const output = amount('output-usd', options['output-usd'], model.output_rate_micros) ?? 0;
  const change = {
    modelId: model.id,
    effectiveAt: Math.max(context.clock.nowMs(), model.price_effective_at + 1),
    inputRateMicros: input,
    outputRateMicros: output,
    cachedInputRateMicros: amount('cached-input-usd', options['cached-input-usd'], model.cached_input_rate_micros),
    perRequestMicros: amount('per-request-usd', options['per-request-usd'], model.per_request_micros),
    reason: options.reason ?? 'set by operator (CLI)',
  };
  await checkAboveCost(
    { db: context.db, nowMs: context.clock.nowMs(), routeCosts: listStoredRouteCosts(context.db) },
    {
      model: toModelListRates(model),
      price: {
        inputMicros: change.inputRateMicros,
        outputMicros: change.outputRateMicros,
        cachedInputMicros: change.cachedInputRateMicros,
        perRequestMicros: change.perRequestMicros,
      },
      isConfirmed: options['confirm-below-cost'],
    },
  );
  await updateModelPrice(context.db, change);
  await bumpCacheVersion(context.db, 'catalog');
  await recordCliAction(context, {
    action: 'setModelPrice',
    target: { kind: 'model', id: model.id },
    before: pickPrice(model),
    after: pickPrice((await findModel(context.db, model.id)) ?? model),
  });
  context.print(`price of ${model.id} set: input ${formatUsd(input)} output ${formatUsd(output)} USD per 1M tokens`);
}

function pickPrice(model: ModelRow) {
  return {
    input_rate_micros: model.input_rate_micros,
    output_rate_micros: model.output_rate_micros,
    cached_input_rate_micros: model.cached_input_rate_micros,
    per_request_micros: model.per_request_micros,
  };
}
