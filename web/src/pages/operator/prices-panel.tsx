import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/api-client.ts';
import type { PublicModel } from '../../../../contract/models.ts';
import { usePublicModels } from '../../features/models/public-models-provider.tsx';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { setModelPrice } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';
import { parseUsdMicros } from './parse-usd-micros.ts';
import { ImageTiersEditor } from './image-tiers-editor.tsx';
import { PriceHistoryTable } from './price-history-table.tsx';

/**
 * Edit a model's live price, effective the moment it is saved (the gateway has no scheduled prices), and read the
 * model's price history with the date each price took effect. The app's shared price list is reloaded afterwards, so
 * the models page shows the new price at once.
 */
export function PricesPanel() {
  const text = useOperatorMessages();
  const { state, reload } = usePublicModels();
  const models = state.status === 'ready' ? state.list.data : [];
  const [modelId, setModelId] = useState('');
  const [savedNotice, setSavedNotice] = useState<string>();
  const model = models.find((candidate) => candidate.id === modelId) ?? models[0];
  const notice = savedNotice && (
    <p className="notice notice--info" role="status">
      {savedNotice}
    </p>
  );
  if (!model) return state.status === 'loading' ? (notice ?? <p role="status">{text.loading}</p>) : null;
  return (
    <section className="operator-panel" aria-label={text.tabs.prices}>
      {notice}
      <label className="field">
        <span className="field__label">{text.prices.model}</span>
        <select
          name="model"
          value={model.id}
          onChange={(event) => {
            setModelId(event.target.value);
            setSavedNotice(undefined);
          }}
        >
          {models.map((candidate) => (
            <option key={candidate.id} value={candidate.id}>
              {candidate.display_name} ({candidate.id})
            </option>
          ))}
        </select>
      </label>
      <PriceForm
        key={`price-form-${model.id}-${model.price_effective_at}`}
        model={model}
        onSaved={() => {
          setSavedNotice(text.prices.saved);
          reload();
        }}
      />
      {model.kind === 'image' && model.usd_per_request !== null && (
        <ImageTiersEditor
          key={`image-tiers-${model.id}-${model.price_effective_at}`}
          modelId={model.id}
          onChanged={reload}
        />
      )}
      <PriceHistoryTable modelId={model.id} isImage={model.kind === 'image'} refreshKey={model.price_effective_at} />
    </section>
  );
}

function PriceForm(props: { model: PublicModel; onSaved: () => void }) {
  const text = useOperatorMessages();
  const { language } = useI18n();
  const { model } = props;
  const isImage = model.kind === 'image';
  const [input, setInput] = useState(String(model.input_usd_per_million));
  const [output, setOutput] = useState(String(model.output_usd_per_million));
  // The save endpoint takes the flat price the tiers scale from, not `usd_per_request` (a default image, which may
  // fall in a dearer tier): pre-filling that would move the flat price and every tier on an unchanged save.
  const [perRequest, setPerRequest] = useState(String(model.flat_usd_per_request ?? ''));
  const [reason, setReason] = useState('');
  const [status, setStatus] = useState<{ tone: 'error' | 'below_cost'; message: string }>();

  const submit = async (event: FormEvent | undefined, isConfirmed = false) => {
    event?.preventDefault();
    const amounts = [input, output, ...(isImage ? [perRequest] : [])];
    if (amounts.some((amount) => parseUsdMicros(amount) === undefined)) {
      setStatus({ tone: 'error', message: text.prices.badAmount });
      return;
    }
    try {
      await setModelPrice(model.id, {
        input_usd_per_million: input.trim().replace(',', '.'),
        output_usd_per_million: output.trim().replace(',', '.'),
        ...(isImage ? { usd_per_request: perRequest.trim().replace(',', '.') } : {}),
        ...(reason.trim() ? { reason: reason.trim() } : {}),
        ...(isConfirmed ? { confirm_below_cost: true } : {}),
      });
      setStatus(undefined);
      props.onSaved();
    } catch (failure) {
      // The server refuses a price below the cost of every route unless told the operator means it (`below_cost`).
      const tone = failure instanceof ApiError && failure.code === 'below_cost' ? 'below_cost' : 'error';
      setStatus({ tone, message: failure instanceof Error ? failure.message : String(failure) });
    }
  };

  return (
    <form className="operator-form" onSubmit={(event) => void submit(event)}>
      <p className="operator-list__meta operator-form__note">
        {text.prices.effective}: {formatDateTime(model.price_effective_at, language)}. {text.prices.effectiveNow}
      </p>
      <label className="field">
        <span className="field__label">{text.prices.input}</span>
        <input name="input" inputMode="decimal" value={input} onChange={(event) => setInput(event.target.value)} />
      </label>
      <label className="field">
        <span className="field__label">{text.prices.output}</span>
        <input name="output" inputMode="decimal" value={output} onChange={(event) => setOutput(event.target.value)} />
      </label>
      {isImage && (
        <label className="field">
          <span className="field__label">{text.prices.flatPerRequest}</span>
          <input
            name="per-request"
            inputMode="decimal"
            value={perRequest}
            onChange={(event) => setPerRequest(event.target.value)}
          />
        </label>
      )}
      <label className="field">
        <span className="field__label">{text.prices.reason}</span>
        <input name="reason" value={reason} onChange={(event) => setReason(event.target.value)} />
      </label>
      <button type="submit" className="button button--primary">
        {text.prices.save}
      </button>
      {status?.tone === 'error' && (
        <p className="notice notice--error" role="alert">
          {status.message}
        </p>
      )}
      {status?.tone === 'below_cost' && (
        <div className="notice notice--error" role="alertdialog" aria-label={text.prices.belowCostQuestion}>
          <p>{status.message}</p>
          <p>
            <strong>{text.prices.belowCostQuestion}</strong>
          </p>
          <button type="button" className="button button--small" onClick={() => void submit(undefined, true)}>
            {text.prices.saveAnyway}
          </button>{' '}
          <button type="button" className="button button--small" onClick={() => setStatus(undefined)}>
            {text.prices.keepEditing}
          </button>
        </div>
      )}
    </form>
  );
}
