import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ModelSyncReport, ModelSyncResult, ModelSyncSettings } from '../../../../contract/operator-model-sync.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { applyModelSync, getModelSyncSettings, previewModelSync, setModelSyncSettings } from './operator-api.ts';
import { useOperatorMessages } from './operator-messages.ts';

type Row = { id: string; change: string; details: string; canApply: boolean };

/**
 * Model sync on the Models tab (docs/catalogue.md, "Sync"): check shows the diff with a checkbox per model, apply
 * sends the ticked ids (the server compares afresh, so a change another operator applied meanwhile is not repeated),
 * and the schedule with its auto-add policy is set below.
 */
export function ModelSyncView(props: { onApplied: (message: string) => void; onError: (error: unknown) => void }) {
  const text = useOperatorMessages();
  const [report, setReport] = useState<ModelSyncReport>();
  const [isChecking, setIsChecking] = useState(false);
  const [ticked, setTicked] = useState<ReadonlySet<string>>(new Set());
  const [result, setResult] = useState<ModelSyncResult>();
  const check = async () => {
    setIsChecking(true);
    setResult(undefined);
    try {
      setReport(await previewModelSync());
      setTicked(new Set());
    } catch (failure) {
      props.onError(failure);
    } finally {
      setIsChecking(false);
    }
  };
  const apply = async () => {
    try {
      const applied = await applyModelSync({ apply: [...ticked] });
      setResult(applied);
      props.onApplied(text.sync.applied(applied.results.filter((row) => row.outcome === 'applied').length));
      setReport(await previewModelSync());
      setTicked(new Set());
    } catch (failure) {
      props.onError(failure);
    }
  };
  const rows = report ? describeRows(report, text.sync) : [];
  const toggle = (id: string) =>
    setTicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <div className="operator-sync" data-panel="model-sync">
      <button type="button" className="button" disabled={isChecking} onClick={() => void check()}>
        {isChecking ? text.sync.checking : text.sync.check}
      </button>
      {report && (
        <p className="operator-list__meta">{text.sync.source(report.price_source.kind, report.price_source.problem)}</p>
      )}
      {report?.vendor_lists
        .filter((list) => list.problem !== null)
        .map((list) => (
          <p key={list.provider} className="notice notice--error">
            {text.sync.vendorProblem}: {list.problem}
          </p>
        ))}
      {report && rows.length === 0 && <p role="status">{text.sync.none}</p>}
      {rows.length > 0 && (
        <table className="operator-table">
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">{text.models.id}</th>
              <th scope="col">{text.sync.change}</th>
              <th scope="col">{text.sync.details}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={`${row.change}-${row.id}`} data-sync-model-id={row.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={row.id}
                    disabled={!row.canApply}
                    checked={ticked.has(row.id)}
                    onChange={() => toggle(row.id)}
                  />
                </td>
                <th scope="row">
                  <code>{row.id}</code>
                </th>
                <td>{row.change}</td>
                <td>{row.details}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {rows.length > 0 && (
        <button
          type="button"
          className="button button--primary"
          disabled={ticked.size === 0}
          onClick={() => void apply()}
        >
          {text.sync.apply}
        </button>
      )}
      {result && (
        <ul className="operator-list" data-panel="model-sync-result">
          {result.results.map((row) => (
            <li key={`${row.change}-${row.id}`}>
              <code>{row.id}</code>: {text.sync.outcome[row.outcome]}
              {row.message === null ? '' : ` (${row.message})`}
            </li>
          ))}
        </ul>
      )}
      <ScheduleForm onError={props.onError} />
    </div>
  );
}

function describeRows(report: ModelSyncReport, text: ReturnType<typeof useOperatorMessages>['sync']): Row[] {
  const rates = (price: { input_usd_per_million: number; output_usd_per_million: number }) =>
    `${formatUsd(price.input_usd_per_million)} / ${formatUsd(price.output_usd_per_million)}`;
  return [
    ...report.new_models.map((found) => ({
      id: found.id,
      change: `${found.family}: ${found.is_new_version ? text.newVersion : text.newModel}`,
      details: found.list_price ? `${text.listPrice} ${rates(found.list_price)}` : text.noListPrice,
      canApply: found.list_price !== null,
    })),
    ...report.list_price_changes.map((change) => ({
      id: change.id,
      change: `${change.family}: ${text.listPrice}`,
      details: `${rates(change.from)} → ${rates(change.to)}, ${text.effective} ${change.effective_at.slice(0, 10)}`,
      canApply: true,
    })),
    ...report.unlisted_models.map((model) => ({
      id: model.id,
      change: `${model.family}: ${model.provider}`,
      details: text.unlisted,
      canApply: true,
    })),
  ];
}

function ScheduleForm(props: { onError: (error: unknown) => void }) {
  const text = useOperatorMessages();
  const [settings, setSettings] = useState<ModelSyncSettings>();
  const [hours, setHours] = useState('0');
  const [isSaved, setIsSaved] = useState(false);
  // Read once: the parent re-renders with a new `onError` on every change, which must not reload unsaved edits.
  const onError = useRef(props.onError);
  useEffect(() => {
    getModelSyncSettings().then((stored) => {
      setSettings(stored);
      setHours(String(stored.interval_hours));
    }, onError.current);
  }, []);
  if (!settings) return null;
  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      setSettings(await setModelSyncSettings({ ...settings, interval_hours: Number(hours) }));
      setIsSaved(true);
    } catch (failure) {
      props.onError(failure);
    }
  };
  return (
    <form className="operator-form" onSubmit={(event) => void save(event)} data-panel="model-sync-schedule">
      <label className="field">
        <span className="field__label">{text.sync.schedule}</span>
        <input name="sync-hours" inputMode="numeric" value={hours} onChange={(event) => setHours(event.target.value)} />
      </label>
      <label className="field">
        <input
          type="checkbox"
          name="sync-auto-add"
          checked={settings.auto_add === 'new_versions'}
          onChange={(event) => setSettings({ ...settings, auto_add: event.target.checked ? 'new_versions' : 'off' })}
        />{' '}
        {text.sync.autoAdd}
      </label>
      <button type="submit" className="button button--small">
        {text.sync.saveSchedule}
      </button>
      {isSaved && <span role="status"> {text.sync.scheduleSaved}</span>}
    </form>
  );
}
