import { useState, type FormEvent } from 'react';
import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import { callEndpoint } from '../../api/call-endpoint.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Language } from '../../i18n/language.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { useLoad } from '../../lib/use-load.ts';

const catalogues = {
  en: {
    notSending:
      'Mail is NOT being sent: no SMTP server is configured, so account mail (verification, password reset, alerts) is kept here instead. Set SMTP_HOST to send it.',
    sending: 'Mail is sent through the configured SMTP server; this list holds only what was kept before.',
    recipient: 'Recipient',
    search: 'Search',
    none: 'No mail kept.',
    columns: { time: 'Time', to: 'To', kind: 'Kind', subject: 'Subject' },
  },
  ru: {
    notSending:
      'Письма НЕ отправляются: SMTP-сервер не настроен, поэтому письма аккаунтов (подтверждение, сброс пароля, уведомления) сохраняются здесь. Задайте SMTP_HOST, чтобы отправлять их.',
    sending: 'Письма отправляются через настроенный SMTP-сервер; здесь только то, что было сохранено раньше.',
    recipient: 'Получатель',
    search: 'Найти',
    none: 'Сохранённых писем нет.',
    columns: { time: 'Время', to: 'Кому', kind: 'Вид', subject: 'Тема' },
  },
} as const satisfies Record<Language, unknown>;

/**
 * The sandbox outbox: mail kept instead of sent while no SMTP server is configured, newest first, with a plain
 * statement of whether mail is being sent. Only the text part is shown; the HTML part is never rendered here.
 */
export function OutboxPanel() {
  const { messages, language } = useI18n();
  const text = catalogues[language];
  const [draft, setDraft] = useState('');
  const [to, setTo] = useState('');
  const { state } = useLoad(
    (signal) => callEndpoint(apiEndpoints.listOutbox, { query: { limit: 50, ...(to ? { to } : {}) } }, { signal }),
    to,
  );
  const search = (event: FormEvent) => {
    event.preventDefault();
    setTo(draft.trim());
  };
  return (
    <section data-panel="outbox">
      {state.status === 'loading' && <p className="status">{messages.common.loading}</p>}
      {state.status === 'error' && <p className="notice notice--error">{state.message}</p>}
      {state.status === 'ready' && (
        <p className={state.value.delivery === 'outbox' ? 'notice notice--error' : 'notice notice--info'} data-delivery>
          {state.value.delivery === 'outbox' ? text.notSending : text.sending}
        </p>
      )}
      <form onSubmit={search}>
        <label>
          {text.recipient}
          <input name="outbox-to" value={draft} onChange={(event) => setDraft(event.target.value)} />
        </label>
        <button type="submit" className="button">
          {text.search}
        </button>
      </form>
      {state.status === 'ready' &&
        (state.value.data.length === 0 ? (
          <p>{text.none}</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{text.columns.time}</th>
                <th scope="col">{text.columns.to}</th>
                <th scope="col">{text.columns.kind}</th>
                <th scope="col">{text.columns.subject}</th>
              </tr>
            </thead>
            <tbody>
              {state.value.data.map((mail) => (
                <tr key={mail.id} data-mail-id={mail.id}>
                  <td>{formatDateTime(mail.created_at, language)}</td>
                  <td>{mail.to}</td>
                  <td>{mail.kind}</td>
                  <td>
                    <details>
                      <summary>{mail.subject}</summary>
                      <pre className="outbox__text">{mail.text}</pre>
                    </details>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}
