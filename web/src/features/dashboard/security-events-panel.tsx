import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import { callEndpoint } from '../../api/call-endpoint.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Language } from '../../i18n/language.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { useLoad } from '../../lib/use-load.ts';

const catalogues = {
  en: {
    title: 'Security',
    none: 'No events yet.',
    actions: {
      account_registered: 'Account created',
      signed_in: 'Signed in',
      password_changed: 'Password changed',
      api_key_created: 'API key created',
      api_key_revoked: 'API key revoked',
      totp_enabled: 'Second factor turned on',
      totp_reset: 'Second factor reset',
    } as Record<string, string>,
  },
  ru: {
    title: 'Безопасность',
    none: 'Событий пока нет.',
    actions: {
      account_registered: 'Аккаунт создан',
      signed_in: 'Вход',
      password_changed: 'Пароль изменён',
      api_key_created: 'Создан API-ключ',
      api_key_revoked: 'API-ключ отозван',
      totp_enabled: 'Второй фактор включён',
      totp_reset: 'Второй фактор сброшен',
    } as Record<string, string>,
  },
} as const satisfies Record<Language, unknown>;

/** The account's own latest security events: sign-ins, keys created or revoked, password changes. */
export function SecurityEventsPanel(props: { refreshKey: string }) {
  const { messages, language } = useI18n();
  const text = catalogues[language];
  const { state } = useLoad(
    (signal) => callEndpoint(apiEndpoints.listSecurityEvents, {}, { signal }),
    props.refreshKey,
  );
  return (
    <section className="card dashboard__panel" aria-labelledby="security-title" data-panel="security">
      <h2 id="security-title">{text.title}</h2>
      {state.status === 'loading' && <p className="status">{messages.common.loading}</p>}
      {state.status === 'error' && <p className="notice notice--error">{state.message}</p>}
      {state.status === 'ready' &&
        (state.value.data.length === 0 ? (
          <p>{text.none}</p>
        ) : (
          <ul className="security-events">
            {state.value.data.slice(0, 10).map((event) => (
              <li key={event.id} data-action={event.action}>
                {`${formatDateTime(event.occurred_at, language)} — ${text.actions[event.action] ?? event.action}${event.client_address ? ` (${event.client_address})` : ''}`}
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
