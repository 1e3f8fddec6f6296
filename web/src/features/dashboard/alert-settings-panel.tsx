import { useId, useState, type FormEvent } from 'react';
import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import type { AlertSettings } from '../../../../contract/account-email.ts';
import { callEndpoint } from '../../api/call-endpoint.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Language } from '../../i18n/language.ts';
import { useLoad } from '../../lib/use-load.ts';

const catalogues = {
  en: {
    title: 'Mail alerts',
    threshold: 'Mail me when the balance falls below, USD (empty: never)',
    save: 'Save alerts',
    saved: 'Saved.',
    invalid: 'Write an amount in USD, such as 5 or 2.50.',
    alwaysSent: 'Always sent: a reminder before a subscription renews, and a notice when an API key is created.',
  },
  ru: {
    title: 'Уведомления по почте',
    threshold: 'Написать, когда баланс опустится ниже, USD (пусто: никогда)',
    save: 'Сохранить уведомления',
    saved: 'Сохранено.',
    invalid: 'Укажите сумму в USD, например 5 или 2.50.',
    alwaysSent: 'Приходят всегда: напоминание перед продлением подписки и письмо о создании API-ключа.',
  },
} as const satisfies Record<Language, unknown>;

/** The account's mail alerts: the low-balance threshold it sets, and the alerts that are always on. */
export function AlertSettingsPanel() {
  const { messages, language } = useI18n();
  const text = catalogues[language];
  const { state } = useLoad((signal) => callEndpoint(apiEndpoints.getAlertSettings, {}, { signal }), 'alerts');
  return (
    <section className="card dashboard__panel" aria-labelledby="alerts-title" data-panel="alerts">
      <h2 id="alerts-title">{text.title}</h2>
      {state.status === 'loading' && <p className="status">{messages.common.loading}</p>}
      {state.status === 'error' && <p className="notice notice--error">{state.message}</p>}
      {state.status === 'ready' && <AlertForm initial={state.value} text={text} />}
      <p className="page__lead">{text.alwaysSent}</p>
    </section>
  );
}

function AlertForm(props: { initial: AlertSettings; text: (typeof catalogues)[Language] }) {
  const { text } = props;
  const id = useId();
  const [threshold, setThreshold] = useState(
    props.initial.low_balance_usd === null ? '' : String(props.initial.low_balance_usd),
  );
  const [outcome, setOutcome] = useState<{ isError: boolean; message: string } | undefined>();
  const [isWorking, setIsWorking] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const amount = threshold.trim() === '' ? null : Number(threshold.trim());
    // A typo must not clear the alert: NaN would travel as null.
    if (amount !== null && !Number.isFinite(amount)) {
      setOutcome({ isError: true, message: text.invalid });
      return;
    }
    setIsWorking(true);
    setOutcome(undefined);
    try {
      const body = { low_balance_usd: amount };
      const saved = await callEndpoint(apiEndpoints.setAlertSettings, { body });
      setThreshold(saved.low_balance_usd === null ? '' : String(saved.low_balance_usd));
      setOutcome({ isError: false, message: text.saved });
    } catch (caught) {
      setOutcome({ isError: true, message: caught instanceof Error ? caught.message : String(caught) });
    } finally {
      setIsWorking(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          {text.threshold}
        </label>
        <input
          id={id}
          className="field__input"
          inputMode="decimal"
          value={threshold}
          onChange={(event) => setThreshold(event.target.value)}
        />
      </div>
      <button type="submit" className="button" disabled={isWorking}>
        {text.save}
      </button>
      {outcome && (
        <p className={outcome.isError ? 'notice notice--error' : 'notice notice--info'} role="status">
          {outcome.message}
        </p>
      )}
    </form>
  );
}
