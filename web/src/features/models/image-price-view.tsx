import type { PublicModel } from '../../../../contract/models.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatUsd } from '../../lib/format-usd.ts';

type Tier = NonNullable<PublicModel['image_price_tiers']>[number];

/**
 * An image model's per-image price: that of a default request, and, for a model priced by quality and size, every
 * tier's price under a disclosure, so a reader sees what a high-quality or large image costs before asking for one.
 */
export function ImagePriceView(props: { model: PublicModel & { usd_per_request: number } }) {
  const { messages } = useI18n();
  const text = messages.models;
  const tiers = props.model.image_price_tiers ?? [];
  if (tiers.length === 0) return <span data-cell-value>{formatUsd(props.model.usd_per_request)}</span>;
  return (
    <>
      <span data-cell-value>{formatUsd(props.model.usd_per_request)}</span>{' '}
      <span className="price-tiers__note">{text.defaultImagePrice}</span>
      <details className="price-tiers">
        <summary>{text.priceTiersSummary(tiers.length)}</summary>
        <ul className="price-tiers__list">
          {tiers.map((tier) => (
            <li
              key={`${tier.quality ?? '*'}|${tier.size ?? '*'}`}
              data-tier-quality={tier.quality ?? '*'}
              data-tier-size={tier.size ?? '*'}
            >
              <span className="price-tiers__name">{describeTier(tier, text)}</span>{' '}
              <span data-tier-price>{formatUsd(tier.usd_per_request)}</span>
            </li>
          ))}
        </ul>
      </details>
    </>
  );
}

function describeTier(tier: Tier, text: { tierAnyQuality: string; tierAnySize: string }): string {
  return `${tier.quality ?? text.tierAnyQuality} · ${tier.size ?? text.tierAnySize}`;
}
