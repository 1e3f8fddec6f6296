import { useId, useState, type FormEvent } from 'react';
import type { UsageFilterQuery, UsageRecord } from '../../../../contract/usage.ts';
import { listApiKeys, listDailyUsage, listUsage, usageSearch } from '../../api/account-api.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { formatTokenCountInFull } from '../../lib/format-token-count.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { useLoad } from '../../lib/use-load.ts';
import { usePublicModels } from '../models/public-models-provider.tsx';
import { UsageCharts } from './usage-charts.tsx';

type Page = { rows: UsageRecord[]; nextCursor: string | null };

/** The account's calls: filters (dates, model, key), charts per day and model, a paged table, the CSV export. */
export function UsagePanel(props: { refreshKey: string }) {
  const { messages } = useI18n();
  const text = messages.dashboard;
  const [filter, setFilter] = useState<UsageFilterQuery>({});
  const [extra, setExtra] = useState<{ filterKey: string; page: Page } | undefined>();
  const filterKey = `${JSON.stringify(filter)}|${props.refreshKey}`;
  const extraRows = extra?.filterKey === filterKey ? extra.page : undefined;
  const usage = useLoad(async (signal) => {
    const [page, daily] = await Promise.all([
      listUsage({ ...filter, limit: 50 }, { signal }),
      listDailyUsage(filter, { signal }),
    ]);
    return { page, daily };
  }, filterKey);

  const loadMore = async (cursor: string) => {
    const page = await listUsage({ ...filter, limit: 50, cursor });
    setExtra({ filterKey, page: { rows: [...(extraRows?.rows ?? []), ...page.data], nextCursor: page.next_cursor } });
  };
  const nextCursor =
    usage.state.status === 'ready' ? (extraRows ? extraRows.nextCursor : usage.state.value.page.next_cursor) : null;

  return (
    <section className="card dashboard__panel dashboard__panel--wide" aria-labelledby="usage-title" data-panel="usage">
      <h2 id="usage-title">{text.usageTitle}</h2>
      <UsageFilters onApply={setFilter} />
      <p>
        <a className="button button--secondary" href={`/api/usage.csv${usageSearch(filter)}`} download>
          {text.usageCsv}
        </a>
      </p>
      {usage.state.status === 'loading' && <p className="status">{messages.common.loading}</p>}
      {usage.state.status === 'error' && <p className="notice notice--error">{usage.state.message}</p>}
      {usage.state.status === 'ready' && (
        <>
          <UsageCharts rows={usage.state.value.daily.data} />
          <UsageTable rows={[...usage.state.value.page.data, ...(extraRows?.rows ?? [])]} />
          {nextCursor !== null && (
            <button type="button" className="button button--secondary" onClick={() => void loadMore(nextCursor)}>
              {text.usageLoadMore}
            </button>
          )}
        </>
      )}
    </section>
  );
}

function UsageFilters(props: { onApply: (filter: UsageFilterQuery) => void }) {
  const { messages } = useI18n();
  const text = messages.dashboard;
  const { state: models } = usePublicModels();
  const keys = useLoad((signal) => listApiKeys({ signal }), 'usage-keys');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [model, setModel] = useState('');
  const [keyId, setKeyId] = useState('');
  const ids = { from: useId(), to: useId(), model: useId(), key: useId() };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const filter: UsageFilterQuery = {};
    if (from) filter.from = from;
    if (to) filter.to = to;
    if (model) filter.model = model;
    if (keyId) filter.key_id = keyId;
    props.onApply(filter);
  };

  return (
    <form className="usage-filters" onSubmit={apply}>
      <div className="field">
        <label className="field__label" htmlFor={ids.from}>
          {text.usageFrom}
        </label>
        <input
          id={ids.from}
          className="field__input"
          type="date"
          value={from}
          onChange={(event) => setFrom(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.to}>
          {text.usageTo}
        </label>
        <input
          id={ids.to}
          className="field__input"
          type="date"
          value={to}
          onChange={(event) => setTo(event.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.model}>
          {text.usageModel}
        </label>
        <select
          id={ids.model}
          className="field__input"
          value={model}
          onChange={(event) => setModel(event.target.value)}
        >
          <option value="">{text.usageAllModels}</option>
          {models.status === 'ready' &&
            models.list.data.map((item) => (
              <option key={item.id} value={item.id}>
                {item.display_name}
              </option>
            ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={ids.key}>
          {text.usageKey}
        </label>
        <select id={ids.key} className="field__input" value={keyId} onChange={(event) => setKeyId(event.target.value)}>
          <option value="">{text.usageAllKeys}</option>
          {keys.state.status === 'ready' &&
            keys.state.value.data.map((key) => (
              <option key={key.id} value={key.id}>
                {`${key.name} (${key.prefix}…${key.last_four})`}
              </option>
            ))}
        </select>
      </div>
      <button type="submit" className="button button--primary">
        {text.usageApply}
      </button>
    </form>
  );
}

function UsageTable(props: { rows: UsageRecord[] }) {
  const { messages, language } = useI18n();
  const text = messages.dashboard;
  if (props.rows.length === 0) return <p className="status">{text.usageEmpty}</p>;
  return (
    <div className="table-scroll">
      <table className="data-table" data-table="usage">
        <thead>
          <tr>
            <th scope="col">{text.columnTime}</th>
            <th scope="col">{text.columnModel}</th>
            <th scope="col">{text.usageKey}</th>
            <th scope="col">{text.columnStatus}</th>
            <th scope="col">{text.columnTokens}</th>
            <th scope="col">{text.columnCost}</th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.request_id} data-request-id={row.request_id}>
              <td>{formatDateTime(row.created_at, language)}</td>
              <td>{row.model}</td>
              <td>{row.key_name ?? '—'}</td>
              <td>{text.statusNames[row.status] ?? row.status}</td>
              <td>{`${formatTokenCountInFull(row.input_tokens)} / ${formatTokenCountInFull(row.output_tokens)}`}</td>
              <td>{formatUsd(row.cost_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
