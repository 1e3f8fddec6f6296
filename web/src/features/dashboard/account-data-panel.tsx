import { useId, useState, type FormEvent } from 'react';
import { apiEndpoints } from '../../../../contract/api-endpoints.ts';
import type { AccountExport, DeleteAccountRequest } from '../../../../contract/account-email.ts';
import { callEndpoint } from '../../api/call-endpoint.ts';
import { useI18n } from '../../i18n/i18n-provider.tsx';
import type { Language } from '../../i18n/language.ts';
import { formatUsd } from '../../lib/format-usd.ts';
import { useSession } from '../auth/session-provider.tsx';

const catalogues = {
  en: {
    title: 'Your data',
    exportLead: 'Download everything held about this account: the account, its keys (never a secret) and its usage.',
    exportJson: 'Download JSON',
    exportCsv: 'Download usage as CSV',
    deleteTitle: 'Delete the account',
    deleteLead:
      'Your address and password are erased and every key and session ends at once. This cannot be undone. An account with a top-up that may still be paid cannot be deleted until it settles.',
    balanceWarning: (balance: string) =>
      `The account still holds ${balance}. Choose what becomes of it: it is not paid out automatically.`,
    forfeit: 'Give up the balance (it is lost for good)',
    leaveForRefund: 'Leave it on the deleted account for the operator to refund on request',
    password: 'Your password, to confirm',
    delete: 'Delete my account',
    confirm: 'Delete this account for good?',
  },
  ru: {
    title: 'Ваши данные',
    exportLead: 'Скачайте всё, что хранится об аккаунте: аккаунт, его ключи (без секретов) и расход.',
    exportJson: 'Скачать JSON',
    exportCsv: 'Скачать расход в CSV',
    deleteTitle: 'Удаление аккаунта',
    deleteLead:
      'Адрес и пароль стираются, все ключи и сеансы сразу перестают действовать. Отменить это нельзя. Аккаунт с пополнением, которое ещё может быть оплачено, удалить нельзя, пока оно не завершится.',
    balanceWarning: (balance: string) =>
      `На аккаунте остаётся ${balance}. Выберите, что с ним будет: автоматически он не выплачивается.`,
    forfeit: 'Отказаться от баланса (он пропадёт навсегда)',
    leaveForRefund: 'Оставить на удалённом аккаунте, чтобы оператор вернул его по запросу',
    password: 'Ваш пароль для подтверждения',
    delete: 'Удалить мой аккаунт',
    confirm: 'Удалить этот аккаунт навсегда?',
  },
} as const satisfies Record<Language, unknown>;

/** Data export (JSON, and the usage as CSV from `/api/usage.csv`) and account deletion, with the balance's fate chosen explicitly. */
export function AccountDataPanel(props: { balanceUsd: number }) {
  const { language } = useI18n();
  const text = catalogues[language];
  const [error, setError] = useState<string | undefined>();
  const download = async () => {
    setError(undefined);
    try {
      saveJson(await callEndpoint(apiEndpoints.exportAccountData, {}));
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  };
  return (
    <section className="card dashboard__panel" aria-labelledby="data-title" data-panel="account-data">
      <h2 id="data-title">{text.title}</h2>
      <p>{text.exportLead}</p>
      <div className="key-form">
        <button type="button" className="button" onClick={() => void download()}>
          {text.exportJson}
        </button>
        <a className="button button--secondary" href={apiEndpoints.exportUsageCsv.path} download>
          {text.exportCsv}
        </a>
      </div>
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
      <DeleteAccountForm balanceUsd={props.balanceUsd} text={text} />
    </section>
  );
}

/** The export as a file: built in the page, since the endpoint answers JSON to the API client. */
function saveJson(data: AccountExport): void {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = 'account-export.json';
  link.click();
  URL.revokeObjectURL(link.href);
}

function DeleteAccountForm(props: { balanceUsd: number; text: (typeof catalogues)[Language] }) {
  const { text } = props;
  const session = useSession();
  const ids = { password: useId(), balance: useId() };
  const [password, setPassword] = useState('');
  const [balance, setBalance] = useState<DeleteAccountRequest['balance']>();
  const [error, setError] = useState<string | undefined>();
  const [isWorking, setIsWorking] = useState(false);
  const holdsBalance = props.balanceUsd > 0;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isWorking || (holdsBalance && balance === undefined) || !window.confirm(text.confirm)) return;
    setIsWorking(true);
    setError(undefined);
    try {
      await callEndpoint(apiEndpoints.deleteAccount, { body: holdsBalance ? { password, balance } : { password } });
      await session.signOut().catch(() => undefined);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
      setIsWorking(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} data-delete-account>
      <h3>{text.deleteTitle}</h3>
      <p className="notice notice--error">{text.deleteLead}</p>
      {holdsBalance && (
        <fieldset className="field" aria-describedby={ids.balance}>
          <p id={ids.balance}>{text.balanceWarning(formatUsd(props.balanceUsd))}</p>
          {(['forfeit', 'leave_for_refund'] as const).map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name="balance"
                value={choice}
                checked={balance === choice}
                onChange={() => setBalance(choice)}
                required
              />{' '}
              {choice === 'forfeit' ? text.forfeit : text.leaveForRefund}
            </label>
          ))}
        </fieldset>
      )}
      <div className="field">
        <label className="field__label" htmlFor={ids.password}>
          {text.password}
        </label>
        <input
          id={ids.password}
          className="field__input"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
      </div>
      <button type="submit" className="button" disabled={isWorking}>
        {text.delete}
      </button>
      {error && (
        <p className="notice notice--error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
