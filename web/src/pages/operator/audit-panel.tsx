import { useEffect, useState, type FormEvent } from 'react';
import type { AuditEvent, AuditQuery } from '../../../../contract/audit.ts';
import { listAuditEvents } from './security-api.ts';
import { useSecurityMessages } from './security-messages.ts';

/** The audit log: every operator change and account security event, newest first, searchable and paged. */
export function AuditPanel() {
  const text = useSecurityMessages();
  const [filter, setFilter] = useState<AuditQuery>({});
  const [draft, setDraft] = useState({ action: '', actor: '', target_id: '' });
  const [events, setEvents] = useState<AuditEvent[]>();
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string>();
  const load = (query: AuditQuery, append: boolean) =>
    listAuditEvents(query).then(
      (page) => {
        setEvents((shown) => (append ? [...(shown ?? []), ...page.data] : page.data));
        setCursor(page.next_cursor);
      },
      (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)),
    );
  useEffect(() => void load(filter, false), [filter]);
  const search = (event: FormEvent) => {
    event.preventDefault();
    const query: AuditQuery = {};
    if (draft.action.trim()) query.action = draft.action.trim();
    if (draft.actor.trim()) query.actor = draft.actor.trim();
    if (draft.target_id.trim()) query.target_id = draft.target_id.trim();
    setFilter(query);
  };
  const field = (name: keyof typeof draft, label: string) => (
    <label>
      {label}
      <input
        name={`audit-${name}`}
        value={draft[name]}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      />
    </label>
  );
  return (
    <section className="operator-panel" aria-label="audit">
      <form className="operator-filters" onSubmit={search}>
        {field('action', text.audit.action)}
        {field('actor', text.audit.actor)}
        {field('target_id', text.audit.target)}
        <button type="submit">{text.audit.search}</button>
      </form>
      {error && <p className="notice notice--error" role="alert">{`${text.failed} ${error}`}</p>}
      {!events ? (
        <p role="status">{text.loading}</p>
      ) : events.length === 0 ? (
        <p>{text.audit.none}</p>
      ) : (
        <table className="operator-table" data-table="audit">
          <thead>
            <tr>
              <th>{text.audit.time}</th>
              <th>{text.audit.action}</th>
              <th>{text.audit.actor}</th>
              <th>{text.audit.targetColumn}</th>
              <th>{text.audit.before}</th>
              <th>{text.audit.after}</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event) => (
              <tr key={event.id} data-action={event.action}>
                <td>{new Date(event.occurred_at).toLocaleString()}</td>
                <td>{event.action}</td>
                <td>{event.actor.label}</td>
                <td>{`${event.target.kind} ${event.target.id ?? ''}`}</td>
                <td>
                  <code className="audit-state">{event.before ?? '—'}</code>
                </td>
                <td>
                  <code className="audit-state">{event.after ?? '—'}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" onClick={() => void load({ ...filter, cursor }, true)}>
          {text.audit.more}
        </button>
      )}
    </section>
  );
}
