import type { ImagePriceTierList } from '../../../contract/operator.ts';
import { getTieredImageModel } from '../images/get-tiered-image-model.ts';
import { readImagePriceTierList } from '../images/image-price-tier-view.ts';
import { removeImagePriceTier } from '../images/remove-image-price-tier.ts';
import { setImagePriceTier } from '../images/set-image-price-tier.ts';
import { parseUsdToMicros } from '../lib/money.ts';
import { parseOptions, UsageError, type CliContext } from './cli-context.ts';

/** The `model` actions on image price tiers. */
export const imageTierActions = ['image-tiers', 'set-image-tier', 'delete-image-tier'] as const;
export type ImageTierAction = (typeof imageTierActions)[number];

/**
 * `model image-tiers --model M`, `model set-image-tier --model M [--quality Q] [--size S] --list-usd N` and
 * `model delete-image-tier --model M [--quality Q] [--size S]`: an omitted quality or size is the tier matching any.
 * A running server bills with the change within a second.
 */
export async function runImageTierCommand(context: CliContext, action: ImageTierAction, args: readonly string[]) {
  if (action === 'image-tiers') {
    const options = parseOptions(args, { model: { type: 'string', required: true } });
    printTiers(
      context,
      await readImagePriceTierList(context.db, await getTieredImageModel(context.db, options.model ?? '')),
    );
    return;
  }
  const keyOptions = {
    model: { type: 'string', required: true },
    quality: { type: 'string' },
    size: { type: 'string' },
  } as const;
  if (action === 'delete-image-tier') {
    const options = parseOptions(args, keyOptions);
    printTiers(context, await removeImagePriceTier({ db: context.db }, toKey(options)));
    return;
  }
  const options = parseOptions(args, { ...keyOptions, 'list-usd': { type: 'string', required: true } });
  const listText = options['list-usd'] ?? '';
  const listPerRequestMicros = parseUsdToMicros(listText);
  if (listPerRequestMicros === undefined || listPerRequestMicros < 0) {
    throw new UsageError(`--list-usd must be a non-negative USD amount, got "${listText}"`);
  }
  printTiers(context, await setImagePriceTier({ db: context.db }, { ...toKey(options), listPerRequestMicros }));
}

function toKey(options: { model: string | undefined; quality: string | undefined; size: string | undefined }) {
  return { modelId: options.model ?? '', quality: options.quality ?? null, size: options.size ?? null };
}

/** USD amounts as the API gives them (exact micro-dollar decimals, which `String` writes without an exponent). */
function printTiers(context: CliContext, list: ImagePriceTierList): void {
  const flatList = list.flat_list_usd_per_request ?? 'none';
  context.print(`${list.model_id}: flat ${list.flat_usd_per_request} USD per image (list ${flatList})`);
  if (list.data.length === 0) context.print('  no tiers: every image costs the flat price');
  for (const tier of list.data) {
    const key = `quality ${(tier.quality ?? 'any').padEnd(8)} size ${(tier.size ?? 'any').padEnd(10)}`;
    context.print(`  ${key} list ${tier.list_usd_per_request} → ${tier.usd_per_request} USD per image`);
  }
}
