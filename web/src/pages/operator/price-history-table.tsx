import { useEffect, useState } from 'react';
import type { PriceChange } from '../../../../contract/operator.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { listPriceHistory } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';

/** A model's recorded price changes, newest first, each with the date it took effect and its reason. */
export function PriceHistoryTable(props: { modelId: string; isImage: boolean; refreshKey: string }) {
  const text = useOperatorMessages();
  const { language } = useI18n();
  const [changes, setChanges] = useState<PriceChange[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const controller = new AbortController();
    listPriceHistory(props.modelId, { signal: controller.signal }).then(
      (list) => {
        setChanges(list.data);
        setError(undefined);
      },
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
    return () => controller.abort();
  }, [props.modelId, props.refreshKey]);

  return (
    <div className="operator-table-wrap" data-panel="price-history">
      <h2>{text.prices.history}</h2>
      {error && (
        <p className="notice notice--error" role="alert">
          {text.failed} {error}
        </p>
      )}
      {changes?.length === 0 && <p>{text.prices.noHistory}</p>}
      {changes && changes.length > 0 && (
        <table className="operator-table">
          <thead>
            <tr>
              <th>{text.prices.effective}</th>
              <th>{text.prices.input}</th>
              <th>{text.prices.output}</th>
              {props.isImage && <th>{text.prices.flatPerRequest}</th>}
              <th>{text.prices.reason}</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change, index) => (
              <tr key={`${change.effective_at}-${index}`} data-effective-at={change.effective_at}>
                <td>{formatDateTime(change.effective_at, language)}</td>
                <td data-column="input">{formatUsd(change.input_usd_per_million)}</td>
                <td data-column="output">{formatUsd(change.output_usd_per_million)}</td>
                {props.isImage && (
                  <td data-column="per-request">
                    {change.usd_per_request === null ? '—' : formatUsd(change.usd_per_request)}
                  </td>
                )}
                <td data-column="reason">{change.reason}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
