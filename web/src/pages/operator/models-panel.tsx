import { useCallback, useEffect, useState } from 'react';
import type { OperatorModel } from '../../../../contract/operator-models.ts';
import { usePublicModels } from '../../features/models/public-models-provider.tsx';
import { formatUsd } from '../../lib/format-usd.ts';
import { AddModelForm } from './add-model-form.tsx';
import { ModelSyncView } from './model-sync-view.tsx';
import { listOperatorModels, restoreModel, retireModel } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';

/**
 * The catalogue (`/api/operator/models`): every model with our price, the cheapest and dearest healthy route's cost
 * and the margin after the deepest discount, models that sell below cost flagged; retire or restore a model, add one.
 * The app's shared price list is reloaded after a change, so the models page follows at once.
 */
export function ModelsPanel() {
  const text = useOperatorMessages();
  const { reload: reloadPublicModels } = usePublicModels();
  const [models, setModels] = useState<OperatorModel[]>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const fail = (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure));
  const load = useCallback(() => listOperatorModels().then((list) => setModels(list.data), fail), []);
  useEffect(() => void load(), [load]);
  const changed = async (message?: string) => {
    setError(undefined);
    setNotice(message);
    reloadPublicModels();
    await load();
  };
  const toggle = (model: OperatorModel) =>
    (model.retired_at === null ? retireModel(model.id) : restoreModel(model.id)).then(() => changed(), fail);
  const mixPrice = (model: OperatorModel) =>
    model.kind === 'image'
      ? (model.usd_per_request ?? 0)
      : model.input_usd_per_million * 10 + model.output_usd_per_million;
  return (
    <section className="operator-panel" aria-label={text.tabs.models}>
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="notice notice--info" role="status">
          {notice}
        </p>
      )}
      <p>{text.models.lead}</p>
      <table className="operator-table">
        <thead>
          <tr>
            <th scope="col">{text.models.id}</th>
            <th scope="col">{text.models.price}</th>
            <th scope="col">{text.models.cheapest}</th>
            <th scope="col">{text.models.dearest}</th>
            <th scope="col">{text.models.margin}</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {models?.map((model) => (
            <tr key={model.id} data-model-id={model.id} data-below-cost={model.is_below_cost}>
              <th scope="row">
                {model.display_name} <code>{model.id}</code>
                {model.retired_at !== null && <span className="badge"> {text.models.retired}</span>}
              </th>
              <td>{formatUsd(mixPrice(model))}</td>
              <td>{model.cheapest_route_usd === null ? '—' : formatUsd(model.cheapest_route_usd)}</td>
              <td>{model.dearest_route_usd === null ? '—' : formatUsd(model.dearest_route_usd)}</td>
              <td className={model.is_below_cost ? 'operator-table__loss' : undefined}>
                {model.margin_percent === null ? '—' : `${model.margin_percent}%`}
                {model.is_below_cost && <strong> ({text.models.belowCost})</strong>}
              </td>
              <td>
                <button type="button" className="button button--small" onClick={() => void toggle(model)}>
                  {model.retired_at === null ? text.models.retire : text.models.restore}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ModelSyncView onApplied={(message) => void changed(message)} onError={fail} />
      <AddModelForm
        families={[...new Set(models?.map((model) => model.family) ?? [])]}
        onAdded={() => void changed(text.models.added)}
        onError={fail}
      />
    </section>
  );
}
