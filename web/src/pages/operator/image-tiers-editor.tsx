import { useEffect, useState, type FormEvent } from 'react';
import type { ImagePriceTier, ImagePriceTierList } from '../../../../contract/operator.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { listImageTiers, removeImageTier, setImageTier } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';
import { parseUsdMicros } from './parse-usd-micros.ts';

/**
 * An image model's price tiers by quality and size. A tier holds the vendor's list price of one such image; what a
 * customer pays scales the model's own per-image price by it, so changing the model's price moves every tier along.
 * Change a tier's list price, remove it, or add one; `onChanged` lets the models page reload.
 */
export function ImageTiersEditor(props: { modelId: string; onChanged: () => void }) {
  const text = useOperatorMessages();
  const [list, setList] = useState<ImagePriceTierList>();
  const [status, setStatus] = useState<{ tone: 'info' | 'error'; message: string }>();
  useEffect(() => {
    const controller = new AbortController();
    listImageTiers(props.modelId, { signal: controller.signal }).then(setList, (failure: unknown) => {
      if (!controller.signal.aborted) setStatus({ tone: 'error', message: messageOf(failure) });
    });
    return () => controller.abort();
  }, [props.modelId]);

  const change = async (action: () => Promise<ImagePriceTierList>) => {
    try {
      setList(await action());
      setStatus({ tone: 'info', message: text.tiers.saved });
      props.onChanged();
    } catch (failure) {
      setStatus({ tone: 'error', message: messageOf(failure) });
    }
  };

  return (
    <div className="operator-table-wrap" data-panel="image-tiers">
      <h2>{text.tiers.title}</h2>
      <p className="operator-list__meta">
        {list && text.tiers.lead(formatUsd(list.flat_usd_per_request), formatListPrice(list.flat_list_usd_per_request))}
      </p>
      {status && (
        <p className={`notice notice--${status.tone}`} role={status.tone === 'error' ? 'alert' : 'status'}>
          {status.message}
        </p>
      )}
      {list?.data.length === 0 && <p>{text.tiers.none}</p>}
      <ul className="operator-list">
        {list?.data.map((tier) => (
          <TierRow
            key={`${tier.quality ?? '*'}|${tier.size ?? '*'}|${tier.list_usd_per_request}`}
            tier={tier}
            onSave={(listUsd) =>
              void change(() =>
                setImageTier(props.modelId, {
                  quality: tier.quality,
                  size: tier.size,
                  list_usd_per_request: listUsd,
                }),
              )
            }
            onRemove={() => void change(() => removeImageTier(props.modelId, tier))}
          />
        ))}
      </ul>
      <AddTierForm
        onAdd={(request) => change(() => setImageTier(props.modelId, request))}
        onBadAmount={() => setStatus({ tone: 'error', message: text.prices.badAmount })}
      />
    </div>
  );
}

function TierRow(props: { tier: ImagePriceTier; onSave: (listUsd: string) => void; onRemove: () => void }) {
  const text = useOperatorMessages();
  const { tier } = props;
  const [listUsd, setListUsd] = useState(String(tier.list_usd_per_request));
  const quality = tier.quality ?? '*';
  const size = tier.size ?? '*';
  return (
    <li className="operator-list__item" data-tier-quality={quality} data-tier-size={size}>
      <div className="operator-list__main">
        <strong>
          {tier.quality ?? text.tiers.anyQuality} · {tier.size ?? text.tiers.anySize}
        </strong>
        <span>
          {text.tiers.price}: <span data-field="tier-price">{formatUsd(tier.usd_per_request)}</span>
        </span>
      </div>
      <form
        className="operator-form operator-form--inline"
        onSubmit={(event) => {
          event.preventDefault();
          props.onSave(listUsd.trim().replace(',', '.'));
        }}
      >
        <label className="field">
          <span className="field__label">{text.tiers.listPrice}</span>
          <input
            name="tier-list-price"
            inputMode="decimal"
            value={listUsd}
            onChange={(event) => setListUsd(event.target.value)}
          />
        </label>
        <span className="operator-list__actions">
          <button type="submit" className="button button--small">
            {text.tiers.save}
          </button>
          <button type="button" className="button button--small" onClick={props.onRemove}>
            {text.tiers.remove}
          </button>
        </span>
      </form>
    </li>
  );
}

function AddTierForm(props: {
  onAdd: (request: { quality: string | null; size: string | null; list_usd_per_request: string }) => Promise<void>;
  onBadAmount: () => void;
}) {
  const text = useOperatorMessages();
  const [quality, setQuality] = useState('');
  const [size, setSize] = useState('');
  const [listUsd, setListUsd] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amount = listUsd.trim().replace(',', '.');
    if (parseUsdMicros(amount) === undefined) {
      props.onBadAmount();
      return;
    }
    await props.onAdd({ quality: quality.trim() || null, size: size.trim() || null, list_usd_per_request: amount });
  };
  return (
    <form className="operator-form" aria-label={text.tiers.add} onSubmit={(event) => void submit(event)}>
      <label className="field">
        <span className="field__label">{text.tiers.quality}</span>
        <input name="tier-quality" value={quality} onChange={(event) => setQuality(event.target.value)} />
      </label>
      <label className="field">
        <span className="field__label">{text.tiers.size}</span>
        <input name="tier-size" value={size} onChange={(event) => setSize(event.target.value)} />
      </label>
      <label className="field">
        <span className="field__label">{text.tiers.listPrice}</span>
        <input
          name="tier-new-list-price"
          inputMode="decimal"
          required
          value={listUsd}
          onChange={(event) => setListUsd(event.target.value)}
        />
      </label>
      <button type="submit" className="button button--secondary">
        {text.tiers.add}
      </button>
    </form>
  );
}

function formatListPrice(usd: number | null): string {
  return usd === null ? '—' : formatUsd(usd);
}

function messageOf(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}
