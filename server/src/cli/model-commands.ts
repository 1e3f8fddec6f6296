import { bumpCacheVersion } from '../db/cache-versions.ts';
import { listModelImagePriceTiers } from '../db/image-price-tiers.ts';
import { findModel, listModels, updateModelPrice } from '../db/models.ts';
import type { ModelRow } from '../db/schema.ts';
import { formatUsd, parseUsdToMicros } from '../lib/money.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';
import { imageTierActions, runImageTierCommand } from './image-tier-commands.ts';
import { recordCliAction } from './audit-commands.ts';

/**
 * `model list`, `model set-price --model M [--input-usd N] [--output-usd N] [--cached-input-usd N]
 * [--per-request-usd N]`, and the image price tier actions (`image-tier-commands.ts`).
 */
export async function runModelCommand(context: CliContext, action: string | undefined, args: readonly string[]) {
  const tierAction = imageTierActions.find((candidate) => candidate === action);
  if (tierAction) return runImageTierCommand(context, tierAction, args);
  if (action === 'list') {
    parseOptions(args, {});
    for (const model of await listModels(context.db)) {
      const price =
        model.kind === 'image'
          ? await describeImagePrice(context, model)
          : `in ${formatUsd(model.input_rate_micros)} out ${formatUsd(model.output_rate_micros)} USD/1M tokens`;
      context.print(
        `${model.id.padEnd(28)} ${model.family.padEnd(10)} ${model.kind.padEnd(5)} ${price}${model.enabled ? '' : '  (disabled)'}`,
      );
    }
    return;
  }
  if (action !== 'set-price')
    throw new UsageError(
      `unknown model command "${action ?? ''}" (expected: list, set-price, ${imageTierActions.join(', ')})`,
    );
  const options = parseOptions(args, {
    model: { type: 'string', required: true },
    'input-usd': { type: 'string' },
    'output-usd': { type: 'string' },
    'cached-input-usd': { type: 'string' },
    'per-request-usd': { type: 'string' },
    reason: { type: 'string' },
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
  await updateModelPrice(context.db, {
    modelId: model.id,
    effectiveAt: context.clock.nowMs(),
    inputRateMicros: input,
    outputRateMicros: output,
    cachedInputRateMicros: amount('cached-input-usd', options['cached-input-usd'], model.cached_input_rate_micros),
    perRequestMicros: amount('per-request-usd', options['per-request-usd'], model.per_request_micros),
    reason: options.reason ?? 'set by operator (CLI)',
  });
  await bumpCacheVersion(context.db, 'catalog');
  await recordCliAction(context, {
    action: 'setModelPrice',
    target: { kind: 'model', id: model.id },
    before: pickPrice(model),
    after: pickPrice((await findModel(context.db, model.id)) ?? model),
  });
  context.print(`price of ${model.id} set: input ${formatUsd(input)} output ${formatUsd(output)} USD per 1M tokens`);
}

/**
 * An image model's stored price is the flat price its tiers scale from; the model lists show the price of a default
 * request instead (a dearer tier for GPT Image), so the flat one is labelled as such, with its tiers pointed to.
 */
async function describeImagePrice(context: CliContext, model: ModelRow): Promise<string> {
  const flat = `flat ${formatUsd(model.per_request_micros ?? 0)} USD/image`;
  const tierCount = (await listModelImagePriceTiers(context.db, model.id)).length;
  return tierCount === 0 ? flat : `${flat}, ${tierCount} price tiers (model image-tiers --model ${model.id})`;
}

function pickPrice(model: ModelRow) {
  return {
    input_rate_micros: model.input_rate_micros,
    output_rate_micros: model.output_rate_micros,
    cached_input_rate_micros: model.cached_input_rate_micros,
    per_request_micros: model.per_request_micros,
  };
}
