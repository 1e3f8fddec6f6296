import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useI18n } from '../../../i18n/i18n-provider.tsx';
import { Link } from '../../../router/link.tsx';
import { routePaths } from '../../../router/match-route.ts';
import { WrongPassphraseError } from '../crypto/chat-crypto.ts';
import { useChatVault } from './chat-vault-provider.tsx';

const minimumPassphraseLength = 10;

/** Shows its children with the unlocked account key; before that, the passphrase set-up or the unlock form. */
export function VaultGate(props: { children: (accountKey: CryptoKey) => ReactNode }) {
  const vault = useChatVault();
  const { messages } = useI18n();
  switch (vault.state.status) {
    case 'unlocked':
      return props.children(vault.state.accountKey);
    case 'needsSetup':
      return <PassphraseForm mode="setUp" />;
    case 'locked':
      return <PassphraseForm mode="unlock" />;
    case 'error':
      return (
        <div className="notice notice--error" role="alert">
          <p>{messages.chat.loadFailed(vault.state.message)}</p>
          <button type="button" className="button button--secondary" onClick={vault.retry}>
            {messages.common.retry}
          </button>
        </div>
      );
    default:
      return <p className="status">{messages.common.loading}</p>;
  }
}

function PassphraseForm(props: { mode: 'setUp' | 'unlock' }) {
  const { messages } = useI18n();
  const text = messages.chat;
  const vault = useChatVault();
  const isSetUp = props.mode === 'setUp';
  const [passphrase, setPassphrase] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [isWorking, setIsWorking] = useState(false);
  const ids = { passphrase: useId(), confirmation: useId(), hint: useId() };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isWorking) return;
    if (isSetUp && passphrase.length < minimumPassphraseLength) return setError(text.passphraseTooShort);
    if (isSetUp && passphrase !== confirmation) return setError(text.passphrasesDiffer);
    setIsWorking(true);
    setError(undefined);
    try {
      await (isSetUp ? vault.setUp(passphrase) : vault.unlock(passphrase));
    } catch (caught) {
      setError(
        caught instanceof WrongPassphraseError ? text.wrongPassphrase : messages.auth.genericError(String(caught)),
      );
      setIsWorking(false);
    }
  };

  return (
    <div className="card vault-form">
      <h2>{isSetUp ? text.setupTitle : text.unlockTitle}</h2>
      <p>{isSetUp ? text.setupLead : text.unlockLead}</p>
      {isSetUp && <p className="notice notice--sandbox">{text.passphraseWarning}</p>}
      <form className="auth-form" onSubmit={(event) => void submit(event)} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={ids.passphrase}>
            {text.passphrase}
          </label>
          <input
            id={ids.passphrase}
            className="field__input"
            type="password"
            autoComplete={isSetUp ? 'new-password' : 'current-password'}
            value={passphrase}
            onChange={(event) => setPassphrase(event.target.value)}
            aria-describedby={isSetUp ? ids.hint : undefined}
            aria-invalid={error ? true : undefined}
          />
          {isSetUp && (
            <p id={ids.hint} className="field__hint">
              {text.passphraseHint}
            </p>
          )}
        </div>
        {isSetUp && (
          <div className="field">
            <label className="field__label" htmlFor={ids.confirmation}>
              {text.confirmPassphrase}
            </label>
            <input
              id={ids.confirmation}
              className="field__input"
              type="password"
              autoComplete="new-password"
              value={confirmation}
              onChange={(event) => setConfirmation(event.target.value)}
            />
          </div>
        )}
        {error && (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        )}
        {isWorking && (
          <p className="status" role="status">
            {text.unlocking}
          </p>
        )}
        <button type="submit" className="button button--primary" disabled={isWorking}>
          {isSetUp ? text.setupButton : text.unlockButton}
        </button>
      </form>
      <p>
        <Link to={routePaths.chatEncryption}>{text.whatIsEncrypted}</Link>
      </p>
    </div>
  );
}
